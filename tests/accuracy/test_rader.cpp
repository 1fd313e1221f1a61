// Primes by Rader's algorithm (plan/solvers/rader.cpp): one kernel of an
// (N - 1)-point convolution, or its FFTs in passes past one kernel, checked like every transform against FFTW
// (double for fp32, long double for fp64) on fresh random data with the
// output poisoned first. The every-length sweeps (test_bluestein.cpp,
// test_real.cpp) reach every Rader prime below 2048 (1024 real); these are
// the issue's lengths, Rader on the axes of arrays and real transforms, and
// Rader on a prime factor of a composite length.
#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

Problem make(std::vector<std::int64_t> shape, Precision precision, std::int64_t batch = 1,
             Direction direction = Direction::Forward, Placement placement = Placement::OutOfPlace,
             Kind kind = Kind::C2C) {
  Problem p;
  p.kind = kind;
  p.shape = std::move(shape);
  p.batch = batch;
  p.precision = precision;
  p.direction = kind == Kind::C2R ? Direction::Inverse : kind == Kind::R2C ? Direction::Forward : direction;
  p.placement = placement;
  return p;
}

class Rader : public Accuracy {};

// p - 1 smooth (257, 641, 2053, 3889, 4093 = 4 x 3 x 11 x 31 + 1; 7681 and
// 65537 past one kernel on a GPU)
// and not (1019, 2027, 8219: Bluestein), forward and inverse, in and out
// of place, batched.
// The quick tier: each precision with Rader in one kernel, past it and
// Bluestein (short and long), both placements and directions among them
// (support/tier.hpp cover).
TEST_P(Rader, IssueLengths) {
  int i = 0;
  std::vector<Problem> problems;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {37, 257, 641, 1021, 2053, 3889, 4093, 7681, 65537, 1019, 2027, 8219}) {
      const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
      const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
      problems.push_back(make({n}, precision, n < 10000 ? 3 : 1, d, placement));
      ++i;
    }
  for (const Problem& p : cover("Rader's lengths", problems, 6, [](const Problem& q) {
         const std::string precision = q.token().substr(4, 3);
         const std::string solver = length_class(q.shape[0]) + (q.shape[0] > 4096 ? " long" : "");
         return std::vector<std::string>{precision + " " + solver, q.placement == Placement::InPlace ? "ip" : "oop",
                                         q.direction == Direction::Inverse ? "inverse" : "forward"};
       }))
    expect_accurate(p);
}

// Prime axes of 2D and 3D arrays (rows and strided columns), and padded
// rows written transposed. The quick tier: each in one precision.
TEST_P(Rader, PrimeAxes) {
  PrecisionDraw draw("Rader.PrimeAxes");
  for (Precision precision : {Precision::Single, Precision::Double}) {
    if (draw.take(precision)) expect_accurate(make({257, 37}, precision, 2));
    if (draw.take(precision)) expect_accurate(make({41, 64, 37}, precision, 1, Direction::Inverse, Placement::InPlace));
    if (!draw.take(precision)) continue;
    Problem rows = make({37, 41}, precision, 3, Direction::Inverse);
    rows.axes = {1};
    rows.input.strides = {48, 1};  // padded rows
    rows.input.distance = 1800;
    rows.output.strides = {1, 37};  // written transposed
    rows.output.distance = 1600;
    expect_accurate(rows);
  }
}

// Real transforms of prime length: R2C's half spectrum and C2R's Hermitian
// loads through the same kernel, 1D and as an axis of an array.
// The quick tier: 8 of the 24 1D problems, each (kind, precision) in and
// out of place; each array in one precision.
TEST_P(Rader, RealTransforms) {
  PrecisionDraw draw("Rader.RealTransforms arrays");
  std::vector<Problem> problems;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (Kind kind : {Kind::R2C, Kind::C2R}) {
      for (std::int64_t n : {37, 257, 1021})
        for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
          problems.push_back(make({n}, precision, 2, Direction::Forward, placement, kind));
      if (draw.take(precision))
        expect_accurate(make({97, 41}, precision, 1, Direction::Forward, Placement::OutOfPlace, kind));
    }
  for (const Problem& p : sample("Rader's real lengths", problems, 8, [](const Problem& q) {
         return q.token().substr(0, 8) + (q.placement == Placement::InPlace ? " ip" : " oop");
       }))
    expect_accurate(p);
}

// Rader past one kernel (the convolution's FFTs in passes over workspace,
// X[0] written by the forward FFT's last pass): forced onto small primes
// with groups of at most 16 points, so each FFT takes two or three passes
// (41's convolution of 40 = 8 x 5 points as well), in both precisions,
// directions and placements, batched with padded rows; then each FFT in
// one pass, and prime axes of arrays. 7681 and 65537 in IssueLengths take
// it unforced on a CPU. The quick tier: each problem in one precision
// (the forced ones still meet both directions and placements).
TEST_P(Rader, PastOneKernel) {
  PrecisionDraw draw("Rader.PastOneKernel");
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16";
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {41, 37, 97, 193, 257, 577}) {
      if (!draw.take(precision)) continue;
      const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
      const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
      Problem p = make({n}, precision, 3, d, placement);
      if (placement == Placement::OutOfPlace) {
        p.input.distance = n + 5;  // padded rows: X[0] and x[0] go by each buffer's own distance
        p.output.distance = n + 11;
      }
      const Plan plan(device(), p, forced);
      EXPECT_GE(plan.passes(), 2) << p.token();
      EXPECT_NE(plan.describe().find("by Rader"), std::string::npos) << plan.describe();
      expect_accurate(p, forced);
      ++i;
    }
  // Each FFT in one pass (as 7681 on a GPU: past the one kernel's
  // registers, within one pass): the first gathers and stores the kernel
  // product, the second scatters.
  PlanOptions split = test_options();
  split.limits = "rader_kernel=64";
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {97, 1153}) {
      if (!draw.take(precision)) continue;
      const Problem p = make({n}, precision, 2, n == 97 ? Direction::Inverse : Direction::Forward,
                             n == 97 ? Placement::InPlace : Placement::OutOfPlace);
      EXPECT_EQ(Plan(device(), p, split).passes(), 2) << p.token();
      expect_accurate(p, split);
    }
  // Prime axes of arrays: rows, strided columns, the middle of three, and
  // padded rows written transposed (x[0] and X[0] by the caller's strides).
  for (Precision precision : {Precision::Single, Precision::Double}) {
    if (draw.take(precision)) expect_accurate(make({97, 5}, precision, 2), split);
    if (draw.take(precision))
      expect_accurate(make({4, 193, 3}, precision, 1, Direction::Inverse, Placement::InPlace), split);
    Problem rows = make({6, 97}, precision, 2, Direction::Inverse);
    rows.axes = {1};
    rows.input.strides = {101, 1};  // padded rows
    rows.input.distance = 700;
    rows.output.strides = {1, 6};  // written transposed
    rows.output.distance = 600;
    if (draw.take(precision)) expect_accurate(rows, split);
    Problem columns = make({97, 4}, precision, 3);
    columns.axes = {0};
    if (draw.take(precision)) expect_accurate(columns, split);
  }
}

// A composite length with one prime factor p above 31 whose p - 1 is
// smooth, past Bluestein's one kernel: Rader's kernel on the first pass's
// p-point sub-transforms, then the Stockham passes of the rest (3700 = 37 x
// 100 .. 74000 = 37 x 2000; m in two passes at 303104 = 37 x 8192), both
// precisions, directions and placements, batched with padded rows; the
// axes of arrays (rows, strided columns, the middle of three); and what
// stays Bluestein's (two large factors, 101 x 103; 3 x 1031, 1030 = 2 x 5
// x 103; 259 = 7 x 37, whose M = 576 fits Bluestein's one kernel).
// The quick tier: each problem in one precision.
TEST_P(Rader, OnAPrimeFactor) {
  PrecisionDraw draw("Rader.OnAPrimeFactor");
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {3700, 4884, 37000, 74000, 303104}) {
      if (!draw.take(precision)) continue;
      const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
      const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
      Problem p = make({n}, precision, n < 10000 ? 3 : 1, d, placement);
      if (placement == Placement::OutOfPlace && n < 10000) {
        p.input.distance = n + 5;
        p.output.distance = n + 11;
      }
      const Plan plan(device(), p);
      EXPECT_NE(plan.describe().find("sub-transforms by Rader"), std::string::npos) << plan.describe();
      expect_accurate(p);
      ++i;
    }
  for (Precision precision : {Precision::Single, Precision::Double}) {
    if (draw.take(precision)) expect_accurate(make({3700, 6}, precision, 2));
    if (draw.take(precision)) expect_accurate(make({5, 4884, 3}, precision, 1, Direction::Inverse, Placement::InPlace));
    Problem columns = make({3700, 4}, precision, 2, Direction::Inverse);
    columns.axes = {0};
    if (draw.take(precision)) expect_accurate(columns);
    for (std::int64_t n : {101 * 103, 3 * 1031, 259}) {
      if (!draw.take(precision)) continue;
      const Problem p = make({n}, precision, 2);
      EXPECT_NE(Plan(device(), p).describe().find("Bluestein"), std::string::npos) << p.token();
      expect_accurate(p);
    }
  }
}

// Real transforms on a prime factor: the first pass's Rader kernel reads
// the reals (R2C) or extends the half spectrum, point ci + jp m of
// sub-transform ci (C2R), and the last pass writes the half spectrum or
// the reals: past the paired rows' Bluestein kernel (8749 = 13 x 673),
// and where a complex axis takes it (real_rader_factor=2, the default:
// 2321 = 11 x 211, 3700 = 37 x 100, 4884 = 37 x 132; 444 = 37 x 12 with
// Bluestein's one kernel held to 64 points); one row a transform, batched
// with padded rows, in and out of place, and a real axis of arrays. The
// quick tier: each problem in one precision.
TEST_P(Rader, RealOnAPrimeFactor) {
  PrecisionDraw draw("Rader.RealOnAPrimeFactor");
  PlanOptions small = test_options();
  small.limits = "convolution=64";
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (Kind kind : {Kind::R2C, Kind::C2R})
      for (std::int64_t n : {2321, 3700, 4884, 444, 8749}) {
        if (!draw.take(precision)) continue;
        const Placement placement = i % 2 ? Placement::InPlace : Placement::OutOfPlace;
        Problem p = make({n}, precision, 3, Direction::Forward, placement, kind);
        if (placement == Placement::OutOfPlace) {
          const std::int64_t half = n / 2 + 1, real = n + 6, complex = half + 10;
          p.input.distance = kind == Kind::R2C ? real : complex;
          p.output.distance = kind == Kind::R2C ? complex : real;
        }
        const PlanOptions options = n == 444 ? small : test_options();
        EXPECT_NE(Plan(device(), p, options).describe().find("sub-transforms by Rader"), std::string::npos)
            << p.token();
        expect_accurate(p, options);
        ++i;
      }
  for (Precision precision : {Precision::Single, Precision::Double})
    for (Kind kind : {Kind::R2C, Kind::C2R}) {
      if (draw.take(precision))
        expect_accurate(make({5, 3700}, precision, 2, Direction::Forward, Placement::OutOfPlace, kind), test_options());
      if (draw.take(precision))
        expect_accurate(make({2321, 3}, precision, 1, Direction::Forward, Placement::InPlace, kind), test_options());
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, Rader, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
