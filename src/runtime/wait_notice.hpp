// Telling a caller that a plan waits for its kernels (issue 40: "nothing
// says why it waits"). A size new to a device and to the kernel cache
// compiles: 0.2-2 s a kernel under NVRTC, several seconds under PoCL. A
// WaitNotice, made as the kernels start, calls PlanOptions::on_wait once
// from a thread of its own if they are not made within `after`, and once
// more when they are; a plan whose kernels come from memory or the disk
// cache says nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace bfly::detail {

class WaitNotice {
 public:
  // `what`: the problem, as the first message names it; `kernels`: how
  // many the plan makes. No callback, or no kernels: nothing happens.
  WaitNotice(std::function<void(const std::string&)> on_wait, std::string what, int kernels,
             std::chrono::milliseconds after = std::chrono::milliseconds(1000));
  ~WaitNotice();
  WaitNotice(const WaitNotice&) = delete;
  WaitNotice& operator=(const WaitNotice&) = delete;

  // The kernels are made (or failed): the closing message if the first was
  // given. Idempotent; the destructor calls it.
  void done();

 private:
  void tell(const std::string& message) const;

  std::function<void(const std::string&)> on_wait_;
  std::string what_;
  int kernels_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  bool told_ = false;
  std::thread watcher_;
};

}  // namespace bfly::detail
