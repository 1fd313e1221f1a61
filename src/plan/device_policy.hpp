// One device policy: the limits a device's plans are made under, from the
// facts its backend reports. Both backends call it (backends/*_device.cpp
// `limits()`; a plan then applies the override, plan/limits_override.hpp),
// and so does
// `bfly plan --limits` for the devices it plans without (a device-free plan
// is exactly what that device runs).
#pragma once

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"

namespace bfly::plan {

// - A CPU: cpu_limits(), within the device's local memory and group size.
// - A CUDA GPU: its (opt-in) local memory and group size; from compute
//   capability 9.0, thread-block clusters of 8 and passes chained through L2.
// - An OpenCL GPU: its local memory and group size, no staging (staging was
//   measured through CUDA's bulk copy only; OpenCL's async_work_group_copy on
//   a GPU was not).
DeviceLimits limits_for(const DeviceInfo& device);

// The devices `bfly plan --limits` names: "cpu" (PoCL's CPU device), "gpu"
// (a GPU through NVIDIA's OpenCL: 48 KiB of local memory) and "hopper" (an
// H100 through CUDA: 227 KiB, compute capability 9.0). Throws
// Error(InvalidArgument) naming any other.
DeviceInfo named_device(const std::string& name);

}  // namespace bfly::plan
