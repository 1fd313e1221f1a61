// The pointwise product of two spectra with broadcasting, in either dialect:
// the middle of an FFT convolution (ops/convolver.cpp).
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel multiply_kernel_name(precision)(out, a, k, u64 count, u64 d1, u64 d2,
// u64 d3, u64 a0..a3, u64 k0..k3, real scale): for every i < count, with
// (i0, i1, i2, i3) its index in a row-major array of extents (., d1, d2, d3),
//   out[i] = a[sum i_j * a_j] * k[sum i_j * k_j] * scale
// (a stride of 0 broadcasts that axis). One point a thread, groups of
// kMultiplyGroupSize. `out` may be `a` itself when a is not broadcast.
std::string generate_multiply(DialectKind dialect, Precision precision);
std::string multiply_kernel_name(Precision precision);
constexpr int kMultiplyGroupSize = 256;

}  // namespace bfly::codegen
