// Box arithmetic of the distributed layer: how an axis splits over ranks,
// the boxes of each decomposition, and the copies between a box's data and
// a sub-box's (pack and unpack). Pure C++, no MPI: tested without it.
#pragma once

#include <cstdint>
#include <vector>

#include "bfly/distributed.hpp"

namespace bfly::distributed::detail {

// The part [first, last) of an axis of `length` that `index` of `parts`
// holds: the first length % parts parts one more than the others.
struct Range {
  std::int64_t first = 0, last = 0;
};
Range split(std::int64_t length, int parts, int index);

// The box of `rank` of `ranks` when `shape` is split along `axis`.
Box slab(const std::vector<std::int64_t>& shape, int axis, int ranks, int rank);

// The most square process grid {P0, P1} for `ranks`: P0 * P1 = ranks,
// P0 >= P1, P1 the largest divisor of ranks not above its square root.
std::vector<int> square_grid(int ranks);

// The box of `rank` on a P0 x P1 grid (rank r at row r / P1, column
// r % P1) with axis `by_row` split over the P0 rows, axis `by_column` over
// the P1 columns, and the third axis of the 3D `shape` whole: the pencils.
Box pencil(const std::vector<std::int64_t>& shape, const std::vector<int>& grid, int by_row, int by_column, int rank);

// upper - lower per axis, 0 where upper is below lower (Box::shape).
std::vector<std::int64_t> box_shape(const Box& box);

// The common part of two boxes of the same rank (empty if none).
Box intersect(const Box& a, const Box& b);

// The order a box is stored in, outermost axis first: the identity
// (row-major over the global axes) or, for the box an exchange gathers, the
// gathered axis first (gathered_order), so that each peer's part of it is
// one contiguous run and is received in place.
std::vector<int> identity_order(std::size_t axes);
// The axis along which the group's boxes before an exchange differ (the one
// the exchange gathers) first, then the others ascending; the identity
// where none differ.
std::vector<int> gathered_order(const std::vector<Box>& group_from);
// `box` with its axes in `order`.
Box permuted(const Box& box, const std::vector<int>& order);
// The element strides of `box`'s axes (global order) when stored in `order`.
std::vector<std::int64_t> storage_strides(const Box& box, const std::vector<int>& order);

// Copies the elements of `part` (inside `whole`) from `whole`'s row-major
// data into `packed`, row-major over `part` (pack), or back (unpack).
// T is any trivially copyable element.
template <class T>
void pack(const Box& whole, const T* whole_data, const Box& part, T* packed);
template <class T>
void unpack(const Box& part, const T* packed, const Box& whole, T* whole_data);

}  // namespace bfly::distributed::detail
