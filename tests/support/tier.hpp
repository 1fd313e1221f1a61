// The test suite's two tiers.
//
// Quick (the default: ctest, CI, the README's test command): each sweep
// runs a sample of its cases drawn afresh every run, stratified so that
// every class of case (the solver a length takes, its size, its parity) is
// drawn in every run, and the random data comes from the same seed. The
// seed is printed once per process; BFLY_TEST_SEED=N repeats a run's draw
// and its data, so a failure reproduces.
//
// Exhaustive (BFLY_TEST_TIER=exhaustive; scripts/exhaustive-tests.sh, run
// by hand and on the GPU machine): every case of every sweep, as the suite
// ran before the tiers (every length 1..2048 complex, 1..1024 real, every
// 7- and 13-smooth length to 4096, ...).
//
// Why a sample and not a fixed short list: the suite is judged, like the
// library, on sizes nobody named; a fixed list would be tuned to by
// accident, a fresh draw each run covers the whole range over many runs
// while each run still meets every stratum.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::test {

bool exhaustive();
// The run's seed: $BFLY_TEST_SEED, else drawn from std::random_device.
std::uint64_t test_seed();
// An engine for one named use, seeded by the run's seed and the name, so a
// sweep's draw does not depend on which tests ran before it.
std::mt19937_64 engine_for(const std::string& name);

// The solver class of a 1D length, as the planner sees it: "1", "pow2",
// "smooth" (radices to the largest codelet), "rader-prime", "bluestein-prime",
// "rader-factor" (one prime factor past the codelets whose p - 1 is
// smooth), "bluestein" (other lengths with a prime factor past them).
std::string length_class(std::int64_t n);
// length_class plus a size bucket (<= 16, <= 128, <= 1024, <= 4096, more):
// the stratum of a length in the sweeps.
std::string length_stratum(std::int64_t n);

// The indices of the cases to run out of `count`: all of them in the
// exhaustive tier; in the quick tier `quick_count` of them (at least one
// from each stratum, the rest drawn uniformly from those not yet drawn),
// in increasing order. Prints one line naming the sweep, how many of how
// many ran and the seed.
std::vector<std::size_t> sample_indices(const std::string& what, std::size_t count, std::size_t quick_count,
                                        const std::function<std::string(std::size_t)>& stratum);

// Like sample_indices, for cases whose features are many and combine
// freely (a kernel's optional pieces): in the quick tier, cases taken in a
// random order wherever they add a feature no case taken has, then drawn
// uniformly up to `quick_count`; every feature is met, not every
// combination.
std::vector<std::size_t> covering_indices(const std::string& what, std::size_t count, std::size_t quick_count,
                                          const std::function<std::vector<std::string>(std::size_t)>& features);

template <class T, class Stratum>
std::vector<T> sample(const std::string& what, const std::vector<T>& cases, std::size_t quick_count, Stratum stratum) {
  std::vector<T> chosen;
  for (std::size_t i :
       sample_indices(what, cases.size(), quick_count, [&](std::size_t k) { return std::string(stratum(cases[k])); }))
    chosen.push_back(cases[i]);
  return chosen;
}

template <class T, class Features>
std::vector<T> cover(const std::string& what, const std::vector<T>& cases, std::size_t quick_count, Features features) {
  std::vector<T> chosen;
  for (std::size_t i : covering_indices(what, cases.size(), quick_count,
                                        [&](std::size_t k) { return std::vector<std::string>(features(cases[k])); }))
    chosen.push_back(cases[i]);
  return chosen;
}

// Lengths: stratified by length_stratum.
std::vector<std::int64_t> sample_lengths(const std::string& what, const std::vector<std::int64_t>& lengths,
                                         std::size_t quick_count);

// Tests that run each of their problems in both precisions. In the quick
// tier each problem runs in one of them: take() alternates, problem by
// problem, from a drawn start, so every test meets both precisions in every
// run and every problem meets both over runs. Precision changes the
// generated source's real type and the twiddles' width, not which pieces a
// kernel has, and each test still runs both. The exhaustive tier runs every
// problem in both.
//
//   PrecisionDraw draw("Real.RoundTrip");
//   for (shape ...) for (Precision p : {Single, Double}) if (draw.take(p)) ...
//
// Each precision counts its own problems, so the loops may nest either way
// round, as long as both precisions go over the same problems in the same
// order.
class PrecisionDraw {
 public:
  explicit PrecisionDraw(const std::string& what);
  bool take(Precision precision);

 private:
  unsigned start_ = 0;
  std::size_t count_[2] = {0, 0};  // problems seen in single, double
};

}  // namespace bfly::test
