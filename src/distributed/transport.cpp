// The transports (transport.hpp).
#include "distributed/transport.hpp"

#include <climits>
#include <string>

#include "distributed/agree.hpp"

namespace bfly::distributed::detail {

namespace {

int to_count(std::int64_t n) {
  if (n > INT_MAX)
    throw Error(ErrorCode::Unsupported, "bfly::distributed: an exchange of " + std::to_string(n) +
                                            " points passes MPI's int counts (2^31 - 1)");
  return static_cast<int>(n);
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm group, const Device& device, int point_bytes)
    : group_(group), device_(device), point_bytes_(point_bytes) {}

void MpiTransport::exchange(const std::vector<Run>& sends, const std::vector<Run>& receives, void* stream) const {
  const std::size_t peers = sends.size();
  std::vector<int> send_counts(peers), send_offsets(peers), receive_counts(peers), receive_offsets(peers);
  std::int64_t sent = 0, received = 0;
  for (std::size_t p = 0; p < peers; ++p) {
    send_offsets[p] = to_count(sent), send_counts[p] = to_count(sends[p].elements);
    receive_offsets[p] = to_count(received), receive_counts[p] = to_count(receives[p].elements);
    sent += sends[p].elements, received += receives[p].elements;
  }
  to_count(sent), to_count(received);
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
  const MPI_Datatype type = point_bytes_ == 8 ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX;
  check_mpi(MPI_Alltoallv(send_bytes, send_counts.data(), send_offsets.data(), type, receive_bytes,
                          receive_counts.data(), receive_offsets.data(), type, group_),
            "MPI_Alltoallv");
  // Blocking writes: done before anything later on the stream reads them.
  for (std::size_t p = 0; p < peers; ++p)
    if (receives[p].elements)
      receives[p].buffer->write(receive_bytes + receive_offsets[p] * point, receives[p].elements * point,
                                static_cast<std::size_t>(receives[p].offset) * point);
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
