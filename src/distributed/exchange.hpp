// The exchange between the two local stages: every rank sends each other
// rank the part of its input box that rank's output box covers, through
// one MPI_Alltoallv over host memory (host-staged: Debian's Open MPI is not
// CUDA-aware, and OpenCL buffers have no portable device pointer).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "bfly/distributed.hpp"

namespace bfly::distributed::detail {

class Exchange {
 public:
  // `from` and `to`: every rank's box before and after (each tiling the
  // global array); `rank` this one. Throws Error(Unsupported) where a block
  // passes MPI's int counts (2^31 - 1 points).
  Exchange(const std::vector<Box>& from, const std::vector<Box>& to, int rank);

  std::int64_t send_elements() const { return send_elements_; }
  std::int64_t receive_elements() const { return receive_elements_; }

  // Collective: packs `source` (this rank's `from` box) into `send`, runs
  // the MPI_Alltoallv into `receive`, unpacks into `target` (this rank's
  // `to` box). `send` and `receive` hold send_elements() and
  // receive_elements() points. T: std::complex<float> or <double>.
  template <class T>
  void run(MPI_Comm comm, const T* source, T* send, T* receive, T* target) const;

 private:
  Box from_, to_;
  std::vector<Box> send_parts_, receive_parts_;  // by peer rank
  std::vector<int> send_counts_, send_offsets_, receive_counts_, receive_offsets_;
  std::int64_t send_elements_ = 0, receive_elements_ = 0;
};

}  // namespace bfly::distributed::detail
