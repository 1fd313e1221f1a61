// Pack and unpack on the device: a box's part to a contiguous run of a
// buffer and back, with the block copy kernel (codegen/block_copy_kernel.hpp),
// so an exchange's data never crosses the host where the transport does not
// need it to (NCCL). Where a part is already a contiguous run of its box
// (slabs' receive side: whole planes of axis 0), there is nothing to copy:
// contiguous_run says so, and the exchange sends or receives in place.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"

namespace bfly::detail {
class KernelImpl;
}

namespace bfly::distributed::detail {

// The element offset of `part` in `whole`'s row-major data where the part's
// elements are one contiguous run there; none otherwise.
std::optional<std::int64_t> contiguous_run(const Box& whole, const Box& part);

class DeviceCopy {
 public:
  // Compiles (or loads) the copy kernel for elements of `bytes` bytes.
  DeviceCopy(const Device& device, int bytes);

  // Enqueues on `stream` (nullptr: the device's queue) the copy of `part`
  // of `whole` between `whole_data` and a contiguous run at element
  // `offset` of `packed`: pack (whole to run) or unpack (run to whole). The
  // run holds the part in `order` (boxes.hpp: outermost axis first); pack's
  // whole is stored in the identity order, unpack's in `order`.
  void pack(const Buffer& whole_data, const Box& whole, const Box& part, const Buffer& packed, std::int64_t offset,
            const std::vector<int>& order, void* stream) const;
  void unpack(const Buffer& packed, std::int64_t offset, const Box& part, const Box& whole, const Buffer& whole_data,
              const std::vector<int>& order, void* stream) const;

 private:
  // dst[dst_offset + sum i_k dst_strides[k]] = src[src_offset + sum i_k
  // src_strides[k]] for every index of `extents` (2 or 3 axes).
  void copy(const Buffer& dst, std::int64_t dst_offset, const std::vector<std::int64_t>& dst_strides, const Buffer& src,
            std::int64_t src_offset, const std::vector<std::int64_t>& src_strides,
            const std::vector<std::int64_t>& extents, void* stream) const;
  Device device_;
  std::shared_ptr<bfly::detail::KernelImpl> kernel_;
};

}  // namespace bfly::distributed::detail
