// Bluestein's chirp-z for an axis of any length N (a prime factor above 31):
// with the chirp c[j] = exp(-pi i j^2 / N),
//   X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k - j]),
// a cyclic convolution of M >= 2N - 1 points done with two M-point FFTs and
// the kernel K = FFT_M(conj c) / M (twiddle/chirp.cpp). The inverse FFT is
// taken as conj(FFT(conj z)), so both inner FFTs are forward FFTs.
//
// Nothing runs as a pass of its own: the chirp multiply and the zero padding
// are fused into the first FFT's loads, the kernel multiply (and the
// conjugation) into its last stores, the conjugation, chirp multiply and
// truncation to N into the second FFT's last stores. Where M fits one group
// the whole of it is one kernel (two FFTs through local memory), so an axis
// costs one read and one write, like a fast length; else 2 x the passes of
// M points through workspace.
//
// The cost model, in three tiers:
// - primes up to 31 are direct codelets (plan/factorize.cpp), about p/2
//   complex multiply-adds a point: Bluestein for 17 points (M = 64, two
//   64-point FFTs a transform) ran at 30% of the copy floor and 0.30x cuFFT
//   on an H100, where the direct codelet keeps the kernel memory-bound;
// - above that, Bluestein with M >= 2N - 1 of the form c * 2^k, c odd
//   and 5-smooth (bluestein_length; the kernel table comes from an FFT in
//   double or long double on the host): 2 x (M / N), about 2.0-2.1x the
//   points of a fast length, in the same passes;
// - primes N whose N - 1 factors over the codelets and fits one kernel go
//   to Rader (solvers/rader.cpp): a convolution of N - 1 points, not M;
//   the rest (N - 1 with a prime factor above 31, longer primes, composite
//   lengths such as 101 x 103) stay here.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {

// The smallest c * 2^k >= 2N - 1, c odd, 5-smooth and below 256 but for
// 125: every pass of a long convolution is memory-bound, so its time goes
// with M, as long as M's passes run as fast a point. c in {1, 3, 5, 7, 9,
// 15} left M up to 1.2x above 2N - 1 (1.065x on average, N log-uniform in
// 2^11..2^21); these leave at most 1.067x. H200, fp32, 2^26 points, against
// that rule, with every odd 7-smooth c below 256 (docs/PERF.md, issue 39,
// eighth step): 101599 at 25 x 2^13 for 7 x 2^15, 1.39x; 4099, 16411 and
// 50021 1.04-1.06x; one-kernel 719, 1031 and 1033 (1440 = 45 x 2^5, 2160 =
// 135 x 2^4 for 1536 and 2304) 1.25-1.30x. But M with a factor 7 ran 6-20%
// slower a point (300007 at 147 x 2^12: 0.90x for 8% fewer points; 678533,
// 1000003; 389 at 49 x 2^4 0.80x, 1511 at 189 x 2^4 0.72x) and the 125
// family's radix-25 launches of 32 points a thread slower still (997 at
// 2000 = 125 x 2^4 0.62x, 1999 at 4000 0.82x): those c are left out. A pure
// function of N: the host tables (pieces/chirp.cpp) find M from it.
std::int64_t bluestein_length(std::int64_t n) {
  const std::int64_t low = 2 * n - 1;
  std::int64_t best = 0;
  for (std::int64_t c = 1; c < 256; c += 2) {
    std::int64_t odd = c;
    for (std::int64_t p : {3, 5})
      while (odd % p == 0) odd /= p;
    if (odd != 1 || c % 125 == 0) continue;
    std::int64_t m = c;
    while (m < low) m *= 2;
    if (best == 0 || m < best) best = m;
  }
  return best;
}

// One kernel where the convolution fits a group, and on a GPU where its
// registers do: the fused kernel holds 16 points a thread through two FFTs,
// and past 4096 single (1024 double) points the NVRTC sweep saw it spill at
// 255 registers; a C2C past that runs as well or better in passes (H200
// fp32, 4099 and 5003 at M = 9216 and 10240: 0.97x and 0.90x in one
// kernel). Real rows that pair (pieces/row_pairs.cpp) go to the one-pass
// limit in fp32: past one kernel an R2C does a row a transform, in one
// kernel two (H200, M 5120-10240: 1.5-2.1x; docs/PERF.md 2026-11-26).
std::int64_t one_kernel_convolution(const Problem& problem, const DeviceLimits& limits) {
  std::int64_t fused = limits.max_single_pass_length;
  if (limits.convolution_length > 0) return std::min(fused, limits.convolution_length);
  if (!limits.is_gpu) return fused;
  if (problem.precision == Precision::Double) return std::min<std::int64_t>(fused, 1024);
  const bool pairs = problem.is_real() && problem.elements() / problem.shape[problem.real_axis()] > 1;
  return pairs ? fused : std::min<std::int64_t>(fused, 4096);
}

// Past one_kernel_convolution, fp32 C2C convolutions of up to 8192 points
// whose widest radix is at most 12 still take one kernel: a thread a
// butterfly of their busiest stage (row_threads.cpp) holds at most 12
// points, where the two passes' threads hold 18. H200, 2^26 points, 12
// primes of 2049-4096 that Rader cannot take, one kernel against two
// passes (docs/perf/2026-11-27-h200-issue39-ab2): M = 6912 = 12 x 9 x 8 x 8
// and 7200 = 10 x 10 x 9 x 8 1.21-1.32x (3863 0.66x -> 0.87x cuFFT); 4608
// = 9 x 8 x 8 x 8 level; 7680 = 15 x 8 x 8 x 8 and 8192 = 16 x 8 x 8 x 8,
// whose one kernel holds 16 points at one group a multiprocessor where the
// passes run two, 0.92-0.96x: those stay in passes. fp64 C2C convolutions
// of 3072-8192 points take one kernel too (H100, 2^26 points, against
// their two FFTs' passes, docs/perf/2026-11-27c-issue39: M = 3840-7680
// 0.73-0.92x the time, 3456 0.99x, 6912 1.01x; 0.86x over 10), not those
// past 1024 below 3072: their one kernel holds 18 points a thread at 254
// registers and a group of 72-216 threads (557's M = 1152 1.09x).
bool bluestein_one_kernel(const Problem& problem, std::int64_t m, const DeviceLimits& limits) {
  if (m <= one_kernel_convolution(problem, limits)) return true;
  if (!limits.is_gpu || limits.convolution_length > 0 || problem.is_real() ||
      m > std::min<std::int64_t>(8192, limits.max_single_pass_length))
    return false;
  if (problem.precision == Precision::Double) return m >= 3072;
  const std::vector<int> radices = choose_radices(m);
  return !radices.empty() && *std::max_element(radices.begin(), radices.end()) <= 12;
}

namespace {

// Bluestein in one kernel: an M-point convolution per N-point axis.
PassCore fused_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  spec.length = step.padded;
  spec.in_point_stride = f.src[f.dim];
  spec.out_point_stride = f.dst[f.dim];
  spec.chirp_length = f.n;
  spec.chirp_load = true;
  spec.convolve = true;
  return {f.n, false};
}

// The last of three passes (Chirp::Unload): the first pass's inverse, its
// geometry reversed. Sub-transform a' (of S = M / L) reads the L points the
// first pass wrote together, a' L + k', and its output j is e = a' + j S
// along the axis, stored where e < N (the chirp store's axis index).
PassCore unload_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t L = step.length, S = f.span / L;
  spec.length = L;
  spec.in_point_stride = f.src[f.dim];
  spec.out_point_stride = S * f.dst[f.dim];
  spec.dims.push_back({S, L * f.src[f.dim], f.dst[f.dim]});
  spec.axis_dim = 0;
  spec.axis_stride = S;
  return {L, false};
}

// Bluestein's passes: the first (P == 1) loads point j = i + n_point * S of
// the N-point input times c[j]; the last passes (S == P) store output e =
// k + k' * P times the kernel (the forward FFT's) or the chirp (the
// inverse's). The middle passes are plain FFT passes (shared with fast
// lengths) and take no piece.
void chirp_piece(KernelSpec& spec, const Step& step, const PassFrame& f) {
  spec.chirp_length = f.n;
  if (step.loads_convolution()) {
    spec.chirp_load = true;
    spec.axis_dim = 1;
    spec.axis_stride = f.span / step.length;  // (a Stockham pass's stride; bluestein_rows.cpp's first pass)
  }
  if (step.stores_kernel()) spec.chirp_store = KernelSpec::ChirpStore::Kernel;
  if (step.chirp == Step::Chirp::ChirpStore || step.chirp == Step::Chirp::Unload)
    spec.chirp_store = KernelSpec::ChirpStore::Chirp;
  if (step.chirp == Step::Chirp::Turn) {
    spec.convolve = true;
    spec.chirp_store = KernelSpec::ChirpStore::Twiddle;
  }
}

}  // namespace

std::vector<Step> bluestein_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                  const std::vector<int>& order) {
  const std::int64_t n = problem.shape[dim - 1];
  const std::int64_t m = bluestein_length(n);
  const std::string axis = "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " points by Bluestein (" +
                           std::to_string(m) + "-point convolution";
  if (bluestein_one_kernel(problem, m, limits)) {
    Step step;
    step.dim = dim;
    step.length = m;
    step.order = order;
    step.chirp = Step::Chirp::Fused;
    step.core = fused_core;
    step.padded = m;
    step.what = axis + " in one pass)";
    return {step};
  }
  std::vector<Step> steps = convolution_steps(problem, dim, limits, order, m, axis);
  // Three passes where each FFT takes two (DeviceLimits::bluestein_three):
  // M = L1 L2; the first pass as it is; one kernel runs the second pass's
  // sub-transforms k (points k + n L1, pass twiddles w_M^{n k}) through
  // FFT_L2, the kernel K[k + k' L1], and FFT_L2 of the conjugate, and puts
  // them back times the same twiddles, which is the second pass's inverse
  // taken as conj(FFT(conj)); the last pass is the first's inverse. The
  // points move 2N + 4M times for 2N + 6M, no transposes: the kernel's
  // order is the forward FFT's natural one.
  const bool c2r_axis = problem.kind == Kind::C2R && dim - 1 == problem.real_axis();
  if (limits.bluestein_three > (c2r_axis ? 1 : 0) && steps.size() == 4) {
    const std::int64_t l1 = steps[0].length, l2 = steps[1].length;
    steps.erase(steps.begin() + 1, steps.end());
    Step turn;
    turn.dim = dim;
    turn.length = l2;
    turn.stride_product = l1;
    turn.order = order;
    turn.padded = m;
    turn.chirp = Step::Chirp::Turn;
    turn.pieces.push_back(chirp_piece);
    turn.work_only = true;
    turn.what = axis + ", the second pass's sub-transforms convolved in one kernel)";
    Step unload = steps[0];
    unload.chirp = Step::Chirp::Unload;
    unload.core = unload_core;
    unload.stride_product = 1;
    unload.work_only = false;
    unload.what = axis + ", the first pass's inverse)";
    steps[0].what = axis + ", the first pass)";
    steps.push_back(turn);
    steps.push_back(unload);
    bluestein_rows(steps, problem, dim, order, limits);
  }
  return steps;
}

// The passes of a convolution of m points along `dim` in workspace: a
// forward FFT whose first pass loads (Load) and last stores the kernel
// product (KernelStore; both: LoadKernelStore), then a forward FFT of the
// conjugated product whose last pass stores the result (ChirpStore).
// The padded data lives in workspace, row-major over `order` (natural when
// empty): the dim's stride there.
std::int64_t convolution_stride(const Problem& problem, int dim, const std::vector<int>& order, std::int64_t m) {
  std::int64_t stride = 1;
  const int dims = problem.rank() + 1;
  auto extent = [&](int d) { return d == 0 ? problem.batch : d == dim ? m : problem.shape[d - 1]; };
  if (order.empty()) {
    for (int d = dim + 1; d < dims; ++d) stride *= extent(d);
  } else {
    for (auto d = order.rbegin(); *d != dim; ++d) stride *= extent(*d);
  }
  return stride;
}

std::vector<Step> convolution_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                    const std::vector<int>& order, std::int64_t m, const std::string& axis) {
  // (The dim's stride in workspace decides the CPU's aliasing split.)
  const std::int64_t stride = convolution_stride(problem, dim, order, m);
  const std::vector<std::int64_t> lengths = axis_pass_lengths(m, limits, cache_aliased(problem, stride, limits));
  std::vector<Step> steps;
  for (int fft = 0; fft < 2; ++fft) {
    std::int64_t stride_product = 1;
    for (std::size_t j = 0; j < lengths.size(); ++j) {
      const bool first = j == 0, last = j + 1 == lengths.size();
      Step step;
      step.dim = dim;
      step.length = lengths[j];
      step.stride_product = stride_product;
      step.order = order;
      step.padded = m;
      if (fft == 0 && first && last)
        step.chirp = Step::Chirp::LoadKernelStore;
      else if (fft == 0)
        step.chirp = first ? Step::Chirp::Load : last ? Step::Chirp::KernelStore : Step::Chirp::Middle;
      else
        step.chirp = last ? Step::Chirp::ChirpStore : Step::Chirp::Middle;
      if (step.chirp != Step::Chirp::Middle) step.pieces.push_back(chirp_piece);
      step.work_only = step.padded_destination();
      step.what = axis + ", " + (fft == 0 ? "forward" : "inverse") + " pass " + std::to_string(j + 1) + " of " +
                  std::to_string(lengths.size()) + ")";
      steps.push_back(step);
      stride_product *= lengths[j];
    }
  }
  return steps;
}

}  // namespace bfly::plan
