// Rader's algorithm for a prime axis of N points (twiddle/rader.hpp): with
// a primitive root g, the N - 1 nonzero indices are g's powers, and the DFT
// is x[0] plus a cyclic convolution of L = N - 1 points, a[m] = x[g^m]
// against b[j] = w_N^(g^-j), done with two L-point FFTs and the kernel
// FFT_L(b) / L. One kernel does it all (KernelSpec::rader_prime): one read
// and one write a point, and two FFTs of L points where Bluestein takes two
// of M >= 2N - 1 (2.0-4.0x as many).
//
// The cost model: Rader wherever L factors over the codelets (2..31) and
// fits one kernel (on a GPU 4096 single, 2048 double points); it does
// fewer operations than Bluestein's
// one kernel and takes one pass where Bluestein's M would take several.
// Past one kernel, Rader's FFTs take passes over workspace as Bluestein's
// do (complex transforms); elsewhere (L with a prime factor above 31,
// such as 1019 - 1 = 2 x 509, or other ranks and kinds) Bluestein.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {

namespace {

// The longest convolution Rader's one kernel takes for this problem.
std::int64_t rader_one_kernel(const Problem& problem, const DeviceLimits& limits) {
  // Doubles on a GPU go further than Bluestein's one kernel (1024): its
  // codelet stages leave Rader's threads 12-27 points, and sm_90 (NVRTC)
  // compiled fp64 L = 1050..2052 (radices up to 19, 186-254 registers)
  // without spills where L = 4050 spilled 48 bytes.
  // In fp32 up to 8192 points (7000 and 8190 ran 1.27-1.34x faster in one
  // kernel than by Bluestein's passes, H200, though 8190 spills 292 bytes
  // a thread; docs/PERF.md 2026-11-26).
  std::int64_t most = one_kernel_convolution(problem, limits);
  if (limits.is_gpu && limits.convolution_length == 0)
    most = std::min<std::int64_t>(limits.max_single_pass_length,
                                  problem.precision == Precision::Double ? 2048 : std::max<std::int64_t>(most, 8192));
  return std::min(most, limits.rader_one_kernel);
}

// Rader in one kernel: an (N - 1)-point convolution per N-point axis, or
// per p-point sub-transform of the first Stockham pass of N = p m
// (step.prime): point j of sub-transform i at i + j m, output k at i p + k.
PassCore rader_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t prime = step.prime > 0 ? step.prime : f.n, m = f.n / prime;
  spec.length = prime - 1;
  spec.in_point_stride = m * f.src[f.dim];
  spec.out_point_stride = f.dst[f.dim];
  if (m > 1) spec.dims.push_back({m, f.src[f.dim], prime * f.dst[f.dim]});
  spec.rader_prime = prime;
  spec.convolve = true;
  return {prime, false};
}

// Rader past one kernel: the convolution's passes in Bluestein's roles
// (KernelSpec::rader_gather and after). The first gathers a[j] = x[g^j] (j
// as a chirp load's); the forward FFT's last stores the kernel product and
// reaches its row's x[0] and X[0] in the caller's buffers (the dims'
// caller strides); the inverse's last scatters to X[g^-q]. The middle
// passes are plain and take no piece.
void rader_pass_piece(KernelSpec& spec, const Step& step, const PassFrame& f) {
  spec.rader_prime = f.n;
  if (step.loads_convolution()) {
    spec.rader_gather = true;
    spec.axis_dim = 1;
    spec.axis_stride = f.stockham_stride;
  }
  spec.rader_kernel_store = step.stores_kernel();
  spec.rader_scatter = step.chirp == Step::Chirp::ChirpStore;
  if (!spec.rader_kernel_store) return;
  for (const auto& [i, d] : f.outer_dims) {
    spec.dims[i].caller_in = f.caller_src[static_cast<std::size_t>(d)];
    spec.dims[i].caller_out = f.caller_dst[static_cast<std::size_t>(d)];
  }
}

}  // namespace

std::vector<Step> rader_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                              const std::vector<int>& order) {
  const std::int64_t n = problem.shape[dim - 1];
  const std::vector<std::int64_t> factors = prime_factors(n);
  if (!limits.rader || factors.size() != 1 || n < 3) return {};  // not a prime
  const std::int64_t L = n - 1;
  const std::int64_t most = rader_one_kernel(problem, limits);
  if (!is_supported_length(L)) return {};
  if (L > most) {
    // Past one kernel: the convolution's FFTs in passes over workspace, as
    // Bluestein's but of p - 1 points where Bluestein's are M >= 2p - 1
    // (2.0-2.4x as many). Complex to complex, with permutations exact in
    // floats.
    if (problem.kind != Kind::C2C || n >= (std::int64_t{1} << 24)) return {};
    // Doubles on a GPU: passes of at most 4096 points (NVRTC, sm_90: the
    // one pass of 8190 = 13 x 10 x 9 x 7 at 630 threads spilled 40 bytes).
    DeviceLimits passes = limits;
    if (limits.is_gpu && problem.precision == Precision::Double) {
      passes.max_single_pass_length = std::min<std::int64_t>(passes.max_single_pass_length, 4096);
      passes.max_pass_length = std::min<std::int64_t>(passes.max_pass_length, 4096);
      passes.preferred_pass_length = std::min<std::int64_t>(passes.preferred_pass_length, 4096);
    }
    std::vector<Step> steps = convolution_steps(problem, dim, passes, order, L,
                                                "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) +
                                                    " points by Rader (" + std::to_string(L) + "-point convolution");
    for (std::size_t j = 0; j < steps.size(); ++j) {
      Step& step = steps[j];
      step.pieces.clear();  // (Bluestein's chirp)
      if (step.chirp != Step::Chirp::Middle) step.pieces.push_back(rader_pass_piece);
      if (step.stores_kernel()) {
        // x[0] from the convolution's first source, X[0] to its last destination.
        step.reach_back = static_cast<int>(j);
        step.reach_forward = static_cast<int>(steps.size() - 1 - j);
      }
    }
    return steps;
  }
  Step step;
  step.dim = dim;
  step.length = L;
  step.order = order;
  step.chirp = Step::Chirp::Rader;
  step.core = rader_core;
  step.what = "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " points by Rader (" + std::to_string(L) +
              "-point convolution in one pass)";
  return {step};
}

// N = p m: the first Stockham pass's m sub-transforms of p points (point j
// of sub-transform i at i + j m) each by Rader's one kernel, writing them
// as the pass's natural order (i p + k), then m's passes with the pass
// twiddles. The cost model counts passes over memory first: where
// Bluestein's M >= 2N - 1 fits its one fused kernel, that one pass stays
// (and its kernels, which take N at run time, serve every such length);
// past it, Rader's 1 + passes(m) against Bluestein's 2-4 of M points, and
// two FFTs of p - 1 points a sub-transform against two of M a row (3100 =
// 31 x 100: two passes of 30-point convolutions and 100-point FFTs
// against two of 7168). PoCL, 2 cores, 2^20 points, ms, Bluestein ->
// Rader on a factor (docs/PERF.md): fp32 3100 29.9 -> 11.4, 62000 33.3 ->
// 9.9; fp64 3100 36.6 -> 11.5, 62000 54.6 -> 17.4; 217 (Bluestein's one
// kernel) 33 -> 30 (a busier run). (Measured while 31 was Rader's; it is a
// codelet now, and on an H100 the codelet's one pass ran 3100 at 2.8x Rader
// on the factor: docs/PERF.md "radices 29 and 31". 37 x 100 takes this path.)
std::vector<Step> rader_factor_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                     const std::vector<int>& order) {
  const std::int64_t n = problem.shape[dim - 1];
  const bool real = problem.kind == Kind::R2C || problem.kind == Kind::C2R;
  if (!limits.rader || (problem.kind != Kind::C2C && !real) || (real && limits.real_rader_factor == 0)) return {};
  std::int64_t p = 0;
  for (std::int64_t f : prime_factors(n)) {
    if (f <= largest_codelet()) continue;
    if (p != 0) return {};  // two large prime factors (or p^2)
    p = f;
  }
  if (p == 0) return {};
  // A real axis: Rader's kernel within a C2C's limit, and Bluestein's one
  // kernel only where a C2C's takes it (DeviceLimits::real_rader_factor 2),
  // or where its paired rows fit one (1). Paired, 2321 = 11 x 211's R2C at
  // M = 4800, 25 points a thread, took 1.6x its C2C's time on the H200.
  // H200, fp32, 2^26 points, 2 against 1 (docs/perf/2026-11-27-h200-
  // issue39-rules): R2C 1.16x geomean over 13 odd lengths (2321 1.83x, 7061
  // 1.43x, 3197 1.35x; 3065 = 5 x 613 0.93x, 5585 = 5 x 1117 0.95x), C2R
  // 1.08x over 7 (5585 0.79x: its 1116-point Rader columns run 36 points a
  // thread at 255 registers, one group a multiprocessor); fp64 alike (the
  // paired kernel's limit is lower there), and 0 against 1 1.19x slower.
  // On 12 lengths drawn afresh among those 2 changes, R2C 1.058x, C2R
  // 1.001x: where p = 47 or 53 (3055 = 5 x 13 x 47 0.70x, 4929 0.83x),
  // Rader's columns run on 2-4 threads (46 = 23 x 2: 2 threads of 24
  // points at 192 registers), their C2C as slow; those lost.)
  Problem complex = problem;
  complex.kind = Kind::C2C;
  const std::int64_t m = n / p;
  if (m < 2 || !is_supported_length(p - 1) || p - 1 > rader_one_kernel(complex, limits)) return {};
  const Problem& fused = real && limits.real_rader_factor == 1 ? problem : complex;
  if (bluestein_length(n) <= one_kernel_convolution(fused, limits)) return {};  // Bluestein in one pass
  // m's passes: one where its sub-transforms fit a strided pass, else the
  // fewest of at most max_pass_length points.
  std::vector<std::int64_t> lengths{p};
  if (m <= limits.max_pass_length) {
    lengths.push_back(m);
  } else {
    std::vector<std::int64_t> split;
    for (int k = 2; k <= 3 && split.empty(); ++k) split = split_length(m, k, limits.max_pass_length);
    if (split.empty()) return {};
    lengths.insert(lengths.end(), split.begin(), split.end());
  }
  std::vector<Step> steps = stockham_steps(dim, lengths, order);
  steps[0].chirp = Step::Chirp::Rader;
  steps[0].core = rader_core;
  steps[0].prime = p;
  for (std::size_t j = 0; j < steps.size(); ++j)
    steps[j].what = "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " points, pass " +
                    std::to_string(j + 1) + " of " + std::to_string(steps.size()) +
                    (j == 0 ? ": " + std::to_string(p) + "-point sub-transforms by Rader (" + std::to_string(p - 1) +
                                  "-point convolution)"
                            : "");
  return steps;
}

}  // namespace bfly::plan
