// Bluestein's three passes with the middle one along rows
// (DeviceLimits::bluestein_rows; solvers/bluestein.cpp has the three
// passes). M = L1 L2 as an L1 x L2 matrix, point a' + k' L2 (a' < L2,
// k' < L1), four-step order with no transposes (VkFFT's, ../shared/reviews/
// vkfft-planning-2026-11-25.md):
// - the first pass runs L2 columns of L1 points, a' + n L2 (times the chirp
//   as they load), and writes its point k' back where it read point n = k';
// - the middle pass runs row k' (L2 contiguous points), the pass twiddles
//   w_M^{a' k'}, FFT_L2, the kernel K[k' + k'' L1], the inverse, and puts
//   the row back where it was;
// - the last pass runs the columns again (the first's inverse) and stores
//   output e = a' + j L2 where e < N.
// Where the Stockham order has the first pass write each column's L1 points
// together and the middle pass read its rows L1 apart (a column pass of a
// few transforms a group: fp32 1955533's 1920-point middle pass at 8 x 120
// threads spilled 172 bytes and took 2.43 of the three passes' 5.1 ms under
// Nsight Compute, H200) and the last pass write 2 transforms' 8-byte points
// L2 apart, here every pass reads and writes whole sectors of its columns
// or rows, and the middle pass is a one-kernel convolution of contiguous
// rows, as Bluestein's fused kernel is. At 1 the longer of the two lengths
// takes the rows; at 2 (the GPUs' default) the rows are as long as
// Bluestein's one kernel goes (one_kernel_convolution: 4096 fp32 points,
// 1024 fp64), the columns as short, as VkFFT's are (1000003's M = 2^21 as
// 4096-point rows and 512-point columns of 16 a group), where the axis is
// innermost and the columns are at least 64 points; 3 as 2 at any
// columns. Complex axes only: a real axis's pieces (pairs of rows, the
// Hermitian loads) take the Stockham geometry.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

// The first pass: column a' (of S = M / L), points a' + n S, its point k'
// written back at a' + k' S.
PassCore rows_load_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t L = step.length, S = f.span / L;
  spec.length = L;
  spec.in_point_stride = S * f.src[f.dim];
  spec.out_point_stride = S * f.dst[f.dim];
  // (dims[1] is a', the chirp load's axis dim, as in a Stockham first pass.)
  spec.dims.push_back({1, f.src[f.dim], f.dst[f.dim]});
  spec.dims.push_back({S, f.src[f.dim], f.dst[f.dim]});
  return {L, false};
}

// The middle pass: row k' (of P = L1), its L contiguous points, the pass
// twiddles w_M^{n k'}.
PassCore rows_turn_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t L = step.length, P = step.stride_product;
  spec.length = L;
  spec.stride_product = P;
  spec.in_point_stride = f.src[f.dim];
  spec.out_point_stride = f.dst[f.dim];
  spec.dims.push_back({P, L * f.src[f.dim], L * f.dst[f.dim]});
  spec.twiddle_dim = 0;
  return {L, false};
}

// The last pass: column a' again, its output j at a' + j S along the axis.
PassCore rows_unload_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t L = step.length, S = f.span / L;
  spec.length = L;
  spec.in_point_stride = S * f.src[f.dim];
  spec.out_point_stride = S * f.dst[f.dim];
  spec.dims.push_back({S, f.src[f.dim], f.dst[f.dim]});
  spec.axis_dim = 0;
  spec.axis_stride = S;
  return {L, false};
}

}  // namespace

void bluestein_rows(std::vector<Step>& three, const Problem& problem, int dim, const std::vector<int>& order,
                    const DeviceLimits& limits) {
  if (limits.bluestein_rows <= 0 || (problem.kind != Kind::C2C && dim - 1 == problem.real_axis())) return;
  Step& load = three.at(0);
  Step& turn = three.at(1);
  Step& unload = three.at(2);
  const std::int64_t m = load.length * turn.length;
  std::int64_t rows = std::max(load.length, turn.length);
  if (limits.bluestein_rows >= 2) {
    // (Where the axis is not innermost the rows are columns too: NVRTC,
    // sm_90, fp32 30011 x 8's 4096-point middle pass at 4 x 256 threads
    // spilled 200 bytes at 64 registers.)
    if (convolution_stride(problem, dim, order, m) != 1) return;
    for (std::int64_t d = std::min(m / 2, one_kernel_convolution(problem, limits)); d > rows; --d)
      if (m % d == 0 && is_supported_length(d) && is_supported_length(m / d) && m / d <= limits.max_pass_length) {
        rows = d;
        break;
      }
    // Columns of fewer than 64 points keep the Stockham order at 2: the
    // middle pass's long rows hold one group a multiprocessor (fp32
    // 4096-point rows at 176 registers), which the short columns' passes
    // do not pay back (H200, 2^26 points: fp32 25703's 16-point columns
    // 1.57x the time, 29297's 15 1.20x, 115153's 60 1.03x; fp32 341701's
    // 180 and up 0.74-1.01x, 0.92x over 8; fp64's 1024-point rows: 22697's
    // 45-point columns 1.02x, 39043's 80 and up 0.75-1.01x). 3: any.
    // (Where the longer of the two lengths passes one kernel it keeps the
    // rows: fp64 463339-768101's 960-1536 0.95-1.01x.)
    if (limits.bluestein_rows == 2 && m / rows < 64) return;
  }
  const std::int64_t columns = m / rows;
  load.length = unload.length = columns;
  turn.length = rows;
  turn.stride_product = columns;
  load.core = rows_load_core;
  turn.core = rows_turn_core;
  unload.core = rows_unload_core;
}

}  // namespace bfly::plan
