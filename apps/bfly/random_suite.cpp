#include "random_suite.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace bfly::cli {
namespace {

// A uniform double in [0, 1) from the generator's top 53 bits.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

// 2^x for x uniform in [log2 lo, log2 hi]: sizes weighted by their logarithm.
std::int64_t log_uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  const double a = std::log2(static_cast<double>(lo)), b = std::log2(static_cast<double>(hi));
  const auto n = static_cast<std::int64_t>(std::llround(std::exp2(a + (b - a) * uniform(rng))));
  return std::clamp(n, lo, hi);
}

// Whether every prime factor of n is at most `largest` (n >= 1).
bool smooth(std::int64_t n, int largest) {
  for (int p : {2, 3, 5, 7, 11, 13}) {
    if (p > largest) break;
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

// The `largest`-smooth length nearest n within [lo, hi] (the smaller on a tie).
std::int64_t nearest_smooth(std::int64_t n, int largest, std::int64_t lo, std::int64_t hi) {
  for (std::int64_t d = 0;; ++d) {
    if (n - d >= lo && smooth(n - d, largest)) return n - d;
    if (n + d <= hi && smooth(n + d, largest)) return n + d;
  }
}

bool prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// Prime factors up to 7, and in one draw of five up to 13.
int largest_factor(std::mt19937_64& rng) { return uniform(rng) < 0.2 ? 13 : 7; }

std::int64_t smooth_length(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  const int largest = largest_factor(rng);
  return nearest_smooth(log_uniform(rng, lo, hi), largest, lo, hi);
}

// A shape of `rank` smooth axes in [lo, hi] with at most `most` points.
std::vector<std::int64_t> smooth_shape(std::mt19937_64& rng, int rank, std::int64_t lo, std::int64_t hi,
                                       std::int64_t most) {
  for (;;) {
    std::vector<std::int64_t> shape;
    std::int64_t points = 1;
    for (int k = 0; k < rank; ++k) {
      shape.push_back(smooth_length(rng, lo, hi));
      points *= shape.back();
    }
    if (points <= most) return shape;
  }
}

// The families and how many of the 40 cases each draws.
struct Family {
  const char* name;
  int count;
  RandomCase (*draw)(std::mt19937_64&);
};

const Family kFamilies[] = {
    {"smooth", 18,
     [](std::mt19937_64& rng) {
       return RandomCase{{smooth_length(rng, 2, 1 << 24)}, Kind::C2C, ""};
     }},
    {"2d", 6,
     [](std::mt19937_64& rng) {
       return RandomCase{smooth_shape(rng, 2, 16, 4096, 1 << 24), Kind::C2C, ""};
     }},
    {"3d", 4,
     [](std::mt19937_64& rng) {
       return RandomCase{smooth_shape(rng, 3, 8, 256, 1 << 24), Kind::C2C, ""};
     }},
    {"prime", 6,
     [](std::mt19937_64& rng) {
       std::int64_t n = log_uniform(rng, 3, 1 << 21);
       while (!prime(n)) ++n;
       return RandomCase{{n}, Kind::C2C, ""};
     }},
    {"odd real", 6,
     [](std::mt19937_64& rng) {
       return RandomCase{{log_uniform(rng, 9, 1 << 16) | 1}, Kind::R2C, ""};
     }},
};

}  // namespace

std::vector<RandomCase> random_cases(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<RandomCase> cases;
  for (const Family& family : kFamilies) {
    for (int k = 0; k < family.count;) {
      RandomCase c = family.draw(rng);
      c.family = family.name;
      const bool repeated = std::any_of(cases.begin(), cases.end(),
                                        [&](const RandomCase& o) { return o.shape == c.shape && o.kind == c.kind; });
      if (repeated) continue;  // redrawn: the suite's cases are distinct
      cases.push_back(c);
      ++k;
    }
  }
  return cases;
}

std::uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32 | device()) % 1000000;  // short enough to type again
}

}  // namespace bfly::cli
