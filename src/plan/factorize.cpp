#include "plan/factorize.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace bfly::plan {

const std::vector<int>& available_radices() {
  // Codelets the generator writes (codegen/butterfly.cpp): the primes 2, 3, 5,
  // 7 directly, and 4, 8, 9, 16 as fused compositions, which halve or third
  // the trips through local memory for powers of two and three.
  static const std::vector<int> radices{16, 9, 8, 7, 5, 4, 3, 2};
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

bool is_supported_length(std::int64_t n) { return n >= 1 && largest_prime_factor(n) <= 7; }

std::vector<int> choose_radices(std::int64_t n) {
  int twos = 0, threes = 0, fives = 0, sevens = 0;
  while (n % 2 == 0) { n /= 2; ++twos; }
  while (n % 3 == 0) { n /= 3; ++threes; }
  while (n % 5 == 0) { n /= 5; ++fives; }
  while (n % 7 == 0) { n /= 7; ++sevens; }
  std::vector<int> radices;
  // Powers of two: radix 16 stages, the remainder folded into one radix 4 or
  // 8 stage (2^5 = 8*4 rather than 16*2: a radix-2 stage is a whole trip
  // through local memory for one add per point).
  int sixteens = twos / 4;
  switch (twos % 4) {
    case 1:
      if (sixteens > 0) { --sixteens; radices.push_back(8); radices.push_back(4); }
      else radices.push_back(2);
      break;
    case 2: radices.push_back(4); break;
    case 3: radices.push_back(8); break;
  }
  radices.insert(radices.begin(), sixteens, 16);
  for (int i = 0; i < threes / 2; ++i) radices.push_back(9);
  if (threes % 2) radices.push_back(3);
  radices.insert(radices.end(), fives, 5);
  radices.insert(radices.end(), sevens, 7);
  return radices;
}

std::vector<std::int64_t> split_length(std::int64_t n, int passes, std::int64_t max_length) {
  if (passes == 1) return n <= max_length ? std::vector<std::int64_t>{n} : std::vector<std::int64_t>{};
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

}  // namespace bfly::plan
