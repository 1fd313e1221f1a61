// The distributed layer's box arithmetic, without MPI: splits, slabs,
// intersections, and pack / unpack against index arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>

#include "distributed/boxes.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed::detail {
namespace {

TEST(DistributedBoxes, SplitCoversTheAxisInOrder) {
  for (std::int64_t length : {1, 3, 8, 10, 17})
    for (int parts = 1; parts <= 6; ++parts) {
      std::int64_t next = 0;
      for (int i = 0; i < parts; ++i) {
        const Range r = split(length, parts, i);
        EXPECT_EQ(r.first, next);
        const std::int64_t size = r.last - r.first;
        EXPECT_TRUE(size == length / parts || size == length / parts + 1) << length << " " << parts << " " << i;
        next = r.last;
      }
      EXPECT_EQ(next, length);
    }
  EXPECT_EQ(split(10, 3, 0).last, 4);  // the first 10 % 3 parts one longer
  EXPECT_EQ(split(3, 4, 3).last - split(3, 4, 3).first, 0);
}

TEST(DistributedBoxes, SlabsAndIntersections) {
  const std::vector<std::int64_t> shape{8, 10, 6};
  const Box in = slab(shape, 0, 3, 1), out = slab(shape, 1, 3, 2);
  EXPECT_EQ(in.lower, (std::vector<std::int64_t>{3, 0, 0}));
  EXPECT_EQ(in.upper, (std::vector<std::int64_t>{6, 10, 6}));
  EXPECT_EQ(out.lower, (std::vector<std::int64_t>{0, 7, 0}));
  const Box both = intersect(in, out);
  EXPECT_EQ(both.shape(), (std::vector<std::int64_t>{3, 3, 6}));
  EXPECT_TRUE(intersect(slab(shape, 0, 3, 0), slab(shape, 0, 3, 1)).empty());
  EXPECT_TRUE(slab({3, 4}, 0, 4, 3).empty());
}

TEST(DistributedBoxes, PackThenUnpackIsTheSubBox) {
  const Box whole{{2, 0, 1}, {6, 5, 4}};  // 4 x 5 x 3
  const Box part{{3, 1, 2}, {5, 4, 4}};   // 2 x 3 x 2
  std::vector<std::complex<float>> data(static_cast<std::size_t>(whole.elements()));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = {static_cast<float>(i), -1.0f};
  std::vector<std::complex<float>> packed(static_cast<std::size_t>(part.elements()));
  pack(whole, data.data(), part, packed.data());
  std::size_t at = 0;
  for (std::int64_t i = 3; i < 5; ++i)
    for (std::int64_t j = 1; j < 4; ++j)
      for (std::int64_t k = 2; k < 4; ++k, ++at)
        EXPECT_EQ(packed[at].real(), static_cast<float>(((i - 2) * 5 + j) * 3 + (k - 1)));
  std::vector<std::complex<float>> back(data.size(), {0.0f, 0.0f});
  unpack(part, packed.data(), whole, back.data());
  for (std::size_t i = 0; i < back.size(); ++i)
    if (back[i].imag() != 0.0f) EXPECT_EQ(back[i], data[i]);
  EXPECT_EQ(std::count_if(back.begin(), back.end(), [](auto v) { return v.imag() != 0.0f; }), part.elements());
}

TEST(DistributedBoxes, SquareGrids) {
  EXPECT_EQ(square_grid(1), (std::vector<int>{1, 1}));
  EXPECT_EQ(square_grid(2), (std::vector<int>{2, 1}));
  EXPECT_EQ(square_grid(3), (std::vector<int>{3, 1}));
  EXPECT_EQ(square_grid(4), (std::vector<int>{2, 2}));
  EXPECT_EQ(square_grid(6), (std::vector<int>{3, 2}));
  EXPECT_EQ(square_grid(12), (std::vector<int>{4, 3}));
  EXPECT_EQ(square_grid(16), (std::vector<int>{4, 4}));
  EXPECT_EQ(square_grid(7), (std::vector<int>{7, 1}));
}

// Every tiling of a schedule covers the array once: the boxes' elements
// add up to the whole, and no two boxes meet.
void expect_tiles(const std::vector<Box>& boxes, const std::vector<std::int64_t>& shape) {
  std::int64_t total = 1, sum = 0;
  for (std::int64_t n : shape) total *= n;
  for (std::size_t a = 0; a < boxes.size(); ++a) {
    sum += boxes[a].elements();
    for (std::size_t b = a + 1; b < boxes.size(); ++b)
      EXPECT_TRUE(intersect(boxes[a], boxes[b]).empty()) << a << " " << b;
  }
  EXPECT_EQ(sum, total);
}

Problem problem_of(Kind kind, std::vector<std::int64_t> shape, Decomposition d, std::vector<int> grid = {}) {
  Problem p;
  p.kind = kind, p.shape = std::move(shape), p.decomposition = d, p.grid = std::move(grid);
  if (kind == Kind::C2R) p.direction = Direction::Inverse;
  return p;
}

TEST(DistributedSchedules, PencilsTileAndTransformEachAxisOnce) {
  for (int ranks : {1, 2, 3, 4, 6})
    for (Decomposition d : {Decomposition::Pencils, Decomposition::PencilsTransposedIn}) {
      const Problem p = problem_of(Kind::C2C, {6, 5, 7}, d);
      check(p, ranks);
      const Schedule s = make_schedule(p, ranks);
      ASSERT_EQ(s.tilings.size(), 3u);
      EXPECT_EQ(s.grid, square_grid(ranks));
      for (const auto& tiling : s.tilings) expect_tiles(tiling, {6, 5, 7});
      // A stage's axis is whole in every box of its tiling.
      for (std::size_t j = 0; j < 3; ++j)
        for (const Box& box : s.tilings[j])
          if (!box.empty())
            for (int a : s.axes[j]) EXPECT_EQ(box.upper[a] - box.lower[a], p.shape[a]) << j << " " << a;
      EXPECT_EQ(s.input_boxes, s.tilings.front());
    }
  // 2 x 2 on 6 x 5 x 7: rank 3 (row 1, column 1) holds z-pencil [3, 6) x [3, 5) x [0, 7).
  const Schedule s = make_schedule(problem_of(Kind::C2C, {6, 5, 7}, Decomposition::Pencils), 4);
  EXPECT_EQ(s.input_boxes[3], (Box{{3, 3, 0}, {6, 5, 7}}));
  EXPECT_EQ(s.output_boxes[3], (Box{{0, 3, 4}, {6, 5, 7}}));  // x-pencil: axis 1 by row, axis 2 by column
  EXPECT_EQ(s.members(0, 3), (std::vector<int>{2, 3}));       // its row
  EXPECT_EQ(s.members(1, 3), (std::vector<int>{1, 3}));       // its column
}

TEST(DistributedSchedules, RealTransformsHalveTheLastAxis) {
  const Schedule r2c = make_schedule(problem_of(Kind::R2C, {6, 5, 7}, Decomposition::Pencils), 4);
  EXPECT_EQ(r2c.complex_shape, (std::vector<std::int64_t>{6, 5, 4}));
  EXPECT_EQ(r2c.kinds, (std::vector<Kind>{Kind::R2C, Kind::C2C, Kind::C2C}));
  EXPECT_EQ(r2c.input_boxes[0], (Box{{0, 0, 0}, {3, 3, 7}}));   // real, the last axis whole
  EXPECT_EQ(r2c.output_boxes[3], (Box{{0, 3, 2}, {6, 5, 4}}));  // the half spectrum's x-pencil
  // C2R over slabs: the real axis moves from the first stage to the last.
  const Schedule c2r = make_schedule(problem_of(Kind::C2R, {5, 6, 7}, Decomposition::Slabs), 2);
  EXPECT_EQ(c2r.axes, (std::vector<std::vector<int>>{{1}, {0, 2}}));
  EXPECT_EQ(c2r.kinds, (std::vector<Kind>{Kind::C2C, Kind::C2R}));
  EXPECT_EQ(c2r.output_boxes[1], (Box{{0, 3, 0}, {5, 6, 7}}));
  expect_tiles(c2r.output_boxes, {5, 6, 7});
  EXPECT_THROW(check(problem_of(Kind::R2C, {8, 8}, Decomposition::SlabsTransposedIn), 2), Error);
  EXPECT_THROW(check(problem_of(Kind::C2R, {8, 8, 8}, Decomposition::Pencils), 2), Error);
  EXPECT_NO_THROW(check(problem_of(Kind::C2R, {8, 8, 8}, Decomposition::Slabs), 2));
  EXPECT_THROW(check(problem_of(Kind::C2C, {8, 8, 8}, Decomposition::Pencils, {2, 2}), 3), Error);
}

TEST(DistributedSchedules, OneRowOrColumnSkipsAnExchange) {
  const Schedule s = make_schedule(problem_of(Kind::C2C, {6, 5, 7}, Decomposition::Pencils), 3);  // 3 x 1
  EXPECT_TRUE(s.unchanged(0));  // rows of one rank: z- and y-pencils are the same boxes
  EXPECT_FALSE(s.unchanged(1));
  const Schedule one = make_schedule(problem_of(Kind::C2C, {6, 5}, Decomposition::Slabs), 1);
  EXPECT_TRUE(one.unchanged(0));
}

}  // namespace
}  // namespace bfly::distributed::detail
