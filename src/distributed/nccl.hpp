// NCCL, loaded at run time with dlopen (as bfly loads the CUDA driver and
// NVRTC): one bfly_distributed binary runs where NCCL is absent (the MPI
// transport then) and builds without NCCL's headers. Only what the
// exchanges use: communicators from a unique id, grouped send and receive.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::distributed::detail {

// Whether NCCL loads here (libnccl.so.2 on the library path); `why` says
// why not. Its version as NCCL writes it (e.g. 22805 for 2.28.5) or 0.
bool nccl_available(std::string* why = nullptr);
int nccl_version();

// Collective: whether NCCL suits every rank of `comm` (Transport::Auto):
// each rank's device a CUDA device, NCCL loaded, and no two ranks of one
// host on the same device (NCCL refuses that; ranks sharing a GPU exchange
// through MPI).
bool nccl_suits(MPI_Comm comm, const Device& device);

// An NCCL communicator over the ranks of an MPI communicator, each rank on
// its CUDA device (rank 0 makes the unique id, MPI broadcasts it).
class NcclComm {
 public:
  // Collective over `comm`. Throws Error(Device) where NCCL fails or is
  // absent, or Error(Unsupported) where `device` is not a CUDA device.
  NcclComm(MPI_Comm comm, const Device& device);
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  // Makes the device's context current on this thread (NCCL works on the
  // current CUDA device).
  void make_current() const;
  // Grouped sends and receives of bytes, enqueued on `stream` (a
  // cudaStream_t): begin(), send/receive per peer, end().
  void begin() const;
  void send(std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const;
  void receive(std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const;
  void end() const;
  // ncclAlltoAll of `bytes` to each peer (NCCL 2.28+; else grouped sends
  // and receives): the bound a benchmark compares with.
  void all_to_all(std::uintptr_t send, std::uintptr_t receive, std::size_t bytes, void* stream) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// NCCL communicators over devices of this one process (ncclCommInitAll):
// member m on devices[m], each a different CUDA device, driven from one
// thread. A group's calls for several members go between one begin() and
// end() (NCCL's single-process, multiple-device use).
class NcclClique {
 public:
  // Throws Error(Unsupported) where a device is not CUDA, two are the same
  // GPU, or NCCL is absent; Error(Device) where NCCL fails.
  explicit NcclClique(const std::vector<Device>& devices);
  ~NcclClique();
  NcclClique(const NcclClique&) = delete;
  NcclClique& operator=(const NcclClique&) = delete;

  int size() const;
  void begin() const;
  void end() const;
  // As NcclComm's, from member `member` (its device's context made current
  // first: `stream` is one of that device's).
  void send(int member, std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const;
  void receive(int member, std::uintptr_t pointer, std::size_t bytes, int peer, void* stream) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace bfly::distributed::detail
