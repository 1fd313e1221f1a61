// Bluestein's M: bluestein_length (a pure function of N, the default) and
// bluestein_length_for (what a plan convolves with: DeviceLimits::
// bluestein_light may take a longer M that runs in one kernel). The
// tables (pieces/chirp.cpp) come from the spec's M (KernelSpec::
// chirp_padded).

#include "plan/solvers/solver.hpp"

namespace bfly::plan {

namespace {

// The smallest c * 2^k >= low, c odd, 5-smooth and below 256 but for the
// 125 family (bluestein_length's family; below, why).
std::int64_t family_at_least(std::int64_t low) {
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

}  // namespace

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
std::int64_t bluestein_length(std::int64_t n) { return family_at_least(2 * n - 1); }

// DeviceLimits::bluestein_light: an fp32 C2C axis whose M passes one
// kernel takes the shortest M of the same family, at most bluestein_light
// percent longer, that runs in one kernel (bluestein_one_kernel: M up to
// 8192 whose widest radix is 12 at most). Two passes through an M-point
// workspace move about three times the bytes of one kernel: 2371's M =
// 4800 = 25 x 16 x 12 runs in two, 5120 = 10 x 8 x 8 x 8 in one.
std::int64_t bluestein_length_for(const Problem& problem, int dim, const DeviceLimits& limits) {
  const std::int64_t n = problem.shape[dim - 1];
  const std::int64_t usual = bluestein_length(n);
  if (limits.bluestein_light <= 0 || problem.precision != Precision::Single || problem.is_real() ||
      bluestein_one_kernel(problem, usual, limits))
    return usual;
  const std::int64_t most = usual + usual * limits.bluestein_light / 100;
  for (std::int64_t m = family_at_least(usual + 1); m <= most; m = family_at_least(m + 1))
    if (bluestein_one_kernel(problem, m, limits)) return m;
  return usual;
}

}  // namespace bfly::plan
