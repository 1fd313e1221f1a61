// The real axis of an R2C or C2R problem: the one step that turns n reals
// into n/2 + 1 complex points (or back). The problem's other axes are plain
// complex transforms of the half spectrum (complex_side()), after the real
// axis for R2C and before it for C2R.
//
// An even axis is packed (the classic trick; Van Loan 4.2, FFTW's rdft2):
// z[j] = x[2j] + i x[2j+1] is a complex FFT of n/2 points, and with
// E[k] = (Z[k] + conj Z[n/2-k]) / 2 and O[k] = -i (Z[k] - conj Z[n/2-k]) / 2,
//   X[k] = E[k] + w_n^k O[k],  k = 0..n/2
// (the split). The inverse runs the same backwards: Z[k] = E'[k] + i O'[k]
// with E' = X[k] + conj X[n/2-k], O' = (X[k] - conj X[n/2-k]) w_n^-k, then
// x[2j], x[2j+1] = Re, Im of the inverse FFT of Z. Where n/2 fits one pass,
// the split is fused into that pass: its stores go through local memory,
// where each thread finds both Z[k] and Z[n/2-k] (the inverse's loads read
// both from memory), so the axis costs one read of n reals and one write of
// n/2 + 1 points: half a complex transform. Past one pass, the n/2-point
// FFT's passes read (R2C) or write (C2R) the real side as complex pairs, the
// inverse's mirror rides on its first pass (a second load per point) and the
// forward split on its last: output e = k + k' P of sub-transform k needs
// Z[n/2 - e], which sub-transform P - k holds, so that pass's groups run the
// pairs (k, P - k) side by side (RealStore::SplitPaired).
//
// Elsewhere (odd n, a length Bluestein does, or a real side whose pairs are
// not aligned) the axis is a complex FFT of n points whose first pass reads
// reals (or extends the half spectrum by its Hermitian symmetry, X[n-k] =
// conj X[k]) and whose last pass writes the n/2 + 1 outputs (or the real
// parts): the real side's traffic is halved, the inner passes are as
// complex, about what a complex transform of n points costs.
#include <cmath>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {

Problem complex_side(const Problem& problem) {
  if (!problem.is_real()) return problem;
  Problem q;
  q.kind = Kind::C2C;
  q.shape = problem.complex_shape();
  q.axes = problem.axes;
  q.batch = problem.batch;
  q.precision = problem.precision;
  q.direction = problem.direction;
  q.norm = problem.norm;
  q.input = q.output = problem.kind == Kind::R2C ? problem.output_layout() : problem.input_layout();
  return q;
}

namespace {

// An even real axis as n/2 complex points in one pass; point strides count
// reals on the real side.
PassCore packed_core(KernelSpec& spec, const Step&, const PassFrame& f) {
  using K = KernelSpec;
  const bool forward = f.problem.kind == Kind::R2C;
  spec.length = f.n / 2;
  spec.real_load = forward ? K::RealLoad::Pairs : K::RealLoad::Mirror;
  spec.real_store = forward ? K::RealStore::Split : K::RealStore::Pairs;
  spec.real_length = f.n;
  spec.in_point_stride = forward ? 2 * f.src[f.dim] : f.src[f.dim];
  spec.out_point_stride = forward ? f.dst[f.dim] : 2 * f.dst[f.dim];
  return {f.n, false};
}

// Both reals of a packed point in one complex access: the axis contiguous
// and every offset on the real side even.
void aligned_pairs_piece(KernelSpec& spec, const Step&, const PassFrame& f) {
  const bool real_in = f.problem.kind == Kind::R2C;
  bool aligned = (real_in ? f.src[f.dim] : f.dst[f.dim]) == 1;
  for (const IndexDim& d : spec.dims) aligned = aligned && (real_in ? d.in_stride : d.out_stride) % 2 == 0;
  spec.real_pairs_aligned = aligned;
}

// The real axis's first and last passes: the first reads the real side
// (R2C) or extends the half spectrum (C2R, its point j = i + n_point * S
// along the axis), the last writes the other side. Packed in several
// passes, the first R2C pass and the last C2R pass are plain complex passes
// over the real side read as pairs; the inverse's first pass loads the
// mirror, the forward's last splits pairs of sub-transforms.
void real_piece(KernelSpec& spec, const Step& step, const PassFrame& f) {
  using K = KernelSpec;
  const bool forward = f.problem.kind == Kind::R2C;
  if (f.stockham_stride > 0 && step.real_first && !forward) {
    spec.axis_dim = 1;
    spec.axis_stride = f.stockham_stride;
  }
  // (Rader on a prime factor p of n = p m: sub-transform ci's point jp lies
  // at ci + jp m along the axis, ci its first dim: solvers/rader.cpp.)
  if (step.prime > 0 && step.real_first && !forward) {
    spec.axis_dim = 0;
    spec.axis_stride = f.n / step.prime;
  }
  if (step.packed) {
    if (step.real_first && !forward) spec.real_load = K::RealLoad::Mirror;
    if (step.real_last && forward) spec.real_store = K::RealStore::SplitPaired;
    if (spec.real()) {
      spec.real_length = f.n;
      spec.real_twiddle_bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(f.n)) / 2));
    }
    return;
  }
  if (step.real_first) spec.real_load = forward ? K::RealLoad::Real : K::RealLoad::Hermitian;
  if (step.real_last) spec.real_store = forward ? K::RealStore::Half : K::RealStore::Real;
  if (!spec.bluestein()) spec.real_length = f.n;  // Bluestein's kernels take N at run time
}

// Two real rows a transform (KernelSpec::pair_dim, pieces/row_pairs.cpp),
// on every pass of the axis: the innermost other axis with two rows or
// more, else the batch. Rows 2c and 2c + 1 are near each other in memory,
// and the choice depends on the extents alone, so every pass makes it.
void row_pairs_piece(KernelSpec& spec, const Step& step, const PassFrame& f) {
  int chosen = -1, chosen_dim = -1;
  for (const auto& [i, d] : f.outer_dims) {
    if (spec.dims[i].extent < 2) continue;
    if (chosen < 0 || (d != 0 && (chosen_dim == 0 || d > chosen_dim))) {
      chosen = static_cast<int>(i);
      chosen_dim = d;
    }
  }
  if (chosen < 0) return;
  IndexDim& d = spec.dims[static_cast<std::size_t>(chosen)];
  if (step.real_first) spec.pair_in = d.in_stride;
  if (step.real_last) spec.pair_out = d.out_stride;
  // Bluestein's inverse in passes (or the last of its three): its last
  // pass runs the sub-transforms that hold outputs e and N - e side by side
  // (after real_piece's Half).
  if (step.real_last && f.problem.kind == Kind::R2C &&
      ((step.chirp == Step::Chirp::ChirpStore && step.stride_product > 1) || step.chirp == Step::Chirp::Unload))
    spec.real_store = KernelSpec::RealStore::SplitPaired;
  if (spec.row_pairs()) {
    spec.pair_dim = chosen;
    spec.pair_rows = d.extent;
  }
  d.extent = (d.extent + 1) / 2;
  d.in_stride *= 2;
  d.out_stride *= 2;
}

// Whether the axis's steps run two rows a transform: Stockham passes and
// Bluestein's (Rader's loads and stores are its own). An R2C's split meets
// Z[k] and Z[n - k] in local memory: in one pass, or in Bluestein's last,
// whose groups run the sub-transforms holding e and N - e side by side
// (past Stockham passes they lie in different groups). Not Stockham rows under 256
// points: there a transform is a few hundred bytes that one or a few
// threads read, pairing doubles the distance between their rows and adds
// the split's local memory, and the arithmetic it saves is small (H200,
// fp32: 13, 19, 81, 125 points 1.05-1.5x slower paired, 299-15625 1.0-1.4x
// faster, Bluestein's 1.2-1.9x; docs/PERF.md 2026-11-26).
bool pairs_rows(const std::vector<Step>& steps, bool forward, std::int64_t n) {
  if (n < 256 && steps.front().chirp == Step::Chirp::None) return false;
  for (const Step& s : steps)
    if ((s.core != nullptr && s.chirp != Step::Chirp::Fused && s.chirp != Step::Chirp::Unload) ||
        s.chirp == Step::Chirp::Rader || s.prime != 0 || s.kind != Step::Kind::Fft || s.plane || s.cluster > 1)
      return false;
  return !forward || steps.size() == 1 || steps.back().chirp == Step::Chirp::ChirpStore ||
         steps.back().chirp == Step::Chirp::Unload;
}

}  // namespace

std::vector<Step> real_axis_steps(const Problem& problem, const DeviceLimits& limits) {
  const int dim = problem.real_axis() + 1;
  const std::int64_t n = problem.shape[dim - 1];
  const bool forward = problem.kind == Kind::R2C;
  const Step::Side real = Step::Side::Real, half = Step::Side::Complex;
  const std::string axis = "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " real points";
  const std::int64_t h = n / 2;
  // The real side's stride along the axis decides the CPU's aliasing split.
  const Layout side = forward ? problem.input_layout() : problem.output_layout();
  const bool aliased = cache_aliased(problem, side.strides[dim - 1], limits);
  const bool packs = n % 2 == 0 && stockham_length(h, limits);
  if (packs && axis_pass_lengths(h, limits, aliased).size() == 1) {
    Step step;
    step.dim = dim;
    step.length = h;
    step.packed = step.real_first = step.real_last = true;
    step.core = packed_core;
    step.pieces.push_back(aligned_pairs_piece);
    step.from = forward ? real : half;
    step.to = forward ? half : real;
    step.what = axis + " as a " + std::to_string(h) + "-point complex FFT (packed)";
    return {step};
  }
  // Packed in several passes: the real side must read as complex pairs (the
  // axis contiguous, every other stride even), and the last pass's groups
  // need two sub-transforms each (pairs k, P - k).
  bool pairs = side.strides[dim - 1] == 1 && (problem.batch == 1 || side.distance % 2 == 0);
  for (int d = 0; d < problem.rank(); ++d)
    pairs = pairs && (d == dim - 1 || problem.shape[d] == 1 || side.strides[d] % 2 == 0);
  // Between its first and last steps the axis is complex points in workspace.
  auto real_ends = [&](std::vector<Step> steps) {
    for (Step& s : steps) {
      s.from = s.to = Step::Side::Full;
      s.work_only = true;
    }
    steps.front().real_first = true;
    steps.front().pieces.push_back(real_piece);
    if (steps.size() > 1) steps.back().pieces.push_back(real_piece);
    steps.front().from = forward ? real : half;
    steps.back().real_last = true;
    steps.back().to = forward ? half : real;
    steps.back().work_only = false;
    return steps;
  };
  if (packs && pairs) {
    std::vector<Step> steps = stockham_steps(dim, axis_pass_lengths(h, limits, aliased), {});
    for (std::size_t j = 0; j < steps.size(); ++j) {
      steps[j].packed = true;
      steps[j].padded = h;
      steps[j].what = axis + " as a " + std::to_string(h) + "-point complex FFT (packed), pass " +
                      std::to_string(j + 1) + " of " + std::to_string(steps.size());
    }
    return real_ends(steps);
  }
  std::vector<Step> steps = axis_steps(problem, dim, limits, {});
  // An R2C split past one pass finds its partner sub-transform as the pass's
  // first index (codegen/pass_kernel.cpp): the axis innermost in workspace
  // and in the output.
  const bool split_in_passes = forward && steps.size() > 1;
  const bool innermost = dim == problem.rank() && problem.output_layout().strides[dim - 1] == 1;
  const bool two_rows = pairs_rows(steps, forward, n) && problem.elements() / n > 1 && (!split_in_passes || innermost);
  for (Step& s : steps)
    s.what = axis + " as complex" + std::string(two_rows ? ", two rows a transform: " : ": ") + s.what;
  steps = real_ends(steps);
  if (two_rows)
    for (Step& s : steps) s.pieces.push_back(row_pairs_piece);
  return steps;
}

}  // namespace bfly::plan
