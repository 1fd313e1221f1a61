// The host-staged exchange (exchange.hpp): pack, MPI_Alltoallv, unpack.
//
// Where the fused pack and unpack go (issue 43, "Fused pack and unpack"):
// the pack loop below would become the store of the first stage's last
// pass (writing each output point straight to its peer's block of the send
// buffer), and the unpack loop the load of the second stage's first pass
// (reading the receive buffer with the strides of the target box), so the
// exchange costs the wire and no extra trip over memory. For Slabs the
// receive side is already contiguous in the target (each peer's block is a
// run of whole planes of axis 0), so only the pack would remain.
#include "distributed/exchange.hpp"

#include <climits>
#include <complex>
#include <string>

#include "distributed/agree.hpp"
#include "distributed/boxes.hpp"

namespace bfly::distributed::detail {

namespace {

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<std::complex<float>>() {
  return MPI_C_FLOAT_COMPLEX;
}
template <>
MPI_Datatype mpi_type<std::complex<double>>() {
  return MPI_C_DOUBLE_COMPLEX;
}

// MPI_Alltoallv counts and displacements are ints (MPI 4's large-count
// MPI_Alltoallv_c is not in Debian 12's Open MPI 4.1).
int to_count(std::int64_t n, const char* what) {
  if (n > INT_MAX)
    throw Error(ErrorCode::Unsupported, std::string("bfly::distributed: the exchange's ") + what + " of " +
                                            std::to_string(n) + " points passes MPI's int counts (2^31 - 1)");
  return static_cast<int>(n);
}

}  // namespace

Exchange::Exchange(const std::vector<Box>& from, const std::vector<Box>& to, int rank)
    : from_(from[rank]), to_(to[rank]) {
  const std::size_t ranks = from.size();
  send_counts_.resize(ranks), send_offsets_.resize(ranks);
  receive_counts_.resize(ranks), receive_offsets_.resize(ranks);
  for (std::size_t peer = 0; peer < ranks; ++peer) {
    send_parts_.push_back(intersect(from_, to[peer]));
    receive_parts_.push_back(intersect(from[peer], to_));
    send_offsets_[peer] = to_count(send_elements_, "send buffer");
    receive_offsets_[peer] = to_count(receive_elements_, "receive buffer");
    send_counts_[peer] = to_count(send_parts_.back().elements(), "block");
    receive_counts_[peer] = to_count(receive_parts_.back().elements(), "block");
    send_elements_ += send_counts_[peer];
    receive_elements_ += receive_counts_[peer];
  }
}

template <class T>
void Exchange::run(MPI_Comm comm, const T* source, T* send, T* receive, T* target) const {
  for (std::size_t peer = 0; peer < send_parts_.size(); ++peer)
    pack(from_, source, send_parts_[peer], send + send_offsets_[peer]);
  check_mpi(MPI_Alltoallv(send, send_counts_.data(), send_offsets_.data(), mpi_type<T>(), receive,
                          receive_counts_.data(), receive_offsets_.data(), mpi_type<T>(), comm),
            "MPI_Alltoallv");
  for (std::size_t peer = 0; peer < receive_parts_.size(); ++peer)
    unpack(receive_parts_[peer], receive + receive_offsets_[peer], to_, target);
}

template void Exchange::run(MPI_Comm, const std::complex<float>*, std::complex<float>*, std::complex<float>*,
                            std::complex<float>*) const;
template void Exchange::run(MPI_Comm, const std::complex<double>*, std::complex<double>*, std::complex<double>*,
                            std::complex<double>*) const;

}  // namespace bfly::distributed::detail
