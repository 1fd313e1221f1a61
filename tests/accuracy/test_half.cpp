// Half storage (Problem::storage: fp16 and bf16 buffers, fp32 compute;
// issue 42) against FFTW in double on the rounded input: the input drawn in
// [-1, 1), rounded to the format (the values the caller's buffer holds),
// FFTW's result of those values compared with the 16-bit output read back.
// Bars (the issue's): relative L2 <= 4e-4 for fp16, <= 3e-3 for bf16 (the
// output's rounding alone is about u/sqrt(3): 2.8e-4 and 2.3e-3 at most).
// The DCT and DST take the fp32 plan on the same rounded input as their
// reference (tests/accuracy/test_r2r.cpp holds that one to 5e-7 against
// direct sums). Outputs are poisoned (NaN bits) first; elements an output
// layout skips must keep the poison.
#include <algorithm>
#include <cmath>
#include <limits>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

using Shape = std::vector<std::int64_t>;

constexpr Storage kStorages[] = {Storage::Half, Storage::BFloat16};

double bar(Storage s) { return s == Storage::Half ? 4e-4 : 3e-3; }

std::uint16_t nan_bits(Storage s) { return s == Storage::Half ? 0x7e00 : 0x7fc0; }

Problem make(Kind kind, Shape shape, Storage storage, std::int64_t batch = 1, Direction direction = Direction::Forward,
             Norm norm = Norm::None, Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.kind = kind;
  p.shape = std::move(shape);
  p.storage = storage;
  p.batch = batch;
  p.direction = kind == Kind::C2R ? Direction::Inverse : kind == Kind::R2C ? Direction::Forward : direction;
  p.norm = norm;
  p.placement = placement;
  return p;
}

Problem native(const Problem& p) {
  Problem q = p;
  q.storage = Storage::Native;
  return q;
}

// numpy.fft's factor for the norm (as the fixture's, stated apart from
// Problem::scale).
double numpy_scale(const Problem& p) {
  const double n = static_cast<double>(p.length());
  const bool forward = p.direction == Direction::Forward;
  if (p.norm == Norm::Ortho) return 1 / std::sqrt(n);
  if ((p.norm == Norm::Backward && !forward) || (p.norm == Norm::Forward && forward)) return 1 / n;
  return 1;
}

class Half : public BackendTest {
 protected:
  // Runs p on fresh data; its error against FFTW (the DCT: against the fp32
  // plan) on the rounded input.
  Errors check(const Problem& p, const PlanOptions& options = test_options()) const {
    try {
      return run(p, options);
    } catch (const std::exception& e) {
      ADD_FAILURE() << p.token() << ": " << e.what();
      Errors failed;
      failed.finite = false;
      return failed;
    }
  }

  void expect_accurate(const Problem& p, const PlanOptions& options = test_options()) const {
    const Errors e = check(p, options);
    EXPECT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, bar(p.storage)) << p.token() << " (max error " << e.relative_max << ")";
  }

  // 16-bit values of `count` elements of a side, fresh in [-1, 1) and
  // rounded; `values` gets what they hold.
  static std::vector<std::uint16_t> fresh(const Problem& p, std::size_t count, bool complex,
                                          std::vector<float>& values) {
    values = random_real_data(count * (complex ? 2 : 1));
    if (p.kind == Kind::C2R) {  // a half spectrum (made Hermitian before rounding: rounding keeps it so)
      std::vector<std::complex<float>> spectrum(count);
      std::memcpy(spectrum.data(), values.data(), values.size() * sizeof(float));
      make_hermitian(native(p), spectrum);
      std::memcpy(values.data(), spectrum.data(), values.size() * sizeof(float));
    }
    std::vector<std::uint16_t> bits(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      bits[i] = to_storage(values[i], p.storage);
      values[i] = from_storage(bits[i], p.storage);
    }
    return bits;
  }

 private:
  Errors run(const Problem& p, const PlanOptions& options) const {
    const Plan plan(device(), p, options);
    const bool in_complex = p.kind == Kind::C2C || p.kind == Kind::C2R;
    const bool out_complex = p.kind == Kind::C2C || p.kind == Kind::R2C;
    std::vector<float> values;
    std::vector<std::uint16_t> input = fresh(p, static_cast<std::size_t>(p.input_extent()), in_complex, values);
    std::vector<std::uint16_t> output(static_cast<std::size_t>(p.output_extent()) * (out_complex ? 2 : 1),
                                      nan_bits(p.storage));
    const std::uint16_t* source = input.data();
    if (p.placement == Placement::InPlace && p.kind != Kind::R2C && p.kind != Kind::C2R) {
      output = input;
      source = output.data();
    }
    plan.execute_host(source, output.data());
    std::vector<float> result(output.size());
    for (std::size_t i = 0; i < output.size(); ++i) result[i] = from_storage(output[i], p.storage);
    if (p.kind == Kind::R2R) return against_fp32(p, values, result);
    Expected expected;
    if (in_complex) {
      std::vector<std::complex<float>> x(values.size() / 2);
      std::memcpy(x.data(), values.data(), values.size() * sizeof(float));
      expected = fftw_reference(native(p), x);
    } else {
      expected = fftw_reference(native(p), values);
    }
    Errors e;
    if (out_complex) {
      std::vector<std::complex<float>> y(result.size() / 2);
      std::memcpy(y.data(), result.data(), result.size() * sizeof(float));
      e = compare(y, expected, numpy_scale(p));
    } else {
      e = compare(result, expected, numpy_scale(p));
    }
    if (p.placement == Placement::OutOfPlace) {
      const std::size_t per = out_complex ? 2 : 1;
      std::vector<bool> addressed(output.size() / per, false);
      for (std::int64_t o : expected.offsets) addressed[static_cast<std::size_t>(o)] = true;
      for (std::size_t i = 0; i < addressed.size(); ++i)
        if (!addressed[i] && output[i * per] != nan_bits(p.storage)) {
          ADD_FAILURE() << p.token() << ": element " << i << " outside the output layout was written";
          break;
        }
    }
    return e;
  }

  // A DCT's or DST's output against the fp32 plan's on the same values.
  Errors against_fp32(const Problem& p, const std::vector<float>& values, const std::vector<float>& result) const {
    const Problem q = native(p);
    const Plan plan(device(), q);
    std::vector<float> in = values, want(result.size(), 0.0f);
    if (q.placement == Placement::InPlace)
      plan.execute_host(in.data(), in.data()), want = in;
    else
      plan.execute_host(in.data(), want.data());
    Errors e;
    double err = 0, ref = 0, err_max = 0, ref_max = 0;
    for (std::size_t i = 0; i < result.size(); ++i) {
      if (!std::isfinite(result[i])) e.finite = false;
      const double d = static_cast<double>(result[i]) - want[i];
      err += d * d;
      ref += static_cast<double>(want[i]) * want[i];
      err_max = std::max(err_max, std::fabs(d));
      ref_max = std::max(ref_max, std::fabs(static_cast<double>(want[i])));
    }
    e.relative_l2 = ref > 0 ? std::sqrt(err / ref) : std::sqrt(err);
    e.relative_max = ref_max > 0 ? err_max / ref_max : err_max;
    return e;
  }
};

// A stratified sample of lengths 1..300 (every solver class: powers of
// two, smooth, Rader, Bluestein), complex, each in one format, direction,
// norm and placement, cycling; the quick tier runs 12. At least 64 points
// a problem: one rounding's relative error reaches u (2^-11, 2^-8), past
// the bars, so a handful of values could fail them by chance.
TEST_P(Half, ComplexLengths) {
  std::vector<std::int64_t> all;
  for (std::int64_t n = 1; n <= 300; ++n) all.push_back(n);
  constexpr Norm norms[] = {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward};
  int i = 0;
  for (std::int64_t n : sample_lengths("half-storage complex lengths 1..300", all, 12)) {
    const Storage s = kStorages[i % 2];
    const Direction d = i % 3 == 1 ? Direction::Inverse : Direction::Forward;
    const Placement place = i % 4 == 3 ? Placement::InPlace : Placement::OutOfPlace;
    expect_accurate(
        make(Kind::C2C, {n}, s, std::max<std::int64_t>(1 + i % 3, (64 + n - 1) / n), d, norms[i % 4], place));
    ++i;
  }
}

// Past one kernel: two passes (65536), Bluestein in three passes (10007,
// 4099), Rader in one kernel (1009) and past one (65537: its gather and
// scatter convert apart), real Bluestein.
TEST_P(Half, PastOneKernel) {
  expect_accurate(make(Kind::C2C, {65536}, Storage::Half, 1, Direction::Forward, Norm::Ortho));
  expect_accurate(make(Kind::C2C, {10007}, Storage::BFloat16));
  expect_accurate(make(Kind::C2C, {4099}, Storage::Half, 1, Direction::Inverse, Norm::Backward));
  expect_accurate(make(Kind::C2C, {1009}, Storage::Half, 2, Direction::Forward, Norm::Ortho));
  expect_accurate(make(Kind::C2C, {65537}, Storage::Half, 1, Direction::Forward, Norm::Forward));
  expect_accurate(make(Kind::C2R, {10007}, Storage::Half, 1, Direction::Inverse, Norm::Backward));
  expect_accurate(make(Kind::R2C, {1009}, Storage::BFloat16, 2));
}

TEST_P(Half, MultiDimensionalStridedInPlace) {
  expect_accurate(make(Kind::C2C, {24, 20}, Storage::Half, 2));
  expect_accurate(make(Kind::C2C, {6, 10, 12}, Storage::BFloat16, 1, Direction::Inverse, Norm::Backward));
  Problem strided = make(Kind::C2C, {16, 12}, Storage::Half, 3);
  strided.input.strides = {1, 16};   // column-major input
  strided.output.strides = {14, 1};  // padded rows out: gaps keep their values
  strided.output.distance = 16 * 14;
  expect_accurate(strided);
  Problem axis = make(Kind::C2C, {8, 30}, Storage::BFloat16, 2);
  axis.axes = {0};
  expect_accurate(axis);
  expect_accurate(make(Kind::C2C, {128}, Storage::Half, 4, Direction::Forward, Norm::Forward, Placement::InPlace));
  expect_accurate(make(Kind::C2C, {40, 36}, Storage::Half, 1, Direction::Inverse, Norm::Ortho, Placement::InPlace));
}

// In place past one pass (the intermediates move off the caller's buffer:
// plan/ends.cpp), Bluestein in place (converted apart), and one side
// converted apart: a staged pass (the limits override stages it on any
// device) loads by copies into local memory, so its input converts in a
// kernel of its own while its stores convert.
TEST_P(Half, InPlaceAndOneSideApart) {
  expect_accurate(make(Kind::C2C, {65536}, Storage::Half, 1, Direction::Inverse, Norm::Backward, Placement::InPlace));
  expect_accurate(make(Kind::C2C, {1009}, Storage::BFloat16, 2, Direction::Forward, Norm::Ortho, Placement::InPlace));
  expect_accurate(make(Kind::R2C, {1024}, Storage::Half, 2, Direction::Forward, Norm::None, Placement::InPlace));
  PlanOptions staged = test_options();
  staged.limits = "staged=64";
  for (Placement place : {Placement::OutOfPlace, Placement::InPlace}) {
    const Problem p = make(Kind::C2C, {1024}, Storage::Half, 3, Direction::Forward, Norm::Ortho, place);
    const Plan made(device(), p, staged);
    const std::string plan = made.describe();
    // (A GPU's launch may not stage: its tuning table's launch, or several
    // groups a multiprocessor, which row_occupancy keeps unstaged; then
    // both sides convert in the pass, as the other tests check.)
    if (plan.find(", staged") != std::string::npos) {
      // (The input's fp32 copy: 3 x 1024 points of 8 bytes.)
      EXPECT_GE(made.workspace_bytes(), 3u * 1024u * 8u);
      EXPECT_NE(plan.find("loads: converted from f16 in a kernel of its own"), std::string::npos) << plan;
      EXPECT_NE(plan.find("stores: converted to f16 in the last pass"), std::string::npos) << plan;
    } else {
      std::printf("[ note     ] %s: not staged on this device\n", p.token().c_str());
      EXPECT_NE(plan.find("loads: converted from f16 in the first pass"), std::string::npos) << plan;
    }
    expect_accurate(p, staged);
  }
}

// Short rows as one block through local memory (block rows, a real
// axis's real block: the limits override asks for them on any device),
// converting as the block moves.
TEST_P(Half, BlocksOfRows) {
  PlanOptions blocks = test_options();
  blocks.limits = "block_rows=4096,real_block=4096";
  for (const Problem& p : {make(Kind::C2C, {8}, Storage::BFloat16, 1000, Direction::Inverse, Norm::Backward),
                           make(Kind::R2C, {15}, Storage::Half, 1000),
                           make(Kind::C2R, {15}, Storage::Half, 999, Direction::Inverse, Norm::Ortho)}) {
    const std::string plan = Plan(device(), p, blocks).describe();
    EXPECT_TRUE(plan.find("block") != std::string::npos && plan.find("load, ") != std::string::npos) << plan;
    expect_accurate(p, blocks);
  }
}

TEST_P(Half, Real) {
  for (Storage s : kStorages) {
    expect_accurate(make(Kind::R2C, {256}, s, 2));
    expect_accurate(make(Kind::C2R, {99}, s, 1, Direction::Inverse, Norm::Backward));
  }
  expect_accurate(make(Kind::R2C, {12, 18}, Storage::Half, 1, Direction::Forward, Norm::None, Placement::InPlace));
  // Odd rows in pairs (pieces/row_pairs.cpp), and with Bluestein.
  expect_accurate(make(Kind::R2C, {1001}, Storage::Half, 4));
  expect_accurate(make(Kind::C2R, {1001}, Storage::BFloat16, 3, Direction::Inverse, Norm::Backward));
  expect_accurate(make(Kind::C2R, {10007}, Storage::BFloat16, 2, Direction::Inverse, Norm::Ortho));
  expect_accurate(make(Kind::R2C, {99, 35}, Storage::Half, 1, Direction::Forward, Norm::Forward));
  expect_accurate(make(Kind::C2R, {1024}, Storage::BFloat16, 1, Direction::Inverse, Norm::Backward));
}

// The DCT and DST: fused (one pass; two axes, whose intermediate moves
// off the output; in place) and in stages (a prime past the fused forms:
// converted apart).
TEST_P(Half, DctDst) {
  auto r2r = [](Family family, int type, Shape shape, Storage s, Direction d, Norm norm,
                Placement place = Placement::OutOfPlace) {
    Problem p = make(Kind::R2R, std::move(shape), s, 2, d, norm, place);
    p.family = family;
    p.type = type;
    return p;
  };
  expect_accurate(r2r(Family::DCT, 2, {100}, Storage::Half, Direction::Forward, Norm::Ortho));
  expect_accurate(r2r(Family::DST, 3, {12, 9}, Storage::BFloat16, Direction::Inverse, Norm::Backward));
  expect_accurate(r2r(Family::DCT, 4, {1024}, Storage::Half, Direction::Forward, Norm::Ortho));
  expect_accurate(r2r(Family::DCT, 1, {65}, Storage::Half, Direction::Forward, Norm::Ortho, Placement::InPlace));
  expect_accurate(r2r(Family::DST, 2, {4099}, Storage::BFloat16, Direction::Forward, Norm::Forward));
}

// Every bit pattern through 1-point transforms, fused (the pass converts)
// and on the generic tier (the conversion kernels): each comes back as it
// went, NaNs as NaNs.
TEST_P(Half, EveryPatternRoundTrips) {
  PlanOptions generic = test_options();
  generic.tier = Tier::Generic;
  for (Storage s : kStorages)
    for (const PlanOptions& options : {test_options(), generic}) {
      const Problem p = make(Kind::C2C, {1}, s, 32768);
      const Plan plan(device(), p, options);
      std::vector<std::uint16_t> in(65536), out(65536, 0);
      for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i);
      plan.execute_host(in.data(), out.data());
      int wrong = 0;
      for (std::size_t i = 0; i < in.size() && wrong < 5; ++i) {
        const bool nan = std::isnan(from_storage(in[i], s));
        if (nan ? !std::isnan(from_storage(out[i], s)) : out[i] != in[i]) {
          ADD_FAILURE() << to_string(s) << " pattern " << std::hex << i << " came back as " << out[i] << " ("
                        << plan.describe() << ")";
          ++wrong;
        }
      }
    }
}

// The kernels' rounding of fp32 results against the host's (itself checked
// against an independent rounding: tests/unit/test_storage.cpp): 2-point
// transforms (x0 + x1, x0 - x1: exact in fp32, often a tie in 16 bits) of
// every pattern against a drawn partner, in the fused single pass.
TEST_P(Half, KernelRoundingMatchesHost) {
  for (Storage s : kStorages) {
    const Problem p = make(Kind::C2C, {2}, s, 65536);
    const Plan plan(device(), p, test_options());
    std::vector<std::uint16_t> in(4 * 65536), out(in.size(), 0);
    std::mt19937_64 engine = engine_for("Half.KernelRounding");
    for (std::size_t i = 0; i < 65536; ++i) {
      in[4 * i] = static_cast<std::uint16_t>(i);
      in[4 * i + 1] = static_cast<std::uint16_t>(engine());
      in[4 * i + 2] = static_cast<std::uint16_t>(engine());  // (a small partner makes ties and subnormals)
      in[4 * i + 3] = static_cast<std::uint16_t>((engine() & 0x83ff) | (i % 8 == 0 ? 0x0400 : 0));
    }
    plan.execute_host(in.data(), out.data());
    int wrong = 0;
    for (std::size_t i = 0; i < 65536 && wrong < 5; ++i)
      for (int part = 0; part < 2; ++part) {
        const float a = from_storage(in[4 * i + part], s), b = from_storage(in[4 * i + 2 + part], s);
        const std::uint16_t sum = to_storage(a + b, s), difference = to_storage(a - b, s);
        const std::uint16_t got_sum = out[4 * i + part], got_difference = out[4 * i + 2 + part];
        auto same = [&](std::uint16_t x, std::uint16_t y) {
          return x == y || (std::isnan(from_storage(x, s)) && std::isnan(from_storage(y, s)));
        };
        if (!same(sum, got_sum) || !same(difference, got_difference)) {
          ADD_FAILURE() << to_string(s) << ": " << a << " +- " << b << " gave " << std::hex << got_sum << ", "
                        << got_difference << " where the host rounds to " << sum << ", " << difference;
          ++wrong;
        }
      }
  }
}

// Overflow: a forward transform past the format's range stores Inf (fp16:
// a DC term of 1024 x 100), and only there; bf16 holds it.
TEST_P(Half, OverflowIsInf) {
  for (Storage s : kStorages) {
    const Problem p = make(Kind::C2C, {1024}, s);
    const Plan plan(device(), p, test_options());
    std::vector<std::uint16_t> in(2048), out(2048, 0);
    for (std::size_t i = 0; i < in.size(); i += 2) {
      in[i] = to_storage(100.0f, s);
      in[i + 1] = 0;
    }
    plan.execute_host(in.data(), out.data());
    const float dc = from_storage(out[0], s);
    if (s == Storage::Half)
      EXPECT_TRUE(std::isinf(dc) && dc > 0) << "fp16 DC term of 102400 stored as " << dc;
    else
      EXPECT_NEAR(dc, 102400.0f, 102400.0f * 4e-3f);
    for (std::size_t i = 1; i < out.size(); ++i) EXPECT_EQ(from_storage(out[i], s), 0.0f) << "element " << i;
  }
}

TEST_P(Half, Errors) {
  const Plan plan(device(), make(Kind::C2C, {16}, Storage::Half));
  std::vector<std::complex<float>> c(16);
  EXPECT_THROW(plan.execute_host(c.data(), c.data()), Error);  // fp32 values on a half plan
  const Plan single(device(), native(make(Kind::C2C, {16}, Storage::Half)));
  std::vector<std::uint16_t> h(32);
  EXPECT_THROW(single.execute_host(h.data(), h.data()), Error);
  Problem wide = make(Kind::C2C, {16}, Storage::Half);
  wide.precision = Precision::Double;
  EXPECT_THROW(Plan(device(), wide), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, Half, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
