// Fork counting and the messages of backends/fork_guard.hpp.
#include "backends/fork_guard.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

#include "bfly/bfly.hpp"

namespace bfly::detail::fork_guard {
namespace {

std::atomic<unsigned> forks{0};
constexpr unsigned kNotStarted = ~0u;
std::atomic<unsigned> started[2] = {kNotStarted, kNotStarted};

// Runs in the child, alone, right after fork: only atomics here.
void in_child() { forks.fetch_add(1, std::memory_order_relaxed); }

const bool registered = [] {
  // glibc ties the handler to this library: dlclose (a Python extension
  // unloaded) removes it.
  return pthread_atfork(nullptr, nullptr, in_child) == 0;
}();

const char* const kFix =
    "start worker processes with multiprocessing's 'spawn' or 'forkserver' method, or use bfly in a process only "
    "after it forks";

const char* name(Backend backend) { return backend == Backend::OpenCL ? "OpenCL" : "CUDA"; }

}  // namespace

unsigned generation() {
  (void)registered;
  return forks.load(std::memory_order_relaxed);
}

void note_started(Backend backend) {
  unsigned expected = kNotStarted;
  started[static_cast<int>(backend)].compare_exchange_strong(expected, generation());
}

std::string why_unusable(Backend backend) {
  const unsigned at = started[static_cast<int>(backend)].load();
  if (at == kNotStarted || at == generation()) return "";
  return std::string(name(backend)) + " was initialised before this process (pid " + std::to_string(getpid()) +
         ") was forked from its parent, and a forked child cannot use it (" +
         (backend == Backend::OpenCL ? "the driver's threads" : "the CUDA context") +
         " did not cross the fork): " + kFix;
}

void throw_inherited(const std::string& device_spec) {
  throw Error(ErrorCode::Device, "device '" + device_spec + "' was opened before this process (pid " +
                                     std::to_string(getpid()) +
                                     ") was forked, and a forked child cannot use its parent's devices: " + kFix);
}

}  // namespace bfly::detail::fork_guard
