#include "backends/cuda/cuda_device.hpp"

#include <cstdlib>
#include <future>
#include <mutex>

#include "backends/cuda/driver_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/cuda/shipped_kernels.hpp"
#include "backends/kernel_cache.hpp"
#include "plan/device_policy.hpp"
#include "plan/limits_override.hpp"
#include "problem/text.hpp"

namespace bfly::detail::cuda {
namespace {

// Shared memory a block may use without opting in; past it the generated
// kernel declares dynamic shared memory and the launch raises the function's
// limit. One number for both sides: the dialect table's.
const std::size_t kStaticSharedLimit = codegen::dialect(codegen::DialectKind::Cuda).static_local_limit;

class Buffer final : public BufferImpl {
 public:
  Buffer(CUdeviceptr pointer, std::size_t bytes, bool owned, CUcontext context)
      : pointer_(pointer), bytes_(bytes), owned_(owned), context_(context) {}
  ~Buffer() override {
    const DriverApi* api = driver();
    if (owned_ && pointer_ && api) {  // (no driver: a forked child, fork_guard.hpp)
      api->cuCtxSetCurrent(context_);
      api->cuMemFree(pointer_);
    }
  }
  std::size_t bytes() const override { return bytes_; }
  std::uintptr_t identity() const override { return static_cast<std::uintptr_t>(pointer_); }
  CUdeviceptr pointer() const { return pointer_; }

 private:
  CUdeviceptr pointer_;
  std::size_t bytes_;
  bool owned_;
  CUcontext context_;
};

class Kernel final : public KernelImpl {
 public:
  Kernel(CUmodule module, CUfunction function) : module_(module), function_(function) {}
  CUmodule module_;  // unloaded with the context
  CUfunction function_;
  // The dynamic shared memory the function may take, as raised so far (0:
  // the default, 48 KiB): launches of one kernel may differ (the generic
  // tier's rows take their points' worth), so it only ever rises.
  std::mutex shared_limit_mutex_;
  std::size_t shared_limit_ = 0;
};

int attribute(const DriverApi* api, int which, CUdevice device) {
  int value = 0;
  check(api->cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

DeviceInfo describe(const DriverApi* api, int ordinal) {
  CUdevice device = 0;
  check(api->cuDeviceGet(&device, ordinal), "cuDeviceGet " + std::to_string(ordinal));
  DeviceInfo info;
  info.spec = "cuda:" + std::to_string(ordinal);
  info.backend = "cuda";
  char name[256] = {};
  check(api->cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName");
  info.name = name;
  info.vendor = "NVIDIA";
  int version = 0;
  api->cuDriverGetVersion(&version);
  const int major = attribute(api, kAttrComputeMajor, device), minor = attribute(api, kAttrComputeMinor, device);
  info.driver = "CUDA driver " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) + ", sm_" +
                std::to_string(major) + std::to_string(minor);
  info.compute_capability = std::to_string(major) + "." + std::to_string(minor);
  info.is_gpu = true;
  info.compute_units = static_cast<std::size_t>(attribute(api, kAttrMultiprocessors, device));
  check(api->cuDeviceTotalMem(&info.global_memory_bytes, device), "cuDeviceTotalMem");
  info.max_allocation_bytes = info.global_memory_bytes;  // CUDA sets no lower per-allocation limit
  info.local_memory_bytes = static_cast<std::size_t>(attribute(api, kAttrMaxSharedPerBlockOptin, device));
  info.max_group_size = static_cast<std::size_t>(attribute(api, kAttrMaxThreadsPerBlock, device));
  return info;
}

class Device final : public DeviceImpl {
 public:
  explicit Device(int ordinal) : api_(driver()) {
    // NVRTC (tens of milliseconds to load) beside the context (hundreds):
    // a process's first plan finds it loaded (plan::DeviceLimits::early_nvrtc).
    if (plan::with_override(plan::DeviceLimits{}, plan::override_text(PlanOptions{})).early_nvrtc)
      nvrtc_loading_ = std::async(std::launch::async, [] { bfly::cuda::Nvrtc::available(); });
    info_ = describe(api_, ordinal);
    check(api_->cuDeviceGet(&device_, ordinal), "cuDeviceGet");
    check(api_->cuDevicePrimaryCtxRetain(&context_, device_), "retaining the primary context of " + info_.spec);
    current();
    check(api_->cuStreamCreate(&stream_, 0), "creating a stream on " + info_.spec);
    arch_ = "sm_" + std::to_string(attribute(api_, kAttrComputeMajor, device_)) +
            std::to_string(attribute(api_, kAttrComputeMinor, device_));
  }

  ~Device() override {
    clear_memo();
    // No checks: at process exit the driver may already be shut down
    // (CUDA_ERROR_DEINITIALIZED), and a destructor must not throw.
    api_->cuCtxSetCurrent(context_);
    api_->cuStreamDestroy(stream_);
    api_->cuDevicePrimaryCtxRelease(device_);
  }

  const DeviceInfo& info() const override { return info_; }
  codegen::DialectKind dialect() const override { return codegen::DialectKind::Cuda; }

  plan::DeviceLimits limits() const override {
    // Plans may use the device's opt-in shared memory (227 KiB on Hopper):
    // 8192 and 16384 points then take one pass instead of two (H100, 2^27
    // points: two passes ran at 0.47-0.51x cuFFT's one), and strided passes
    // keep 8 columns for longer sub-transforms. BFLY_LIMITS=local_memory=49152
    // plans as OpenCL must.
    return plan::limits_for(info_);
  }

  std::shared_ptr<BufferImpl> allocate(std::size_t bytes) override {
    current();
    const std::string what = "cannot allocate " + std::to_string(bytes) + " bytes on " + info_.spec;
    if (bytes > info_.max_allocation_bytes)
      throw Error(ErrorCode::OutOfMemory, what + ": it has " + std::to_string(info_.max_allocation_bytes) + " bytes");
    CUdeviceptr pointer = 0;
    const CUresult result = api_->cuMemAlloc(&pointer, std::max<std::size_t>(bytes, 1));
    if (result == 2) {  // CUDA_ERROR_OUT_OF_MEMORY: say how much there is
      std::size_t free = 0, total = 0;
      api_->cuMemGetInfo(&free, &total);
      throw Error(ErrorCode::OutOfMemory,
                  what + ": " + std::to_string(free) + " of its " + std::to_string(total) + " bytes are free");
    }
    check(result, what);
    return std::make_shared<Buffer>(pointer, bytes, true, context_);
  }

  void write(BufferImpl& buffer, const void* host, std::size_t bytes, std::size_t offset) override {
    if (bytes == 0) return;
    current();
    check(api_->cuMemcpyHtoDAsync(static_cast<Buffer&>(buffer).pointer() + offset, host, bytes, stream_),
          "copying " + std::to_string(bytes) + " bytes to " + info_.spec);
    check(api_->cuStreamSynchronize(stream_), "waiting for a copy to " + info_.spec);
  }

  void read(const BufferImpl& buffer, void* host, std::size_t bytes, std::size_t offset) override {
    if (bytes == 0) return;
    current();
    check(api_->cuMemcpyDtoHAsync(host, static_cast<const Buffer&>(buffer).pointer() + offset, bytes, stream_),
          "copying " + std::to_string(bytes) + " bytes from " + info_.spec);
    check(api_->cuStreamSynchronize(stream_), "waiting for a copy from " + info_.spec);
  }

  // The disk cache's identity of this device and compiler.
  std::string identity() const {
    const bfly::cuda::Nvrtc& nvrtc = bfly::cuda::Nvrtc::instance();
    // (NVRTC's --Ofast-compile was measured and left off: docs/PERF.md,
    // "NVRTC's time".)
    return info_.name + "|" + info_.driver + "|nvrtc " + nvrtc.version() + "|" + arch_;
  }

  bool has_binary(const std::string& source, const std::string& name) override {
    return bfly::cuda::find_shipped(name, arch_, source) != nullptr ||
           cache_.contains(KernelCache::key(name, source, identity()));
  }

  CompileOutcome compile(const std::string& source, const std::string& name) override {
    const bfly::cuda::Nvrtc& nvrtc = bfly::cuda::Nvrtc::instance();
    const std::vector<std::string> options;
    const std::string identity = this->identity();
    const std::string key = KernelCache::key(name, source, identity);
    current();
    CompileOutcome outcome;
    if (const bfly::cuda::ShippedKernel* shipped = bfly::cuda::find_shipped(name, arch_, source))
      if (auto kernel = load(shipped->cubin, name, false)) {
        outcome.kernel = kernel;
        outcome.shipped = true;
        return outcome;
      }
    if (auto binary = cache_.load(key)) {
      if (auto kernel = load(binary->data(), name, false)) {
        outcome.kernel = kernel;
        outcome.cache_hit = true;
        return outcome;
      }
    }
    const bfly::cuda::CompileResult result = nvrtc.compile(source, name, arch_, options);
    outcome.kernel = load(result.cubin.data(), name, true);
    cache_.store(key, std::vector<unsigned char>(result.cubin.begin(), result.cubin.end()), identity);
    return outcome;
  }

  // Kernels past 48 KiB of shared memory declare it dynamic, and the
  // function's limit must be raised once before a launch or an occupancy query.
  // The function's dynamic shared memory limit, raised to the largest a
  // launch has asked for (never lowered: setting it to a smaller launch's
  // size would refuse a larger one later).
  void allow_shared(Kernel& k, std::size_t local_bytes, bool dynamic_local) {
    if (local_bytes <= kStaticSharedLimit && !dynamic_local) return;
    std::lock_guard<std::mutex> lock(k.shared_limit_mutex_);
    if (local_bytes <= k.shared_limit_) return;
    check(api_->cuFuncSetAttribute(k.function_, kFuncAttrMaxDynamicShared, static_cast<int>(local_bytes)),
          "raising the shared memory limit to " + std::to_string(local_bytes) + " bytes");
    k.shared_limit_ = local_bytes;
  }

  std::size_t spill_bytes(KernelImpl& kernel_impl) override {
    auto& k = static_cast<Kernel&>(kernel_impl);
    current();
    int bytes = 0;
    check(api_->cuFuncGetAttribute(&bytes, kFuncAttrLocalBytes, k.function_), "reading a kernel's local memory size");
    return static_cast<std::size_t>(std::max(0, bytes));
  }

  std::size_t resident_groups(KernelImpl& kernel_impl, std::size_t group_size, std::size_t local_bytes,
                              bool dynamic_local) override {
    auto& k = static_cast<Kernel&>(kernel_impl);
    current();
    allow_shared(k, local_bytes, dynamic_local);
    int blocks = 0;
    check(api_->cuOccupancyMaxActiveBlocksPerMultiprocessor(
              &blocks, k.function_, static_cast<int>(group_size),
              local_bytes > kStaticSharedLimit || dynamic_local ? local_bytes : 0),
          "the occupancy of " + std::to_string(group_size) + "-thread blocks");
    return std::max<std::size_t>(1, info_.compute_units) * static_cast<std::size_t>(std::max(1, blocks));
  }

  void launch(KernelImpl& kernel_impl, std::size_t groups, std::size_t group_size, std::size_t local_bytes,
              const std::vector<KernelArg>& args, void* stream, bool dynamic_local) override {
    auto& k = static_cast<Kernel&>(kernel_impl);
    current();
    const bool dynamic = local_bytes > kStaticSharedLimit || dynamic_local;
    allow_shared(k, local_bytes, dynamic_local);
    // Storage for every argument's value; params points into it.
    struct Value {
      CUdeviceptr pointer;
      unsigned long long u64;
      float f32;
      double f64;
    };
    std::vector<Value> values(args.size());
    std::vector<void*> params(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
      const KernelArg& a = args[i];
      switch (a.kind) {
        case KernelArg::Kind::Buffer:
          values[i].pointer = static_cast<const Buffer*>(a.buffer)->pointer();
          params[i] = &values[i].pointer;
          break;
        case KernelArg::Kind::U64:
          values[i].u64 = a.u64;
          params[i] = &values[i].u64;
          break;
        case KernelArg::Kind::F32:
          values[i].f32 = static_cast<float>(a.real);
          params[i] = &values[i].f32;
          break;
        case KernelArg::Kind::F64:
          values[i].f64 = a.real;
          params[i] = &values[i].f64;
          break;
      }
    }
    if (groups > 0x7fffffff)
      throw Error(ErrorCode::Unsupported, "launch of " + std::to_string(groups) + " blocks exceeds CUDA's grid limit");
    check(api_->cuLaunchKernel(k.function_, static_cast<unsigned>(groups), 1, 1, static_cast<unsigned>(group_size), 1,
                               1, dynamic ? static_cast<unsigned>(local_bytes) : 0,
                               stream ? static_cast<CUstream>(stream) : stream_, params.data(), nullptr),
          "launching " + std::to_string(groups) + " blocks of " + std::to_string(group_size) + " threads");
  }

  // CU_STREAM_PER_THREAD (cuda.h): each thread's own default stream.
  bool thread_local_stream(void* stream) const override { return stream == reinterpret_cast<void*>(0x2); }

  void finish() override {
    current();
    check(api_->cuStreamSynchronize(stream_), "waiting for " + info_.spec);
  }
  void finish(void* stream) override {
    current();
    check(api_->cuStreamSynchronize(static_cast<CUstream>(stream)), "waiting for a stream of " + info_.spec);
  }

  // Buffer::wrap's check: the allocation holding `pointer` reaches `bytes` past it.
  void check_range(CUdeviceptr pointer, std::size_t bytes) const {
    current();
    CUdeviceptr base = 0;
    std::size_t size = 0;
    if (api_->cuMemGetAddressRange(&base, &size, pointer) != 0) return;  // not the driver's to describe
    const std::size_t available = static_cast<std::size_t>(base + size - pointer);
    if (bytes > available)
      throw Error(ErrorCode::InvalidArgument, "Buffer::wrap of " + std::to_string(bytes) + " bytes at device address " +
                                                  std::to_string(pointer) + ": its allocation holds only " +
                                                  std::to_string(available) + " bytes from there");
  }

 private:
  void current() const { check(api_->cuCtxSetCurrent(context_), "making the context of " + info_.spec + " current"); }

  // nullptr when a cached binary does not load (another driver wrote it);
  // a fresh one that does not load is an error.
  std::shared_ptr<KernelImpl> load(const void* cubin, const std::string& name, bool fresh) {
    CUmodule module = nullptr;
    const CUresult loaded = api_->cuModuleLoadData(&module, cubin);
    if (loaded != 0) {
      if (!fresh) return nullptr;
      check(loaded, "loading the compiled kernel " + name);
    }
    CUfunction function = nullptr;
    check(api_->cuModuleGetFunction(&function, module, name.c_str()), "finding kernel " + name);
    return std::make_shared<Kernel>(module, function);
  }

  const DriverApi* api_;
  DeviceInfo info_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  std::string arch_;
  KernelCache cache_;
  std::future<void> nvrtc_loading_;  // (last: its wait ends the device's life first)
};

}  // namespace

std::vector<DeviceInfo> list(std::string* why_none) {
  std::vector<DeviceInfo> infos;
  const DriverApi* api = driver(why_none);
  if (!api) return infos;
  int count = 0;
  if (api->cuDeviceGetCount(&count) != 0 || count == 0) {
    if (why_none) *why_none = "the NVIDIA driver reports no CUDA device";
    return infos;
  }
  for (int i = 0; i < count; ++i) infos.push_back(describe(api, i));
  std::string nvrtc_why;
  if (!bfly::cuda::Nvrtc::available(&nvrtc_why) && why_none) *why_none = "NVRTC missing: " + nvrtc_why;
  return infos;
}

std::shared_ptr<DeviceImpl> open(const std::string& spec) {
  std::string why;
  if (!driver(&why)) throw Error(ErrorCode::Device, "device '" + spec + "': " + why);
  if (!bfly::cuda::Nvrtc::available(&why))
    throw Error(ErrorCode::Device, "device '" + spec + "': NVRTC, which compiles bfly's kernels, is missing: " + why);
  int ordinal = 0;
  if (spec != "cuda") {
    const std::string number = spec.substr(spec.find(':') + 1);
    ordinal = static_cast<int>(text::parse_int(number, "CUDA device number"));
  }
  int count = 0;
  driver()->cuDeviceGetCount(&count);
  if (ordinal < 0 || ordinal >= count)
    throw Error(ErrorCode::InvalidArgument,
                "no device '" + spec + "' (" + std::to_string(count) + " CUDA devices; bfly info lists them)");
  return std::make_shared<Device>(ordinal);
}

std::shared_ptr<BufferImpl> wrap(DeviceImpl& device, std::uintptr_t device_pointer, std::size_t bytes) {
  static_cast<Device&>(device).check_range(static_cast<CUdeviceptr>(device_pointer), bytes);
  return std::make_shared<Buffer>(static_cast<CUdeviceptr>(device_pointer), bytes, false, nullptr);
}

std::uintptr_t pointer(const BufferImpl& buffer) {
  const auto* b = dynamic_cast<const Buffer*>(&buffer);
  if (!b) throw Error(ErrorCode::InvalidArgument, "not a CUDA buffer");
  return static_cast<std::uintptr_t>(b->pointer());
}

}  // namespace bfly::detail::cuda
