// The transports (transport.hpp).
#include "distributed/transport.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <string>

#include "distributed/agree.hpp"

// The MPI's extensions, where it has them (Open MPI's CUDA query).
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace bfly::distributed::detail {

namespace {

// The MPI type of one element of `bytes` bytes: a complex point (8, 16),
// or a real one (4), which a real reshape moves (reshape.hpp). (8 bytes
// serve a double real too: the same bytes on one kind of host.)
MPI_Datatype element_type(int bytes) {
  return bytes == 4 ? MPI_FLOAT : bytes == 8 ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX;
}

int to_count(std::int64_t n) {
  if (n > INT_MAX)
    throw Error(ErrorCode::Unsupported, "bfly::distributed: an exchange of " + std::to_string(n) +
                                            " points passes MPI's int counts (2^31 - 1)");
  return static_cast<int>(n);
}

}  // namespace

bool cuda_aware_mpi() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  // The library loaded now, not the headers built against: a job may run
  // on a CUDA-aware Open MPI that the build never saw.
  return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
  int supported = 0;
  return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS && supported != 0;
#else
  return false;
#endif
}

MpiTransport::MpiTransport(MPI_Comm group, const Device& device, int point_bytes, ExchangeMethod method)
    : group_(group), device_(device), point_bytes_(point_bytes), method_(method) {
  // Agreed over the group: a rank on device pointers sends point-to-point,
  // which only meets point-to-point on the other side.
  int mine = device.info().backend == "cuda" && cuda_aware_mpi() ? 1 : 0;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_MIN, group), "MPI_Allreduce");
  device_pointers_ = mine == 1;
}

void MpiTransport::move_device(const std::vector<Run>& sends, const std::vector<Run>& receives) const {
  const MPI_Datatype type = element_type(point_bytes_);
  const std::size_t point = static_cast<std::size_t>(point_bytes_);
  auto address = [&](const Run& run) {
    return reinterpret_cast<void*>(run.buffer->device_pointer() + static_cast<std::size_t>(run.offset) * point);
  };
  std::vector<MPI_Request> requests;
  for (std::size_t p = 0; p < receives.size(); ++p)
    if (receives[p].elements) {
      requests.emplace_back();
      check_mpi(MPI_Irecv(address(receives[p]), to_count(receives[p].elements), type, static_cast<int>(p), 0, group_,
                          &requests.back()),
                "MPI_Irecv");
    }
  for (std::size_t p = 0; p < sends.size(); ++p)
    if (sends[p].elements) {
      requests.emplace_back();
      check_mpi(MPI_Isend(address(sends[p]), to_count(sends[p].elements), type, static_cast<int>(p), 0, group_,
                          &requests.back()),
                "MPI_Isend");
    }
  check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void MpiTransport::move(const std::vector<int>& send_counts, const std::vector<int>& send_offsets,
                        const std::vector<int>& receive_counts, const std::vector<int>& receive_offsets) const {
  const MPI_Datatype type = element_type(point_bytes_);
  const std::size_t point = static_cast<std::size_t>(point_bytes_), peers = send_counts.size();
  auto* sent = reinterpret_cast<unsigned char*>(send_.data());
  auto* received = reinterpret_cast<unsigned char*>(receive_.data());
  if (method_ == ExchangeMethod::Alltoallv) {
    check_mpi(MPI_Alltoallv(sent, send_counts.data(), send_offsets.data(), type, received, receive_counts.data(),
                            receive_offsets.data(), type, group_),
              "MPI_Alltoallv");
  } else if (method_ == ExchangeMethod::PointToPoint) {
    std::vector<MPI_Request> requests;
    for (std::size_t p = 0; p < peers; ++p)
      if (receive_counts[p]) {
        requests.emplace_back();
        check_mpi(MPI_Irecv(received + receive_offsets[p] * point, receive_counts[p], type, static_cast<int>(p), 0,
                            group_, &requests.back()),
                  "MPI_Irecv");
      }
    for (std::size_t p = 0; p < peers; ++p)
      if (send_counts[p]) {
        requests.emplace_back();
        check_mpi(MPI_Isend(sent + send_offsets[p] * point, send_counts[p], type, static_cast<int>(p), 0, group_,
                            &requests.back()),
                  "MPI_Isend");
      }
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  } else {
    // Every block padded to the group's largest: one count for all.
    int largest = 0;
    for (std::size_t p = 0; p < peers; ++p) largest = std::max({largest, send_counts[p], receive_counts[p]});
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT, MPI_MAX, group_), "MPI_Allreduce");
    to_count(static_cast<std::int64_t>(largest) * static_cast<std::int64_t>(peers));
    const std::size_t words = (static_cast<std::size_t>(largest) * peers * point + 15) / 16;
    if (padded_send_.size() < words) padded_send_.resize(words), padded_receive_.resize(words);
    auto* padded_sent = reinterpret_cast<unsigned char*>(padded_send_.data());
    auto* padded_received = reinterpret_cast<unsigned char*>(padded_receive_.data());
    for (std::size_t p = 0; p < peers; ++p)
      std::memcpy(padded_sent + p * largest * point, sent + send_offsets[p] * point, send_counts[p] * point);
    check_mpi(MPI_Alltoall(padded_sent, largest, type, padded_received, largest, type, group_), "MPI_Alltoall");
    for (std::size_t p = 0; p < peers; ++p)
      std::memcpy(received + receive_offsets[p] * point, padded_received + p * largest * point,
                  receive_counts[p] * point);
  }
}

void MpiTransport::exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const {
  if (device_pointers_) {
    // The runs were written on `stream`; MPI's calls return once the runs
    // are in place, before anything later on the stream reads them.
    device_.synchronize(stream);
    return move_device(sends, receives);
  }
  const std::size_t peers = sends.size();
  std::vector<int> send_counts(peers), send_offsets(peers), receive_counts(peers), receive_offsets(peers);
  std::int64_t sent = 0, received = 0;
  for (std::size_t p = 0; p < peers; ++p) {
    send_offsets[p] = to_count(sent), send_counts[p] = to_count(sends[p].elements);
    receive_offsets[p] = to_count(received), receive_counts[p] = to_count(receives[p].elements);
    sent += sends[p].elements, received += receives[p].elements;
  }
  to_count(sent), to_count(received);  // the totals too: the displacements are ints
  const std::size_t point = static_cast<std::size_t>(point_bytes_);
  auto words = [&](std::int64_t points) { return (static_cast<std::size_t>(points) * point + 15) / 16; };
  if (send_.size() < words(sent)) send_.resize(words(sent));
  if (receive_.size() < words(received)) receive_.resize(words(received));
  auto* send_bytes = reinterpret_cast<unsigned char*>(send_.data());
  auto* receive_bytes = reinterpret_cast<unsigned char*>(receive_.data());
  // The runs were written on `stream`: wait for it before reading them.
  if (stream)
    device_.synchronize(stream);
  else
    device_.synchronize();
  for (std::size_t p = 0; p < peers; ++p)
    if (sends[p].elements)
      sends[p].buffer->read(send_bytes + send_offsets[p] * point, sends[p].elements * point,
                            static_cast<std::size_t>(sends[p].offset) * point);
  move(send_counts, send_offsets, receive_counts, receive_offsets);
  // Blocking writes: done before anything later on the stream reads them.
  for (std::size_t p = 0; p < peers; ++p)
    if (receives[p].elements)
      receives[p].buffer->write(receive_bytes + receive_offsets[p] * point, receives[p].elements * point,
                                static_cast<std::size_t>(receives[p].offset) * point);
}

ExchangeMethod fastest_method(MPI_Comm group, const Device& device, int point_bytes, const std::vector<Run>& sends,
                              const std::vector<Run>& receives, void* stream) {
  const ExchangeMethod methods[] = {ExchangeMethod::Alltoallv, ExchangeMethod::Alltoall, ExchangeMethod::PointToPoint};
  double best[3];
  for (int m = 0; m < 3; ++m) {
    const MpiTransport transport(group, device, point_bytes, methods[m]);
    transport.exchange(sends, receives, stream);  // untimed: first-touch of the staging memory
    best[m] = 1e300;
    for (int rep = 0; rep < 3; ++rep) {
      check_mpi(MPI_Barrier(group), "MPI_Barrier");
      const auto start = std::chrono::steady_clock::now();
      transport.exchange(sends, receives, stream);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, group), "MPI_Allreduce");
      best[m] = std::min(best[m], ms);
    }
  }
  return methods[std::min_element(best, best + 3) - best];
}

void NcclTransport::exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const {
  const std::size_t point = static_cast<std::size_t>(point_bytes_);
  // CU_STREAM_LEGACY (the plan's stand-in for no stream) is NCCL's stream 0.
  if (stream == reinterpret_cast<void*>(1)) stream = nullptr;
  comm_.make_current();
  comm_.begin();
  for (std::size_t p = 0; p < sends.size(); ++p) {
    if (sends[p].elements)
      comm_.send(sends[p].buffer->device_pointer() + static_cast<std::size_t>(sends[p].offset) * point,
                 static_cast<std::size_t>(sends[p].elements) * point, static_cast<int>(p), stream);
    if (receives[p].elements)
      comm_.receive(receives[p].buffer->device_pointer() + static_cast<std::size_t>(receives[p].offset) * point,
                    static_cast<std::size_t>(receives[p].elements) * point, static_cast<int>(p), stream);
  }
  comm_.end();
}

}  // namespace bfly::distributed::detail
