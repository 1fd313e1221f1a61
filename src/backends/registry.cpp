// Device selection across backends: the public Device and Buffer.
#include <cstdlib>

#include "backends/cuda/probe.hpp"
#include "backends/device_impl.hpp"
#include "backends/opencl/opencl_device.hpp"

namespace bfly {

Device::Device(std::shared_ptr<detail::DeviceImpl> impl) : impl_(std::move(impl)) {}

Device Device::open(const std::string& requested) {
  std::string spec = requested;
  if (spec.empty()) {
    const char* env = std::getenv("BFLY_DEVICE");
    spec = env && *env ? env : "auto";
  }
  if (spec.rfind("cuda", 0) == 0) {
    const std::string why = detail::cuda::driver_absent_reason();
    throw Error(ErrorCode::Unsupported, "device '" + spec + "': " +
                                            (why.empty() ? "the CUDA backend is not part of this build yet" : why));
  }
  if (spec == "auto" || spec == "cpu" || spec == "gpu" || spec.rfind("opencl:", 0) == 0)
    return Device(detail::opencl::open(spec));
  throw Error(ErrorCode::InvalidArgument,
              "invalid device '" + spec + "' (expected auto, cpu, gpu, opencl:P:D or cuda:N)");
}

std::vector<DeviceInfo> Device::list() { return detail::opencl::list(nullptr); }

std::vector<BackendStatus> Device::backends() {
  std::vector<BackendStatus> result;
  std::string why;
  const auto devices = detail::opencl::list(&why);
  result.push_back({"opencl", devices.size(), devices.empty() ? why : ""});
  const std::string cuda_why = detail::cuda::driver_absent_reason();
  result.push_back({"cuda", 0, cuda_why.empty() ? "driver present, but the CUDA backend is not part of this build yet"
                                                : cuda_why});
  return result;
}

const DeviceInfo& Device::info() const { return impl_->info(); }

void Device::synchronize() const { impl_->finish(); }

Buffer::Buffer(const Device& device, std::size_t bytes) : impl_(device.impl()->allocate(bytes)) {
  device_ = device.impl();
}

std::size_t Buffer::bytes() const { return impl_->bytes(); }

void Buffer::write(const void* host, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > impl_->bytes())
    throw Error(ErrorCode::InvalidArgument, "write of " + std::to_string(bytes) + " bytes at offset " +
                                                std::to_string(offset) + " overruns a buffer of " +
                                                std::to_string(impl_->bytes()));
  device_->write(*impl_, host, bytes, offset);
}

void Buffer::read(void* host, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > impl_->bytes())
    throw Error(ErrorCode::InvalidArgument, "read of " + std::to_string(bytes) + " bytes at offset " +
                                                std::to_string(offset) + " overruns a buffer of " +
                                                std::to_string(impl_->bytes()));
  device_->read(*impl_, host, bytes, offset);
}

}  // namespace bfly
