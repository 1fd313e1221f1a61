#include "plan/factorize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace bfly::plan {

const std::vector<int>& available_radices() {
  // Codelets the generator writes (codegen/butterfly.cpp): 2, 4 and the odd
  // primes directly, the rest as one Cooley-Tukey step inside registers. A
  // composite radix saves a trip through local memory: 1000 = 10 x 10 x 10
  // takes three stages where 8 x 5 x 5 x 5 took four. 16 (and 25 for powers
  // of five) bound the registers a thread holds per butterfly. Primes up to
  // 23 are direct codelets (about p/2 complex multiply-adds a point): on an
  // H100, Bluestein's two padded FFTs ran 17-point transforms at 30% of the
  // copy floor and 0.30x cuFFT, 17x19x23 at 0.52x (plan/solvers/bluestein.cpp).
  // 29 and 31 as well ((p - 1)^2 / p, about p - 2, real multiply-adds a
  // point): on an H100 with 23 the largest, 3100 = 31 x 100 ran Rader on
  // its factor 31 in two passes at 0.32x cuFFT and 1364 = 4 x 11 x 31
  // Bluestein's one kernel at 0.19x (docs/PERF.md "radices 29 and 31").
  static const std::vector<int> radices = [] {
    std::vector<int> all{31, 29, 25, 23, 19, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2}, kept;
    for (int r : all)
      if (r <= 25 || r <= largest_codelet()) kept.push_back(r);
    return kept;
  }();
  return radices;
}

int largest_codelet() { return 31; }

const std::vector<int>& composite_radices() {
  static const std::vector<int> radices{28, 27, 24, 21, 20, 18};
  return radices;
}

const std::vector<int>& tunable_radices() {
  static const std::vector<int> radices = [] {
    std::vector<int> r{32};
    r.insert(r.end(), composite_radices().begin(), composite_radices().end());
    r.insert(r.end(), available_radices().begin(), available_radices().end());
    return r;
  }();
  return radices;
}

std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> factors;
  for (std::int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  if (n > 1) factors.push_back(n);
  return factors;
}

std::int64_t largest_prime_factor(std::int64_t n) {
  const auto f = prime_factors(n);
  return f.empty() ? 1 : f.back();
}

bool is_supported_length(std::int64_t n) { return n >= 1 && largest_prime_factor(n) <= largest_codelet(); }

namespace {

struct Stages {
  int count = 0;
  int smallest = 0;  // smallest radix used (larger is better balanced)
  std::vector<int> radices;
};

// Fewest stages first: each stage is a trip through local memory and two
// barriers. Among equals, the most balanced (largest smallest radix), which
// keeps registers per thread even across stages.
Stages best_stages(std::int64_t n, std::map<std::int64_t, Stages>& memo, const std::vector<int>& radices) {
  if (n == 1) return {0, 1 << 30, {}};
  auto found = memo.find(n);
  if (found != memo.end()) return found->second;
  Stages best;
  for (int r : radices) {
    if (n % r != 0) continue;
    Stages rest = best_stages(n / r, memo, radices);
    if (rest.count < 0) continue;
    Stages candidate{rest.count + 1, std::min(rest.smallest, r), rest.radices};
    candidate.radices.push_back(r);
    const bool better = best.count == 0 || candidate.count < best.count ||
                        (candidate.count == best.count && candidate.smallest > best.smallest);
    if (better) best = candidate;
  }
  if (best.count == 0) best.count = -1;  // not reachable with the available radices
  memo[n] = best;
  return best;
}

}  // namespace

std::vector<int> choose_radices(std::int64_t n) { return choose_radices_from(n, available_radices()); }

std::vector<int> choose_radices_from(std::int64_t n, const std::vector<int>& available) {
  std::map<std::int64_t, Stages> memo;
  const Stages stages = best_stages(n, memo, available);
  if (stages.count < 0) return {};
  std::vector<int> radices = stages.radices;
  // Largest first: the first stage needs no twiddles, so give it the most work.
  std::sort(radices.begin(), radices.end(), std::greater<int>());
  return radices;
}

std::vector<std::int64_t> split_length(std::int64_t n, int passes, std::int64_t max_length) {
  if (passes == 1) return n >= 2 && n <= max_length ? std::vector<std::int64_t>{n} : std::vector<std::int64_t>{};
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      divisors.push_back(d);
      if (d != n / d) divisors.push_back(n / d);
    }
  std::sort(divisors.begin(), divisors.end());
  // The first factor closest to the geometric mean that leaves a feasible
  // remainder; balanced passes keep every sub-transform's work per thread alike.
  const double target = std::pow(static_cast<double>(n), 1.0 / passes);
  std::vector<std::int64_t> best;
  double best_distance = 0;
  for (std::int64_t d : divisors) {
    if (d > max_length || d < 2) continue;
    auto rest = split_length(n / d, passes - 1, max_length);
    if (rest.empty()) continue;
    const double distance = std::abs(std::log(static_cast<double>(d) / target));
    if (best.empty() || distance < best_distance) {
      best = {d};
      best.insert(best.end(), rest.begin(), rest.end());
      best_distance = distance;
    }
  }
  return best;
}

std::int64_t largest_divisor_at_most(std::int64_t n, std::int64_t limit) {
  for (std::int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

}  // namespace bfly::plan
