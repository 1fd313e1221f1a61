#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include "backends/opencl/opencl_device.hpp"

#include <CL/opencl.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "backends/fork_guard.hpp"
#include "backends/kernel_cache.hpp"
#include "plan/device_policy.hpp"
#include "problem/text.hpp"

namespace bfly::detail::opencl {
namespace {

Error device_error(const cl::Error& e, const std::string& what) {
  const ErrorCode code = (e.err() == CL_MEM_OBJECT_ALLOCATION_FAILURE || e.err() == CL_OUT_OF_RESOURCES ||
                          e.err() == CL_OUT_OF_HOST_MEMORY)
                             ? ErrorCode::OutOfMemory
                             : ErrorCode::Device;
  return Error(code, what + ": OpenCL error " + std::to_string(e.err()) + " in " + e.what());
}

struct Found {
  cl::Platform platform;
  cl::Device device;
  std::string spec;
};

std::vector<Found> discover(std::string* why_none) {
  // One query at a time: threads that open their first devices at once
  // found no device but the first's (PoCL 3.1 through the ICD loader
  // answers the others' clGetDeviceIDs empty while its platform starts).
  static std::mutex discovering;
  const std::lock_guard<std::mutex> lock(discovering);
  std::vector<Found> found;
  std::vector<cl::Platform> platforms;
  // PoCL's worker threads start with its platform and do not survive fork.
  const std::string inherited = fork_guard::why_unusable(fork_guard::Backend::OpenCL);
  if (!inherited.empty()) {
    if (why_none) *why_none = inherited;
    return found;
  }
  fork_guard::note_started(fork_guard::Backend::OpenCL);
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (why_none)
      *why_none = e.err() == -1001
                      ? "no OpenCL platform installed (ICD loader found no driver; install pocl-opencl-icd for the CPU)"
                      : "OpenCL platform query failed with error " + std::to_string(e.err());
    return found;
  }
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform with no devices reports CL_DEVICE_NOT_FOUND
    }
    for (std::size_t d = 0; d < devices.size(); ++d)
      found.push_back({platforms[p], devices[d], "opencl:" + std::to_string(p) + ":" + std::to_string(d)});
  }
  if (found.empty() && why_none) *why_none = "OpenCL platforms found, but none has a device";
  return found;
}

DeviceInfo describe(const Found& f) {
  DeviceInfo info;
  info.spec = f.spec;
  info.backend = "opencl";
  info.name = f.device.getInfo<CL_DEVICE_NAME>();
  info.vendor = f.device.getInfo<CL_DEVICE_VENDOR>();
  info.driver = f.platform.getInfo<CL_PLATFORM_NAME>() + " " + f.device.getInfo<CL_DRIVER_VERSION>() + " (" +
                f.device.getInfo<CL_DEVICE_VERSION>() + ")";
  const cl_device_type type = f.device.getInfo<CL_DEVICE_TYPE>();
  info.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info.is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  info.compute_units = f.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  info.global_memory_bytes = f.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  info.max_allocation_bytes = f.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  info.local_memory_bytes = f.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  info.max_group_size = f.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  return info;
}

// Whether the driver keeps the kernels it compiles in a cache of its own,
// keyed by their source and build options: PoCL does, unless
// POCL_KERNEL_CACHE=0 turns its cache off. There bfly's cache entry is the
// kernel's source. Asking PoCL for a program's binary makes it compile every
// kernel once more, for a work-group size no launch uses (the launches
// compile their own): on PoCL 3.1, 2 cores, a first build of the kernels
// took 1.6 times as long with the binary asked for (31.5 s against 19.7 s on
// two accuracy tests' kernels), and a second process built them from the
// source through PoCL's cache nearly as fast as from binaries (5.1 s
// against 4.4 s).
bool driver_caches_kernels(const Found& f) {
  std::string platform = f.platform.getInfo<CL_PLATFORM_NAME>();
  if (platform.find("Portable Computing Language") == std::string::npos) return false;
  const char* cache = std::getenv("POCL_KERNEL_CACHE");
  return !(cache && std::string(cache) == "0");
}

// Strips OpenCL C++ binding quirks: getInfo strings may carry a trailing NUL.
std::string clean(std::string s) {
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

class Buffer final : public BufferImpl {
 public:
  Buffer(cl::Buffer memory, std::size_t bytes) : memory_(std::move(memory)), bytes_(bytes) {}
  std::size_t bytes() const override { return bytes_; }
  std::uintptr_t identity() const override { return reinterpret_cast<std::uintptr_t>(memory_()); }
  const cl::Buffer& memory() const { return memory_; }

 private:
  cl::Buffer memory_;
  std::size_t bytes_;
};

class Kernel final : public KernelImpl {
 public:
  explicit Kernel(cl::Kernel kernel) : kernel_(std::move(kernel)) {}
  cl::Kernel kernel_;
  std::mutex mutex_;  // setArg + enqueue must not interleave between threads
};

class Device final : public DeviceImpl {
 public:
  ~Device() override { clear_memo(); }

  explicit Device(const Found& f) : found_(f), info_(describe(f)) {
    for (std::string* s : {&info_.name, &info_.vendor, &info_.driver}) *s = clean(*s);
    try {
      context_ = cl::Context(found_.device);
      queue_ = cl::CommandQueue(context_, found_.device);
    } catch (const cl::Error& e) {
      throw device_error(e, "cannot create an OpenCL context on " + info_.spec + " (" + info_.name + ")");
    }
    identity_ = info_.name + "|" + info_.driver;
    source_entries_ = driver_caches_kernels(found_);
  }

  const DeviceInfo& info() const override { return info_; }
  codegen::DialectKind dialect() const override { return codegen::DialectKind::OpenCL; }

  plan::DeviceLimits limits() const override { return plan::limits_for(info_); }

  std::shared_ptr<BufferImpl> allocate(std::size_t bytes) override {
    // Refused here with the limit named, rather than as CL_INVALID_BUFFER_SIZE
    // (or, on some drivers, a lazy allocation that fails at first use).
    if (bytes > info_.max_allocation_bytes)
      throw Error(ErrorCode::OutOfMemory, "cannot allocate " + std::to_string(bytes) + " bytes on " + info_.spec +
                                              ": its largest allocation is " +
                                              std::to_string(info_.max_allocation_bytes) + " bytes");
    try {
      return std::make_shared<Buffer>(cl::Buffer(context_, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1)), bytes);
    } catch (const cl::Error& e) {
      throw device_error(e, "cannot allocate " + std::to_string(bytes) + " bytes on " + info_.spec);
    }
  }

  void write(BufferImpl& buffer, const void* host, std::size_t bytes, std::size_t offset) override {
    if (bytes == 0) return;
    try {
      queue_.enqueueWriteBuffer(static_cast<Buffer&>(buffer).memory(), CL_TRUE, offset, bytes, host);
    } catch (const cl::Error& e) {
      throw device_error(e, "writing " + std::to_string(bytes) + " bytes to the device");
    }
  }

  void read(const BufferImpl& buffer, void* host, std::size_t bytes, std::size_t offset) override {
    if (bytes == 0) return;
    try {
      queue_.enqueueReadBuffer(static_cast<const Buffer&>(buffer).memory(), CL_TRUE, offset, bytes, host);
    } catch (const cl::Error& e) {
      throw device_error(e, "reading " + std::to_string(bytes) + " bytes from the device");
    }
  }

  bool has_binary(const std::string& source, const std::string& name) override {
    return cache_.contains(KernelCache::key(name, source, identity_));
  }

  CompileOutcome compile(const std::string& source, const std::string& name) override {
    const std::string key = KernelCache::key(name, source, identity_);
    CompileOutcome outcome;
    if (auto entry = cache_.load(key)) {
      if (source_entries_ && std::equal(entry->begin(), entry->end(), source.begin(), source.end())) {
        outcome.kernel = kernel_of(build(source, name), name);  // the driver's cache answers
        outcome.cache_hit = true;
        return outcome;
      }
      try {
        cl::Program program(context_, {found_.device}, cl::Program::Binaries{*entry});
        program.build({found_.device});
        outcome.kernel = std::make_shared<Kernel>(cl::Kernel(program, name.c_str()));
        outcome.cache_hit = true;
        return outcome;
      } catch (const cl::Error&) {
        // A stale or foreign binary: fall through and rebuild from source.
      }
    }
    const cl::Program program = build(source, name);
    outcome.kernel = kernel_of(program, name);
    try {
      if (source_entries_) {
        cache_.store(key, std::vector<unsigned char>(source.begin(), source.end()), identity_);
      } else {
        const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
        if (!binaries.empty()) cache_.store(key, binaries.front(), identity_);
      }
    } catch (const cl::Error& e) {
      throw device_error(e, "reading the binary of kernel " + name);
    }
    return outcome;
  }

  void launch(KernelImpl& kernel_impl, std::size_t groups, std::size_t group_size, std::size_t,
              const std::vector<KernelArg>& args, void* stream, bool) override {
    auto& k = static_cast<Kernel&>(kernel_impl);
    std::lock_guard<std::mutex> lock(k.mutex_);
    try {
      for (cl_uint i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        switch (a.kind) {
          case KernelArg::Kind::Buffer:
            k.kernel_.setArg(i, static_cast<const Buffer*>(a.buffer)->memory());
            break;
          case KernelArg::Kind::U64:
            k.kernel_.setArg(i, static_cast<cl_ulong>(a.u64));
            break;
          case KernelArg::Kind::F32:
            k.kernel_.setArg(i, static_cast<cl_float>(a.real));
            break;
          case KernelArg::Kind::F64:
            k.kernel_.setArg(i, static_cast<cl_double>(a.real));
            break;
        }
      }
      cl::CommandQueue queue = stream ? cl::CommandQueue(static_cast<cl_command_queue>(stream), true) : queue_;
      queue.enqueueNDRangeKernel(k.kernel_, cl::NullRange, cl::NDRange(groups * group_size), cl::NDRange(group_size));
    } catch (const cl::Error& e) {
      throw device_error(e, "launching " + std::to_string(groups) + " groups of " + std::to_string(group_size));
    }
  }

  void finish() override {
    try {
      queue_.finish();
    } catch (const cl::Error& e) {
      throw device_error(e, "waiting for the device");
    }
  }
  void finish(void* stream) override {
    if (stream == nullptr) return finish();
    try {
      cl::CommandQueue(static_cast<cl_command_queue>(stream), true).finish();
    } catch (const cl::Error& e) {
      throw device_error(e, "waiting for a queue of the device");
    }
  }

  Handles handles() const { return {context_(), queue_(), found_.device()}; }

 private:
  cl::Program build(const std::string& source, const std::string& name) const {
    cl::Program program(context_, source);
    try {
      program.build({found_.device});
    } catch (const cl::Error& e) {
      std::string log;
      try {
        log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(found_.device);
      } catch (const cl::Error&) {}
      throw Error(ErrorCode::Build, "building kernel " + name + " for " + info_.name + " failed (OpenCL error " +
                                        std::to_string(e.err()) + "):\n" + clean(log));
    }
    return program;
  }

  static std::shared_ptr<Kernel> kernel_of(const cl::Program& program, const std::string& name) {
    try {
      return std::make_shared<Kernel>(cl::Kernel(program, name.c_str()));
    } catch (const cl::Error& e) {
      throw device_error(e, "creating kernel " + name);
    }
  }

  Found found_;
  DeviceInfo info_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::string identity_;
  KernelCache cache_;
  // Entries hold the source, not a binary, where the driver keeps compiled
  // kernels itself (driver_caches_kernels).
  bool source_entries_ = false;
};

}  // namespace

std::vector<DeviceInfo> list(std::string* why_none) {
  std::vector<DeviceInfo> infos;
  try {
    for (const Found& f : discover(why_none)) {
      DeviceInfo info = describe(f);
      for (std::string* s : {&info.name, &info.vendor, &info.driver}) *s = clean(*s);
      infos.push_back(info);
    }
  } catch (const cl::Error& e) {
    if (why_none) *why_none = "OpenCL query failed with error " + std::to_string(e.err());
  }
  return infos;
}

std::shared_ptr<DeviceImpl> open(const std::string& spec) {
  std::string why;
  const std::vector<Found> found = discover(&why);
  if (found.empty()) throw Error(ErrorCode::Device, "no OpenCL device for '" + spec + "': " + why);
  auto type_of = [](const Found& f) { return f.device.getInfo<CL_DEVICE_TYPE>(); };
  auto first_of = [&](cl_device_type type) -> const Found* {
    for (const Found& f : found)
      if (type_of(f) & type) return &f;
    return nullptr;
  };
  const Found* chosen = nullptr;
  if (spec == "auto") {
    chosen = first_of(CL_DEVICE_TYPE_GPU);
    if (!chosen) chosen = first_of(CL_DEVICE_TYPE_CPU);
    if (!chosen) chosen = &found.front();
  } else if (spec == "cpu" || spec == "gpu") {
    chosen = first_of(spec == "cpu" ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU);
    if (!chosen) throw Error(ErrorCode::Device, "no OpenCL " + spec + " device found (bfly info lists the devices)");
  } else {
    for (const Found& f : found)
      if (f.spec == spec) chosen = &f;
    if (!chosen) throw Error(ErrorCode::InvalidArgument, "no device '" + spec + "' (bfly info lists the devices)");
  }
  return std::make_shared<Device>(*chosen);
}

Handles handles(const DeviceImpl& device) {
  const auto* d = dynamic_cast<const Device*>(&device);
  if (!d) throw Error(ErrorCode::InvalidArgument, "not an OpenCL device");
  return d->handles();
}

}  // namespace bfly::detail::opencl
