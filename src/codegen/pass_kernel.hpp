// Source of one Stockham pass kernel (see plan/kernel_spec.hpp for what a
// pass computes) in the chosen dialect.
#pragma once

#include <string>
#include <vector>

#include "codegen/dialect.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::codegen {

// Self-contained source: compiles on its own (no bfly headers). Kernel
// arguments, in order:
//   in, out            the pass's source and destination
//   twiddles           w_L^j, j < L (L = spec.length), for the inner stages
//   pass_twiddles      two-level table for w_{p L}^e (unused when p == 1)
//   transforms         number of sub-transforms (batch * total / length)
//   in_sign            +1, or -1 to conjugate the input (inverse transforms)
//   out_re, out_im     factors for the output's real and imaginary parts
//                      (scale, and -scale on im to conjugate it back)
std::string generate(const plan::KernelSpec& spec, DialectKind dialect);

// The pass as a CUDA device function `void <spec.name()>(unsigned long long
// bfly_group, <the kernel's arguments>)` that runs group `bfly_group`: the
// bodies of a chained launch (codegen/chain_kernel.hpp). `preamble`: with
// the helpers (the first of a translation unit). `launch_threads`: the
// launch's group size, where larger than the pass's (its threads past the
// pass's group skip the call; the body's barriers are then named ones).
std::string generate_pass_function(const plan::KernelSpec& spec, bool preamble, int launch_threads = 0);

// Several kernels in one translation unit, helpers defined once (what
// `bfly gen` prints for a multi-pass plan). All specs share one precision.
std::string generate_program(const std::vector<plan::KernelSpec>& specs, DialectKind dialect);

}  // namespace bfly::codegen
