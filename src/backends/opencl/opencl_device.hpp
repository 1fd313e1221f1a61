// The OpenCL backend: device discovery, buffers, program builds with a
// binary cache, launches. One of the two places vendor headers appear.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/device_impl.hpp"

typedef struct _cl_context* cl_context;
typedef struct _cl_command_queue* cl_command_queue;
typedef struct _cl_device_id* cl_device_id;

namespace bfly::detail::opencl {

// Devices of every platform; `why_none` says why the list is empty.
std::vector<DeviceInfo> list(std::string* why_none);

// spec: "auto", "cpu", "gpu" or "opencl:P:D". Throws Error naming the spec.
std::shared_ptr<DeviceImpl> open(const std::string& spec);

// Raw handles for code that drives other OpenCL libraries on the same
// device (the benchmark's peers). Throws if not an OpenCL device.
struct Handles {
  cl_context context;
  cl_command_queue queue;
  cl_device_id device;
};
Handles handles(const DeviceImpl& device);

}  // namespace bfly::detail::opencl
