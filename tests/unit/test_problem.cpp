// Problem: canonical token print/parse, validation and normalisation factors
// (src/problem/). Every malformed token must be rejected with an
// InvalidArgument error whose message names the offending field and text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "problem/text.hpp"

namespace {

using bfly::Direction;
using bfly::Error;
using bfly::ErrorCode;
using bfly::Kind;
using bfly::Layout;
using bfly::Norm;
using bfly::Placement;
using bfly::Precision;
using bfly::Problem;

// Runs `f`, expects a bfly::Error with `code`, returns its message (empty and
// a recorded failure when nothing or something else was thrown).
template <class F>
std::string error_message(F&& f, ErrorCode code, const std::string& context) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << context << ": wrong error code, message: " << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << context << ": threw a non-bfly exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << context << ": did not throw";
  return "";
}

std::string parse_error(const std::string& token) {
  return error_message([&] { Problem::parse(token); }, ErrorCode::InvalidArgument, "parse('" + token + "')");
}

std::string validate_error(const Problem& p, const std::string& context) {
  return error_message([&] { p.validate(); }, ErrorCode::InvalidArgument, context);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

Problem make(std::vector<std::int64_t> shape, std::int64_t batch) {
  Problem p;
  p.shape = std::move(shape);
  p.batch = batch;
  return p;
}

TEST(Problem, DefaultIsValidSinglePointForwardOutOfPlace) {
  const Problem p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.token(), "c2c_f32_fwd_1_b1_oop_none");
  EXPECT_EQ(p.length(), 1);
  EXPECT_EQ(p.elements(), 1);
}

TEST(Problem, KnownTokensRoundTrip) {
  const std::vector<std::string> tokens{
      "c2c_f32_fwd_1024_b8_oop_none",
      "c2c_f64_inv_1000x1000_b1_ip_ortho",
      "c2c_f32_inv_7_b3_oop_backward",
      "c2c_f64_fwd_2x3x5_b100_ip_forward",
      "c2c_f32_fwd_1_b1_oop_none",
      "c2c_f32_fwd_16777216_b1_ip_backward",
      "c2c_f32_inv_4096x4096_b2_oop_ortho",
      "c2c_f64_fwd_1x1x1x1_b1_oop_none_ax-4.1.2",
      "c2c_f32_fwd_6x5x8x9_b3_ip_none_ax0.2_is1000.100.10.1_id7000",
  };
  for (const std::string& token : tokens) {
    Problem p;
    ASSERT_NO_THROW(p = Problem::parse(token)) << token;
    EXPECT_EQ(p.token(), token) << "token does not survive parse+print";
    EXPECT_EQ(Problem::parse(p.token()), p) << token;
  }
}

TEST(Problem, ParsedFieldsMatchToken) {
  const Problem p = Problem::parse("c2c_f64_inv_3x5x7_b9_ip_ortho");
  EXPECT_EQ(p.shape, (std::vector<std::int64_t>{3, 5, 7}));
  EXPECT_EQ(p.batch, 9);
  EXPECT_EQ(p.precision, Precision::Double);
  EXPECT_EQ(p.direction, Direction::Inverse);
  EXPECT_EQ(p.placement, Placement::InPlace);
  EXPECT_EQ(p.norm, Norm::Ortho);
  EXPECT_EQ(p.length(), 105);
  EXPECT_EQ(p.elements(), 945);
  EXPECT_EQ(p.element_bytes(), 16u);
  EXPECT_EQ(p.bytes(), 945u * 16u);
  EXPECT_EQ(Problem::parse("c2c_f32_fwd_8_b1_oop_none").element_bytes(), 8u);
}

TEST(Problem, EveryFieldCombinationRoundTrips) {
  const std::vector<std::vector<std::int64_t>> shapes{{1}, {12}, {65536}, {6, 10}, {2, 3, 4}, {1000, 1, 7}};
  int checked = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (Direction direction : {Direction::Forward, Direction::Inverse})
      for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
        for (Norm norm : {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward})
          for (const auto& shape : shapes)
            for (std::int64_t batch : {1, 2, 1000}) {
              Problem p = make(shape, batch);
              p.precision = precision;
              p.direction = direction;
              p.placement = placement;
              p.norm = norm;
              const std::string token = p.token();
              Problem q;
              ASSERT_NO_THROW(q = Problem::parse(token)) << token;
              EXPECT_EQ(q, p) << token;
              EXPECT_EQ(q.token(), token);
              ++checked;
            }
  EXPECT_EQ(checked, 2 * 2 * 2 * 4 * 6 * 3);
}

TEST(Problem, EqualityComparesEveryField) {
  const Problem base = Problem::parse("c2c_f32_fwd_64_b2_oop_none");
  std::vector<Problem> variants(6, base);
  variants[0].shape = {32, 2};
  variants[1].batch = 3;
  variants[2].precision = Precision::Double;
  variants[3].direction = Direction::Inverse;
  variants[4].placement = Placement::InPlace;
  variants[5].norm = Norm::Ortho;
  for (const Problem& v : variants) {
    EXPECT_NE(v, base) << v.token();
    EXPECT_NE(v.token(), base.token());
  }
  EXPECT_EQ(Problem(base), base);
}

struct Malformed {
  const char* token;
  std::vector<const char*> must_mention;  // field name and the bad text
};

TEST(Problem, MalformedTokensNameTheBadField) {
  const std::vector<Malformed> cases{
      {"r2r_f32_fwd_8_b1_oop_none", {"kind", "'r2r'"}},
      {"C2C_f32_fwd_8_b1_oop_none", {"kind", "'C2C'"}},
      {"c2c_f8_fwd_8_b1_oop_none", {"precision", "'f8'"}},
      {"c2c_F16_fwd_8_b1_oop_none", {"precision", "'F16'", "f16 or bf16"}},
      {"c2c_32_fwd_8_b1_oop_none", {"precision", "'32'"}},
      {"c2c_f32_forward_8_b1_oop_none", {"direction", "'forward'"}},
      {"c2c_f32_bwd_8_b1_oop_none", {"direction", "'bwd'"}},
      {"c2c_f32_fwd_abc_b1_oop_none", {"length", "'abc'"}},
      {"c2c_f32_fwd_8xx8_b1_oop_none", {"length", "''"}},
      {"c2c_f32_fwd_8x_b1_oop_none", {"length", "''"}},
      {"c2c_f32_fwd__b1_oop_none", {"length", "''"}},
      {"c2c_f32_fwd_8.5_b1_oop_none", {"length", "'8.5'"}},
      {"c2c_f32_fwd_+8_b1_oop_none", {"length", "'+8'"}},
      {"c2c_f32_fwd_1-2_b1_oop_none", {"length", "'1-2'"}},
      {"c2c_f32_fwd_99999999999999999999_b1_oop_none", {"length", "'99999999999999999999'"}},
      {"c2c_f32_fwd_0_b1_oop_none", {"length", "0", "axis 0"}},
      {"c2c_f32_fwd_-8_b1_oop_none", {"length", "-8", "axis 0"}},
      {"c2c_f32_fwd_8x0_b1_oop_none", {"length", "0", "axis 1"}},
      {"c2c_f32_fwd_8x4x-2_b1_oop_none", {"length", "-2", "axis 2"}},
      {"c2c_f32_fwd_8_1_oop_none", {"batch", "'1'"}},
      {"c2c_f32_fwd_8_b_oop_none", {"batch", "'b'"}},
      {"c2c_f32_fwd_8_x4_oop_none", {"batch", "'x4'"}},
      {"c2c_f32_fwd_8_bx_oop_none", {"batch", "'x'"}},
      {"c2c_f32_fwd_8_b4b_oop_none", {"batch", "'4b'"}},
      {"c2c_f32_fwd_8_b99999999999999999999_oop_none", {"batch", "'99999999999999999999'"}},
      {"c2c_f32_fwd_8_b0_oop_none", {"batch", "0"}},
      {"c2c_f32_fwd_8_b-3_oop_none", {"batch", "-3"}},
      {"c2c_f32_fwd_8_b1_inplace_none", {"placement", "'inplace'"}},
      {"c2c_f32_fwd_8_b1_OOP_none", {"placement", "'OOP'"}},
      {"c2c_f32_fwd_8_b1_oop_half", {"norm", "'half'"}},
      {"c2c_f32_fwd_8_b1_oop_", {"norm", "''"}},
      {"c2c_f32_fwd_8_b1_oop_none ", {"norm", "'none '"}},
      {"c2c_f32_fwd_4294967296x4294967296_b1_oop_none", {"shape", "4294967296x4294967296", "too many"}},
      {"c2c_f32_fwd_1073741824_b1073741824_oop_none", {"batch", "1073741824", "too many"}},
      {"", {"7 fields"}},
      {"c2c", {"7 fields"}},
      {"c2c_f32_fwd_8_b1_oop", {"7 fields"}},
      {"c2c_f32_fwd_8_b1_oop_none_extra", {"unknown field", "extra"}},
      {"c2c_f32_fwd_8x8_b1_oop_none_ax2", {"axis 2", "out of range"}},
      {"c2c_f32_fwd_8x8_b1_oop_none_os4.1", {"overlaps itself"}},
      {"c2c_f32_fwd_8x8_b1_oop_none_is1", {"input strides", "1 entries"}},
      {"c2c-f32-fwd-8-b1-oop-none", {"7 fields"}},
  };
  for (const Malformed& c : cases) {
    const std::string message = parse_error(c.token);
    for (const char* word : c.must_mention)
      EXPECT_TRUE(contains(message, word))
          << "parse('" << c.token << "'): message does not mention " << word << ": " << message;
  }
}

TEST(Problem, MalformedTokenMessageQuotesTheToken) {
  const std::string message = parse_error("c2c_f32_sideways_8_b1_oop_none");
  EXPECT_TRUE(contains(message, "c2c_f32_sideways_8_b1_oop_none")) << message;
}

TEST(Problem, ValidateRejectsEmptyShape) {
  const std::string message = validate_error(make({}, 1), "shape {}");
  EXPECT_TRUE(contains(message, "shape")) << message;
}

TEST(Problem, ValidateRejectsNonPositiveLengthsNamingAxisAndValue) {
  struct Case {
    std::vector<std::int64_t> shape;
    std::string value, axis;
  };
  const std::vector<Case> cases{
      {{0}, "0", "axis 0"},    {{-1}, "-1", "axis 0"},       {{-4096}, "-4096", "axis 0"},
      {{8, 0}, "0", "axis 1"}, {{8, 8, -3}, "-3", "axis 2"}, {{INT64_MIN}, std::to_string(INT64_MIN), "axis 0"},
  };
  for (const Case& c : cases) {
    const Problem p = make(c.shape, 1);
    const std::string message = validate_error(p, "shape " + p.token());
    EXPECT_TRUE(contains(message, "length " + c.value)) << message;
    EXPECT_TRUE(contains(message, c.axis)) << message;
  }
}

TEST(Problem, ValidateRejectsNonPositiveBatch) {
  for (std::int64_t batch : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{-1000}, INT64_MIN}) {
    const std::string message = validate_error(make({16}, batch), "batch " + std::to_string(batch));
    EXPECT_TRUE(contains(message, "batch " + std::to_string(batch))) << message;
  }
}

TEST(Problem, ValidateRejectsShapesWhoseElementCountOverflows) {
  const std::int64_t big = std::int64_t{1} << 32;
  const std::vector<std::vector<std::int64_t>> shapes{
      {big, big},   // 2^64: wraps to 0 in int64
      {INT64_MAX},  // bytes overflow
      {std::int64_t{1} << 62},
      {std::int64_t{1} << 20, std::int64_t{1} << 20, std::int64_t{1} << 20},
      {3037000500, 3037000500},  // just above sqrt(INT64_MAX)
      {2, 2, 2, INT64_MAX / 4},
  };
  for (const auto& shape : shapes) {
    const Problem p = make(shape, 1);
    const std::string message = validate_error(p, "shape " + p.token());
    EXPECT_TRUE(contains(message, "too many")) << message;
    // The number and the limit, exactly.
    EXPECT_TRUE(contains(message, bfly::text::product(shape))) << message;
    EXPECT_TRUE(contains(message, "2^58 = 288230376151711744")) << message;
  }
  EXPECT_EQ(bfly::text::product({big, big}), "18446744073709551616");
  EXPECT_EQ(bfly::text::product({INT64_MAX, INT64_MAX}), "85070591730234615847396907784232501249");
  EXPECT_EQ(bfly::text::product({1000000000, 1000000000, 7}), "7000000000000000000");
  // A modest shape with a batch that pushes the total over.
  for (std::int64_t batch : {std::int64_t{1} << 40, INT64_MAX}) {
    const Problem p = make({std::int64_t{1} << 30}, batch);
    const std::string message = validate_error(p, p.token());
    EXPECT_TRUE(contains(message, "batch " + std::to_string(batch))) << message;
  }
}

TEST(Problem, ValidateRejectsLayoutsReachingPastTheLargestOffset) {
  Problem strided = make({1024}, 1);
  strided.input.strides = {std::int64_t{1} << 53};  // 1023 * 2^53 > 2^62
  std::string message = validate_error(strided, strided.token());
  EXPECT_TRUE(contains(message, "input strides 9007199254740992")) << message;
  EXPECT_TRUE(contains(message, "2^62 = 4611686018427387904")) << message;
  Problem spaced = make({16}, 1024);
  spaced.output.distance = std::int64_t{1} << 53;
  message = validate_error(spaced, spaced.token());
  EXPECT_TRUE(contains(message, "output distance 9007199254740992 times batch 1024")) << message;
  EXPECT_TRUE(contains(message, "2^62 = 4611686018427387904")) << message;
}

TEST(Problem, EveryValidatedProblemHasRepresentableByteCount) {
  // The largest shapes validate() accepts must not overflow bytes().
  const std::vector<Problem> problems{
      make({std::int64_t{1} << 29, std::int64_t{1} << 29}, 1),
      make({std::int64_t{1} << 20}, std::int64_t{1} << 38),
      make({1}, std::int64_t{1} << 58),
  };
  for (Problem p : problems)
    for (Precision precision : {Precision::Single, Precision::Double}) {
      p.precision = precision;
      ASSERT_NO_THROW(p.validate()) << p.token();
      EXPECT_GT(p.bytes(), 0u) << p.token();
      EXPECT_EQ(p.bytes() / p.element_bytes(), static_cast<std::size_t>(p.elements())) << p.token();
      EXPECT_LE(p.bytes(), static_cast<std::size_t>(INT64_MAX)) << p.token();
    }
}

TEST(Problem, ValidateAcceptsOrdinaryProblems) {
  for (const auto& shape : std::vector<std::vector<std::int64_t>>{{1}, {2}, {1000}, {1 << 24}, {7, 11, 13}})
    for (std::int64_t batch : {1, 3, 1 << 20}) {
      const Problem p = make(shape, batch);
      EXPECT_NO_THROW(p.validate()) << p.token();
    }
}

TEST(Problem, ScaleForEveryNormAndDirection) {
  for (const auto& shape : std::vector<std::vector<std::int64_t>>{{1024}, {1000}, {7}, {6, 10}, {1}}) {
    Problem p = make(shape, 5);  // batch never enters the factor
    const double n = static_cast<double>(p.length());
    struct Expected {
      Norm norm;
      double forward, inverse;
    };
    const std::vector<Expected> table{
        {Norm::None, 1.0, 1.0},
        {Norm::Backward, 1.0, 1.0 / n},
        {Norm::Forward, 1.0 / n, 1.0},
        {Norm::Ortho, 1.0 / std::sqrt(n), 1.0 / std::sqrt(n)},
    };
    for (const Expected& e : table) {
      p.norm = e.norm;
      p.direction = Direction::Forward;
      const double forward = p.scale();
      EXPECT_DOUBLE_EQ(forward, e.forward) << p.token();
      p.direction = Direction::Inverse;
      const double inverse = p.scale();
      EXPECT_DOUBLE_EQ(inverse, e.inverse) << p.token();
      // A forward then inverse transform must return the input times n under
      // none, and exactly the input under every other norm.
      EXPECT_DOUBLE_EQ(forward * inverse * n, e.norm == Norm::None ? n : 1.0) << p.token();
    }
  }
}

TEST(Problem, NormNamesParseAndPrint) {
  for (Norm n : {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward})
    EXPECT_EQ(bfly::parse_norm(bfly::to_string(n)), n) << bfly::to_string(n);
  for (const char* bad : {"", "None", "ortho ", "backwards", "fwd"}) {
    const std::string message = error_message([&] { bfly::parse_norm(bad); }, ErrorCode::InvalidArgument,
                                              std::string("parse_norm('") + bad + "')");
    EXPECT_TRUE(contains(message, std::string("'") + bad + "'")) << message;
  }
}

// Real transforms (R2C / C2R): the kind field, the halved axis, the shapes
// and the in-place padded layout of FFTW and cuFFT.

Problem make_real(Kind kind, std::vector<std::int64_t> shape, std::vector<int> axes = {}, std::int64_t batch = 1) {
  Problem p = make(std::move(shape), batch);
  p.kind = kind;
  p.axes = std::move(axes);
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  return p;
}

using Shape = std::vector<std::int64_t>;

TEST(Problem, RealTokensRoundTrip) {
  const std::vector<std::string> tokens{
      "r2c_f32_fwd_1024_b8_oop_none",
      "c2r_f32_inv_1024_b8_oop_none",
      "r2c_f64_fwd_513x511_b1_oop_backward",
      "c2r_f64_inv_64x64x63_b2_ip_ortho",
      "r2c_f32_fwd_1_b1_ip_forward",
      "c2r_f32_inv_7_b3_ip_backward",
      "r2c_f32_fwd_12x10_b1_oop_none_ax1.0",
      "c2r_f64_inv_6x5x8_b2_oop_none_ax-1.0",
      "r2c_f32_fwd_8x10_b2_oop_none_is13.1_id107_os1.9_od99",
  };
  for (const std::string& token : tokens) {
    Problem p;
    ASSERT_NO_THROW(p = Problem::parse(token)) << token;
    EXPECT_EQ(p.token(), token) << "token does not survive parse+print";
    EXPECT_EQ(Problem::parse(p.token()), p) << token;
  }
  const Problem r2c = Problem::parse("r2c_f32_fwd_1024_b8_oop_none");
  EXPECT_EQ(r2c.kind, Kind::R2C);
  EXPECT_TRUE(r2c.is_real());
  EXPECT_EQ(Problem::parse("c2r_f64_inv_8_b1_oop_none").kind, Kind::C2R);
  EXPECT_EQ(Problem::parse("c2c_f64_inv_8_b1_oop_none").kind, Kind::C2C);
  EXPECT_FALSE(Problem::parse("c2c_f64_inv_8_b1_oop_none").is_real());
  EXPECT_EQ(make_real(Kind::R2C, {8}).token(), "r2c_f32_fwd_8_b1_oop_none");
  EXPECT_EQ(std::string(bfly::to_string(Kind::C2C)), "c2c");
  EXPECT_EQ(std::string(bfly::to_string(Kind::R2C)), "r2c");
  EXPECT_EQ(std::string(bfly::to_string(Kind::C2R)), "c2r");
}

TEST(Problem, EveryRealFieldCombinationRoundTrips) {
  const std::vector<Shape> shapes{{1}, {2}, {7}, {12}, {6, 10}, {2, 3, 4}, {1000, 1, 7}};
  int checked = 0;
  for (Kind kind : {Kind::R2C, Kind::C2R})
    for (Precision precision : {Precision::Single, Precision::Double})
      for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
        for (Norm norm : {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward})
          for (const Shape& shape : shapes)
            for (std::int64_t batch : {1, 3}) {
              Problem p = make_real(kind, shape, {}, batch);
              p.precision = precision;
              p.placement = placement;
              p.norm = norm;
              const std::string token = p.token();
              Problem q;
              ASSERT_NO_THROW(q = Problem::parse(token)) << token;
              EXPECT_EQ(q, p) << token;
              EXPECT_EQ(q.token(), token);
              ++checked;
            }
  EXPECT_EQ(checked, 2 * 2 * 2 * 4 * 7 * 2);
}

TEST(Problem, KindTakesPartInEquality) {
  Problem c2c = make({64}, 1), r2c = make_real(Kind::R2C, {64});
  EXPECT_NE(c2c, r2c);
  EXPECT_NE(c2c.token(), r2c.token());
  Problem c2r = make_real(Kind::C2R, {64}), inverse = make({64}, 1);
  inverse.direction = Direction::Inverse;
  EXPECT_NE(c2r, inverse);
}

TEST(Problem, RealKindFixesTheDirection) {
  for (const char* token : {"r2c_f32_inv_8_b1_oop_none", "r2c_f64_inv_8x8_b2_ip_backward"}) {
    const std::string message = parse_error(token);
    EXPECT_TRUE(contains(message, "r2c")) << message;
    EXPECT_TRUE(contains(message, "inv")) << message;
  }
  const std::string message = parse_error("c2r_f32_fwd_8_b1_oop_none");
  EXPECT_TRUE(contains(message, "c2r")) << message;
  EXPECT_TRUE(contains(message, "fwd")) << message;
  Problem p = make_real(Kind::R2C, {8});
  p.direction = Direction::Inverse;
  validate_error(p, "r2c with direction inv");
  p = make_real(Kind::C2R, {8});
  p.direction = Direction::Forward;
  validate_error(p, "c2r with direction fwd");
}

TEST(Problem, InPlaceRealTakesTheDefaultPaddedLayoutOnly) {
  for (const char* token : {"r2c_f32_fwd_8x8_b1_ip_none_is8.1", "c2r_f32_inv_8x8_b1_ip_none_os10.1",
                            "r2c_f64_fwd_16_b2_ip_none_id20", "c2r_f32_inv_16_b2_ip_none_is1_id9_os1_od18"}) {
    const std::string message = parse_error(token);
    EXPECT_TRUE(contains(message, "in-place")) << token << ": " << message;
  }
  // The same strides out of place are fine.
  EXPECT_NO_THROW(Problem::parse("r2c_f32_fwd_8x8_b1_oop_none_is8.1"));
  EXPECT_NO_THROW(Problem::parse("c2r_f32_inv_8x8_b1_oop_none_os10.1"));
}

TEST(Problem, InPlaceRealNeedsTheRealAxisInnermost) {
  for (Kind kind : {Kind::R2C, Kind::C2R}) {
    Problem p = make_real(kind, {12, 10}, {1, 0});  // real axis 0
    p.placement = Placement::InPlace;
    std::string message = validate_error(p, p.token());
    EXPECT_TRUE(contains(message, "axis 0")) << message;
    p.axes = {0};
    message = validate_error(p, p.token());
    EXPECT_TRUE(contains(message, "axis 0")) << message;
    p.axes = {-2, 1};  // real axis 1, innermost
    EXPECT_NO_THROW(p.validate()) << p.token();
    p.axes = {0, -1};
    EXPECT_NO_THROW(p.validate()) << p.token();
    // Out of place any axis can be the real one.
    p.axes = {1, 0};
    p.placement = Placement::OutOfPlace;
    EXPECT_NO_THROW(p.validate()) << p.token();
  }
}

TEST(Problem, RealAxisIsTheLastAxisGiven) {
  struct Case {
    Shape shape;
    std::vector<int> axes;
    int real_axis;
    Shape complex_shape;
  };
  const std::vector<Case> cases{
      {{1024}, {}, 0, {513}},
      {{1023}, {}, 0, {512}},
      {{1}, {}, 0, {1}},
      {{2}, {}, 0, {2}},
      {{513, 511}, {}, 1, {513, 256}},
      {{64, 64, 63}, {}, 2, {64, 64, 32}},
      {{12, 10}, {1, 0}, 0, {7, 10}},  // axes as given, not sorted
      {{12, 10}, {0}, 0, {7, 10}},     // a 2D array, axis 0 only
      {{12, 10}, {-2}, 0, {7, 10}},
      {{12, 10}, {-1, -2}, 0, {7, 10}},
      {{6, 5, 8}, {-1, 0}, 0, {4, 5, 8}},
      {{6, 5, 8}, {0, -1}, 2, {6, 5, 5}},
      {{6, 5, 8}, {2, 0, 1}, 1, {6, 3, 8}},
      {{6, 5, 8}, {-2}, 1, {6, 3, 8}},
      {{2, 3, 4, 9}, {1, 2, 3}, 3, {2, 3, 4, 5}},
      {{2, 3, 4, 9}, {1, 2}, 2, {2, 3, 3, 9}},
  };
  for (const Case& c : cases)
    for (Kind kind : {Kind::R2C, Kind::C2R}) {
      const Problem p = make_real(kind, c.shape, c.axes, 2);
      ASSERT_NO_THROW(p.validate()) << p.token();
      EXPECT_EQ(p.real_axis(), c.real_axis) << p.token();
      EXPECT_EQ(p.complex_shape(), c.complex_shape) << p.token();
      EXPECT_EQ(p.input_shape(), kind == Kind::R2C ? c.shape : c.complex_shape) << p.token();
      EXPECT_EQ(p.output_shape(), kind == Kind::R2C ? c.complex_shape : c.shape) << p.token();
      // length() and the norms count real points.
      std::int64_t n = 1;
      for (int a : p.transform_axes()) n *= c.shape[static_cast<std::size_t>(a)];
      EXPECT_EQ(p.length(), n) << p.token();
    }
  // C2C: no real axis, every shape the array's.
  Problem c2c = make({6, 5, 8}, 1);
  c2c.axes = {2, 0};
  EXPECT_EQ(c2c.real_axis(), -1);
  EXPECT_EQ(c2c.complex_shape(), c2c.shape);
  EXPECT_EQ(c2c.input_shape(), c2c.shape);
  EXPECT_EQ(c2c.output_shape(), c2c.shape);
}

TEST(Problem, RealElementBytes) {
  for (Precision precision : {Precision::Single, Precision::Double}) {
    const std::size_t real = precision == Precision::Single ? 4 : 8;
    Problem r2c = make_real(Kind::R2C, {16}), c2r = make_real(Kind::C2R, {16}), c2c = make({16}, 1);
    r2c.precision = c2r.precision = c2c.precision = precision;
    EXPECT_EQ(r2c.input_element_bytes(), real);
    EXPECT_EQ(r2c.output_element_bytes(), 2 * real);
    EXPECT_EQ(c2r.input_element_bytes(), 2 * real);
    EXPECT_EQ(c2r.output_element_bytes(), real);
    EXPECT_EQ(c2c.input_element_bytes(), 2 * real);
    EXPECT_EQ(c2c.output_element_bytes(), 2 * real);
  }
}

// A DCT or DST has reals on both sides, in the array's own shape: nothing
// is halved, so it has no real axis and its "complex shape" is the shape
// (the benchmark counts its bytes from these: input = output = reals).
TEST(Problem, R2RSidesAreRealsOfTheWholeShape) {
  for (Precision precision : {Precision::Single, Precision::Double}) {
    Problem p = make({6, 5, 8}, 3);
    p.kind = Kind::R2R;
    p.family = bfly::Family::DST;
    p.type = 4;
    p.axes = {2, 0};
    p.precision = precision;
    ASSERT_NO_THROW(p.validate()) << p.token();
    EXPECT_FALSE(p.is_real());
    EXPECT_EQ(p.real_axis(), -1);
    EXPECT_EQ(p.complex_shape(), p.shape);
    EXPECT_EQ(p.input_shape(), p.shape);
    EXPECT_EQ(p.output_shape(), p.shape);
    const std::size_t real = precision == Precision::Single ? 4 : 8;
    EXPECT_EQ(p.input_element_bytes(), real);
    EXPECT_EQ(p.output_element_bytes(), real);
    EXPECT_EQ(p.input_layout().strides, (Shape{40, 8, 1}));
    EXPECT_EQ(p.output_layout().distance, 240);
  }
}

TEST(Problem, RealScaleCountsRealPoints) {
  for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward}) {
    Problem r2c = make_real(Kind::R2C, {1023}), c2r = make_real(Kind::C2R, {1023});
    r2c.norm = c2r.norm = norm;
    const double n = 1023;
    EXPECT_DOUBLE_EQ(r2c.scale(), norm == Norm::Backward ? 1.0 : norm == Norm::Ortho ? 1 / std::sqrt(n) : 1 / n);
    EXPECT_DOUBLE_EQ(c2r.scale(), norm == Norm::Forward ? 1.0 : norm == Norm::Ortho ? 1 / std::sqrt(n) : 1 / n);
  }
}

TEST(Problem, RealOutOfPlaceLayoutsCountElementsOfTheirOwnSide) {
  // Defaults: each side contiguous in its own shape.
  Problem r2c = make_real(Kind::R2C, {12, 10}, {}, 3);
  EXPECT_EQ(r2c.input_layout().strides, (Shape{10, 1}));
  EXPECT_EQ(r2c.input_layout().distance, 120);
  EXPECT_EQ(r2c.output_layout().strides, (Shape{6, 1}));
  EXPECT_EQ(r2c.output_layout().distance, 72);
  EXPECT_EQ(r2c.input_extent(), 360);
  EXPECT_EQ(r2c.output_extent(), 216);
  Problem c2r = make_real(Kind::C2R, {12, 10}, {1, 0}, 3);  // real axis 0: complex side 7x10
  EXPECT_EQ(c2r.input_layout().strides, (Shape{10, 1}));
  EXPECT_EQ(c2r.input_layout().distance, 70);
  EXPECT_EQ(c2r.output_layout().strides, (Shape{10, 1}));
  EXPECT_EQ(c2r.output_layout().distance, 120);
  EXPECT_EQ(c2r.input_extent(), 210);
  EXPECT_EQ(c2r.output_extent(), 360);
  // Explicit strides: the complex side is 8x6, its extent from that shape.
  Problem strided = Problem::parse("r2c_f32_fwd_8x10_b2_oop_none_is13.1_id107_os1.9_od99");
  EXPECT_EQ(strided.input_extent(), 107 + 7 * 13 + 9 + 1);
  EXPECT_EQ(strided.output_extent(), 99 + 7 + 5 * 9 + 1);
  // Output rows 6 apart fit the complex side's 6 points, not the real side's 10.
  EXPECT_NO_THROW(Problem::parse("r2c_f32_fwd_8x10_b1_oop_none_os6.1"));
  EXPECT_TRUE(contains(parse_error("c2r_f32_inv_8x10_b1_oop_none_os6.1"), "overlaps itself"));
  EXPECT_TRUE(contains(parse_error("r2c_f32_fwd_8x10_b1_oop_none_os5.1"), "overlaps itself"));
  // Stride lists have the rank of the shape on both sides.
  EXPECT_TRUE(contains(parse_error("r2c_f32_fwd_8x10_b1_oop_none_os1"), "1 entries"));
}

TEST(Problem, InPlaceRealPaddedLayoutAndExtents) {
  struct Case {
    Shape shape;
    std::int64_t batch;
    Shape real_strides, complex_strides;
    std::int64_t real_distance, complex_distance, real_extent, complex_extent;
  };
  const std::vector<Case> cases{
      {{8}, 1, {1}, {1}, 10, 5, 8, 5},
      {{8}, 3, {1}, {1}, 10, 5, 28, 15},
      {{7}, 2, {1}, {1}, 8, 4, 15, 8},
      {{1}, 2, {1}, {1}, 2, 1, 3, 2},
      {{6, 10}, 2, {12, 1}, {6, 1}, 72, 36, 72 + 5 * 12 + 9 + 1, 72},
      {{6, 9}, 1, {10, 1}, {5, 1}, 60, 30, 5 * 10 + 8 + 1, 30},
      {{4, 3, 6}, 2, {24, 8, 1}, {12, 4, 1}, 96, 48, 96 + 3 * 24 + 2 * 8 + 5 + 1, 96},
  };
  for (const Case& c : cases) {
    Problem r2c = make_real(Kind::R2C, c.shape, {}, c.batch), c2r = make_real(Kind::C2R, c.shape, {}, c.batch);
    r2c.placement = c2r.placement = Placement::InPlace;
    ASSERT_NO_THROW(r2c.validate()) << r2c.token();
    ASSERT_NO_THROW(c2r.validate()) << c2r.token();
    // R2C reads the padded real side and writes the complex one; C2R the reverse.
    EXPECT_EQ(r2c.input_layout().strides, c.real_strides) << r2c.token();
    EXPECT_EQ(r2c.input_layout().distance, c.real_distance) << r2c.token();
    EXPECT_EQ(r2c.output_layout().strides, c.complex_strides) << r2c.token();
    EXPECT_EQ(r2c.output_layout().distance, c.complex_distance) << r2c.token();
    EXPECT_EQ(r2c.input_extent(), c.real_extent) << r2c.token();
    EXPECT_EQ(r2c.output_extent(), c.complex_extent) << r2c.token();
    EXPECT_EQ(c2r.input_layout().strides, c.complex_strides) << c2r.token();
    EXPECT_EQ(c2r.input_layout().distance, c.complex_distance) << c2r.token();
    EXPECT_EQ(c2r.output_layout().strides, c.real_strides) << c2r.token();
    EXPECT_EQ(c2r.output_layout().distance, c.real_distance) << c2r.token();
    EXPECT_EQ(c2r.input_extent(), c.complex_extent) << c2r.token();
    EXPECT_EQ(c2r.output_extent(), c.real_extent) << c2r.token();
    // The padded real rows fit the complex side's bytes: one buffer serves both.
    EXPECT_LE(static_cast<std::size_t>(c.real_extent) * r2c.input_element_bytes(),
              static_cast<std::size_t>(c.complex_extent) * r2c.output_element_bytes())
        << r2c.token();
  }
}

}  // namespace
