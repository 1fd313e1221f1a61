// The first stage and the first exchange overlapped (issue 43: "an exchange
// of chunk k overlaps the compute of chunk k+1"): the first stage runs in
// chunks of planes (axis 0 of the box, which it does not transform, and
// which the exchange gathers: slabs), and each chunk's blocks leave through NCCL on a stream of
// their own while the next chunk computes. NCCL only (MPI host-staged
// waits for the device at each exchange, so there is nothing to overlap);
// CUDA only (chunks are views into the buffers: Buffer::wrap).
//
//   compute stream   stage0(c0) pack(c0) | stage0(c1) pack(c1) | ... | wait  unpack  stage 1 ...
//   NCCL stream                  send/recv(c0)      send/recv(c1)  ...
//
// The layouts are the unchunked exchange's (exchange.hpp): a chunk's part
// for a peer is a run of that peer's packed block (its planes), and a part
// received in place is received chunk by chunk in place.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "bfly/distributed.hpp"
#include "distributed/device_copy.hpp"
#include "distributed/exchange.hpp"
#include "distributed/nccl.hpp"
#include "distributed/schedule.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

// Whether the schedule's first stage leaves axis 0 alone (so it can run in
// chunks of planes) and its first exchange gathers axis 0 (so each chunk is
// received in place as planes): slabs, not pencils (their first exchange
// gathers axis 1) or the transposed-in ways back.
bool pipelines(const Schedule& schedule);

class Pipeline {
 public:
  // `members`: the first exchange's group (ranks of the plan, ascending);
  // `exchange`: that exchange on this rank (its parts and their runs);
  // `chunks` >= 2.
  Pipeline(const Device& device, const Problem& problem, const Schedule& schedule, int rank,
           const std::vector<int>& members, int chunks, const PlanOptions& options, const NcclComm& nccl,
           const DeviceCopy& copy, const Exchange& exchange);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Stage 0 from `in` into `middle` (this rank's box of tilings[0]), the
  // exchange into `target` (its box of tilings[1]) through `send` and
  // `receive` (sized as the unchunked exchange's), all ordered on `stream`
  // (never null: a CUstream or CU_STREAM_LEGACY).
  void run(const Buffer& in, Buffer& middle, Buffer& send, Buffer& receive, Buffer& target, void* stream) const;

 private:
  // A part's chunk: its planes within [first, last) of axis 0 (global indices).
  Run chunk_run(const Part& part, Buffer& in_place, Buffer& staged, std::int64_t first, std::int64_t last) const;

  Device device_;
  const NcclComm& nccl_;
  const DeviceCopy& copy_;
  NcclTransport transport_;
  int point_bytes_ = 8, chunks_ = 2;
  Box in_box_, middle_box_, target_box_;
  std::vector<Box> from_;               // the group's boxes before the exchange, by place
  std::vector<Part> sends_, receives_;  // the exchange's, by place in the group
  std::size_t in_plane_bytes_ = 0, middle_plane_bytes_ = 0;
  std::map<std::int64_t, bfly::Plan> plans_;  // stage 0 by chunk length
  struct Cuda;
  std::unique_ptr<Cuda> cuda_;  // the NCCL stream and the events
};

}  // namespace bfly::distributed::detail
