// The DCT's and DST's gather and twiddle around an FFT (real or complex), in either
// dialect (plan/solvers/r2r.cpp has the algorithms; runtime/r2r_plan.cpp
// launches them). One kernel a family, type and precision: the lengths,
// strides and factors are arguments, so every length shares it.
#pragma once

#include <cstdint>
#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Gather: kernel r2r_pre_kernel_name(...)(work, const real* src, const
// cpx* twiddles, u64 count, u64 n, u64 m, u64 d1, u64 d2, u64 d3, u64
// s0..s3, u64 axis_stride, real first, real last): for i < count = lines x
// p, line = i / p (its index (i0..i3) over extents (., d1, d2, d3), the
// source line at sum i_j s_j), writes work[i], element i % p of the line's
// FFT input: types 1 and 2 the R2C's m reals (p = m, work real*), type 3
// the C2R's half spectrum (p = m / 2 + 1, work cpx*), type 4 the complex
// FFT's m points (p = m, work cpx*: m = n / 2 for an even n, the
// half-length form of pieces/r2r_packed.cpp, else 2n). `twiddles` holds w_8n^e for e < 2n;
// `first` and `last` multiply the source's first and last element (scipy's
// orthogonalize).
std::string generate_r2r_pre(DialectKind dialect, Family family, int type, Precision precision);
std::string r2r_pre_kernel_name(Family family, int type, Precision precision);
// Twiddle: kernel r2r_post_kernel_name(...)(real* dst, const work (the
// FFT's output: the R2C's m / 2 + 1 points a line for types 1 and 2, the
// C2R's m reals for type 3, m complex points for type 4), const cpx* twiddles, u64 count, u64 n, u64 m, u64 d1, u64 d2,
// u64 d3, u64 s0..s3, u64 axis_stride, real scale, real first, real last): for i < count = lines x n, writes output k =
// i % n of line i / n, times scale (and first / last on the first and last output).
std::string generate_r2r_post(DialectKind dialect, Family family, int type, Precision precision);
std::string r2r_post_kernel_name(Family family, int type, Precision precision);
constexpr int kR2RGroupSize = 256;
// Elements a thread: a group takes kR2RItems x kR2RGroupSize consecutive
// elements of one line, so a launch over `lines` lines of `per` elements
// (m, m / 2 + 1 or n, as above; `count` = lines x per) has
// r2r_groups(lines, per) groups.
constexpr int kR2RItems = 8;
inline std::int64_t r2r_groups(std::int64_t lines, std::int64_t per) {
  const std::int64_t span = std::int64_t{kR2RItems} * kR2RGroupSize;
  return lines * ((per + span - 1) / span);
}

}  // namespace bfly::codegen
