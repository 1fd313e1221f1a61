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

// Which axis a decomposition splits on input, and on output.
int input_split_axis(Decomposition d);
int output_split_axis(Decomposition d);

// upper - lower per axis, 0 where upper is below lower (Box::shape).
std::vector<std::int64_t> box_shape(const Box& box);

// The common part of two boxes of the same rank (empty if none).
Box intersect(const Box& a, const Box& b);

// Copies the elements of `part` (inside `whole`) from `whole`'s row-major
// data into `packed`, row-major over `part` (pack), or back (unpack).
// T is any trivially copyable element.
template <class T>
void pack(const Box& whole, const T* whole_data, const Box& part, T* packed);
template <class T>
void unpack(const Box& part, const T* packed, const Box& whole, T* whole_data);

}  // namespace bfly::distributed::detail
