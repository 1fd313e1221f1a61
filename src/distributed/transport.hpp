// How an exchange's blocks travel between the ranks of a group
// (Problem::transport): each rank hands one run of device memory per peer
// to send and one per peer to receive into, and the transport moves them.
//
//   MpiTransport   host-staged MPI: waits for the stream, reads the runs to
//                  host memory, exchanges them (MPI_Alltoallv, a padded
//                  MPI_Alltoall, or point-to-point), writes them back.
//                  Any device, any MPI (Debian's Open MPI is not CUDA-aware).
//                  On a CUDA device with an MPI that says at run time that
//                  it takes CUDA pointers (cuda_aware_mpi): point-to-point
//                  between the device runs themselves, nothing staged.
//   NcclTransport  grouped ncclSend / ncclRecv between device pointers,
//                  enqueued on the stream (CUDA devices, NCCL loaded).
#pragma once

#include <mpi.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"
#include "distributed/nccl.hpp"

namespace bfly::distributed::detail {

// `elements` points from element `offset` of `buffer` (points of the
// plan's complex type).
struct Run {
  Buffer* buffer = nullptr;
  std::int64_t offset = 0, elements = 0;
};

// Whether the MPI library running here takes CUDA device pointers, as it
// says at run time: Open MPI's MPIX_Query_cuda_support(), MPICH's
// MPIX_GPU_query_support(CUDA); false for an MPI that has neither.
bool cuda_aware_mpi();

class Transport {
 public:
  virtual ~Transport() = default;
  // Collective over the group: sends[p] to peer p, receives[p] from it
  // (indexed by rank in the group), ordered on `stream` (a CUstream or
  // cl_command_queue; the plan's stream choice, never null on CUDA).
  virtual void exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const = 0;
};

class MpiTransport : public Transport {
 public:
  // Collective over `group` (whether every rank takes device pointers).
  // `point_bytes`: 8 (complex float) or 16 (complex double); 4 for the
  // real floats of a real reshape.
  MpiTransport(MPI_Comm group, const Device& device, int point_bytes,
               ExchangeMethod method = ExchangeMethod::Alltoallv);
  void exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const override;
  // Whether the runs travel as device pointers (a CUDA device and a
  // CUDA-aware MPI), point-to-point whatever the method, not host-staged.
  bool device_pointers() const { return device_pointers_; }

 private:
  // The device runs sent and received as they are, point-to-point.
  void move_device(const std::vector<Run>& sends, const std::vector<Run>& receives) const;
  // The host blocks moved as the method says (counts and offsets in points).
  void move(const std::vector<int>& send_counts, const std::vector<int>& send_offsets,
            const std::vector<int>& receive_counts, const std::vector<int>& receive_offsets) const;
  MPI_Comm group_;
  Device device_;
  int point_bytes_;
  ExchangeMethod method_;
  bool device_pointers_ = false;
  mutable std::vector<std::complex<double>> padded_send_, padded_receive_;  // Alltoall's
  mutable std::vector<std::complex<double>> send_, receive_;                // host staging
};

// Collective over `group`: the MPI method (Alltoallv, Alltoall or
// PointToPoint) that moves these runs fastest, host-staged: each one untimed
// once, then the best of 3 of the group's slowest rank (the same answer on
// every rank).
ExchangeMethod fastest_method(MPI_Comm group, const Device& device, int point_bytes, const std::vector<Run>& sends,
                              const std::vector<Run>& receives, void* stream);

class NcclTransport : public Transport {
 public:
  NcclTransport(const NcclComm& comm, int point_bytes) : comm_(comm), point_bytes_(point_bytes) {}
  void exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const override;

 private:
  const NcclComm& comm_;
  int point_bytes_;
};

}  // namespace bfly::distributed::detail
