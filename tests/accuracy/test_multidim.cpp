// Multi-dimensional transforms, any axes, strided and embedded layouts, and
// 1D lengths past 2^24, against FFTW's guru interface in double.
#include <numeric>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

class MultiDim : public Accuracy {};

Problem make(std::vector<std::int64_t> shape, std::vector<int> axes = {}, std::int64_t batch = 1,
             Direction direction = Direction::Forward, Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.shape = std::move(shape);
  p.axes = std::move(axes);
  p.batch = batch;
  p.direction = direction;
  p.placement = placement;
  return p;
}

TEST_P(MultiDim, SeedSizes2D) {
  const std::vector<std::vector<std::int64_t>> shapes{{120, 120},   {512, 512}, {1000, 1000}, {2048, 2048},
                                                      {3000, 3000}, {480, 640}, {7, 4096},    {4096, 7}};
  int i = 0;
  for (const auto& shape : shapes) {
    const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
    const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
    expect_accurate(make(shape, {}, 1, d, placement));
    ++i;
  }
}

TEST_P(MultiDim, Volumes3D) {
  const std::vector<std::vector<std::int64_t>> shapes{{64, 64, 64}, {100, 100, 100}, {96, 128, 80}, {7, 5, 3},
                                                      {1, 1, 4096}, {4096, 1, 1},    {1, 1, 1},     {2, 3, 1}};
  int i = 0;
  for (const auto& shape : shapes) {
    const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
    const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
    expect_accurate(make(shape, {}, i % 3 == 0 ? 2 : 1, d, placement));
    ++i;
  }
}

// Every non-empty subset of at most three axes of a rank-3 and a rank-4
// array (the other axes are batch), forward and inverse, both placements.
TEST_P(MultiDim, EverySubsetOfAxes) {
  for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{12, 10, 16}, {6, 5, 8, 9}}) {
    const int rank = static_cast<int>(shape.size());
    for (int mask = 1; mask < (1 << rank); ++mask) {
      std::vector<int> axes;
      for (int a = 0; a < rank; ++a)
        if (mask & (1 << a)) axes.push_back(a);
      if (axes.size() > 3) continue;
      const bool odd = __builtin_popcount(mask) % 2;
      expect_accurate(make(shape, axes, 2, odd ? Direction::Inverse : Direction::Forward,
                           mask % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace));
    }
  }
  // Negative axes count from the end, as in NumPy.
  expect_accurate(make({8, 6, 10}, {-1, -3}));
}

// Embedded sub-arrays and strided layouts (cuFFT's inembed/istride/idist).
TEST_P(MultiDim, StridedAndEmbeddedLayouts) {
  {
    // A 48x40 array inside 50x44 rows, batch 3 with gaps between arrays, into
    // a contiguous output.
    Problem p = make({48, 40}, {}, 3);
    p.input.strides = {44, 1};
    p.input.distance = 50 * 44 + 7;
    expect_accurate(p);
    // And the other way round.
    Problem q = make({48, 40}, {}, 3, Direction::Inverse);
    q.output.strides = {44, 1};
    q.output.distance = 50 * 44 + 7;
    expect_accurate(q);
  }
  {
    // Interleaved: element stride 2 (every other complex number), batch
    // distance 1 (two interleaved batches), in place.
    Problem p = make({32, 24}, {}, 2, Direction::Forward, Placement::InPlace);
    p.input.strides = {24 * 2, 2};
    p.input.distance = 1;
    expect_accurate(p);
  }
  {
    // A transposed (column-major) input of a 2D transform over axis 1 only.
    Problem p = make({30, 64}, {1});
    p.input.strides = {1, 30};
    expect_accurate(p);
  }
  {
    // 1D with strides on a long, multi-pass axis.
    Problem p = make({65536}, {}, 2);
    p.input.strides = {3};
    p.input.distance = 1;
    p.output.strides = {2};
    p.output.distance = 1;
    expect_accurate(p);
  }
}

TEST_P(MultiDim, RowColumnStrategyMatches) {
  PlanOptions transpose = test_options();
  transpose.strategy = Strategy::Transpose;
  for (const Problem& p : {make({120, 120}), make({480, 640}, {}, 2, Direction::Inverse), make({7, 4096}),
                           make({4096, 7}, {}, 1, Direction::Forward, Placement::InPlace), make({96, 128, 80}),
                           make({6, 5, 8, 9}, {0, 2}), make({6, 5, 8, 9}, {1}), make({1000})}) {
    expect_accurate(p, transpose);
    const Plan strided(device(), p), row_column(device(), p, transpose);
    if (p.transform_axes().size() > 1 || p.transform_axes().back() != p.rank() - 1)
      EXPECT_GT(row_column.passes(), strided.passes()) << p.token();
  }
}

// Long axes in more than one pass, inside a multi-dimensional problem.
TEST_P(MultiDim, MultiPassAxes) {
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16";
  expect_accurate(make({64, 100}, {}, 2), forced);
  expect_accurate(make({128, 6, 48}, {0, 2}, 1, Direction::Inverse, Placement::InPlace), forced);
  PlanOptions transpose = forced;
  transpose.strategy = Strategy::Transpose;
  expect_accurate(make({256, 40}), transpose);
}

// Planes in one pass (solvers/plane.cpp): the two innermost axes of a
// complex array in one kernel, whichever the device's default (PoCL takes
// a pass an axis unless asked): square, flat and tall planes, lengths with
// odd and the largest codelets, several planes a group and one plane a
// group of 1024 threads, a plane inside a 3D transform and inside a batch
// of untransformed axes, padded rows and gaps between arrays, in place
// and inverse, both precisions.
TEST_P(MultiDim, PlanesInOnePass) {
  PlanOptions forced = test_options();  // fp32 points (4096 fp64)
  forced.limits = "plane=8192";
  struct Case {
    std::vector<std::int64_t> shape;
    std::vector<int> axes;
    std::int64_t batch;
    int passes;
  };
  const std::vector<Case> cases{
      {{2, 2}, {}, 5, 1},           {{2, 3}, {}, 7, 1},           {{3, 2}, {}, 3, 1},
      {{16, 16}, {}, 9, 1},         {{64, 64}, {}, 3, 1},         {{120, 12}, {}, 2, 1},
      {{12, 120}, {}, 2, 1},        {{23, 17}, {}, 2, 1},         {{90, 90}, {}, 1, 1},
      {{2, 1024}, {}, 2, 1},        {{1024, 2}, {}, 1, 1},        {{7, 5, 3}, {}, 4, 2},
      {{12, 10, 16}, {1, 2}, 2, 1}, {{6, 5, 8, 9}, {2, 3}, 1, 1}, {{6, 5, 8, 9}, {1, 2, 3}, 2, 2},
      {{32, 32, 32}, {}, 1, 2},     {{100, 81}, {}, 1, 1}};
  // The quick tier: each case in one precision.
  PrecisionDraw draw("MultiDim.PlanesInOnePass");
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (const Case& c : cases) {
      if (!draw.take(precision)) continue;
      Problem p = make(c.shape, c.axes, c.batch, i % 2 ? Direction::Inverse : Direction::Forward,
                       (i / 2) % 3 == 1 ? Placement::InPlace : Placement::OutOfPlace);
      p.precision = precision;
      ++i;
      // (fp64 planes hold half the points, and a GPU's group may not fit
      // their registers: then the plane takes a pass an axis.)
      const std::int64_t points = c.shape[c.shape.size() - 1] * c.shape[c.shape.size() - 2];
      const int passes = Plan(device(), p, forced).passes();
      if (precision == Precision::Single)
        EXPECT_EQ(passes, c.passes) << p.token();
      else if (points > 4096)
        EXPECT_EQ(passes, c.passes + 1) << p.token();
      else
        EXPECT_TRUE(passes == c.passes || passes == c.passes + 1) << p.token();
      expect_accurate(p, forced);
    }
  {
    // A 48x40 plane inside 50x44 rows, batch 3 with gaps between arrays,
    // into a contiguous output; and back, in the other direction.
    Problem p = make({48, 40}, {}, 3);
    p.input.strides = {44, 1};
    p.input.distance = 50 * 44 + 7;
    EXPECT_EQ(Plan(device(), p, forced).passes(), 1);
    expect_accurate(p, forced);
    Problem q = make({48, 40}, {}, 3, Direction::Inverse);
    q.output.strides = {44, 1};
    q.output.distance = 50 * 44 + 7;
    expect_accurate(q, forced);
  }
}

// 1D lengths past 2^24 (64-bit-safe indexing, three or more passes).
TEST_P(MultiDim, OneDimensionalPast2To24) {
  expect_accurate(make({std::int64_t{1} << 25}));
  expect_accurate(make({20000000}, {}, 1, Direction::Inverse));  // 2^8 * 5^7
}

TEST_P(MultiDim, RejectsBadLayouts) {
  Problem p = make({16, 16});
  p.output.strides = {8, 1};  // rows overlap
  EXPECT_THROW(Plan(device(), p), Error);
  Problem q = make({16, 16});
  q.input.strides = {16, 1};
  q.input.distance = 0;
  const Plan plan(device(), q);
  Buffer small(device(), 8 * 255), big(device(), 8 * 256);
  EXPECT_THROW(plan.execute(small, big), Error);  // the layout overruns the input buffer
  Problem r = make({4, 4}, {0, 0});
  EXPECT_THROW(Plan(device(), r), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, MultiDim, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
