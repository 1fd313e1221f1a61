// The backend interface: what the runtime needs from a device. Implemented
// by backends/opencl (and later backends/cuda); only those implementations
// include vendor headers.
#pragma once

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <future>
#include <mutex>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "backends/fork_guard.hpp"
#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"
#include "plan/device_limits.hpp"

namespace bfly::detail {

class BufferImpl {
 public:
  virtual ~BufferImpl() = default;
  virtual std::size_t bytes() const = 0;
  // The native handle (cl_mem, device address): equal for the same memory.
  virtual std::uintptr_t identity() const = 0;
};

class KernelImpl {
 public:
  virtual ~KernelImpl() = default;
};

// One kernel argument: a buffer or a scalar of a fixed type.
struct KernelArg {
  enum class Kind { Buffer, U64, F32, F64 } kind;
  const BufferImpl* buffer = nullptr;
  std::uint64_t u64 = 0;
  double real = 0;

  static KernelArg of(const BufferImpl& b) { return {Kind::Buffer, &b, 0, 0}; }
  static KernelArg of_u64(std::uint64_t v) { return {Kind::U64, nullptr, v, 0}; }
  static KernelArg of_f32(double v) { return {Kind::F32, nullptr, 0, v}; }
  static KernelArg of_f64(double v) { return {Kind::F64, nullptr, 0, v}; }
};

struct CompileOutcome {
  std::shared_ptr<KernelImpl> kernel;
  bool cache_hit = false;
  bool shipped = false;  // loaded from the cubins compiled into the library (backends/cuda/shipped_kernels.hpp)
};

class DeviceImpl {
 public:
  virtual ~DeviceImpl() = default;
  virtual const DeviceInfo& info() const = 0;

  // Opened by an ancestor of this process, before a fork: nothing of it may
  // be used or released here (backends/fork_guard.hpp).
  bool inherited() const { return generation_ != fork_guard::generation(); }
  // Throws the fork error where inherited(): the first thing a public call
  // on the device does, before it takes any of the device's locks.
  void check_usable() const {
    if (inherited()) fork_guard::throw_inherited(info().spec);
  }
  virtual codegen::DialectKind dialect() const = 0;
  virtual plan::DeviceLimits limits() const = 0;

  virtual std::shared_ptr<BufferImpl> allocate(std::size_t bytes) = 0;
  virtual void write(BufferImpl& buffer, const void* host, std::size_t bytes, std::size_t offset) = 0;
  virtual void read(const BufferImpl& buffer, void* host, std::size_t bytes, std::size_t offset) = 0;

  // Compiles (or loads from the binary cache) kernel `name` from `source`.
  // Throws Error(Build) with the build log.
  virtual CompileOutcome compile(const std::string& source, const std::string& name) = 0;
  // Whether compile() would load kernel `name` rather than compile it
  // (shipped in the library or in the disk cache): the default tier plans
  // a size whose kernels are all there specialised at once.
  virtual bool has_binary(const std::string& source, const std::string& name) {
    (void)source;
    (void)name;
    return false;
  }
  // Enqueues groups x group_size threads on `stream` (the backend's native
  // queue or stream; nullptr: the device's own); returns without waiting.
  // local_bytes is the kernel's local memory, for backends that must be told;
  // `dynamic_local`: all of it is CUDA's dynamic shared memory, whatever its
  // size (a chained kernel's: codegen/chain_kernel.hpp), where otherwise only
  // sizes past the static limit are.
  virtual void launch(KernelImpl& kernel, std::size_t groups, std::size_t group_size, std::size_t local_bytes,
                      const std::vector<KernelArg>& args, void* stream = nullptr, bool dynamic_local = false) = 0;
  virtual void finish() = 0;
  // Waits for a queue or stream the caller owns (a CUstream, where nullptr is
  // CUDA's legacy default stream; a cl_command_queue).
  virtual void finish(void* stream) = 0;
  // Whether the handle `stream` names a different stream on each thread
  // (CUDA's per-thread default stream): what a plan keeps per stream
  // (PlanImpl::Queue) it then keeps per thread.
  virtual bool thread_local_stream(void* stream) const {
    (void)stream;
    return false;
  }
  // How many groups of `kernel` the device runs at once: the launch of a
  // staged kernel (KernelSpec::staged), whose groups loop over transforms.
  // Local memory a thread of `kernel` uses (register spills): a staged
  // kernel that spills is replaced by the unstaged one. 0 where unknown.
  virtual std::size_t spill_bytes(KernelImpl& kernel) {
    (void)kernel;
    return 0;
  }
  virtual std::size_t resident_groups(KernelImpl& kernel, std::size_t group_size, std::size_t local_bytes,
                                      bool dynamic_local = false) {
    (void)kernel;
    (void)group_size;
    (void)local_bytes;
    (void)dynamic_local;
    return std::max<std::size_t>(1, info().compute_units) * 2;
  }

  // Whether `key` is made or being made.
  bool has_memo(const std::string& key) {
    std::lock_guard<std::mutex> lock(memo_mutex_);
    return memo_.count(key) != 0;
  }

  // Whether `key` is made (not still being made).
  bool memo_made(const std::string& key) {
    std::lock_guard<std::mutex> lock(memo_mutex_);
    auto found = memo_.find(key);
    return found != memo_.end() && found->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

  // Objects shared by every plan on this device (compiled kernels, twiddle
  // tables), made once per key. Their lifetime is the device's. Threads
  // asking for a key being made wait for it rather than make it again (a
  // kernel is compiled once); other keys are made meanwhile, outside the
  // lock. A make that throws leaves no entry: its waiters get the error,
  // later calls try again.
  template <class T>
  std::shared_ptr<T> memo(const std::string& key, const std::function<std::shared_ptr<T>()>& make) {
    std::promise<std::shared_ptr<void>> promise;
    std::shared_future<std::shared_ptr<void>> made;
    bool maker = false;
    {
      std::lock_guard<std::mutex> lock(memo_mutex_);
      auto found = memo_.find(key);
      if (found == memo_.end()) {
        made = promise.get_future().share();
        memo_.emplace(key, made);
        maker = true;
      } else {
        made = found->second;
      }
    }
    if (maker) {
      try {
        promise.set_value(make());
      } catch (...) {
        {
          std::lock_guard<std::mutex> lock(memo_mutex_);
          memo_.erase(key);
        }
        promise.set_exception(std::current_exception());
      }
    }
    return std::static_pointer_cast<T>(made.get());
  }

 protected:
  // Backends call this first in their destructor, so shared kernels and
  // tables are released while the context that owns them still exists.
  void clear_memo() {
    std::lock_guard<std::mutex> lock(memo_mutex_);
    memo_.clear();
  }

 private:
  const unsigned generation_ = fork_guard::generation();
  std::mutex memo_mutex_;
  std::map<std::string, std::shared_future<std::shared_ptr<void>>> memo_;
};

}  // namespace bfly::detail
