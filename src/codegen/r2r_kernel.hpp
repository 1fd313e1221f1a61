// The DCT's and DST's gather and twiddle around a complex FFT, in either
// dialect (plan/solvers/r2r.cpp has the algorithms; runtime/r2r_plan.cpp
// launches them). One kernel a family, type and precision: the lengths,
// strides and factors are arguments, so every length shares it.
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Gather: kernel r2r_pre_kernel_name(...)(cpx* work, const real* src,
// const cpx* twiddles, u64 count, u64 n, u64 m, u64 d1, u64 d2, u64 d3, u64
// s0..s3, u64 axis_stride, real first, real last): for i < count = lines x
// m, line = i / m (its index (i0..i3) over extents (., d1, d2, d3), the
// source line at sum i_j s_j), writes work[i], point i % m of the line's
// complex input. `twiddles` holds w_8n^e for e < 2n; `first` and `last`
// multiply the source's first and last element (scipy's orthogonalize).
std::string generate_r2r_pre(DialectKind dialect, Family family, int type, Precision precision);
std::string r2r_pre_kernel_name(Family family, int type, Precision precision);
// Twiddle: kernel r2r_post_kernel_name(...)(real* dst, const cpx* work,
// const cpx* twiddles, u64 count, u64 n, u64 m, u64 d1, u64 d2, u64 d3, u64
// s0..s3, u64 axis_stride, real scale, real first, real last): for i <
// count = lines x n, writes output k = i % n of line i / n, times scale
// (and first / last on the first and last output).
std::string generate_r2r_post(DialectKind dialect, Family family, int type, Precision precision);
std::string r2r_post_kernel_name(Family family, int type, Precision precision);
constexpr int kR2RGroupSize = 256;

}  // namespace bfly::codegen
