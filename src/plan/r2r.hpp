// The DCT and DST (Kind::R2R) as pure data (plan/solvers/r2r.cpp): the
// fused plan, or for each transformed axis the complex FFT it runs with the
// gather before and the twiddle after it as kernels of their own (the
// stages). The runtime (runtime/r2r_plan.cpp) runs either, `bfly plan`
// prints them; docs/ARCHITECTURE.md "DCT and DST".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"
#include "plan/plan.hpp"

namespace bfly::plan {

// One axis of an R2R problem: its n points gathered (reordered, signed,
// extended) into the FFT's input a line in workspace, the FFT of m over the
// lines, and the post-twiddle written to the destination.
struct R2RStage {
  int axis = 0;
  std::int64_t n = 1;  // points along the axis, in and out
  std::int64_t m = 1;  // the FFT's length: 2(n -+ 1) for types 1, n for 2 and 3, n / 2 (even n) or 2n for 4
  int type = 2;        // the type computed: the problem's, or 5 - type for an inverse of type 2 or 3
  Family family = Family::DCT;
  Direction fft_direction = Direction::Forward;  // type 3 runs the inverse FFT
  std::int64_t lines = 1;                        // transforms along this axis: the other axes times the batch
  // The other dims of a line, outermost first (the batch, then the other
  // axes in order), padded at the front with 1-point dims to 4, and their
  // strides in the source and the destination; the axis's own strides.
  std::int64_t extents[4] = {1, 1, 1, 1};
  std::int64_t src_strides[4] = {0, 0, 0, 0}, dst_strides[4] = {0, 0, 0, 0};
  std::int64_t src_axis_stride = 1, dst_axis_stride = 1;
  bool from_input = true;  // the first axis reads the input; later ones the output, in place
  // scipy's orthogonalize: the factors on the input's first and last
  // element and on the output's; the norm's factor rides on the output's.
  double in_first = 1, in_last = 1, out_first = 1, out_last = 1;
  double scale = 1;
  // The FFT of m, batch `lines`: types 1 and 2 an R2C of the gathered
  // reals, type 3 a C2R of the half spectrum (out of place between the
  // workspace's real and complex sides), type 4 a C2C in place.
  Problem fft;
  // The gather's and the twiddle's kernel words ("dct2_f32").
  std::string word() const;
};

// Every type where each transformed axis's complex FFT of m points is
// Stockham passes: that FFT's plan over the problem's own layouts, its first
// pass with the gather in its loads and its last with the twiddle in its
// stores (pieces/r2r.cpp), so each axis crosses memory no more than its FFT
// does. None where an axis takes Rader's or Bluestein's kernel or passes,
// thread-block clusters, or (types 2 and 3) has 1 point: r2r_stages then.
std::optional<PlanTree> fused_r2r_plan(const Problem& problem, const DeviceLimits& limits, const PlanOptions& options);

// The stages of an R2R problem (validated), one per transformed axis in
// ascending order; the norm's factor on the last.
std::vector<R2RStage> r2r_stages(const Problem& problem);
// The printed plan: the fused plan where there is one, else each stage
// with its FFT's plan for these limits.
std::string print_r2r(const Problem& problem, const DeviceLimits& limits, const PlanOptions& options);

}  // namespace bfly::plan
