// Device selection across backends: the public Device and Buffer.
#include <cstdlib>

#include "backends/cuda/cuda_device.hpp"
#include "backends/device_impl.hpp"
#ifdef BFLY_HAVE_OPENCL
#include "backends/opencl/opencl_device.hpp"
#endif

namespace bfly {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::shared_ptr<detail::DeviceImpl> open_opencl(const std::string& spec) {
#ifdef BFLY_HAVE_OPENCL
  return detail::opencl::open(spec);
#else
  throw Error(ErrorCode::Unsupported, "device '" + spec + "': this bfly was built without OpenCL");
#endif
}

std::vector<DeviceInfo> list_opencl(std::string* why) {
#ifdef BFLY_HAVE_OPENCL
  return detail::opencl::list(why);
#else
  if (why) *why = "this bfly was built without OpenCL (no OpenCL headers at build time)";
  return {};
#endif
}

Device open_spec(const std::string& spec) {
  if (spec == "cuda" || starts_with(spec, "cuda:")) return Device(detail::cuda::open(spec));
  if (spec == "auto" || spec == "gpu") {
    // In a child forked after CUDA started, say so rather than run on
    // whatever OpenCL device is left (fork_guard.hpp).
    const std::string forked = detail::fork_guard::why_unusable(detail::fork_guard::Backend::Cuda);
    if (!forked.empty()) throw Error(ErrorCode::Device, "device '" + spec + "': " + forked);
    // A CUDA GPU runs the native dialect; OpenCL on NVIDIA is capped at 48 KiB
    // of local memory and lacks clusters.
    if (!detail::cuda::list(nullptr).empty()) return Device(detail::cuda::open("cuda:0"));
    return Device(open_opencl(spec));
  }
  if (spec == "opencl") return Device(open_opencl("auto"));  // OpenCL's best: a GPU, else the CPU
  if (spec == "cpu" || starts_with(spec, "opencl:")) return Device(open_opencl(spec));
  throw Error(ErrorCode::InvalidArgument,
              "invalid device '" + spec + "' (expected auto, cpu, gpu, cuda, cuda:N, opencl or opencl:P:D)");
}

}  // namespace

Device::Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

Device::~Device() {
  if (impl_ && impl_->inherited()) detail::fork_guard::abandon(std::move(impl_));
}

Buffer::~Buffer() {
  if (device_ && device_->inherited()) {
    detail::fork_guard::abandon(std::move(impl_));
    detail::fork_guard::abandon(std::move(device_));
  }
}

Device Device::open(const std::string& requested) {
  if (!requested.empty()) return open_spec(requested);
  const char* env = std::getenv("BFLY_DEVICE");
  if (!env || !*env) return open_spec("auto");
  // The user may not know where the spec came from: say.
  try {
    return open_spec(env);
  } catch (const Error& e) {
    throw Error(e.code(), std::string("BFLY_DEVICE=") + env + ": " + e.what());
  }
}

std::vector<DeviceInfo> Device::list() {
  std::vector<DeviceInfo> all = detail::cuda::list(nullptr);
  for (DeviceInfo& info : list_opencl(nullptr)) all.push_back(info);
  return all;
}

std::vector<BackendStatus> Device::backends() {
  std::vector<BackendStatus> result;
  std::string why;
  const auto cuda = detail::cuda::list(&why);
  result.push_back({"cuda", cuda.size(), cuda.empty() ? why : ""});
  why.clear();
  const auto opencl = list_opencl(&why);
  result.push_back({"opencl", opencl.size(), opencl.empty() ? why : ""});
  return result;
}

const DeviceInfo& Device::info() const { return impl_->info(); }

void Device::synchronize() const {
  impl_->check_usable();
  impl_->finish();
}
void Device::synchronize(void* stream) const {
  impl_->check_usable();
  impl_->finish(stream);
}

Buffer::Buffer(const Device& device, std::size_t bytes)
    : impl_((device.impl()->check_usable(), device.impl()->allocate(bytes))) {
  device_ = device.impl();
}

Buffer Buffer::wrap(const Device& device, std::uintptr_t device_pointer, std::size_t bytes) {
  if (device.info().backend != "cuda")
    throw Error(ErrorCode::InvalidArgument, "Buffer::wrap takes CUDA device pointers; " + device.info().spec +
                                                " is an " + device.info().backend + " device");
  if (device_pointer == 0) throw Error(ErrorCode::InvalidArgument, "Buffer::wrap given a null device pointer");
  device.impl()->check_usable();
  return Buffer(detail::cuda::wrap(*device.impl(), device_pointer, bytes), device.impl());
}

std::uintptr_t Buffer::device_pointer() const { return detail::cuda::pointer(*impl_); }

std::size_t Buffer::bytes() const { return impl_->bytes(); }

void Buffer::write(const void* host, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > impl_->bytes())
    throw Error(ErrorCode::InvalidArgument, "write of " + std::to_string(bytes) + " bytes at offset " +
                                                std::to_string(offset) + " overruns a buffer of " +
                                                std::to_string(impl_->bytes()));
  device_->check_usable();
  device_->write(*impl_, host, bytes, offset);
}

void Buffer::read(void* host, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > impl_->bytes())
    throw Error(ErrorCode::InvalidArgument, "read of " + std::to_string(bytes) + " bytes at offset " +
                                                std::to_string(offset) + " overruns a buffer of " +
                                                std::to_string(impl_->bytes()));
  device_->check_usable();
  device_->read(*impl_, host, bytes, offset);
}

}  // namespace bfly
