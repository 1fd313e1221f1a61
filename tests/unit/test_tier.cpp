// The quick tier's sampling (support/tier.hpp): every stratum drawn, the
// count kept, the draw repeatable from the seed, and the length classes
// matching the planner's solvers.
#include <gtest/gtest.h>

#include <set>

#include "plan/factorize.hpp"
#include "support/tier.hpp"

namespace bfly::test {
namespace {

std::vector<std::int64_t> one_to(std::int64_t n) {
  std::vector<std::int64_t> all;
  for (std::int64_t k = 1; k <= n; ++k) all.push_back(k);
  return all;
}

TEST(Tier, EveryStratumIsDrawn) {
  const auto all = one_to(2048);
  const auto chosen = sample_lengths("unit: every stratum", all, 48);
  std::set<std::string> strata, drawn;
  for (std::int64_t n : all) strata.insert(length_stratum(n));
  for (std::int64_t n : chosen) drawn.insert(length_stratum(n));
  EXPECT_EQ(drawn, strata);
  if (exhaustive()) {
    EXPECT_EQ(chosen, all);
  } else {
    EXPECT_EQ(chosen.size(), std::max<std::size_t>(48, strata.size()));
    EXPECT_TRUE(std::is_sorted(chosen.begin(), chosen.end()));
    EXPECT_EQ(std::set<std::int64_t>(chosen.begin(), chosen.end()).size(), chosen.size()) << "no length twice";
  }
}

TEST(Tier, TheDrawRepeatsFromTheSeedAndDiffersByName) {
  const auto all = one_to(4096);
  EXPECT_EQ(sample_lengths("unit: repeat", all, 40), sample_lengths("unit: repeat", all, 40));
  if (!exhaustive()) EXPECT_NE(sample_lengths("unit: repeat", all, 40), sample_lengths("unit: another", all, 40));
}

// Each problem in one precision (both in the exhaustive tier), the two
// precisions alternating whichever way round the loops nest, so a test of
// two or more problems meets both.
TEST(Tier, EachProblemInOnePrecisionAndATestInBoth) {
  for (bool precision_outer : {true, false}) {
    PrecisionDraw draw("unit: precisions");
    std::vector<int> runs(5, 0);
    std::set<Precision> met;
    auto visit = [&](int problem, Precision p) {
      if (draw.take(p)) ++runs[static_cast<std::size_t>(problem)], met.insert(p);
    };
    if (precision_outer) {
      for (Precision p : {Precision::Single, Precision::Double})
        for (int problem = 0; problem < 5; ++problem) visit(problem, p);
    } else {
      for (int problem = 0; problem < 5; ++problem)
        for (Precision p : {Precision::Single, Precision::Double}) visit(problem, p);
    }
    for (int r : runs) EXPECT_EQ(r, exhaustive() ? 2 : 1);
    EXPECT_EQ(met.size(), 2u);
  }
}

// Covering: every feature some case has is met by a chosen case, at least
// quick_count cases run, and the exhaustive tier runs all.
TEST(Tier, CoveringMeetsEveryFeature) {
  const std::size_t count = 300;
  auto features = [](std::size_t i) {
    return std::vector<std::string>{"a" + std::to_string(i % 7), "b" + std::to_string(i % 11),
                                    i % 50 == 3 ? "rare" : "common"};
  };
  const auto chosen = covering_indices("unit: covering", count, 20, features);
  std::set<std::string> all, met;
  for (std::size_t i = 0; i < count; ++i)
    for (const auto& f : features(i)) all.insert(f);
  for (std::size_t i : chosen)
    for (const auto& f : features(i)) met.insert(f);
  EXPECT_EQ(met, all);
  EXPECT_TRUE(std::is_sorted(chosen.begin(), chosen.end()));
  if (exhaustive()) {
    EXPECT_EQ(chosen.size(), count);
  } else {
    EXPECT_GE(chosen.size(), 20u);
    EXPECT_LT(chosen.size(), 40u);
  }
}

TEST(Tier, LengthClassesFollowTheSolvers) {
  EXPECT_EQ(length_class(1), "1");
  EXPECT_EQ(length_class(1024), "pow2");
  EXPECT_EQ(length_class(1000), "smooth");
  EXPECT_EQ(length_class(31 * 29), "smooth");
  EXPECT_EQ(length_class(257), "rader-prime");       // 256 smooth
  EXPECT_EQ(length_class(1019), "bluestein-prime");  // 1018 = 2 x 509
  EXPECT_EQ(length_class(37 * 100), "rader-factor");
  EXPECT_EQ(length_class(101 * 103), "bluestein");
  EXPECT_EQ(length_class(3 * 1031), "bluestein");
  for (std::int64_t n = 2; n <= 4096; ++n)
    EXPECT_EQ(length_class(n) == "smooth" || length_class(n) == "pow2", plan::is_supported_length(n)) << n;
}

}  // namespace
}  // namespace bfly::test
