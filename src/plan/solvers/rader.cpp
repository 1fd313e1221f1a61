// Rader's algorithm for a prime axis of N points (twiddle/rader.hpp): with
// a primitive root g, the N - 1 nonzero indices are g's powers, and the DFT
// is x[0] plus a cyclic convolution of L = N - 1 points, a[m] = x[g^m]
// against b[j] = w_N^(g^-j), done with two L-point FFTs and the kernel
// FFT_L(b) / L. One kernel does it all (KernelSpec::rader_prime): one read
// and one write a point, and two FFTs of L points where Bluestein takes two
// of M >= 2N - 1 (2.0-4.0x as many).
//
// The cost model: Rader wherever L factors over the codelets (2..23) and
// fits one kernel (on a GPU 4096 single, 2048 double points); it does
// fewer operations than Bluestein's
// one kernel and takes one pass where Bluestein's M would take several.
// Past one kernel, Rader's FFTs take passes over workspace as Bluestein's
// do (complex transforms); elsewhere (L with a prime factor above 23,
// such as 1019 - 1 = 2 x 509, or other ranks and kinds) Bluestein.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {

std::vector<Step> rader_steps(const Problem& problem, int dim, const DeviceLimits& limits, const std::vector<int>& order) {
  const std::int64_t n = problem.shape[dim - 1];
  const std::vector<std::int64_t> factors = prime_factors(n);
  if (!limits.rader || factors.size() != 1 || n < 3) return {};  // not a prime
  const std::int64_t L = n - 1;
  // Doubles on a GPU go further than Bluestein's one kernel (1024): its
  // codelet stages leave Rader's threads 12-27 points, and sm_90 (NVRTC)
  // compiled fp64 L = 1050..2052 (radices up to 19, 186-254 registers)
  // without spills where L = 4050 spilled 48 bytes.
  std::int64_t most = one_kernel_convolution(problem, limits);
  if (limits.is_gpu && problem.precision == Precision::Double) most = std::min<std::int64_t>(limits.max_single_pass_length, 2048);
  most = std::min(most, limits.rader_one_kernel);
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
                                                "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " points by Rader (" +
                                                    std::to_string(L) + "-point convolution");
    for (Step& step : steps) step.rader = true;
    return steps;
  }
  Step step;
  step.dim = dim;
  step.length = L;
  step.order = order;
  step.chirp = Step::Chirp::Rader;
  step.what = "axis " + std::to_string(dim - 1) + ", " + std::to_string(n) + " points by Rader (" + std::to_string(L) +
              "-point convolution in one pass)";
  return {step};
}

}  // namespace bfly::plan
