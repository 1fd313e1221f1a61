// The CUDA backend: the generated CUDA C++ compiled by NVRTC for the
// device's exact architecture, cubins cached on disk, launched through the
// driver API. Both libraries are loaded at run time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/device_impl.hpp"

namespace bfly::detail::cuda {

// CUDA devices; `why_none` says why the list is empty (no driver, no GPU).
std::vector<DeviceInfo> list(std::string* why_none);

// spec: "cuda" (device 0) or "cuda:N". Throws Error naming the spec.
std::shared_ptr<DeviceImpl> open(const std::string& spec);

// A buffer over memory the caller owns (CUdeviceptr as an integer) on
// `device`; bfly never frees it. Throws Error(InvalidArgument) naming both
// sizes when the driver says the allocation under the pointer ends before
// `bytes` do (memory the driver cannot describe is taken on trust).
std::shared_ptr<BufferImpl> wrap(DeviceImpl& device, std::uintptr_t device_pointer, std::size_t bytes);
std::uintptr_t pointer(const BufferImpl& buffer);

}  // namespace bfly::detail::cuda
