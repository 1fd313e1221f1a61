// The exchanges of one process driving several devices (local_transport.hpp).
#include "distributed/local_transport.hpp"

namespace bfly::distributed::detail {

void HostCopies::exchange(const std::vector<std::vector<Run>>& sends, const std::vector<std::vector<Run>>& receives,
                          const std::vector<void*>& streams) const {
  const std::size_t point = static_cast<std::size_t>(point_bytes_);
  // The runs were written on each member's stream: wait for them all.
  for (std::size_t m = 0; m < devices_.size(); ++m)
    if (streams[m])
      devices_[m].synchronize(streams[m]);
    else
      devices_[m].synchronize();
  // Member m's run for peer p is what p receives from m. Blocking copies:
  // done before anything later on p's stream reads them.
  for (std::size_t m = 0; m < sends.size(); ++m)
    for (std::size_t p = 0; p < sends[m].size(); ++p) {
      const Run &from = sends[m][p], &to = receives[p][m];
      if (!from.elements) continue;
      const std::size_t bytes = static_cast<std::size_t>(from.elements) * point;
      if (staging_.size() * sizeof staging_[0] < bytes) staging_.resize((bytes + 15) / 16);
      from.buffer->read(staging_.data(), bytes, static_cast<std::size_t>(from.offset) * point);
      to.buffer->write(staging_.data(), bytes, static_cast<std::size_t>(to.offset) * point);
    }
}

void NcclLocal::exchange(const std::vector<std::vector<Run>>& sends, const std::vector<std::vector<Run>>& receives,
                         const std::vector<void*>& streams) const {
  const std::size_t point = static_cast<std::size_t>(point_bytes_);
  clique_.begin();
  for (std::size_t m = 0; m < sends.size(); ++m) {
    // CU_STREAM_LEGACY (the plan's stand-in for no stream) is NCCL's stream
    // 0, the legacy stream of the device NCCL makes current for member m.
    void* stream = streams[m] == reinterpret_cast<void*>(1) ? nullptr : streams[m];
    for (std::size_t p = 0; p < sends[m].size(); ++p) {
      const Run &out = sends[m][p], &in = receives[m][p];
      if (out.elements)
        clique_.send(static_cast<int>(m), out.buffer->device_pointer() + static_cast<std::size_t>(out.offset) * point,
                     static_cast<std::size_t>(out.elements) * point, static_cast<int>(p), stream);
      if (in.elements)
        clique_.receive(static_cast<int>(m), in.buffer->device_pointer() + static_cast<std::size_t>(in.offset) * point,
                        static_cast<std::size_t>(in.elements) * point, static_cast<int>(p), stream);
    }
  }
  clique_.end();
}

}  // namespace bfly::distributed::detail
