// Reshapes between the caller's boxes and the decomposition's (reshape.hpp).
#include "distributed/reshape.hpp"

#include <string>

#include "distributed/agree.hpp"
#include "distributed/boxes.hpp"

namespace bfly::distributed::detail {

std::vector<Box> gather_boxes(MPI_Comm comm, const Box& mine, std::size_t axes) {
  int ranks = 1;
  check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  // (A box of another rank count of axes is sent as given: check_tiling says so.)
  std::vector<std::int64_t> flat(2 * axes, 0), all(flat.size() * static_cast<std::size_t>(ranks));
  for (std::size_t k = 0; k < axes && k < mine.lower.size() && k < mine.upper.size(); ++k)
    flat[k] = mine.lower[k], flat[axes + k] = mine.upper[k];
  if (mine.lower.size() != axes || mine.upper.size() != axes) flat[0] = -1, flat[axes] = -2;  // refused below
  check_mpi(MPI_Allgather(flat.data(), static_cast<int>(flat.size()), MPI_INT64_T, all.data(),
                          static_cast<int>(flat.size()), MPI_INT64_T, comm),
            "MPI_Allgather");
  std::vector<Box> boxes(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t* at = all.data() + static_cast<std::size_t>(r) * flat.size();
    boxes[r].lower.assign(at, at + axes), boxes[r].upper.assign(at + axes, at + 2 * axes);
  }
  return boxes;
}

namespace {

std::string text(const Box& box) {
  std::string out;
  for (std::size_t k = 0; k < box.lower.size(); ++k)
    out +=
        (k ? " x " : "") + std::string("[") + std::to_string(box.lower[k]) + ", " + std::to_string(box.upper[k]) + ")";
  return out;
}

}  // namespace

void check_tiling(const std::vector<Box>& boxes, const std::vector<std::int64_t>& shape, const char* side) {
  std::int64_t total = 1, held = 0;
  for (std::int64_t n : shape) total *= n;
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const Box& box = boxes[r];
    bool inside = box.lower.size() == shape.size();
    for (std::size_t k = 0; inside && k < shape.size(); ++k)
      inside = box.lower[k] >= 0 && box.upper[k] <= shape[k] && box.lower[k] <= box.upper[k];
    if (!inside)
      throw Error(ErrorCode::InvalidArgument, std::string("bfly::distributed: rank ") + std::to_string(r) + "'s " +
                                                  side + " box " + text(box) + " is no box of the global array's " +
                                                  side + " side");
    for (std::size_t q = 0; q < r; ++q)
      if (!intersect(box, boxes[q]).empty())
        throw Error(ErrorCode::InvalidArgument, std::string("bfly::distributed: the ") + side + " boxes of ranks " +
                                                    std::to_string(q) + " and " + std::to_string(r) + " overlap (" +
                                                    text(boxes[q]) + " and " + text(box) + ")");
    held += box.elements();
  }
  if (held != total)
    throw Error(ErrorCode::InvalidArgument, std::string("bfly::distributed: the ranks' ") + side + " boxes hold " +
                                                std::to_string(held) + " of the global array's " +
                                                std::to_string(total) + " points (they must tile it)");
}

Reshape::Reshape(MPI_Comm comm, const Device& device, Exchange exchange, int element_bytes,
                 bfly::distributed::Transport transport, ExchangeMethod method, const NcclComm* nccl)
    : exchange_(std::move(exchange)),
      element_bytes_(static_cast<std::size_t>(element_bytes)),
      copy_(device, element_bytes) {
  if (transport == bfly::distributed::Transport::Nccl)
    transport_ = std::make_unique<NcclTransport>(*nccl, element_bytes);
  else
    transport_ = std::make_unique<MpiTransport>(comm, device, element_bytes,
                                                method == ExchangeMethod::Auto ? ExchangeMethod::Alltoallv : method);
}

void Reshape::run(const Buffer& source, Buffer& send, Buffer& receive, const Buffer& target, void* stream) const {
  // (Runs name buffers by pointer; these handles share the caller's memory.)
  Buffer from = source, to = target;
  exchange_.run(*transport_, copy_, from, send, receive, to, stream);
}

void Reshape::bound(const Buffer& source, Buffer& send, Buffer& receive, const Buffer& target, void* stream) const {
  Buffer from = source, to = target;
  exchange_.run(*transport_, copy_, from, send, receive, to, stream, true);
}

}  // namespace bfly::distributed::detail
