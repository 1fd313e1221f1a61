// One object a queue or stream, made on first use: a plan's workspaces and
// launch state, so executions on different streams may overlap. A handle
// that names another stream on every thread (CUDA's per-thread default
// stream) is one a thread. Shared by PlanImpl's queues and the R2R and
// half plans' workspaces.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "backends/device_impl.hpp"

namespace bfly::detail {

template <class T>
class PerStream {
 public:
  // `make()` (a std::unique_ptr<T>) runs under the map's lock.
  template <class Make>
  T& of(const DeviceImpl& device, void* stream, Make make) const {
    const std::thread::id thread = device.thread_local_stream(stream) ? std::this_thread::get_id() : std::thread::id();
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<T>& made = map_[{stream, thread}];
    if (!made) made = make();
    return *made;
  }
  T& of(const DeviceImpl& device, void* stream) const {
    return of(device, stream, [] { return std::make_unique<T>(); });
  }

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::pair<void*, std::thread::id>, std::unique_ptr<T>> map_;
};

}  // namespace bfly::detail
