// Every length: lengths with a prime factor above 31 go through Rader
// (plan/solvers/rader.cpp) or Bluestein's chirp-z (plan/solvers/bluestein.cpp), checked like every transform against
// FFTW (double for fp32, long double for fp64) on fresh random data with the
// output poisoned first.
#include <cstdlib>

#include "accuracy/fixture.hpp"
#include "plan/factorize.hpp"

namespace bfly::test {
namespace {

Problem make(std::vector<std::int64_t> shape, Precision precision, std::int64_t batch = 1,
             Direction direction = Direction::Forward, Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.shape = std::move(shape);
  p.batch = batch;
  p.precision = precision;
  p.direction = direction;
  p.placement = placement;
  return p;
}

class Bluestein : public Accuracy {
 protected:
  void every_length(Precision precision);
};

// Every length 1..2048 (primes, 13-smooth and Bluestein alike; a sample of
// the Rader-on-a-factor lengths, below), forward and inverse, in and out of
// place, batches of 1 and 2. One Bluestein kernel serves every length of
// one padded size, so the sweep compiles a handful of kernels for its ~1600
// Bluestein lengths.
// Composite lengths with one prime factor above 31 whose p - 1 is smooth
// take Rader's kernel on that factor where Bluestein's M passes its one
// kernel (solvers/rader.cpp rader_factor_steps: fp64 past 1024 points).
// Their kernels are their own (Rader's of p, m's passes), about 1.7 s of
// PoCL compiles a length for some 700 lengths, so the exhaustive fp64 sweep
// takes every 8th of them; Rader.OnAPrimeFactor covers the path's layouts.
// The quick tier runs 20 lengths a precision, at least one of each solver
// class and size bucket (support/tier.hpp length_stratum).
void Bluestein::every_length(Precision precision) {
  double worst = 0, worst_bluestein = 0;
  std::string worst_token;
  int i = 0, rader_factors = 0;
  std::vector<std::int64_t> all;
  for (std::int64_t n = 1; n <= 2048; ++n)
    // (fp32 keeps Bluestein's one kernel to 2048 on every device.)
    if (precision != Precision::Double || length_class(n) != "rader-factor" || rader_factors++ % 8 == 0)
      all.push_back(n);
  const bool single = precision == Precision::Single;
  for (std::int64_t n : sample_lengths(single ? "fp32 lengths 1..2048" : "fp64 lengths 1..2048", all, 20)) {
    for (Direction d : {Direction::Forward, Direction::Inverse}) {
      ++i;
      const Problem p = make({n}, precision, 1 + i % 2, d, i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace);
      const Errors e = check(p);
      ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
      ASSERT_LE(e.relative_l2, tolerance(p)) << p.token();
      if (e.relative_l2 > worst) worst = e.relative_l2, worst_token = p.token();
      if (!plan::is_supported_length(n)) worst_bluestein = std::max(worst_bluestein, e.relative_l2);
    }
  }
  std::printf("lengths 1..2048: worst relative L2 error %.3g at %s (Bluestein lengths: %.3g)\n", worst,
              worst_token.c_str(), worst_bluestein);
}

TEST_P(Bluestein, EveryLengthUpTo2048Single) { every_length(Precision::Single); }
TEST_P(Bluestein, EveryLengthUpTo2048Double) { every_length(Precision::Double); }

// The awkward lengths: primes either side of powers of two, 2^20 + 1,
// 1000003, a product of two large primes (101 * 103), a prime times a fast
// length; multi-pass convolutions where M passes one group.
// The quick tier: each precision, each solver class, short and long
// (support/tier.hpp cover).
TEST_P(Bluestein, AwkwardLengths) {
  std::vector<std::pair<Precision, std::int64_t>> cases;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {1009, 4093, 4097, 65521, 65537, 1000003, (1 << 20) + 1, 101 * 103, 17 * 4096, 3 * 1031})
      cases.emplace_back(precision, n);
  int i = 0;
  for (const auto& [precision, n] : cover("awkward lengths", cases, 5, [](const auto& c) {
         return std::vector<std::string>{c.first == Precision::Double ? "fp64" : "fp32", length_class(c.second),
                                         c.second > 100000 ? "long" : "short"};
       })) {
    const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
    const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
    expect_accurate(make({n}, precision, n < 100000 ? 2 : 1, d, placement));
    ++i;
  }
}

// Prime axes in 2D and 3D, both strategies, a strided sub-array and an
// in-place problem; in the quick tier each problem in one precision, drawn.
TEST_P(Bluestein, PrimeAxes) {
  struct Case {
    Problem problem;
    bool transpose;
    int index;  // which of the problems: each is drawn in one precision at least
  };
  std::vector<Case> cases;
  for (Precision precision : {Precision::Single, Precision::Double}) {
    int k = 0;
    auto add = [&](const Problem& p, bool transpose = false) { cases.push_back({p, transpose, k++}); };
    add(make({17, 19, 23}, precision, 2));  // direct radices
    // Bluestein on every axis (p - 1 = 2 x 83, 2 x 41, 2 x 53: no Rader).
    add(make({167, 83, 107}, precision, 2));
    add(make({167, 83, 107}, precision, 1, Direction::Inverse), true);
    add(make({1019, 1031}, precision));
    add(make({1019, 1031}, precision, 1, Direction::Inverse, Placement::InPlace));
    add(make({64, 4099}, precision, 1, Direction::Forward, Placement::InPlace));
    add(make({4099, 6}, precision, 1, Direction::Inverse));
    Problem sub = make({6, 83, 8, 9}, precision, 2);
    sub.axes = {1, 3};
    sub.input.strides = {9000, 100, 10, 1};
    sub.input.distance = 55000;
    sub.output.strides = {1, 6, 498, 3984};  // a transposed output
    sub.output.distance = 36000;
    add(sub);
  }
  PlanOptions transpose = test_options();
  transpose.strategy = Strategy::Transpose;
  for (const Case& c : sample("prime axes", cases, 8, [](const Case& k) { return std::to_string(k.index); }))
    expect_accurate(c.problem, c.transpose ? transpose : test_options());
}

// Small lengths forced through the multi-pass form (chirp load, kernel
// store and chirp store as separate passes through workspace), on 1D, a
// strided axis and in place. The quick tier: each in one precision.
TEST_P(Bluestein, ForcedMultiPass) {
  PrecisionDraw draw("Bluestein.ForcedMultiPass");
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16,bluestein_three=0";  // (a GPU's three passes: ThreePasses)
  for (Precision precision : {Precision::Single, Precision::Double}) {
    for (std::int64_t n : {83, 107, 97, 257}) {
      if (!draw.take(precision)) continue;
      const Problem p = make({n}, precision, 3, n % 2 ? Direction::Forward : Direction::Inverse);
      EXPECT_GE(Plan(device(), p, forced).passes(), 4) << p.token();
      expect_accurate(p, forced);
    }
    if (draw.take(precision)) expect_accurate(make({97}, precision, 2, Direction::Inverse, Placement::InPlace), forced);
    Problem columns = make({37, 12}, precision, 2);
    columns.axes = {0};
    if (draw.take(precision)) expect_accurate(columns, forced);
  }
}

// Three passes (bluestein_three, on GPUs by default; 2 here: every axis,
// the C2R's real one too): the first pass, one kernel over the second pass's
// sub-transforms, the first's inverse; M forced into two passes of at most
// 32 points, forward and inverse, in place, batches, a strided axis and a
// 2D array with a Bluestein axis each way; and once with passes of at most
// 16, where 509's M = 1024 takes three and the form steps aside; R2C and
// C2R axes, in pairs and alone; at 1 the C2R's real axis keeps the two
// FFTs' passes. The quick tier: each complex problem in one
// precision.
TEST_P(Bluestein, ThreePasses) {
  PrecisionDraw draw("Bluestein.ThreePasses");
  PlanOptions forced = test_options();
  forced.limits = "bluestein_three=2,rader=0,max_pass_length=32";
  for (Precision precision : {Precision::Single, Precision::Double}) {
    for (std::int64_t n : {37, 53, 101, 131, 331, 509}) {
      if (!draw.take(precision)) continue;
      const Problem p = make({n}, precision, n % 3 == 0 ? 1 : 3, n % 2 ? Direction::Forward : Direction::Inverse);
      const std::string text = Plan(device(), p, forced).describe();
      EXPECT_NE(text.find("convolved in one kernel"), std::string::npos) << p.token() << "\n" << text;
      expect_accurate(p, forced);
    }
    if (draw.take(precision))
      expect_accurate(make({101}, precision, 2, Direction::Inverse, Placement::InPlace), forced);
    Problem columns = make({37, 12}, precision, 2);
    columns.axes = {0};
    if (draw.take(precision)) expect_accurate(columns, forced);
    if (draw.take(precision)) expect_accurate(make({41, 43}, precision, 2), forced);
  }
  PlanOptions longer = test_options();
  longer.limits = "bluestein_three=2,rader=0,max_pass_length=16";
  expect_accurate(make({509}, Precision::Single, 2), longer);
  // Real axes: the R2C's split over the pairs of sub-transforms (a', (N -
  // a') mod S) of the last pass, two rows a transform, an odd count of rows;
  // one row alone; the C2R's rows.
  for (Kind kind : {Kind::R2C, Kind::C2R})
    for (std::int64_t batch : {1, 3}) {
      Problem p = make({331}, batch == 1 ? Precision::Double : Precision::Single, batch,
                       kind == Kind::C2R ? Direction::Inverse : Direction::Forward);
      p.kind = kind;
      const std::string text = Plan(device(), p, forced).describe();
      EXPECT_NE(text.find("convolved in one kernel"), std::string::npos) << p.token() << "\n" << text;
      EXPECT_EQ(text.find("two rows a transform") != std::string::npos, batch > 1) << p.token() << "\n" << text;
      expect_accurate(p, forced);
      PlanOptions rule = test_options();
      rule.limits = "bluestein_three=1,rader=0,max_pass_length=32";
      const std::string ruled = Plan(device(), p, rule).describe();
      EXPECT_EQ(ruled.find("convolved in one kernel") != std::string::npos, kind == Kind::R2C) << p.token() << "\n"
                                                                                               << ruled;
    }
}

// The three passes along rows (DeviceLimits::bluestein_rows, issue 39's
// knob; solvers/bluestein_rows.cpp): the first and last passes over
// columns, each point back where it was read, the middle pass over
// contiguous rows; M forced into two passes of at most 32 points, both
// precisions, directions and placements, a strided axis, a 2D array with
// a Bluestein axis each way, and the complex axis of a real 2D array (its
// real axis keeps the Stockham order); at 3, the rows as long as one
// kernel goes at any column length (2053's M = 4320, past a CPU's
// 4096-point pass, as 2 columns of 2160-point rows; at 2, the GPUs'
// default, columns that short keep the Stockham order).
TEST_P(Bluestein, ThreePassesAlongRows) {
  PrecisionDraw draw("Bluestein.ThreePassesAlongRows");
  PlanOptions rows = test_options();
  rows.limits = "bluestein_three=2,rader=0,max_pass_length=32,bluestein_rows=1";
  PlanOptions longest = test_options();
  longest.limits = "bluestein_three=2,rader=0,bluestein_rows=3";
  const Problem p2053 = make({2053}, Precision::Single, 3);
  const std::string text2053 = Plan(device(), p2053, longest).describe();
  EXPECT_NE(text2053.find("convolved in one kernel)\n    length 2160 "), std::string::npos) << text2053;
  expect_accurate(p2053, longest);
  expect_accurate(make({2053}, Precision::Double, 2, Direction::Inverse, Placement::InPlace), longest);
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {37, 101, 331, 509}) {
      ++i;
      if (!draw.take(precision)) continue;
      const Problem p = make({n}, precision, 1 + i % 3, i % 2 ? Direction::Forward : Direction::Inverse,
                             (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace);
      const std::string text = Plan(device(), p, rows).describe();
      // (The middle pass reads its rows' points side by side.)
      EXPECT_NE(text.find("convolved in one kernel)\n    length"), std::string::npos) << p.token() << "\n" << text;
      EXPECT_NE(text.find("points 1/1, dims"), std::string::npos) << p.token() << "\n" << text;
      expect_accurate(p, rows);
    }
  Problem columns = make({37, 12}, Precision::Single, 2);
  columns.axes = {0};
  expect_accurate(columns, rows);
  expect_accurate(make({41, 43}, Precision::Double, 2), rows);
  Problem real = make({331, 6}, Precision::Single, 2);
  real.kind = Kind::R2C;
  expect_accurate(real, rows);
  real.kind = Kind::C2R;
  real.direction = Direction::Inverse;
  expect_accurate(real, rows);
}

INSTANTIATE_TEST_SUITE_P(Backends, Bluestein, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
