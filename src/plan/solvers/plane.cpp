// Planes in one pass: the two innermost axes of a complex array, R rows of
// C contiguous points, where one group holds whole planes. The group runs
// the columns' FFTs, leaves the results in local memory as rows and runs
// the rows' FFTs from there (KernelSpec::plane_columns): one read and one
// write a point, where a pass an axis takes two of each. cuFFT and VkFFT
// take a pass an axis.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

// An axis the plane's phases run in local memory with a direct table of
// inner twiddles (as the model's single passes up to max_direct_twiddles).
bool plane_axis(std::int64_t n, const DeviceLimits& limits) {
  const bool power_of_two = (n & (n - 1)) == 0;
  const bool long_table = n > 4 * limits.max_direct_twiddles || (power_of_two && n > limits.max_direct_twiddles);
  return n >= 2 && n <= limits.max_single_pass_length && is_supported_length(n) && !long_table;
}

// GPU: a group's threads hold their points in the registers one group
// leaves them (two a value, and about 24 more: NVRTC, sm_90, no spills at
// fp32 90 x 90 (810 threads of 18 points, 64 registers) or 128 x 64 (512
// of 16, 63); fp64 90 x 90 spilled 196 bytes at 72 registers, 8 x 1024
// (1024 threads of 16 points) 332 at 64).
bool fits_registers(std::int64_t rows, std::int64_t columns, Precision precision, const DeviceLimits& limits) {
  KernelSpec trial;
  trial.precision = precision;
  trial.length = rows;
  trial.plane_columns = columns;
  trial.in_point_stride = trial.out_point_stride = columns;
  trial.dims = {{columns, 1, 1}, {1, rows * columns, rows * columns}};
  complete_spec(trial, limits);
  const int words = precision == Precision::Double ? 2 : 1;
  const std::int64_t warps = (trial.group_size() + 31) / 32 * 32;
  return 2 * words * trial.points_per_thread() + 24 <= std::min<std::int64_t>(255, limits.registers_per_unit / warps);
}

// The columns' FFTs along the step's dim a (the row pitches as point
// strides), each plane's C columns the innermost dim of the sub-transform
// index, the planes the dims past it.
PassCore plane_core(KernelSpec& spec, const Step&, const PassFrame& f) {
  const int a = f.dim, b = a + 1, dims = f.problem.rank() + 1;
  auto extent = [&](int d) { return d == 0 ? f.problem.batch : f.problem.shape[d - 1]; };
  spec.length = f.n;
  spec.plane_columns = extent(b);
  spec.in_point_stride = f.src[a];
  spec.out_point_stride = f.dst[a];
  spec.dims.push_back({spec.plane_columns, f.src[b], f.dst[b]});
  for (int d = 1; d < dims; ++d)
    if (d != a && d != b && extent(d) > 1) spec.dims.push_back({extent(d), f.src[d], f.dst[d]});
  spec.dims.push_back({f.problem.batch, f.src[0], f.dst[0]});
  return {f.n, true};  // a transform: one column of a plane
}

}  // namespace

std::vector<Step> plane_steps(const Problem& problem, const DeviceLimits& limits) {
  const int rank = problem.rank();
  if (limits.plane_points <= 0 || problem.kind != Kind::C2C || rank < 2) return {};
  const std::vector<int> axes = problem.transform_axes();
  auto transformed = [&](int a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); };
  if (!transformed(rank - 1) || !transformed(rank - 2)) return {};
  const std::int64_t rows = problem.shape[rank - 2], columns = problem.shape[rank - 1];
  if (!plane_axis(rows, limits) || !plane_axis(columns, limits) || rows * columns > limits.plane_points) return {};
  // A thread at least a column in the first phase and a row in the second
  // (6 x 1500 has no plane in a group of 1024 threads).
  if (rows > limits.max_group_size || columns > limits.max_group_size) return {};
  if (limits.is_gpu && problem.precision == Precision::Double && (wide_codelet(rows) || wide_codelet(columns)))
    return {};
  // Rows contiguous where the plane is read and written (workspace, when a
  // pass of another axis follows, lies in natural order).
  if (problem.input_layout().strides[rank - 1] != 1 || problem.output_layout().strides[rank - 1] != 1) return {};
  if (limits.registers_per_unit > 0 && !fits_registers(rows, columns, problem.precision, limits)) return {};
  Step step;
  step.dim = rank - 1;  // the rows' axis, rank - 2 (dims count the batch first)
  step.length = rows;
  step.plane = true;
  step.core = plane_core;
  step.what = "axes " + std::to_string(rank - 2) + " and " + std::to_string(rank - 1) + ", " + std::to_string(rows) +
              " x " + std::to_string(columns) + " planes in one pass (columns, then rows through local memory)";
  return {step};
}

}  // namespace bfly::plan
