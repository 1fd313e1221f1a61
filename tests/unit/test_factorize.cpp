// Factorisation of transform lengths (src/plan/factorize.*): prime factors,
// supported lengths, butterfly radices per sub-transform, and the balanced
// split of a length into passes.
#include <gtest/gtest.h>

#include "support/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/composite_radices.hpp"
#include "plan/device_limits.hpp"
#include "plan/factorize.hpp"
#include "plan/plan.hpp"

namespace {

using bfly::plan::available_radices;
using bfly::plan::choose_radices;
using bfly::plan::is_supported_length;
using bfly::plan::largest_prime_factor;
using bfly::plan::prime_factors;
using bfly::plan::split_length;

using bfly::test::smooth_lengths;

bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

int valuation(std::int64_t n, std::int64_t p) {
  int v = 0;
  while (n % p == 0) {
    n /= p;
    ++v;
  }
  return v;
}

std::string list(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return "{" + s + "}";
}

std::string list(const std::vector<int>& v) { return list(std::vector<std::int64_t>(v.begin(), v.end())); }

TEST(Factorize, SmoothNumberEnumerationIsComplete) {
  // Guards the helper the other tests lean on: brute force up to 5000.
  std::vector<std::int64_t> brute;
  for (std::int64_t n = 1; n <= 5000; ++n) {
    std::int64_t m = n;
    for (std::int64_t p : {2, 3, 5, 7})
      while (m % p == 0) m /= p;
    if (m == 1) brute.push_back(n);
  }
  EXPECT_EQ(smooth_lengths(5000), brute);
  std::vector<std::int64_t> brute13;
  for (std::int64_t n = 1; n <= 5000; ++n) {
    std::int64_t m = n;
    for (std::int64_t p : {2, 3, 5, 7, 11, 13})
      while (m % p == 0) m /= p;
    if (m == 1) brute13.push_back(n);
  }
  EXPECT_EQ(smooth_lengths(5000, 13), brute13);
}

TEST(Factorize, PrimeFactorsOfKnownNumbers) {
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(prime_factors(1), V{});
  EXPECT_EQ(prime_factors(2), (V{2}));
  EXPECT_EQ(prime_factors(12), (V{2, 2, 3}));
  EXPECT_EQ(prime_factors(97), (V{97}));
  EXPECT_EQ(prime_factors(1000), (V{2, 2, 2, 5, 5, 5}));
  EXPECT_EQ(prime_factors(1009 * 1013), (V{1009, 1013}));
  EXPECT_EQ(prime_factors(49 * 11), (V{7, 7, 11}));
  EXPECT_EQ(prime_factors(2147483647), (V{2147483647}));  // 2^31 - 1
  EXPECT_EQ(prime_factors(std::int64_t{1} << 40), V(40, 2));
  EXPECT_EQ(prime_factors(std::int64_t{65537} * 65537), (V{65537, 65537}));
}

TEST(Factorize, PrimeFactorsAreSortedPrimesWhoseProductIsN) {
  for (std::int64_t n = 1; n <= 20000; ++n) {
    const auto f = prime_factors(n);
    std::int64_t product = 1;
    for (std::size_t i = 0; i < f.size(); ++i) {
      ASSERT_TRUE(is_prime(f[i])) << "n=" << n << " factors " << list(f);
      if (i) ASSERT_LE(f[i - 1], f[i]) << "n=" << n << " factors " << list(f);
      product *= f[i];
    }
    ASSERT_EQ(product, n) << "n=" << n << " factors " << list(f);
    ASSERT_EQ(largest_prime_factor(n), f.empty() ? 1 : f.back()) << "n=" << n;
  }
}

// The fast path: every prime factor has a direct codelet (up to 31); the
// rest go through Rader or Bluestein.
TEST(Factorize, SupportedLengthsAreExactlyThe31SmoothOnes) {
  EXPECT_EQ(bfly::plan::largest_codelet(), 31);
  EXPECT_FALSE(is_supported_length(0));
  EXPECT_FALSE(is_supported_length(-8));
  EXPECT_TRUE(is_supported_length(1));
  for (std::int64_t n : {37, 41, 1009, 49 * 37, 2 * 3 * 5 * 7 * 43, 65537, 4099})
    EXPECT_FALSE(is_supported_length(n)) << "n=" << n;
  for (std::int64_t n :
       {2,       3,   5,    7,      11,     13,     17,      19,   23,   29,           31,           17 * 19 * 23,
        29 * 31, 210, 4096, 531441, 390625, 823543, 1 << 24, 1331, 2197, 11 * 13 * 64, 23 * 23 * 64, 31 * 31 * 64,
        4092})
    EXPECT_TRUE(is_supported_length(n)) << "n=" << n;
  for (std::int64_t n = 1; n <= 100000; ++n) {
    std::int64_t m = n;
    for (std::int64_t p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31})
      while (m % p == 0) m /= p;
    ASSERT_EQ(is_supported_length(n), m == 1) << "n=" << n;
  }
}

TEST(Factorize, AvailableRadicesAreDistinctLargestFirstAndCoverThePrimes) {
  const auto& radices = available_radices();
  ASSERT_FALSE(radices.empty());
  for (std::size_t i = 1; i < radices.size(); ++i) EXPECT_GT(radices[i - 1], radices[i]) << "at " << i;
  for (int p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31})
    EXPECT_NE(std::find(radices.begin(), radices.end(), p), radices.end()) << "radix " << p << " missing";
  for (int r : radices) EXPECT_TRUE(is_supported_length(r)) << "radix " << r;
}

TEST(Factorize, ChooseRadicesForEvery7SmoothLengthUpTo2To24) {
  const auto& available = available_radices();
  const auto lengths = smooth_lengths(std::int64_t{1} << 24);
  ASSERT_GT(lengths.size(), 1000u);
  for (std::int64_t n : lengths) {
    const std::vector<int> radices = choose_radices(n);
    std::int64_t product = 1;
    for (int r : radices) {
      ASSERT_NE(std::find(available.begin(), available.end(), r), available.end())
          << "n=" << n << " radices " << list(radices) << ": radix " << r << " has no codelet";
      product *= r;
    }
    ASSERT_EQ(product, n) << "n=" << n << " radices " << list(radices);
    // Fewest stages: no two stages could merge into one available radix.
    for (std::size_t a = 0; a < radices.size(); ++a)
      for (std::size_t b = a + 1; b < radices.size(); ++b)
        ASSERT_EQ(std::find(available.begin(), available.end(), radices[a] * radices[b]), available.end())
            << "n=" << n << " radices " << list(radices) << ": " << radices[a] << " and " << radices[b]
            << " could be one stage";
    ASSERT_TRUE(std::is_sorted(radices.rbegin(), radices.rend())) << "n=" << n << " radices " << list(radices);
  }
}

TEST(Factorize, ChooseRadicesKnownChoices) {
  using V = std::vector<int>;
  EXPECT_EQ(choose_radices(1), V{});
  EXPECT_EQ(choose_radices(2), V{2});
  EXPECT_EQ(choose_radices(8), V{8});
  EXPECT_EQ(choose_radices(16), V{16});
  EXPECT_EQ(choose_radices(32), (V{8, 4}));
  EXPECT_EQ(choose_radices(4096), (V{16, 16, 16}));
  EXPECT_EQ(choose_radices(60), (V{10, 6}));
  EXPECT_EQ(choose_radices(64), (V{8, 8}));  // as few stages as 16 x 4, better balanced
  EXPECT_EQ(choose_radices(1000), (V{10, 10, 10}));
  EXPECT_EQ(choose_radices(3125), (V{25, 25, 5}));
  EXPECT_EQ(choose_radices(81), (V{9, 9}));
  EXPECT_EQ(choose_radices(343), (V{7, 7, 7}));
}

// Checks the properties every split must have.
void expect_valid_split(std::int64_t n, int passes, std::int64_t max_length, const std::vector<std::int64_t>& split) {
  const std::string what = "split_length(" + std::to_string(n) + ", " + std::to_string(passes) + ", " +
                           std::to_string(max_length) + ") = " + list(split);
  ASSERT_EQ(split.size(), static_cast<std::size_t>(passes)) << what;
  std::int64_t product = 1;
  for (std::int64_t f : split) {
    EXPECT_LE(f, max_length) << what;
    if (passes > 1) EXPECT_GE(f, 2) << what << ": a pass of length 1 is wasted";
    product *= f;
  }
  EXPECT_EQ(product, n) << what;
}

TEST(Factorize, SplitIntoTwoIsValidAndAsBalancedAsPossible) {
  for (std::int64_t max_length : {std::int64_t{4096}, std::int64_t{16384}}) {
    int split_count = 0;
    for (std::int64_t n : smooth_lengths(std::int64_t{1} << 26)) {
      if (n < 4) continue;
      const auto split = split_length(n, 2, max_length);
      // Brute force: the feasible pair (d, n/d) with the smallest ratio.
      double best_ratio = 0;
      for (std::int64_t d = 2; d * d <= n; ++d)
        if (n % d == 0 && n / d <= max_length) {
          best_ratio = static_cast<double>(n / d) / static_cast<double>(d);
          // Keep scanning: larger d (up to sqrt n) give smaller ratios.
        }
      if (best_ratio == 0) {
        EXPECT_TRUE(split.empty()) << "n=" << n << " max " << max_length << " has no split but got " << list(split);
        continue;
      }
      ++split_count;
      expect_valid_split(n, 2, max_length, split);
      if (split.size() != 2) continue;
      const double ratio =
          static_cast<double>(std::max(split[0], split[1])) / static_cast<double>(std::min(split[0], split[1]));
      EXPECT_NEAR(ratio, best_ratio, 1e-9 * best_ratio) << "n=" << n << " max " << max_length << ": split "
                                                        << list(split) << " is less balanced than ratio " << best_ratio;
    }
    EXPECT_GT(split_count, 1000) << "max " << max_length;
  }
}

TEST(Factorize, SplitKnownCases) {
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(split_length(1 << 20, 2, 16384), (V{1024, 1024}));
  EXPECT_EQ(split_length(1 << 24, 2, 4096), (V{4096, 4096}));
  EXPECT_EQ(split_length(1 << 24, 2, 16384), (V{4096, 4096}));
  EXPECT_EQ(split_length(531441, 2, 4096), (V{729, 729}));  // 3^12
  EXPECT_EQ(split_length(1 << 21, 3, 4096), (V{128, 128, 128}));
  EXPECT_EQ(split_length(std::int64_t{1} << 30, 3, 4096), (V{1024, 1024, 1024}));
  EXPECT_EQ(split_length(1 << 16, 1, 65536), (V{65536}));
}

TEST(Factorize, SplitIntoThreeAndFourIsValidAndBalanced) {
  struct Case {
    std::int64_t n;
    int passes;
    std::int64_t max_length;
  };
  const std::vector<Case> cases{
      {std::int64_t{1} << 25, 3, 4096},
      {std::int64_t{1} << 36, 3, 4096},
      {std::int64_t{1} << 26, 3, 4096},
      {40353607, 3, 4096},
      {std::int64_t{1} << 40, 4, 4096},
      {std::int64_t{1} << 30, 4, 4096},
      {2 * 3 * 5 * 7 * 1024 * 27, 3, 4096},
      {1000000000, 3, 4096},
      {43046721, 3, 4096},
  };
  for (const Case& c : cases) {
    const auto split = split_length(c.n, c.passes, c.max_length);
    expect_valid_split(c.n, c.passes, c.max_length, split);
    if (split.empty()) continue;
    // Balanced: no factor further than a factor 16 from n^(1/passes) when the
    // length is this smooth (every case above has such a split).
    const double mean = std::pow(static_cast<double>(c.n), 1.0 / c.passes);
    for (std::int64_t f : split)
      EXPECT_LT(std::abs(std::log2(static_cast<double>(f) / mean)), 4.0)
          << "n=" << c.n << " passes " << c.passes << ": " << list(split) << " is unbalanced";
  }
}

TEST(Factorize, SplitIsEmptyWhenImpossible) {
  struct Case {
    std::int64_t n;
    int passes;
    std::int64_t max_length;
  };
  const std::vector<Case> cases{
      {std::int64_t{1} << 25, 2, 4096},  // 4096^2 = 2^24 < 2^25
      {std::int64_t{1} << 13, 4, 8},     // 8^4 = 2^12
      {17, 1, 16},                       // one pass longer than the maximum
      {1009, 2, 4096},                   // a prime has no two factors >= 2
      {2 * 1009, 2, 1000},               // the factor 1009 exceeds the maximum
      {8, 4, 4096},                      // 8 has only three prime factors
      {4, 3, 4096},
  };
  for (const Case& c : cases)
    EXPECT_TRUE(split_length(c.n, c.passes, c.max_length).empty())
        << "split_length(" << c.n << ", " << c.passes << ", " << c.max_length
        << ") = " << list(split_length(c.n, c.passes, c.max_length)) << ", expected empty";
}

}  // namespace

// bfly::next_fast_length: the least 7-smooth length (even for real) at or
// past the target, by brute force to 5000, and far out without a scan.
namespace {

bool smooth7(std::int64_t n) {
  for (int p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

}  // namespace

TEST(NextFastLength, LeastSevenSmoothAtOrPastTheTarget) {
  EXPECT_EQ(bfly::next_fast_length(0), 0);
  EXPECT_EQ(bfly::next_fast_length(1, true), 1);
  for (std::int64_t target = 1; target <= 5000; ++target) {
    std::int64_t want = target, want_real = target;
    while (!smooth7(want)) ++want;
    while (target > 1 && !(smooth7(want_real) && want_real % 2 == 0)) ++want_real;
    ASSERT_EQ(bfly::next_fast_length(target), want) << target;
    ASSERT_EQ(bfly::next_fast_length(target, true), want_real) << target;
  }
  const std::int64_t far = (std::int64_t{1} << 50) + 1;
  const std::int64_t got = bfly::next_fast_length(far);
  EXPECT_GE(got, far);
  EXPECT_TRUE(smooth7(got));
  EXPECT_THROW(bfly::next_fast_length(-1), bfly::Error);
  EXPECT_THROW(bfly::next_fast_length((std::int64_t{1} << 58) + 1), bfly::Error);
}

// Composite radices 18-28 (plan/composite_radices.cpp): only where they save
// a stage, the smallest widest radix among the fewest stages, and only for
// fp32 one-pass complex rows with the knob on.
TEST(CompositeRadices, SaveAStageWithTheSmallestWidestRadix) {
  using bfly::plan::fewer_stage_radices;
  EXPECT_EQ(fewer_stage_radices(4536, {9, 9, 8, 7}), (std::vector<int>{18, 18, 14}));
  EXPECT_EQ(fewer_stage_radices(3969, {9, 9, 7, 7}), (std::vector<int>{21, 21, 9}));
  EXPECT_EQ(fewer_stage_radices(8000, {10, 10, 10, 8}), (std::vector<int>{20, 20, 20}));
  EXPECT_TRUE(fewer_stage_radices(4096, {16, 16, 16}).empty());
  EXPECT_TRUE(fewer_stage_radices(1008, {14, 9, 8}).empty());
  EXPECT_TRUE(fewer_stage_radices(7, {7}).empty());

  bfly::plan::DeviceLimits limits =
      bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), bfly::Precision::Single);
  bfly::Problem p;
  p.shape = {4536};
  p.batch = 64;
  EXPECT_EQ(limits.composite_radices, 1);  // gpu_limits' default
  limits.composite_radices = 0;
  EXPECT_EQ(bfly::plan::make_plan(p, limits).passes.at(0).spec.radices, (std::vector<int>{9, 9, 8, 7}));
  limits.composite_radices = 1;
  EXPECT_EQ(bfly::plan::make_plan(p, limits).passes.at(0).spec.radices, (std::vector<int>{18, 18, 14}));
  // Three stages of the model's keep them (600 = 10 x 10 x 6, not 25 x 24).
  bfly::Problem short_row = p;
  short_row.shape = {600};
  EXPECT_EQ(bfly::plan::make_plan(short_row, limits).passes.at(0).spec.radices, (std::vector<int>{10, 10, 6}));
  p.precision = bfly::Precision::Double;
  const bfly::plan::DeviceLimits fp64 = [] {
    bfly::plan::DeviceLimits l =
        bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), bfly::Precision::Double);
    l.composite_radices = 1;
    return l;
  }();
  const std::vector<int> radices64 = bfly::plan::make_plan(p, fp64).passes.at(0).spec.radices;
  ASSERT_FALSE(radices64.empty());
  for (int r : radices64) EXPECT_LE(r, 16);
}
