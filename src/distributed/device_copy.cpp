#include "distributed/device_copy.hpp"

#include "backends/device_impl.hpp"
#include "codegen/block_copy_kernel.hpp"
#include "distributed/boxes.hpp"

namespace bfly::distributed::detail {

namespace {

// A box's shape, offset of `part` and strides as three axes (a 2D box is a
// 3D one with one plane).
struct Geometry {
  std::int64_t whole[3], part[3], lower[3];
};

Geometry geometry(const Box& whole, const Box& part) {
  Geometry g{{1, 1, 1}, {1, 1, 1}, {0, 0, 0}};
  const std::vector<std::int64_t> ws = box_shape(whole), ps = box_shape(part);
  const int pad = 3 - static_cast<int>(ws.size());
  for (std::size_t k = 0; k < ws.size(); ++k)
    g.whole[pad + k] = ws[k], g.part[pad + k] = ps[k], g.lower[pad + k] = part.lower[k] - whole.lower[k];
  return g;
}

}  // namespace

std::optional<std::int64_t> contiguous_run(const Box& whole, const Box& part) {
  const Geometry g = geometry(whole, part);
  const std::int64_t offset = (g.lower[0] * g.whole[1] + g.lower[1]) * g.whole[2] + g.lower[2];
  if (part.elements() == 0) return offset;
  // Contiguous: past the outermost axis the part spans more than one index
  // of, it covers every axis whole.
  int outer = 0;
  while (outer < 2 && g.part[outer] == 1) ++outer;
  for (int k = outer + 1; k < 3; ++k)
    if (g.part[k] != g.whole[k]) return std::nullopt;
  return offset;
}

DeviceCopy::DeviceCopy(const Device& device, int bytes) : device_(device) {
  auto& impl = *device.impl();
  const std::string name = codegen::block_copy_kernel_name(bytes);
  kernel_ = impl.memo<bfly::detail::KernelImpl>(
      "kernel:" + name, [&] { return impl.compile(codegen::generate_block_copy(impl.dialect(), bytes), name).kernel; });
}

void DeviceCopy::pack(const Buffer& whole_data, const Box& whole, const Box& part, const Buffer& packed,
                      std::int64_t offset, const std::vector<int>& order, void* stream) const {
  const std::vector<std::int64_t> from = storage_strides(whole, identity_order(whole.lower.size()));
  std::int64_t at = 0;
  for (std::size_t k = 0; k < from.size(); ++k) at += (part.lower[k] - whole.lower[k]) * from[k];
  copy(packed, offset, storage_strides(part, order), whole_data, at, from, box_shape(part), stream);
}

void DeviceCopy::unpack(const Buffer& packed, std::int64_t offset, const Box& part, const Box& whole,
                        const Buffer& whole_data, const std::vector<int>& order, void* stream) const {
  const std::vector<std::int64_t> to = storage_strides(whole, order);
  std::int64_t at = 0;
  for (std::size_t k = 0; k < to.size(); ++k) at += (part.lower[k] - whole.lower[k]) * to[k];
  copy(whole_data, at, to, packed, offset, storage_strides(part, order), box_shape(part), stream);
}

void DeviceCopy::copy(const Buffer& dst, std::int64_t dst_offset, const std::vector<std::int64_t>& dst_strides,
                      const Buffer& src, std::int64_t src_offset, const std::vector<std::int64_t>& src_strides,
                      const std::vector<std::int64_t>& extents, void* stream) const {
  std::int64_t count = 1;
  for (std::int64_t e : extents) count *= e;
  if (count == 0) return;
  // As three axes: a 2D copy is a 3D one with one plane.
  const std::size_t pad = 3 - extents.size();
  std::int64_t e[3] = {1, 1, 1}, d[3] = {0, 0, 0}, s3[3] = {0, 0, 0};
  for (std::size_t k = 0; k < extents.size(); ++k)
    e[pad + k] = extents[k], d[pad + k] = dst_strides[k], s3[pad + k] = src_strides[k];
  using Arg = bfly::detail::KernelArg;
  auto u = [](std::int64_t v) { return Arg::of_u64(static_cast<std::uint64_t>(v)); };
  std::vector<Arg> args{Arg::of(dst.impl()), Arg::of(src.impl()), u(count), u(e[1]), u(e[2]), u(dst_offset)};
  for (int k = 0; k < 3; ++k) args.push_back(u(d[k]));
  args.push_back(u(src_offset));
  for (int k = 0; k < 3; ++k) args.push_back(u(s3[k]));
  const std::size_t groups =
      static_cast<std::size_t>((count + codegen::kBlockCopyGroupSize - 1) / codegen::kBlockCopyGroupSize);
  device_.impl()->launch(*kernel_, groups, codegen::kBlockCopyGroupSize, 0, args, stream);
}

}  // namespace bfly::distributed::detail
