// The DCT and DST, types 1 to 4, both directions, every norm and
// orthogonalize, against direct O(n^2) sums in long double of scipy.fft's
// definitions (stated here apart from the library: docs/MUTATIONS.md), on
// fresh random data with the output poisoned (NaN) first.
//
// Suites: R2REveryLength (every length 1..300 through the generic tier's
// FFTs, which compile nothing a length, and a sample with the specialised
// kernels), R2R (past one kernel, N-D with mixed axes, strided layouts, in
// place, the token and the errors).
#include <algorithm>
#include <cmath>
#include <random>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

using Shape = std::vector<std::int64_t>;
using Real = long double;

constexpr Family kFamilies[] = {Family::DCT, Family::DST};
constexpr Norm kNorms[] = {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward};

// cos and sin of pi m / den, m reduced exactly mod 2 den, from a table.
class Angles {
 public:
  explicit Angles(std::int64_t den) : den_(den), cos_(2 * den), sin_(2 * den) {
    const Real pi = 3.141592653589793238462643383279502884L;
    for (std::int64_t m = 0; m < 2 * den; ++m) {
      cos_[m] = std::cos(pi * m / den);
      sin_[m] = std::sin(pi * m / den);
    }
  }
  Real cos(std::int64_t m) const { return cos_[static_cast<std::size_t>(m % (2 * den_))]; }
  Real sin(std::int64_t m) const { return sin_[static_cast<std::size_t>(m % (2 * den_))]; }

 private:
  std::int64_t den_;
  std::vector<Real> cos_, sin_;
};

// scipy.fft's unnormalised type `type` (the one computed: an inverse of
// type 2 is type 3) of x, at the outputs `ks`.
std::vector<Real> direct(Family family, int type, const std::vector<Real>& x, const std::vector<std::int64_t>& ks) {
  const auto n = static_cast<std::int64_t>(x.size());
  const bool dct = family == Family::DCT;
  const std::int64_t den = type == 1 ? (dct ? n - 1 : n + 1) : type == 4 ? 4 * n : 2 * n;
  const Angles a(den);
  std::vector<Real> y;
  for (std::int64_t k : ks) {
    Real sum = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      Real term = 0;
      switch (type) {
        case 1:
          if (dct)
            term = (j == 0 || j == n - 1 ? 1 : 2) * a.cos(k * j);  // x0 + (-1)^k x[n-1] + 2 sum
          else
            term = 2 * a.sin((k + 1) * (j + 1));
          break;
        case 2:
          term = 2 * (dct ? a.cos(k * (2 * j + 1)) : a.sin((k + 1) * (2 * j + 1)));
          break;
        case 3:
          if (dct)
            term = (j == 0 ? 1 : 2) * a.cos((2 * k + 1) * j);
          else
            term = j == n - 1 ? ((k & 1) ? -1 : 1) : 2 * a.sin((2 * k + 1) * (j + 1));
          break;
        default:
          term = 2 * (dct ? a.cos((2 * k + 1) * (2 * j + 1)) : a.sin((2 * k + 1) * (2 * j + 1)));
      }
      if (dct && type == 1 && n == 1) term = 1;
      sum += term * x[static_cast<std::size_t>(j)];
    }
    y.push_back(sum);
  }
  return y;
}

// The type an R2R problem computes, scipy's orthogonalize factors, and the
// norm's factor (scipy's: "backward" scales the inverse by 1/n', "forward"
// the forward, "ortho" both by 1/sqrt(n'), n' the product over the axes of
// 2(n-1) for DCT-I, 2(n+1) for DST-I, else 2n; none never).
int computed_type(const Problem& p) {
  return p.direction == Direction::Inverse && (p.type == 2 || p.type == 3) ? 5 - p.type : p.type;
}

Real norm_factor(const Problem& p) {
  Real n = 1;
  for (int a : p.transform_axes()) {
    const Real m = static_cast<Real>(p.shape[static_cast<std::size_t>(a)]);
    n *= p.type != 1 ? 2 * m : p.family == Family::DCT ? 2 * (m - 1) : 2 * (m + 1);
  }
  const bool forward = p.direction == Direction::Forward;
  if (p.norm == Norm::Ortho) return 1 / std::sqrt(n);
  if ((p.norm == Norm::Backward && !forward) || (p.norm == Norm::Forward && forward)) return 1 / n;
  return 1;
}

// One line's transform with orthogonalize, at outputs `ks`.
std::vector<Real> line_transform(const Problem& p, std::vector<Real> x, const std::vector<std::int64_t>& ks) {
  const int type = computed_type(p);
  const bool dct = p.family == Family::DCT;
  const Real root2 = std::sqrt(Real(2));
  const std::size_t last = x.size() - 1;
  if (p.orthogonalize) {
    if (dct && (type == 1 || type == 3)) x[0] *= root2;
    if (dct && type == 1) x[last] *= root2;
    if (!dct && type == 3) x[last] *= root2;
  }
  std::vector<Real> y = direct(p.family, type, x, ks);
  if (p.orthogonalize)
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const auto k = static_cast<std::size_t>(ks[i]);
      if (dct && (type == 1 || type == 2) && k == 0) y[i] /= root2;
      if (((dct && type == 1) || (!dct && type == 2)) && k == last) y[i] /= root2;
    }
  return y;
}

// The offsets of a side's elements in logical order (batch outermost, then
// the shape's axes), from its resolved layout.
std::vector<std::int64_t> offsets(const Problem& p, const Layout& layout) {
  std::vector<std::int64_t> out{0};
  std::vector<std::int64_t> extents{p.batch}, strides{layout.distance};
  for (int a = 0; a < p.rank(); ++a) {
    extents.push_back(p.shape[static_cast<std::size_t>(a)]);
    strides.push_back(layout.strides[static_cast<std::size_t>(a)]);
  }
  for (std::size_t d = 0; d < extents.size(); ++d) {
    std::vector<std::int64_t> next;
    for (std::int64_t o : out)
      for (std::int64_t i = 0; i < extents[d]; ++i) next.push_back(o + i * strides[d]);
    out.swap(next);
  }
  return out;
}

double tolerance(const Problem& p) { return p.precision == Precision::Double ? kToleranceF64 : kTolerance; }

class R2RTest : public BackendTest {
 protected:
  // Runs p on fresh data; the reference at every output (or, for a long 1D
  // axis, at `sampled` outputs drawn at random, each an O(n) sum).
  Errors check(const Problem& p, const PlanOptions& options = test_options(), std::size_t sampled = 0) const {
    try {
      return p.precision == Precision::Double ? run<double>(p, options, sampled) : run<float>(p, options, sampled);
    } catch (const std::exception& e) {
      ADD_FAILURE() << p.token() << ": " << e.what();
      Errors failed;
      failed.finite = false;
      return failed;
    }
  }

  Errors expect_accurate(const Problem& p, const PlanOptions& options = test_options(), std::size_t sampled = 0) const {
    const Errors e = check(p, options, sampled);
    EXPECT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, tolerance(p)) << p.token() << " (max error " << e.relative_max << ")";
    return e;
  }

 private:
  template <class T>
  Errors run(const Problem& p, const PlanOptions& options, std::size_t sampled) const {
    const Plan plan(device(), p, options);
    std::vector<T> input(static_cast<std::size_t>(p.input_extent()));
    const std::vector<T> data = [&] {
      if constexpr (std::is_same<T, float>::value)
        return random_real_data(input.size());
      else
        return random_real_data_f64(input.size());
    }();
    input = data;
    std::vector<T> output(static_cast<std::size_t>(p.output_extent()));
    poison(output);
    const T* source = input.data();
    if (p.placement == Placement::InPlace) {
      output = input;
      source = output.data();
    }
    plan.execute_host(source, output.data());

    const std::vector<std::int64_t> in_at = offsets(p, p.input_layout()), out_at = offsets(p, p.output_layout());
    std::vector<Real> values(in_at.size());
    for (std::size_t i = 0; i < in_at.size(); ++i) values[i] = input[static_cast<std::size_t>(in_at[i])];
    // The reference, axis by axis over the logical array (dims: batch, axes).
    std::vector<std::int64_t> extents{p.batch};
    for (std::int64_t e : p.shape) extents.push_back(e);
    const std::vector<int> axes = p.transform_axes();
    std::vector<bool> compared(values.size(), true);
    for (int axis : axes) {
      const std::size_t d = static_cast<std::size_t>(axis) + 1;
      std::int64_t inner = 1;
      for (std::size_t e = d + 1; e < extents.size(); ++e) inner *= extents[e];
      const std::int64_t n = extents[d], outer = static_cast<std::int64_t>(values.size()) / (n * inner);
      std::vector<std::int64_t> ks;
      if (sampled > 0 && axes.size() == 1 && static_cast<std::size_t>(n) > sampled) {
        std::mt19937_64 engine = engine_for("R2R.sampled." + p.token());
        for (std::size_t s = 0; s < sampled; ++s) ks.push_back(static_cast<std::int64_t>(engine() % n));
        ks.push_back(0);
        ks.push_back(n - 1);
        std::sort(ks.begin(), ks.end());
        ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
      } else {
        for (std::int64_t k = 0; k < n; ++k) ks.push_back(k);
      }
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
          std::vector<Real> line(static_cast<std::size_t>(n));
          auto at = [&](std::int64_t j) { return static_cast<std::size_t>((o * n + j) * inner + i); };
          for (std::int64_t j = 0; j < n; ++j) line[static_cast<std::size_t>(j)] = values[at(j)];
          const std::vector<Real> y = line_transform(p, line, ks);
          if (ks.size() < static_cast<std::size_t>(n))
            for (std::int64_t j = 0; j < n; ++j) compared[at(j)] = false;
          for (std::size_t s = 0; s < ks.size(); ++s) {
            values[at(ks[s])] = y[s];
            compared[at(ks[s])] = true;
          }
        }
    }
    const Real factor = norm_factor(p);
    Real err = 0, ref = 0, err_max = 0, ref_max = 0;
    Errors e;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!compared[i]) continue;
      const Real want = values[i] * factor;
      const Real got = output[static_cast<std::size_t>(out_at[i])];
      if (!std::isfinite(static_cast<double>(got))) e.finite = false;
      err += (got - want) * (got - want);
      ref += want * want;
      err_max = std::max(err_max, std::fabs(got - want));
      ref_max = std::max(ref_max, std::fabs(want));
    }
    e.relative_l2 = static_cast<double>(ref > 0 ? std::sqrt(err / ref) : std::sqrt(err));
    e.relative_max = static_cast<double>(ref_max > 0 ? err_max / ref_max : err_max);
    if (p.placement == Placement::OutOfPlace) {
      // Elements the output layout skips keep their poison.
      std::vector<bool> addressed(output.size(), false);
      for (std::int64_t o : out_at) addressed[static_cast<std::size_t>(o)] = true;
      for (std::size_t i = 0; i < output.size(); ++i)
        if (!addressed[i] && !std::isnan(static_cast<double>(output[i]))) {
          ADD_FAILURE() << p.token() << ": element " << i << " outside the output layout was written";
          break;
        }
    }
    return e;
  }
};

Problem make(Family family, int type, Shape shape, Precision precision, Direction direction = Direction::Forward,
             Norm norm = Norm::None, bool orthogonalize = false, std::int64_t batch = 1, std::vector<int> axes = {}) {
  Problem p;
  p.kind = Kind::R2R;
  p.family = family;
  p.type = type;
  p.shape = std::move(shape);
  p.precision = precision;
  p.direction = direction;
  p.norm = norm;
  p.orthogonalize = orthogonalize;
  p.batch = batch;
  p.axes = std::move(axes);
  return p;
}

class R2REveryLength : public R2RTest {};
class R2R : public R2RTest {};

// Every length 1..300, each of the 16 transforms (family, type, direction)
// with the norms and orthogonalize in turn and the precisions alternating.
// The FFTs come from the generic tier (issue 40): its fixed kernels take
// the length as an argument, so the sweep compiles nothing a length and
// what it tests is the gather and the twiddle at every length, odd, even
// and prime (the FFTs have their own every-length sweeps). The quick tier
// runs 4 of the 16 transforms a length, a different 4 each length (each
// transform meets 75 lengths); the exhaustive tier all 16.
TEST_P(R2REveryLength, EveryLengthTo300GenericFfts) {
  PlanOptions options = test_options();
  options.tier = Tier::Generic;
  double worst[2] = {0, 0};
  std::string worst_token[2];
  int problems = 0;
  std::mt19937_64 engine = engine_for("R2REveryLength");
  const unsigned start = static_cast<unsigned>(engine() % 16);
  for (std::int64_t n = 1; n <= 300; ++n)
    for (unsigned c = 0; c < 16; ++c) {
      if (!exhaustive() && (c + n + start) % 4 != 0) continue;
      const Family family = kFamilies[c % 2];
      const int type = 1 + static_cast<int>(c / 2 % 4);
      const Direction direction = c / 8 ? Direction::Inverse : Direction::Forward;
      if (family == Family::DCT && type == 1 && n == 1) continue;
      // The precision, norm and orthogonalize cycle over the problems run.
      const int turn = problems;
      const Precision precision = turn % 2 ? Precision::Double : Precision::Single;
      const Problem p =
          make(family, type, {n}, precision, direction, kNorms[turn / 2 % 4], turn / 8 % 2 == 1, n % 7 == 0 ? 3 : 1);
      const Errors e = expect_accurate(p, options);
      const int k = precision == Precision::Double;
      if (e.relative_l2 / tolerance(p) > worst[k] / tolerance(p)) {
        worst[k] = e.relative_l2;
        worst_token[k] = p.token();
      }
      ++problems;
    }
  std::printf("r2r lengths 1..300, %d problems: worst relative L2 fp32 %.3g at %s, fp64 %.3g at %s\n", problems,
              worst[0], worst_token[0].c_str(), worst[1], worst_token[1].c_str());
}

// The specialised kernels (the library's default path): a sample of the
// lengths 1..300 by solver class and size, each with all 16 transforms in
// one precision, alternating.
TEST_P(R2REveryLength, SampledLengthsSpecialisedFfts) {
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 1; n <= 300; ++n) lengths.push_back(n);
  PrecisionDraw draw("R2REveryLength.Specialised");
  int li = 0;
  for (std::int64_t n : sample_lengths("R2R specialised lengths", lengths, 6)) {
    ++li;
    for (int c = 0; c < 16; ++c) {
      // Each fused kernel compiles (0.3-1 s on PoCL): the quick tier takes 2
      // of the 16 transforms a length, a different 2 each length.
      if (!exhaustive() && (c + li) % 8 != 0) continue;
      const Family family = kFamilies[c % 2];
      const int type = 1 + c / 2 % 4;
      const Direction direction = c / 8 ? Direction::Inverse : Direction::Forward;
      for (Precision precision : {Precision::Single, Precision::Double}) {
        if (!draw.take(precision) || (family == Family::DCT && type == 1 && n == 1)) continue;
        expect_accurate(make(family, type, {n}, precision, direction, kNorms[(n + type) % 4], type % 2 == 0));
      }
    }
  }
}

// One pass an axis (pieces/r2r.cpp): one launch where the axis's FFT of m
// points fits one kernel, the stages elsewhere; a sample of the lengths to
// the longest one-pass length, every type, both families, orthogonalize,
// strided.
TEST_P(R2R, FusedOnePass) {
  // (The launch counts of the specialised kernels: the generic tier, which
  // a whole-suite run may ask for, runs the stages.)
  PlanOptions specialised = test_options();
  specialised.tier = Tier::Specialised;
  const Plan one(device(), make(Family::DCT, 2, {64}, Precision::Single), specialised);
  EXPECT_EQ(one.passes(), 1);
  EXPECT_NE(one.describe().find("dct2"), std::string::npos) << one.describe();
  // Types 2 to 4 of an even length: an FFT of n/2 points, two reals a
  // point (pieces/r2r_packed.cpp); of an odd one, the FFT of n (2n).
  EXPECT_NE(one.describe().find("dct2 of 64 packed"), std::string::npos) << one.describe();
  const Plan odd(device(), make(Family::DST, 3, {63}, Precision::Single), specialised);
  EXPECT_EQ(odd.describe().find("packed"), std::string::npos) << odd.describe();
  const Plan two_axes(device(), make(Family::DST, 3, {12, 10}, Precision::Double), specialised);
  EXPECT_EQ(two_axes.passes(), 2);
  const Plan four(device(), make(Family::DCT, 4, {64}, Precision::Single), specialised);
  EXPECT_EQ(four.passes(), 1);
  EXPECT_NE(four.describe().find("dct4 of 64 packed"), std::string::npos) << four.describe();
  EXPECT_EQ(Plan(device(), make(Family::DST, 1, {63}, Precision::Double), specialised).passes(), 1);
  // An axis past one kernel (a prime: Rader or Bluestein) takes the stages: more launches.
  EXPECT_GT(Plan(device(), make(Family::DCT, 2, {4099}, Precision::Single), specialised).passes(), 1);
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 2; n <= 300; ++n) lengths.push_back(n);
  for (std::int64_t n : {512, 1000, 1536, 2048, 2187, 4096}) lengths.push_back(n);
  PrecisionDraw draw("R2R.FusedOnePass");
  int i = 0, li = 0;
  for (std::int64_t n : sample_lengths("R2R fused lengths", lengths, 8))
    for (Family family : kFamilies)
      for (int type = 1; type <= 4; ++type)
        for (Precision precision : {Precision::Single, Precision::Double}) {
          // The quick tier: 2 of the 8 transforms a length, rotating.
          if (precision == Precision::Single && family == Family::DCT && type == 1) ++li;
          const int c = type * 2 + (family == Family::DST ? 1 : 0);
          if (!exhaustive() && (c + li) % 4 != 0) continue;
          if (!draw.take(precision)) continue;
          ++i;
          Problem p = make(family, type, {3, n}, precision, i % 2 ? Direction::Inverse : Direction::Forward,
                           kNorms[i % 4], i % 3 == 0, 1, {1});
          if (i % 4 == 1) {
            p.input.strides = {1, 3};  // the axis strided
            p.output.strides = {n + 1, 1};
            p.output.distance = 3 * (n + 1);
          }
          expect_accurate(p);
        }
}

// Types 2 to 4 of even lengths in one pass of n/2 points
// (pieces/r2r_packed.cpp): short lengths where H = n/2 is 2, 3 or odd, and
// long ones, both families, every norm, orthogonalize, both directions (an
// inverse of type 2 runs type 3), the axis strided and in place.
TEST_P(R2R, PackedEvenLengths) {
  PlanOptions specialised = test_options();
  specialised.tier = Tier::Specialised;
  PrecisionDraw draw("R2R.PackedEvenLengths");
  int i = 0;
  for (std::int64_t n : {4, 6, 8, 10, 14, 16, 26, 64, 90, 128, 250, 512, 1000, 2048})
    for (Family family : kFamilies)
      for (int type = 2; type <= 4; ++type)
        for (Precision precision : {Precision::Single, Precision::Double}) {
          if (precision == Precision::Single) ++i;
          if (!exhaustive() && i % 3 != 0) continue;  // the quick tier: a third, rotating
          if (!draw.take(precision)) continue;
          Problem p = make(family, type, {3, n}, precision, i % 2 ? Direction::Inverse : Direction::Forward,
                           kNorms[i % 4], i % 5 < 2, 1, {1});
          if (i % 4 == 1) {
            p.input.strides = {1, 3};  // the axis strided
            p.output.strides = {n + 2, 1};
            p.output.distance = 3 * (n + 2);
          } else if (i % 4 == 2) {
            p.placement = Placement::InPlace;
          }
          const Plan plan(device(), p, specialised);
          EXPECT_NE(plan.describe().find("packed"), std::string::npos) << p.token() << "\n" << plan.describe();
          expect_accurate(p, specialised);
        }
}

// Several passes an axis (max_pass_length=16 forces them on short
// lengths, so every output is checked): the gather in the first pass's
// loads, the twiddle in the last's stores, the FFT's own passes between.
TEST_P(R2R, FusedPasses) {
  PlanOptions options = test_options();
  options.limits = "max_pass_length=16";
  PlanOptions specialised = options;
  specialised.tier = Tier::Specialised;
  // (Type 4 of 45: an FFT of 90 = 9 x 10 in two passes of 16 at most;
  // types 1 to 3 past one pass take the stages: plan/solvers/r2r.cpp.)
  const Plan two(device(), make(Family::DCT, 4, {45}, Precision::Single), specialised);
  EXPECT_EQ(two.passes(), 2) << two.describe();
  EXPECT_NE(two.describe().find("dct4 of 45 load"), std::string::npos) << two.describe();
  PrecisionDraw draw("R2R.FusedPasses");
  int i = 0;
  for (std::int64_t n : {18, 30, 64, 100, 243, 256, 300})
    for (Family family : kFamilies)
      for (int type = 1; type <= 4; ++type)
        for (Precision precision : {Precision::Single, Precision::Double}) {
          ++i;
          if (!exhaustive() && (i / 2) % 2 != 0) continue;  // the quick tier: half, rotating
          if (!draw.take(precision)) continue;
          Problem p = make(family, type, {2, n}, precision, i % 3 ? Direction::Inverse : Direction::Forward,
                           kNorms[i % 4], i % 5 < 2, 1, {i % 2});
          if (i % 7 == 0) p.placement = Placement::InPlace;
          expect_accurate(p, options);
        }
}

// Past one kernel (the FFT in several passes, Rader, Bluestein): outputs
// sampled, each an O(n) sum in long double.
TEST_P(R2R, PastOneKernel) {
  const std::vector<std::int64_t> lengths{4099, 10007, 65536, 65537, 100003};
  PrecisionDraw draw("R2R.PastOneKernel");
  std::size_t i = 0;
  for (std::int64_t n : lengths)
    for (Family family : kFamilies)
      for (int type : {1, 2, 3, 4})
        for (Precision precision : {Precision::Single, Precision::Double}) {
          if (!draw.take(precision)) continue;
          ++i;
          if (!exhaustive() && (i + n) % 3 != 0) continue;
          const Direction direction = i % 2 ? Direction::Inverse : Direction::Forward;
          expect_accurate(make(family, type, {n}, precision, direction, kNorms[i % 4], i % 3 == 0), test_options(), 48);
        }
}

// Mixed axes of 2D and 3D arrays (dctn / dstn), batches.
TEST_P(R2R, Shapes2DAnd3D) {
  struct Case {
    Shape shape;
    std::vector<int> axes;
    std::int64_t batch;
  };
  const std::vector<Case> cases{{{8, 12}, {}, 1},         {{10, 7}, {0}, 2},   {{5, 6, 7}, {0, 2}, 1},
                                {{4, 9, 10}, {1}, 3},     {{3, 5, 17}, {}, 1}, {{31, 16}, {-1, 0}, 1},
                                {{2, 3, 4, 5}, {1, 3}, 1}};
  PrecisionDraw draw("R2R.Shapes2DAnd3D");
  int i = 0;
  for (const Case& c : cases)
    for (Family family : kFamilies)
      for (int type = 1; type <= 4; ++type)
        for (Precision precision : {Precision::Single, Precision::Double}) {
          // The quick tier: half the types a shape, alternating.
          if (!exhaustive() && (type + static_cast<int>(&c - cases.data())) % 2 != 0) continue;
          if (!draw.take(precision)) continue;
          ++i;
          const Direction direction = i % 2 ? Direction::Inverse : Direction::Forward;
          expect_accurate(
              make(family, type, c.shape, precision, direction, kNorms[i % 4], i % 3 != 0, c.batch, c.axes));
        }
}

// Strided and padded layouts on both sides, and in place.
TEST_P(R2R, LayoutsAndInPlace) {
  PrecisionDraw draw("R2R.Layouts");
  int i = 0;
  for (int type = 1; type <= 4; ++type)
    for (Family family : kFamilies)
      for (Precision precision : {Precision::Single, Precision::Double}) {
        if (!draw.take(precision)) continue;
        ++i;
        Problem strided = make(family, type, {6, 9}, precision, Direction::Forward, kNorms[i % 4], false, 2, {1});
        strided.input.strides = {1, 7};  // axis 1 strided, axis 0 contiguous
        strided.input.distance = 70;
        strided.output.strides = {11, 1};
        strided.output.distance = 80;
        expect_accurate(strided);
        Problem in_place = make(family, type, {12, 5}, precision, Direction::Inverse, kNorms[(i + 1) % 4], true);
        in_place.placement = Placement::InPlace;
        expect_accurate(in_place);
      }
}

// The token names the family, the type and orthogonalize, and reads back.
TEST_P(R2R, TokenAndErrors) {
  Problem p = make(Family::DST, 3, {10, 4}, Precision::Double, Direction::Inverse, Norm::Ortho, true, 2, {0});
  EXPECT_EQ(p.token(), "dst3_f64_inv_10x4_b2_oop_ortho_ax0_orth");
  EXPECT_EQ(Problem::parse(p.token()), p);
  EXPECT_EQ(Problem::parse("dct1_f32_fwd_5_b1_oop_none").type, 1);
  EXPECT_THROW(Problem::parse("dct5_f32_fwd_5_b1_oop_none"), Error);
  EXPECT_THROW(Problem::parse("dct1_f32_fwd_1_b1_oop_none"), Error);  // scipy: DCT-I needs n >= 2
  EXPECT_NO_THROW(Problem::parse("dst1_f32_fwd_1_b1_oop_none"));
  EXPECT_THROW(Problem::parse("c2c_f32_fwd_5_b1_oop_none_orth"), Error);
  Problem bad = make(Family::DCT, 0, {8}, Precision::Single);
  EXPECT_THROW(bad.validate(), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, R2R, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(Backends, R2REveryLength, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
