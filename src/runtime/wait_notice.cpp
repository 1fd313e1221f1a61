#include "runtime/wait_notice.hpp"

#include <cstdio>

namespace bfly::detail {

WaitNotice::WaitNotice(std::function<void(const std::string&)> on_wait, std::string what, int kernels,
                       std::chrono::milliseconds after)
    : on_wait_(std::move(on_wait)),
      what_(std::move(what)),
      kernels_(kernels),
      start_(std::chrono::steady_clock::now()) {
  if (!on_wait_ || kernels_ <= 0) return;
  watcher_ = std::thread([this, after] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, after, [this] { return finished_; })) return;
    told_ = true;
    const std::string message = "compiling " + std::to_string(kernels_) + " kernel" + (kernels_ == 1 ? "" : "s") +
                                " for " + what_ + " (new to this device; the kernel cache keeps them for next time)";
    lock.unlock();
    tell(message);
  });
}

// A callback that throws must not end the process (from the watcher's
// thread, or from a destructor).
void WaitNotice::tell(const std::string& message) const {
  try {
    on_wait_(message);
  } catch (...) {}
}

WaitNotice::~WaitNotice() { done(); }

void WaitNotice::done() {
  if (!watcher_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
  watcher_.join();
  if (!told_) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char text[64];
  std::snprintf(text, sizeof text, " made in %.1f s", seconds);
  tell("kernels for " + what_ + text);
}

}  // namespace bfly::detail
