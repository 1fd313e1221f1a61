// A pass kernel's parameters: the one list, in order, that the generator
// writes the kernel's signature from (pass_kernel.cpp, chain_kernel.cpp) and
// the runtime binds its arguments by (runtime/plan_impl.cpp). A piece that
// needs an argument adds its parameter here, once.
#pragma once

#include <string>
#include <vector>

#include "codegen/dialect.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::codegen {

enum class Param {
  // Every pass kernel's eight.
  In,            // the source buffer: complex points, or reals on a real transform's real side
  Out,           // the destination buffer, likewise
  Twiddles,      // the sub-transforms' inner twiddles
  PassTwiddles,  // the twiddles between passes
  Transforms,    // sub-transforms this launch runs (u64)
  InSign,        // -1 conjugates the input (an inverse's first pass), else 1
  OutRe,         // the output's real and imaginary factors: the scale, and
  OutIm,         //   the inverse's conjugation, on the last pass
  // Real transforms' and Rader's host tables (w_n^k; Rader's permutations
  // and kernel), and Bluestein's chirp table.
  Tables,
  // Rader's kernel store (KernelSpec::rader_kernel_store): where x[0] is
  // read and X[0] written, and their sign and scale.
  RaderIn,
  RaderOut,
  RaderSign,
  RaderRe,
  RaderIm,
  // Bluestein's N and the open dim's strides, at run time, so one kernel
  // serves every N with the same padded length.
  ChirpN,
  OpenIn,
  OpenOut,
  // The convolution's spectrum, multiplied in on loading or storing.
  Multiplier,
};

// The kernel's parameters in order.
std::vector<Param> pass_params(const plan::KernelSpec& spec);

// A parameter's name in the kernel's source.
const char* param_name(Param param);

// Its declaration in `dialect` ("__global const cpx* twiddles"), the name
// prefixed by `prefix` (a chained kernel's "a_" and "b_").
std::string param_declaration(Param param, const plan::KernelSpec& spec, const Dialect& dialect,
                              const std::string& prefix = "");

}  // namespace bfly::codegen
