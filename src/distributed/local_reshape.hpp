// A reshape in one process (MultiDevicePlan with the caller's boxes): the
// whole array moved between the caller's tiling and the decomposition's,
// every part at once, as reshape.hpp's Reshape does over MPI ranks: one
// exchange (exchange.hpp) over every part in row-major order on both
// sides, packed and unpacked on each part's device by a copy kernel for
// its elements (a real side's reals, or complex points), the runs moved
// by a LocalTransport (NCCL's single-process communicators, or host
// copies).
#pragma once

#include <memory>
#include <vector>

#include "bfly/distributed.hpp"
#include "distributed/device_copy.hpp"
#include "distributed/exchange.hpp"
#include "distributed/local_transport.hpp"
#include "distributed/nccl.hpp"

namespace bfly::distributed::detail {

class LocalReshape {
 public:
  // Part r, on devices[r], holds from[r] before and to[r] after;
  // `element_bytes` 4 or 8 (reals), 8 or 16 (complex points); `nccl`:
  // through NCCL (every device a different CUDA GPU), else host copies.
  LocalReshape(const std::vector<Device>& devices, const std::vector<Box>& from, const std::vector<Box>& to,
               int element_bytes, bool nccl);
  // From sources[r] (its `from` box, row-major) to targets[r] (its `to`
  // box) through sends[r] and receives[r], each part's on streams[r].
  // With `bare`, the transport alone (a benchmark's bound).
  void run(const std::vector<Buffer>& sources, const std::vector<Buffer>& sends, const std::vector<Buffer>& receives,
           const std::vector<Buffer>& targets, const std::vector<void*>& streams, bool bare = false) const;
  // Bytes of part r's send and receive buffers.
  std::size_t send_bytes(int r) const;
  std::size_t receive_bytes(int r) const;

 private:
  std::vector<Exchange> sides_;  // by part
  std::vector<DeviceCopy> copies_;
  std::size_t element_bytes_;
  std::unique_ptr<NcclClique> clique_;
  std::unique_ptr<LocalTransport> transport_;  // (destroyed first: it refers to the clique)
};

}  // namespace bfly::distributed::detail
