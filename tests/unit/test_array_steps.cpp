// array_steps(): any-rank, any-axes array transforms as Problems. Checked
// device-free: each step's Problems run by a naive DFT that reads the
// Problem's own layout, against the whole transform's naive DFT.
#include <gtest/gtest.h>

#include <complex>
#include <random>

#include "bfly/array.hpp"

namespace bfly {
namespace {

using C = std::complex<double>;
using Shape = std::vector<std::int64_t>;

std::int64_t product(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t x : s) n *= x;
  return n;
}

// Index vector of flat index f over shape (row-major).
Shape unflatten(std::int64_t f, const Shape& shape) {
  Shape idx(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    idx[k] = f % shape[k];
    f /= shape[k];
  }
  return idx;
}

std::int64_t dot(const Shape& a, const Shape& b) {
  std::int64_t s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

// Forward or inverse DFT over `axes` of the array (shape, strides) at
// in -> out (out strides), unnormalised: sums over every index of the axes.
void naive(const C* in, C* out, const Shape& shape, const Shape& is, const Shape& os, const std::vector<int>& axes,
           double sign, double scale) {
  const std::int64_t n = product(shape);
  std::vector<C> result(static_cast<std::size_t>(n));
  for (std::int64_t f = 0; f < n; ++f) {
    const Shape k = unflatten(f, shape);
    Shape sub;
    for (int a : axes) sub.push_back(shape[a]);
    C sum = 0;
    for (std::int64_t g = 0; g < product(sub); ++g) {
      const Shape j = unflatten(g, sub);
      Shape idx = k;
      double phase = 0;
      for (std::size_t q = 0; q < axes.size(); ++q) {
        idx[axes[q]] = j[q];
        phase += static_cast<double>(j[q] * k[axes[q]]) / static_cast<double>(shape[axes[q]]);
      }
      sum += in[dot(idx, is)] * std::polar(1.0, sign * 2 * M_PI * phase);
    }
    result[f] = sum * scale;
  }
  for (std::int64_t f = 0; f < n; ++f) out[dot(unflatten(f, shape), os)] = result[f];
}

// A C2C Problem run naively on element pointers, as a Plan would run it.
void run(const Problem& p, const C* in, C* out) {
  const Layout il = p.input_layout(), ol = p.output_layout();
  const double sign = p.direction == Direction::Forward ? -1 : 1;
  for (std::int64_t b = 0; b < p.batch; ++b)
    naive(in + b * il.distance, out + b * ol.distance, p.shape, il.strides, ol.strides, p.transform_axes(), sign,
          p.scale());
}

void check(const Shape& shape, const std::vector<int>& axes, const Shape& in_strides, const Shape& out_strides,
           Placement placement) {
  ArrayTransform t;
  t.precision = Precision::Double;
  t.norm = Norm::Ortho;
  t.shape = shape;
  t.axes = axes;
  t.input_strides = in_strides;
  t.output_strides = out_strides;
  t.placement = placement;
  const Shape is = in_strides.empty() ? Shape{} : in_strides;
  auto span = [&](const Shape& strides) {
    if (strides.empty()) return product(shape);
    std::int64_t last = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) last += (shape[k] - 1) * strides[k];
    return last + 1;
  };
  auto strides_or = [&](const Shape& s) {
    if (!s.empty()) return s;
    Shape c(shape.size());
    std::int64_t step = 1;
    for (std::size_t k = shape.size(); k-- > 0;) c[k] = step, step *= shape[k];
    return c;
  };
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  std::vector<C> input(static_cast<std::size_t>(span(in_strides)));
  for (C& z : input) z = {normal(rng), normal(rng)};
  const bool in_place = placement == Placement::InPlace;
  std::vector<C> output(in_place ? 0 : static_cast<std::size_t>(span(out_strides)), C(1e300, 0));  // poison
  std::vector<C> want = in_place ? input : output;
  std::vector<int> resolved = t.resolved_axes();
  naive(input.data(), want.data(), shape, strides_or(in_strides), strides_or(in_place ? in_strides : out_strides),
        resolved, -1, 1 / std::sqrt(static_cast<double>([&] {
                        std::int64_t n = 1;
                        for (int a : resolved) n *= shape[a];
                        return n;
                      }())));
  C* out = in_place ? input.data() : output.data();
  const ArraySteps steps = array_steps(t);
  for (const ArrayStep& s : steps.steps) {
    ASSERT_EQ(s.problem.kind, Kind::C2C);
    const C* from = s.source == ArrayOperand::Input ? input.data() : out;
    C* to = s.target == ArrayOperand::Input ? input.data() : out;
    for (const auto& [a, b] : s.offsets) run(s.problem, from + a / 16, to + b / 16);
  }
  const std::vector<C>& got = in_place ? input : output;
  for (std::int64_t f = 0; f < product(shape); ++f) {
    const std::int64_t o = dot(unflatten(f, shape), strides_or(in_place ? in_strides : out_strides));
    ASSERT_LT(std::abs(got[o] - want[o]), 1e-9) << "element " << f << " of " << steps.steps.size() << " steps";
  }
}

TEST(ArraySteps, OneProblemWhereItFits) {
  ArrayTransform t;
  t.shape = {8, 16};
  const ArraySteps s = array_steps(t);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_TRUE(s.single_launch());
  EXPECT_EQ(s.steps[0].problem.token(), "c2c_f32_fwd_8x16_b1_oop_none");
}

TEST(ArraySteps, LeadingBatchAxesMergeIntoTheBatch) {
  ArrayTransform t;
  t.shape = {3, 5, 7, 16};
  t.axes = {-1};
  const ArraySteps s = array_steps(t);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].problem.token(), "c2c_f32_fwd_16_b105_oop_none");
}

TEST(ArraySteps, ManyAxesRunInGroupsOfThreeFromTheLast) {
  ArrayTransform t;
  t.shape = {2, 3, 2, 2, 3, 2};
  const ArraySteps s = array_steps(t);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].problem.transform_axes().size(), 3u);
  EXPECT_EQ(s.steps[1].source, ArrayOperand::Output);
  EXPECT_EQ(s.steps[1].problem.placement, Placement::InPlace);
}

TEST(ArraySteps, RealTransformsKeepTheirInputAndPlanTheRealAxisLast) {
  ArrayTransform t;
  t.kind = Kind::C2R;
  t.direction = Direction::Inverse;
  t.shape = {2, 3, 4, 5, 6};
  const ArraySteps s = array_steps(t);
  EXPECT_EQ(s.temporary_shape, (Shape{2, 3, 4, 5, 4}));
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].source, ArrayOperand::Input);
  EXPECT_EQ(s.steps[0].target, ArrayOperand::Temporary);
  EXPECT_EQ(s.steps.back().problem.kind, Kind::C2R);
  EXPECT_EQ(s.steps.back().target, ArrayOperand::Output);
}

TEST(ArraySteps, MatchesTheWholeTransformOnContiguousArrays) {
  check({2, 3, 2, 2, 3, 2}, {}, {}, {}, Placement::OutOfPlace);
  check({2, 3, 2, 2, 3, 2}, {0, 1, 3, 5}, {}, {}, Placement::OutOfPlace);
  check({3, 2, 2, 2, 2, 3, 2}, {1, 5}, {}, {}, Placement::InPlace);
}

TEST(ArraySteps, MatchesTheWholeTransformOnStridedArrays) {
  // Input a padded, transposed view; output Fortran order.
  check({2, 3, 2, 3, 2}, {0, 2, 3, 4}, {1, 4, 13, 29, 100}, {1, 2, 6, 12, 36}, Placement::OutOfPlace);
  // Batch axes that do not chain: some loop as offsets.
  check({2, 2, 2, 2, 2, 2, 2}, {1, 3, 5}, {200, 100, 50, 25, 12, 6, 3}, {}, Placement::OutOfPlace);
}

TEST(ArraySteps, RefusesBadValuesByName) {
  ArrayTransform t;
  t.shape = {4, 0};
  EXPECT_THROW(array_steps(t), Error);
  t.shape = {4, 4};
  t.axes = {1, -1};
  try {
    array_steps(t);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("axis -1 is repeated"), std::string::npos) << e.what();
  }
  t.axes = {};
  t.input_strides = {-4, 1};
  try {
    array_steps(t);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stride -4 on axis 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bfly
