// A reshape: the whole array moved between the caller's own boxes (any
// tiling of it, heFFTe's bricks) and the decomposition's, over every rank:
// one exchange (exchange.hpp) in row-major order on both sides, its own
// transport and copy kernel for its elements (the real side's reals, or
// complex points). The plan runs one before its first stage where the
// caller's input boxes are not the first stage's, and one after its last
// where the output boxes are not the last stage's (Plan's constructor with
// boxes, include/bfly/distributed.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bfly/distributed.hpp"
#include "distributed/device_copy.hpp"
#include "distributed/exchange.hpp"
#include "distributed/nccl.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

// Collective: every rank's box gathered (allgather), the same list on every
// rank, by rank.
std::vector<Box> gather_boxes(MPI_Comm comm, const Box& mine, std::size_t axes);

// Throws Error(InvalidArgument), the same on every rank, where `boxes` do
// not tile `shape` (a box past it, two that overlap, points none holds);
// `side` names them in the message ("input", "output").
void check_tiling(const std::vector<Box>& boxes, const std::vector<std::int64_t>& shape, const char* side);

class Reshape {
 public:
  // Collective over `comm` (the transport's communicator); `exchange`:
  // this rank's side of the whole array's move from one tiling to the
  // other (made first: its checks may fail on some ranks only, the
  // transport's collectives must not). `element_bytes`: 4 or 8 (a real
  // side's reals), 8 or 16 (complex points). With NCCL, `nccl` is a
  // communicator over `comm`'s ranks (the plan's).
  Reshape(MPI_Comm comm, const Device& device, Exchange exchange, int element_bytes,
          bfly::distributed::Transport transport, ExchangeMethod method, const NcclComm* nccl);
  // From `source` (this rank's `from` box, row-major) to `target` (its `to`
  // box) through `send` and `receive`, ordered on `stream`.
  void run(const Buffer& source, Buffer& send, Buffer& receive, const Buffer& target, void* stream) const;
  // The transport alone moving the same bytes (no packs): a benchmark's bound.
  void bound(const Buffer& source, Buffer& send, Buffer& receive, const Buffer& target, void* stream) const;
  std::size_t send_bytes() const { return static_cast<std::size_t>(exchange_.send_elements()) * element_bytes_; }
  std::size_t receive_bytes() const { return static_cast<std::size_t>(exchange_.receive_elements()) * element_bytes_; }
  const Exchange& exchange() const { return exchange_; }

 private:
  Exchange exchange_;
  std::size_t element_bytes_;
  DeviceCopy copy_;
  std::unique_ptr<Transport> transport_;
};

}  // namespace bfly::distributed::detail
