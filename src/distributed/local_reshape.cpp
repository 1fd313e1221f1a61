#include "distributed/local_reshape.hpp"

namespace bfly::distributed::detail {

LocalReshape::LocalReshape(const std::vector<Device>& devices, const std::vector<Box>& from, const std::vector<Box>& to,
                           int element_bytes, bool nccl)
    : element_bytes_(static_cast<std::size_t>(element_bytes)) {
  for (std::size_t r = 0; r < devices.size(); ++r) {
    sides_.emplace_back(from, to, static_cast<int>(r));
    copies_.emplace_back(devices[r], element_bytes);
  }
  if (nccl) {
    clique_ = std::make_unique<NcclClique>(devices);
    transport_ = std::make_unique<NcclLocal>(*clique_, element_bytes);
  } else {
    transport_ = std::make_unique<HostCopies>(devices, element_bytes);
  }
}

void LocalReshape::run(const std::vector<Buffer>& sources, const std::vector<Buffer>& sends,
                       const std::vector<Buffer>& receives, const std::vector<Buffer>& targets,
                       const std::vector<void*>& streams, bool bare) const {
  // (Buffers are handles: the copies below name the same memory.)
  std::vector<Buffer> source = sources, send = sends, receive = receives, target = targets;
  std::vector<std::vector<Run>> out, in;
  for (std::size_t r = 0; r < sides_.size(); ++r) {
    out.push_back(sides_[r].pack(copies_[r], source[r], send[r], streams[r], bare));
    in.push_back(sides_[r].receive_runs(receive[r], target[r]));
  }
  transport_->exchange(out, in, streams);
  if (bare) return;
  for (std::size_t r = 0; r < sides_.size(); ++r) sides_[r].unpack(copies_[r], receive[r], target[r], streams[r]);
}

std::size_t LocalReshape::send_bytes(int r) const {
  return static_cast<std::size_t>(sides_[r].send_elements()) * element_bytes_;
}
std::size_t LocalReshape::receive_bytes(int r) const {
  return static_cast<std::size_t>(sides_[r].receive_elements()) * element_bytes_;
}

}  // namespace bfly::distributed::detail
