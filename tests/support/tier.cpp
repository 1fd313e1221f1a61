#include "support/tier.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <mutex>
#include <stdexcept>

#include "plan/factorize.hpp"

namespace bfly::test {

bool exhaustive() {
  static const bool value = [] {
    const char* tier = std::getenv("BFLY_TEST_TIER");
    if (!tier || std::string(tier).empty() || std::string(tier) == "quick") return false;
    if (std::string(tier) == "exhaustive") return true;
    throw std::invalid_argument("BFLY_TEST_TIER='" + std::string(tier) + "' (expected quick or exhaustive)");
  }();
  return value;
}

std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    std::uint64_t s = 0;
    if (const char* text = std::getenv("BFLY_TEST_SEED"); text && *text) {
      char* end = nullptr;
      s = std::strtoull(text, &end, 10);
      if (*end) throw std::invalid_argument("BFLY_TEST_SEED='" + std::string(text) + "' (expected an integer)");
    } else {
      std::random_device device;
      s = (std::uint64_t{device()} << 32) ^ device();
    }
    std::printf("[ seed     ] BFLY_TEST_SEED=%llu BFLY_TEST_TIER=%s (set both to repeat this run's cases and data)\n",
                static_cast<unsigned long long>(s), exhaustive() ? "exhaustive" : "quick");
    std::fflush(stdout);
    return s;
  }();
  return seed;
}

std::mt19937_64 engine_for(const std::string& name) {
  // FNV-1a of the name, mixed into the seed: one stream per use.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  std::seed_seq seq{static_cast<std::uint32_t>(test_seed()), static_cast<std::uint32_t>(test_seed() >> 32),
                    static_cast<std::uint32_t>(h), static_cast<std::uint32_t>(h >> 32)};
  return std::mt19937_64(seq);
}

std::string length_class(std::int64_t n) {
  if (n == 1) return "1";
  if ((n & (n - 1)) == 0) return "pow2";
  if (plan::is_supported_length(n)) return "smooth";
  std::int64_t large = 0;
  int count = 0;
  for (std::int64_t f : plan::prime_factors(n))
    if (f > plan::largest_codelet()) large = f, ++count;
  const bool rader = count == 1 && plan::is_supported_length(large - 1);
  if (large == n) return rader ? "rader-prime" : "bluestein-prime";
  return rader ? "rader-factor" : "bluestein";
}

std::string length_stratum(std::int64_t n) {
  const char* size = n <= 16 ? "<=16" : n <= 128 ? "<=128" : n <= 1024 ? "<=1024" : n <= 4096 ? "<=4096" : ">4096";
  return length_class(n) + " " + size;
}

namespace {
// One "[ sample ]" line: what was drawn, and the seed that repeats it.
void print_sample_line(const std::string& what, const std::string& drawn) {
  static std::mutex print;
  std::lock_guard<std::mutex> lock(print);
  std::printf("[ sample   ] %s: %s (seed %llu%s)\n", what.c_str(), drawn.c_str(),
              static_cast<unsigned long long>(test_seed()), exhaustive() ? ", exhaustive" : "");
  std::fflush(stdout);
}

void print_sample(const std::string& what, std::size_t chosen, std::size_t count) {
  print_sample_line(what, std::to_string(chosen) + " of " + std::to_string(count) + " cases");
}
}  // namespace

std::vector<std::size_t> sample_indices(const std::string& what, std::size_t count, std::size_t quick_count,
                                        const std::function<std::string(std::size_t)>& stratum) {
  std::vector<std::size_t> chosen;
  if (exhaustive() || quick_count >= count) {
    for (std::size_t i = 0; i < count; ++i) chosen.push_back(i);
  } else {
    std::mt19937_64 engine = engine_for(what);
    std::map<std::string, std::vector<std::size_t>> strata;
    for (std::size_t i = 0; i < count; ++i) strata[stratum(i)].push_back(i);
    std::vector<bool> taken(count, false);
    for (const auto& [name, members] : strata) {
      const std::size_t pick = members[std::uniform_int_distribution<std::size_t>(0, members.size() - 1)(engine)];
      taken[pick] = true;
      chosen.push_back(pick);
    }
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < count; ++i)
      if (!taken[i]) rest.push_back(i);
    std::shuffle(rest.begin(), rest.end(), engine);
    for (std::size_t i = 0; chosen.size() < quick_count && i < rest.size(); ++i) chosen.push_back(rest[i]);
    std::sort(chosen.begin(), chosen.end());
  }
  print_sample(what, chosen.size(), count);
  return chosen;
}

std::vector<std::size_t> covering_indices(const std::string& what, std::size_t count, std::size_t quick_count,
                                          const std::function<std::vector<std::string>(std::size_t)>& features) {
  std::vector<bool> taken(count, exhaustive() || quick_count >= count);
  if (!taken.empty() && !taken[0]) {
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) order[i] = i;
    std::mt19937_64 engine = engine_for(what);
    std::shuffle(order.begin(), order.end(), engine);
    std::set<std::string> met;
    std::size_t chosen = 0;
    for (std::size_t i : order) {
      bool adds = false;
      for (const std::string& f : features(i)) adds = met.insert(f).second || adds;
      if (adds) taken[i] = true, ++chosen;
    }
    for (std::size_t i : order)
      if (chosen < quick_count && !taken[i]) taken[i] = true, ++chosen;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < count; ++i)
    if (taken[i]) out.push_back(i);
  print_sample(what, out.size(), count);
  return out;
}

std::vector<std::int64_t> sample_lengths(const std::string& what, const std::vector<std::int64_t>& lengths,
                                         std::size_t quick_count) {
  return sample(what, lengths, quick_count, length_stratum);
}

PrecisionDraw::PrecisionDraw(const std::string& what) : start_(static_cast<unsigned>(engine_for(what)() % 2)) {
  print_sample_line(what, exhaustive() ? "each problem in both precisions"
                                       : "each problem in one precision, alternating from a drawn start");
}

bool PrecisionDraw::take(Precision precision) {
  const unsigned which = precision == Precision::Double ? 1 : 0;
  const std::size_t k = count_[which]++;
  return exhaustive() || (k + start_ + which) % 2 == 0;
}

}  // namespace bfly::test
