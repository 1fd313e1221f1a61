// Box arithmetic (boxes.hpp). The pack and unpack loops copy whole rows of
// the innermost axis with memcpy; they are the first slice's explicit
// copies, which issue 43 wants folded into the neighbouring passes (the
// last local pass storing into the send layout, the next loading from the
// receive layout): see exchange.cpp.
#include "distributed/boxes.hpp"

#include <algorithm>
#include <complex>
#include <cstring>

namespace bfly::distributed::detail {

std::vector<std::int64_t> box_shape(const Box& box) {
  std::vector<std::int64_t> shape(box.lower.size());
  for (std::size_t k = 0; k < shape.size(); ++k) shape[k] = std::max<std::int64_t>(0, box.upper[k] - box.lower[k]);
  return shape;
}

Range split(std::int64_t length, int parts, int index) {
  const std::int64_t q = length / parts, m = length % parts;
  auto start = [&](std::int64_t i) { return i * q + std::min(i, m); };
  return {start(index), start(index + 1)};
}

Box slab(const std::vector<std::int64_t>& shape, int axis, int ranks, int rank) {
  Box box{std::vector<std::int64_t>(shape.size(), 0), shape};
  const Range range = split(shape[axis], ranks, rank);
  box.lower[axis] = range.first;
  box.upper[axis] = range.last;
  return box;
}

std::vector<int> square_grid(int ranks) {
  int columns = 1;
  for (int d = 1; static_cast<long long>(d) * d <= ranks; ++d)
    if (ranks % d == 0) columns = d;
  return {ranks / columns, columns};
}

Box pencil(const std::vector<std::int64_t>& shape, const std::vector<int>& grid, int by_row, int by_column, int rank) {
  Box box{std::vector<std::int64_t>(shape.size(), 0), shape};
  const Range row = split(shape[by_row], grid[0], rank / grid[1]);
  const Range column = split(shape[by_column], grid[1], rank % grid[1]);
  box.lower[by_row] = row.first, box.upper[by_row] = row.last;
  box.lower[by_column] = column.first, box.upper[by_column] = column.last;
  return box;
}

Box intersect(const Box& a, const Box& b) {
  Box box = a;
  for (std::size_t k = 0; k < a.lower.size(); ++k) {
    box.lower[k] = std::max(a.lower[k], b.lower[k]);
    box.upper[k] = std::max(box.lower[k], std::min(a.upper[k], b.upper[k]));
  }
  return box;
}

namespace {

// Calls row(offset in whole, offset in part, length) for every innermost
// row of `part`: the one loop pack and unpack share. Boxes have 2 or 3
// axes; a 2D box is a 3D one with one plane.
template <class Row>
void for_each_row(const Box& whole, const Box& part, Row row) {
  if (part.elements() == 0) return;
  std::vector<std::int64_t> ws = box_shape(whole), ps = box_shape(part), lo(part.lower);
  for (std::size_t k = 0; k < lo.size(); ++k) lo[k] -= whole.lower[k];
  while (ws.size() < 3) ws.insert(ws.begin(), 1), ps.insert(ps.begin(), 1), lo.insert(lo.begin(), 0);
  std::int64_t packed = 0;
  for (std::int64_t i = 0; i < ps[0]; ++i)
    for (std::int64_t j = 0; j < ps[1]; ++j, packed += ps[2])
      row(((lo[0] + i) * ws[1] + lo[1] + j) * ws[2] + lo[2], packed, ps[2]);
}

}  // namespace

std::vector<int> identity_order(std::size_t axes) {
  std::vector<int> order(axes);
  for (std::size_t k = 0; k < axes; ++k) order[k] = static_cast<int>(k);
  return order;
}

std::vector<int> gathered_order(const std::vector<Box>& group_from) {
  const std::size_t axes = group_from.empty() ? 0 : group_from[0].lower.size();
  std::vector<int> order = identity_order(axes);
  for (std::size_t k = 0; k < axes; ++k)
    for (const Box& box : group_from)
      if (box.lower[k] != group_from[0].lower[k] || box.upper[k] != group_from[0].upper[k]) {
        order.erase(order.begin() + static_cast<std::ptrdiff_t>(k));
        order.insert(order.begin(), static_cast<int>(k));
        return order;
      }
  return order;
}

Box permuted(const Box& box, const std::vector<int>& order) {
  Box out;
  for (int k : order) out.lower.push_back(box.lower[k]), out.upper.push_back(box.upper[k]);
  return out;
}

std::vector<std::int64_t> storage_strides(const Box& box, const std::vector<int>& order) {
  const std::vector<std::int64_t> shape = box_shape(box);
  std::vector<std::int64_t> strides(shape.size(), 1);
  std::int64_t stride = 1;
  for (std::size_t i = order.size(); i-- > 0;) strides[order[i]] = stride, stride *= shape[order[i]];
  return strides;
}

template <class T>
void pack(const Box& whole, const T* whole_data, const Box& part, T* packed) {
  for_each_row(whole, part, [&](std::int64_t at, std::int64_t to, std::int64_t n) {
    std::memcpy(packed + to, whole_data + at, static_cast<std::size_t>(n) * sizeof(T));
  });
}

template <class T>
void unpack(const Box& part, const T* packed, const Box& whole, T* whole_data) {
  for_each_row(whole, part, [&](std::int64_t at, std::int64_t from, std::int64_t n) {
    std::memcpy(whole_data + at, packed + from, static_cast<std::size_t>(n) * sizeof(T));
  });
}

template void pack(const Box&, const std::complex<float>*, const Box&, std::complex<float>*);
template void pack(const Box&, const std::complex<double>*, const Box&, std::complex<double>*);
template void unpack(const Box&, const std::complex<float>*, const Box&, std::complex<float>*);
template void unpack(const Box&, const std::complex<double>*, const Box&, std::complex<double>*);
// (Real sides: MultiDevicePlan's whole host arrays of an R2C's input, a C2R's output.)
template void pack(const Box&, const float*, const Box&, float*);
template void pack(const Box&, const double*, const Box&, double*);
template void unpack(const Box&, const float*, const Box&, float*);
template void unpack(const Box&, const double*, const Box&, double*);

}  // namespace bfly::distributed::detail

namespace bfly::distributed {

std::vector<std::int64_t> Box::shape() const { return detail::box_shape(*this); }

std::int64_t Box::elements() const {
  std::int64_t n = 1;
  for (std::int64_t s : shape()) n *= s;
  return n;
}

}  // namespace bfly::distributed
