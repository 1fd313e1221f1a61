// The distributed layer's box arithmetic, without MPI: splits, slabs,
// intersections, and pack / unpack against index arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>

#include "distributed/boxes.hpp"

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

}  // namespace
}  // namespace bfly::distributed::detail
