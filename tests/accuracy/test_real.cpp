// Real transforms (R2C forward, C2R inverse; FFTW's r2c / c2r, numpy.fft's
// rfftn / irfftn) against FFTW's guru r2c / c2r (double for fp32, long double
// for fp64) on fresh random data, outputs poisoned first. A C2R's input is
// the half spectrum of a real array (make_hermitian), the same for both.
//
// Two suites: Real (shapes, axes, layouts, placements, norms, the API) and
// RealEveryLength (every length 1..1024), which runs in the ctest entry
// `accuracy` while the complex sweep runs in the other (tests/CMakeLists.txt).
#include <algorithm>
#include <cstdlib>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

using Shape = std::vector<std::int64_t>;

Problem make(Kind kind, Shape shape, Precision precision = Precision::Single, std::int64_t batch = 1,
             std::vector<int> axes = {}, Placement placement = Placement::OutOfPlace, Norm norm = Norm::None) {
  Problem p;
  p.kind = kind;
  p.shape = std::move(shape);
  p.precision = precision;
  p.batch = batch;
  p.axes = std::move(axes);
  p.placement = placement;
  p.norm = norm;
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  return p;
}

constexpr Kind kKinds[] = {Kind::R2C, Kind::C2R};
constexpr Precision kPrecisions[] = {Precision::Single, Precision::Double};

class Real : public Accuracy {
 protected:
  // R2C then C2R, both unnormalised, must give back length() * x.
  template <class T>
  void round_trip(const Shape& shape, std::int64_t batch, Placement placement) const;
  // C2R of raw random data (complex X[0] and X[n/2]) against FFTW on the
  // same data with those imaginary parts zeroed.
  template <class T>
  void ends_imaginary_ignored(std::int64_t n, Placement placement) const;
};

class RealEveryLength : public Accuracy {
 protected:
  void sweep(bool every_combination);
};

// Every length 1..1024 (odd, even, primes and Bluestein lengths alike),
// batches of 1 and 2, out of place. The sweep compiles about one kernel per
// (length, kind, precision), at about 0.9 s of CPU each on PoCL (measured
// 2026-11-22: both kinds of every length in fp32 were 762 kernels, 11.5 CPU
// minutes), so the exhaustive tier runs each length once: the (kind,
// precision) of n cycles with (n + n/4) % 4, so each of the four
// combinations meets every residue of n modulo 4 (odd n, even n with odd
// and even n/2) over the whole range. The quick tier runs 16 or more
// lengths meeting every solver class and size bucket, every class with
// each parity, and each (kind, precision) (support/tier.hpp cover).
// All four for every length is a disabled test, for faster compilers
// (--gtest_also_run_disabled_tests).
void RealEveryLength::sweep(bool every_combination) {
  double worst[2] = {0, 0};
  std::string worst_token[2];
  int problems = 0;
  std::vector<std::int64_t> all;
  for (std::int64_t n = 1; n <= 1024; ++n) all.push_back(n);
  const auto lengths = every_combination ? all : cover("real lengths 1..1024", all, 16, [](std::int64_t n) {
    return std::vector<std::string>{length_stratum(n), length_class(n) + (n % 2 ? " odd" : " even"),
                                    "kind and precision " + std::to_string((n + n / 4) % 4)};
  });
  for (std::int64_t n : lengths)
    for (int c = 0; c < 4; ++c) {
      if (!every_combination && c != (n + n / 4) % 4) continue;
      const Precision precision = c / 2 ? Precision::Double : Precision::Single;
      const Problem p = make(c % 2 ? Kind::C2R : Kind::R2C, {n}, precision, 1 + (n / 8) % 2);
      const Errors e = check(p);
      ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
      ASSERT_LE(e.relative_l2, tolerance(p)) << p.token() << " (max error " << e.relative_max << ")";
      if (e.relative_l2 > worst[c / 2]) worst[c / 2] = e.relative_l2, worst_token[c / 2] = p.token();
      ++problems;
    }
  std::printf("real lengths 1..1024, %d problems: worst relative L2 error fp32 %.3g at %s, fp64 %.3g at %s\n", problems,
              worst[0], worst_token[0].c_str(), worst[1], worst_token[1].c_str());
}

TEST_P(RealEveryLength, EveryLengthUpTo1024) { sweep(false); }
TEST_P(RealEveryLength, DISABLED_EveryLengthUpTo1024BothKindsBothPrecisions) { sweep(true); }

// The shapes: odd and even real axes, a Bluestein or Rader axis
// beside the real one (83, 37) and on it (83, 83 * 2), a 31-point codelet
// on it, batches. The quick tier, here and in the tests below that say so:
// each problem in one precision (support/tier.hpp, PrecisionDraw).
TEST_P(Real, Shapes2DAnd3D) {
  PrecisionDraw draw("Real.Shapes2DAnd3D");
  const std::vector<std::pair<Shape, std::int64_t>> shapes{{{513, 511}, 1},   {{64, 64, 63}, 1}, {{83, 64}, 2},
                                                           {{100, 37, 8}, 1}, {{64, 83}, 2},     {{10, 166}, 1},
                                                           {{8, 31}, 2}};
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds)
      for (const auto& [shape, batch] : shapes)
        if (draw.take(precision)) expect_accurate(make(kind, shape, precision, batch));
}

// The real axis is the last of `axes` as given (numpy.fft.rfftn), so it need
// not be the array's last axis; out of place any axis can be the halved one.
// The quick tier: each problem in one precision.
TEST_P(Real, RealAxisNotLast) {
  PrecisionDraw draw("Real.RealAxisNotLast");
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds) {
      auto check = [&](const Problem& p) {
        if (draw.take(precision)) expect_accurate(p);
      };
      check(make(kind, {12, 10}, precision, 1, {1, 0}));      // axis 0 halved
      check(make(kind, {12, 10}, precision, 2, {0}));         // axis 0 only, axis 1 a batch axis
      check(make(kind, {11, 6}, precision, 1, {-1, -2}));     // odd halved axis, negative axes
      check(make(kind, {6, 5, 8}, precision, 2, {2, 0, 1}));  // axes out of order: axis 1 halved
      check(make(kind, {8, 6, 10}, precision, 1, {-1, -3}));  // axis 0 halved, axis 1 a batch axis
      check(make(kind, {6, 5, 8, 9}, precision, 1, {1, 3}));  // rank 4, two batch axes
      check(make(kind, {37, 12}, precision, 1, {-1, 0}));     // a Bluestein halved axis
    }
}

// The quick tier: each problem in one precision.
TEST_P(Real, Batched) {
  PrecisionDraw draw("Real.Batched");
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds)
      for (const Problem& p : {make(kind, {1000}, precision, 5), make(kind, {4096}, precision, 3),
                               make(kind, {16, 12}, precision, 3), make(kind, {5, 7, 6}, precision, 4, {0, 2})})
        if (draw.take(precision)) expect_accurate(p);
}

// Odd real axes two rows a transform (pieces/row_pairs.cpp; rows of 256
// points or more, and Bluestein's of any length): one Stockham pass,
// Bluestein's one kernel, Bluestein's passes (the R2C split over pairs of
// sub-transforms), Stockham past one pass (C2R only), an odd count of rows
// (the last pair without row b) along the batch and along an axis, in
// place. Each plan must pair where it can, so a planner that stopped
// pairing fails here, not only in the benchmarks. The quick tier: each
// problem in one precision.
TEST_P(Real, TwoRowsATransform) {
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16";
  struct Case {
    Shape shape;
    std::int64_t batch;
    Placement placement;
    bool forced;
  };
  const Case cases[] = {{{1001}, 3, Placement::OutOfPlace, false},   {{625}, 4, Placement::OutOfPlace, false},
                        {{1177}, 5, Placement::OutOfPlace, false},   {{4173}, 3, Placement::OutOfPlace, false},
                        {{5, 273}, 1, Placement::OutOfPlace, false}, {{3, 7, 297}, 2, Placement::OutOfPlace, false},
                        {{999}, 3, Placement::InPlace, false},       {{1177}, 2, Placement::InPlace, false},
                        {{275}, 3, Placement::OutOfPlace, true},     {{1025}, 5, Placement::OutOfPlace, true},
                        {{997}, 2, Placement::InPlace, true}};
  PrecisionDraw draw("Real.TwoRowsATransform");
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds)
      for (const Case& c : cases) {
        if (!draw.take(precision)) continue;
        const Problem p = make(kind, c.shape, precision, c.batch, {}, c.placement);
        const PlanOptions options = c.forced ? forced : test_options();
        const std::string text = Plan(device(), p, options).describe();
        // (An R2C whose real axis takes several Stockham passes does not
        // pair; Bluestein's passes do; Rader's on a prime factor do not.
        // 1177 = 11 x 107 and 4173 = 3 x 13 x 107: 106 = 2 x 53 keeps them
        // Bluestein's.)
        const bool one_pass = text.find(", pass 1 of") == std::string::npos;
        const bool pairs = (kind == Kind::C2R || one_pass || text.find("by Bluestein") != std::string::npos) &&
                           text.find("sub-transforms by Rader") == std::string::npos;
        EXPECT_EQ(text.find("two rows a transform") != std::string::npos, pairs) << p.token() << "\n" << text;
        expect_accurate(p, options);
      }
}

// Short real rows as one block through local memory (KernelSpec::
// real_block; a GPU's choice for rows of a few threads, forced here on
// every device): odd lengths 3 to 243 (even ones go packed), batches that
// leave the last group part full, both kinds and precisions, and two
// shapes whose real rows lie end to end across an axis.
TEST_P(Real, BlockRows) {
  PlanOptions forced = test_options();
  forced.limits = "real_block=100000";
  int i = 0;
  std::vector<Problem> problems;
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds)
      for (std::int64_t n : {3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 27, 31, 45, 63, 81, 125, 243}) {
        problems.push_back(make(kind, {n}, precision, 1 + 37 * (i % 5)));
        ++i;
      }
  // The quick tier: 16 of the 68, each (kind, precision) with one row and with many.
  for (const Problem& p : sample("real rows in one block", problems, 16, [](const Problem& q) {
         return q.token().substr(0, 8) + (q.batch == 1 ? " one" : " many");
       })) {
    const std::string text = Plan(device(), p, forced).describe();
    if (p.batch > 1) EXPECT_NE(text.find("real block"), std::string::npos) << p.token() << "\n" << text;
    expect_accurate(p, forced);
  }
  for (Kind kind : kKinds) {
    expect_accurate(make(kind, {6, 15}, Precision::Single, 3), forced);
    expect_accurate(make(kind, {4, 5, 27}, Precision::Double, 2), forced);
  }
}

// Explicit strides and distances on either side (cuFFT's advanced layout),
// counted in elements of each side: reals on the real side.
// The quick tier: each block (an R2C and the C2R back) in one precision.
TEST_P(Real, StridedLayouts) {
  PrecisionDraw draw("Real.StridedLayouts");
  for (Precision precision : kPrecisions) {
    if (draw.take(precision)) {
      // A 48x40 real array inside rows of 44, arrays 50 rows + 7 apart; the
      // complex side contiguous. And back into the same embedding.
      Problem r2c = make(Kind::R2C, {48, 40}, precision, 3);
      r2c.input.strides = {44, 1};
      r2c.input.distance = 50 * 44 + 7;
      expect_accurate(r2c);
      Problem c2r = make(Kind::C2R, {48, 40}, precision, 3);
      c2r.input.strides = {24, 1};  // 21 complex points in rows of 24
      c2r.input.distance = 48 * 24 + 5;
      c2r.output = r2c.input;
      expect_accurate(c2r);
    }
    if (draw.take(precision)) {
      // The complex side transposed (column-major) and the real side every
      // other element, rows 130 apart.
      Problem r2c = make(Kind::R2C, {30, 64}, precision, 2);
      r2c.output.strides = {1, 30};
      r2c.input.strides = {130, 2};
      r2c.input.distance = 30 * 130;
      expect_accurate(r2c);
      Problem c2r = make(Kind::C2R, {30, 64}, precision, 2);
      c2r.input.strides = {1, 30};
      c2r.output.strides = {130, 2};
      c2r.output.distance = 30 * 130;
      expect_accurate(c2r);
    }
    if (draw.take(precision)) {
      // Two interleaved 1D signals (distance 1), each point 2 apart.
      Problem r2c = make(Kind::R2C, {64}, precision, 2);
      r2c.input.strides = {2};
      r2c.input.distance = 1;
      r2c.output.strides = {3};
      r2c.output.distance = 1;
      expect_accurate(r2c);
      Problem c2r = make(Kind::C2R, {63}, precision, 2);
      c2r.input = r2c.output;
      c2r.output = r2c.input;
      expect_accurate(c2r);
    }
    for (Kind kind : kKinds) {
      if (!draw.take(precision)) continue;
      // A rank-4 sub-array, axes 1 and 3 (3 halved, odd), the complex side
      // transposed; and a halved axis 0 with a transposed complex side.
      const bool r2c = kind == Kind::R2C;
      Problem p = make(kind, {6, 29, 8, 9}, precision, 2, {1, 3});
      Layout real_side{{3000, 100, 10, 1}, 19000}, complex_side{{1, 6, 174, 1392}, 1392 * 5};
      p.input = r2c ? real_side : complex_side;
      p.output = r2c ? complex_side : real_side;
      expect_accurate(p);
      Problem q = make(kind, {12, 10}, precision, 2, {1, 0});
      Layout transposed{{1, 7}, 80};  // the 7x10 complex side, column-major, arrays 80 apart
      (r2c ? q.output : q.input) = transposed;
      (r2c ? q.input : q.output) = Layout{{11, 1}, 12 * 11};
      expect_accurate(q);
    }
  }
}

// Real axes beyond one pass: the packed form on n/2 over several passes, the
// complex form of odd and Bluestein lengths with real first and last passes,
// and past 2^20 points.
// The quick tier: 8 of the 28 problems, each (kind, precision) with an
// even and an odd length.
TEST_P(Real, LongAxes) {
  int i = 0;
  std::vector<Problem> problems;
  for (Precision precision : kPrecisions)
    for (std::int64_t n : std::vector<std::int64_t>{1 << 20, 1000000, 65536 + 2, 2 * 4093, 65537, 3 * 4099, 8192 + 1})
      for (Kind kind : kKinds) {
        const Placement placement = ++i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace;
        problems.push_back(make(kind, {n}, precision, n < 100000 ? 2 : 1, {}, placement));
      }
  for (const Problem& p : sample("long real axes", problems, 8, [](const Problem& q) {
         return q.token().substr(0, 8) + (q.shape[0] % 2 ? " odd" : " even");
       }))
    expect_accurate(p);
  expect_accurate(make(Kind::R2C, {3, 65536}, Precision::Single, 1, {1, 0}));
  expect_accurate(make(Kind::C2R, {4096, 12}, Precision::Single, 1, {1, 0}));
}

// Small lengths forced through several passes (one group limited to 16
// points): even n as n/2-point passes with the split fused into the last
// (n/2 even and odd: 486, 2002), odd and Bluestein n with real first and
// last passes.
// The quick tier: the 1D problems meeting every length, each (kind,
// precision), each kind with an even and an odd length, and both
// placements (support/tier.hpp cover).
TEST_P(Real, ForcedMultiPass) {
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16";
  std::vector<Problem> problems;
  for (Precision precision : kPrecisions)
    for (std::int64_t n : {64, 100, 1000, 4096, 486, 2002, 243, 58, 97})
      for (Kind kind : kKinds)
        for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
          problems.push_back(make(kind, {n}, precision, 3, {}, placement));
  for (const Problem& p : cover("real lengths in forced passes", problems, 6, [](const Problem& q) {
         const std::string kind = q.token().substr(0, 8), parity = q.shape[0] % 2 ? " odd" : " even";
         return std::vector<std::string>{kind, kind.substr(0, 3) + parity,
                                         q.placement == Placement::InPlace ? "ip" : "oop", std::to_string(q.shape[0])};
       })) {
    EXPECT_GE(Plan(device(), p, forced).passes(), 2) << p.token();
    expect_accurate(p, forced);
  }
  for (Kind kind : kKinds) {
    expect_accurate(make(kind, {40, 64}, Precision::Single, 2), forced);
    expect_accurate(make(kind, {64, 40}, Precision::Single, 1, {1, 0}), forced);
    expect_accurate(make(kind, {32, 6, 50}, Precision::Double, 1, {0, 2}, Placement::InPlace), forced);
  }
}

// In place, FFTW's and cuFFT's layout: the complex side contiguous, real rows
// padded to 2 * (n/2 + 1) reals. The quick tier: each in one precision.
TEST_P(Real, InPlacePadded) {
  PrecisionDraw draw("Real.InPlacePadded");
  const std::vector<std::pair<Shape, std::int64_t>> shapes{
      {{1024}, 1},   {{1000}, 3},   {{999}, 2},    {{7}, 2},          {{1}, 2},      {{2}, 1},
      {{64, 48}, 1}, {{63, 30}, 2}, {{31, 17}, 1}, {{16, 12, 10}, 2}, {{8, 6, 7}, 1}};
  for (Precision precision : kPrecisions)
    for (Kind kind : kKinds)
      for (const auto& [shape, batch] : shapes)
        if (draw.take(precision)) expect_accurate(make(kind, shape, precision, batch, {}, Placement::InPlace));
  // The last axis halved with another transformed axis before it, given by
  // negative indices, and one batch axis.
  for (Kind kind : kKinds) expect_accurate(make(kind, {6, 5, 8}, Precision::Single, 2, {0, -1}, Placement::InPlace));
}

TEST_P(Real, NormalisationsMatchNumPy) {
  for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
    for (Kind kind : kKinds) {
      expect_accurate(make(kind, {1000}, Precision::Single, 2, {}, Placement::OutOfPlace, norm));
      expect_accurate(make(kind, {999}, Precision::Double, 1, {}, Placement::InPlace, norm));
      expect_accurate(make(kind, {30, 20}, Precision::Single, 1, {1, 0}, Placement::OutOfPlace, norm));
      expect_accurate(make(kind, {65536}, Precision::Single, 1, {}, Placement::InPlace, norm));  // more than one pass
    }
}

template <class T>
void Real::round_trip(const Shape& shape, std::int64_t batch, Placement placement) const {
  const Precision precision = sizeof(T) == sizeof(float) ? Precision::Single : Precision::Double;
  const Problem forward = make(Kind::R2C, shape, precision, batch, {}, placement);
  const Problem inverse = make(Kind::C2R, shape, precision, batch, {}, placement);
  const Plan r2c(device(), forward), c2r(device(), inverse);
  std::vector<T> x(static_cast<std::size_t>(forward.input_extent())), back(x.size());
  if constexpr (sizeof(T) == sizeof(float))
    x = random_real_data(x.size());
  else
    x = random_real_data_f64(x.size());
  std::vector<std::complex<T>> spectrum(static_cast<std::size_t>(forward.output_extent()));
  poison(spectrum);
  poison(back);
  r2c.execute_host(x.data(), spectrum.data());
  c2r.execute_host(spectrum.data(), back.data());
  // Compare where the real layout addresses elements (in place, not the padding).
  Expected expected;
  expected.offsets = element_offsets(shape, batch, forward.input_layout());
  const double n = static_cast<double>(forward.length());
  for (std::int64_t offset : expected.offsets)
    expected.values.push_back(n * static_cast<double>(x[static_cast<std::size_t>(offset)]));
  const Errors e = compare(back, expected);
  EXPECT_TRUE(e.finite) << inverse.token() << " after " << forward.token();
  EXPECT_LE(e.relative_l2, 2 * tolerance(forward)) << "irfftn(rfftn(x)) for " << forward.token();
}

// The quick tier: each in one precision.
TEST_P(Real, RoundTripGivesBackNTimesTheInput) {
  PrecisionDraw draw("Real.RoundTrip");
  for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
    for (const auto& [shape, batch] : std::vector<std::pair<Shape, std::int64_t>>{
             {{1}, 2}, {{2}, 1}, {{7}, 2}, {{120}, 1}, {{1024}, 2}, {{4097}, 1}, {{31, 64}, 1}, {{8, 6, 7}, 2}}) {
      if (draw.take(Precision::Single)) round_trip<float>(shape, batch, placement);
      if (draw.take(Precision::Double)) round_trip<double>(shape, batch, placement);
    }
}

template <class T>
void Real::ends_imaginary_ignored(std::int64_t n, Placement placement) const {
  const Precision precision = sizeof(T) == sizeof(float) ? Precision::Single : Precision::Double;
  const Problem p = make(Kind::C2R, {n}, precision, 2, {}, placement);
  const Plan plan(device(), p);
  std::vector<std::complex<T>> raw;
  if constexpr (sizeof(T) == sizeof(float))
    raw = random_data(static_cast<std::size_t>(p.input_extent()));
  else
    raw = random_data_f64(static_cast<std::size_t>(p.input_extent()));
  std::vector<std::complex<T>> zeroed = raw;
  make_hermitian(p, zeroed);  // in 1D: only the imaginary parts of X[0] and X[n/2] go
  std::vector<T> out(static_cast<std::size_t>(p.output_extent()));
  poison(out);
  plan.execute_host(raw.data(), out.data());
  const Errors e = compare(out, fftw_reference(p, zeroed), p.scale());
  EXPECT_TRUE(e.finite) << p.token();
  EXPECT_LE(e.relative_l2, tolerance(p)) << p.token() << ": C2R must use only the real parts of X[0] and X[n/2]";
}

// numpy.fft.irfft and pocketfft take only the real parts of X[0] and (n
// even) X[n/2]; so must C2R. The quick tier: each in one precision.
TEST_P(Real, C2rIgnoresImaginaryPartsOfTheEnds) {
  PrecisionDraw draw("Real.C2rIgnoresImaginaryPartsOfTheEnds");
  for (std::int64_t n : {1, 2, 8, 9, 1000, 1001, 4096, 4099})
    for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
      if (draw.take(Precision::Single)) ends_imaginary_ignored<float>(n, placement);
      if (draw.take(Precision::Double)) ends_imaginary_ignored<double>(n, placement);
    }
}

// The device-buffer API (not only execute_host): each side's bytes from
// input_extent() * input_element_bytes(), one buffer in place, and a C2R
// leaves its input buffer as it was.
TEST_P(Real, DeviceBuffers) {
  {
    const Problem p = make(Kind::R2C, {64, 48}, Precision::Single, 2);
    const Plan plan(device(), p);
    const std::size_t in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes();
    EXPECT_EQ(in_bytes, 2u * 64 * 48 * 4);
    EXPECT_EQ(out_bytes, 2u * 64 * 25 * 8);
    const std::vector<float> x = random_real_data(static_cast<std::size_t>(p.input_extent()));
    std::vector<std::complex<float>> y(static_cast<std::size_t>(p.output_extent()));
    poison(y);
    Buffer in(device(), in_bytes), out(device(), out_bytes);
    in.write(x.data(), in_bytes);
    out.write(y.data(), out_bytes);
    plan.execute(in, out);
    device().synchronize();
    out.read(y.data(), out_bytes);
    const Errors e = compare(y, fftw_reference(p, x));
    EXPECT_TRUE(e.finite) << p.token();
    EXPECT_LE(e.relative_l2, kTolerance) << p.token();
    Buffer short_in(device(), in_bytes - 4), short_out(device(), out_bytes - 8);
    EXPECT_THROW(plan.execute(short_in, out), Error) << p.token() << ": input buffer one real short";
    EXPECT_THROW(plan.execute(in, short_out), Error) << p.token() << ": output buffer one complex point short";
  }
  {
    const Problem p = make(Kind::C2R, {64, 48}, Precision::Double, 2);
    const Plan plan(device(), p);
    const std::size_t in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes();
    std::vector<std::complex<double>> x = random_data_f64(static_cast<std::size_t>(p.input_extent()));
    make_hermitian(p, x);
    std::vector<double> y(static_cast<std::size_t>(p.output_extent()));
    poison(y);
    Buffer in(device(), in_bytes), out(device(), out_bytes);
    in.write(x.data(), in_bytes);
    out.write(y.data(), out_bytes);
    plan.execute(in, out);
    device().synchronize();
    out.read(y.data(), out_bytes);
    const Errors e = compare(y, fftw_reference(p, x));
    EXPECT_TRUE(e.finite) << p.token();
    EXPECT_LE(e.relative_l2, kToleranceF64) << p.token();
    std::vector<std::complex<double>> after(x.size());
    in.read(after.data(), in_bytes);
    EXPECT_TRUE(after == x) << p.token() << ": C2R changed its input buffer";
  }
  {
    // In place: one buffer of the larger side, the same buffer twice.
    const Problem p = make(Kind::R2C, {1000}, Precision::Single, 3, {}, Placement::InPlace);
    const Plan plan(device(), p);
    const std::size_t in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes();
    EXPECT_EQ(in_bytes, (2u * 1002 + 1000) * 4);
    EXPECT_EQ(out_bytes, 3u * 501 * 8);
    const std::vector<float> x = random_real_data(static_cast<std::size_t>(p.input_extent()));
    Buffer both(device(), std::max(in_bytes, out_bytes));
    both.write(x.data(), in_bytes);
    plan.execute(both, both);
    device().synchronize();
    std::vector<std::complex<float>> y(static_cast<std::size_t>(p.output_extent()));
    both.read(y.data(), out_bytes);
    const Errors e = compare(y, fftw_reference(p, x));
    EXPECT_TRUE(e.finite) << p.token();
    EXPECT_LE(e.relative_l2, kTolerance) << p.token();
  }
}

// What a caller asks a plan's problem before allocating: shapes and element
// sizes of each side; execute_host with the wrong element types is refused.
TEST_P(Real, ShapesAndTypesOfAPlan) {
  const Plan r2c(device(), make(Kind::R2C, {513, 511}, Precision::Single, 2));
  EXPECT_EQ(r2c.problem().input_shape(), (Shape{513, 511}));
  EXPECT_EQ(r2c.problem().output_shape(), (Shape{513, 256}));
  EXPECT_EQ(r2c.problem().input_element_bytes(), 4u);
  EXPECT_EQ(r2c.problem().output_element_bytes(), 8u);
  EXPECT_EQ(r2c.problem().output_extent(), 2 * 513 * 256);
  const Plan c2r(device(), make(Kind::C2R, {12, 10}, Precision::Double, 1, {1, 0}));
  EXPECT_EQ(c2r.problem().real_axis(), 0);
  EXPECT_EQ(c2r.problem().input_shape(), (Shape{7, 10}));
  EXPECT_EQ(c2r.problem().output_shape(), (Shape{12, 10}));
  EXPECT_EQ(c2r.problem().input_element_bytes(), 16u);
  EXPECT_EQ(c2r.problem().output_element_bytes(), 8u);

  std::vector<std::complex<float>> c(2 * 513 * 511);
  std::vector<float> r(2 * 513 * 511);
  std::vector<double> rd(2 * 513 * 511);
  EXPECT_THROW(r2c.execute_host(c.data(), c.data()), Error) << "complex input to an r2c plan";
  EXPECT_THROW(r2c.execute_host(c.data(), r.data()), Error) << "c2r types on an r2c plan";
  std::vector<std::complex<double>> cd(2 * 7 * 10);
  EXPECT_THROW(c2r.execute_host(cd.data(), cd.data()), Error) << "complex output from a c2r plan";
  EXPECT_THROW(c2r.execute_host(rd.data(), cd.data()), Error) << "r2c types on a c2r plan";
  std::vector<std::complex<float>> cf(2 * 7 * 10);
  EXPECT_THROW(c2r.execute_host(cf.data(), r.data()), Error) << "single-precision data on a double plan";
  // The transpose strategy (the seeds' row-column baseline) is complex only.
  PlanOptions transpose = test_options();
  transpose.strategy = Strategy::Transpose;
  try {
    Plan(device(), make(Kind::R2C, {64, 48}), transpose);
    ADD_FAILURE() << "the transpose strategy planned a real transform";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
  }
  // A C2C plan takes no real data.
  Problem c2c;
  c2c.shape = {16};
  const Plan complex_plan(device(), c2c);
  EXPECT_THROW(complex_plan.execute_host(r.data(), c.data()), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, Real, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, RealEveryLength, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
