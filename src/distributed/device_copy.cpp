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
                      std::int64_t offset, void* stream) const {
  copy(packed, whole_data, whole, part, offset, true, stream);
}

void DeviceCopy::unpack(const Buffer& packed, std::int64_t offset, const Box& part, const Box& whole,
                        const Buffer& whole_data, void* stream) const {
  copy(whole_data, packed, whole, part, offset, false, stream);
}

void DeviceCopy::copy(const Buffer& dst, const Buffer& src, const Box& whole, const Box& part,
                      std::int64_t packed_offset, bool to_packed, void* stream) const {
  const std::int64_t count = part.elements();
  if (count == 0) return;
  const Geometry g = geometry(whole, part);
  const std::int64_t whole_offset = (g.lower[0] * g.whole[1] + g.lower[1]) * g.whole[2] + g.lower[2];
  const std::int64_t whole_strides[3] = {g.whole[1] * g.whole[2], g.whole[2], 1};
  const std::int64_t packed_strides[3] = {g.part[1] * g.part[2], g.part[2], 1};
  const std::int64_t* dst_strides = to_packed ? packed_strides : whole_strides;
  const std::int64_t* src_strides = to_packed ? whole_strides : packed_strides;
  using Arg = bfly::detail::KernelArg;
  std::vector<Arg> args{Arg::of(dst.impl()),
                        Arg::of(src.impl()),
                        Arg::of_u64(static_cast<std::uint64_t>(count)),
                        Arg::of_u64(static_cast<std::uint64_t>(g.part[1])),
                        Arg::of_u64(static_cast<std::uint64_t>(g.part[2])),
                        Arg::of_u64(static_cast<std::uint64_t>(to_packed ? packed_offset : whole_offset))};
  for (int k = 0; k < 3; ++k) args.push_back(Arg::of_u64(static_cast<std::uint64_t>(dst_strides[k])));
  args.push_back(Arg::of_u64(static_cast<std::uint64_t>(to_packed ? whole_offset : packed_offset)));
  for (int k = 0; k < 3; ++k) args.push_back(Arg::of_u64(static_cast<std::uint64_t>(src_strides[k])));
  const std::size_t groups =
      static_cast<std::size_t>((count + codegen::kBlockCopyGroupSize - 1) / codegen::kBlockCopyGroupSize);
  device_.impl()->launch(*kernel_, groups, codegen::kBlockCopyGroupSize, 0, args, stream);
}

}  // namespace bfly::distributed::detail
