#include "plan/device_policy.hpp"

#include <algorithm>
#include <cstdlib>

namespace bfly::plan {

DeviceLimits limits_for(const DeviceInfo& device) {
  if (!device.is_gpu) {
    DeviceLimits limits = cpu_limits();
    limits.local_memory_bytes = std::min(limits.local_memory_bytes, device.local_memory_bytes);
    limits.max_group_size = static_cast<int>(std::min<std::size_t>(limits.max_group_size, device.max_group_size));
    return limits;
  }
  DeviceLimits limits = gpu_limits(device.local_memory_bytes, static_cast<int>(device.max_group_size));
  if (device.backend == "cuda") {
    // Thread-block clusters from compute capability 9.0 (8 blocks portably).
    if (std::atoi(device.compute_capability.c_str()) >= 9) {
      limits.max_cluster = 8;
      // fp64 rows in two passes, not clusters: 2^26 points, bfly alone, 8
      // lengths 14000-32768 drawn among those clusters take (docs/perf/
      // 2026-11-27c-issue39): two passes 0.82x the time on an H200, every
      // one faster (14400 0.72x, 20736 0.79x), 0.92x on an H100 (14400
      // 0.68x; 25200 1.05x). fp32 keeps them: two passes 1.06x the time on
      // the H100 over 8 lengths 27216-55296 (27216 1.35x), 0.92x on the H200.
      limits.cluster_double = false;
      limits.l2_chain_bytes = kHopperL2ChainBytes;
    }
  } else {
    // Staging was measured through CUDA's bulk copy only; OpenCL's
    // async_work_group_copy on a GPU was not (BFLY_LIMITS=staged=L asks for it).
    limits.staged_min_length = limits.staged_min_length_double = 0;
  }
  return limits;
}

DeviceInfo named_device(const std::string& name) {
  DeviceInfo device;
  device.spec = name;
  device.name = name;
  if (name == "cpu") {
    // PoCL 3.1's CPU device: 1 MiB of local memory, groups of 4096.
    device.backend = "opencl";
    device.is_cpu = true;
    device.local_memory_bytes = std::size_t{1} << 20;
    device.max_group_size = 4096;
  } else if (name == "gpu") {
    // NVIDIA's OpenCL exposes 48 KiB of local memory.
    device.backend = "opencl";
    device.is_gpu = true;
    device.local_memory_bytes = 49152;
    device.max_group_size = 1024;
  } else if (name == "hopper") {
    // The CUDA backend plans for a Hopper block's opt-in 227 KiB.
    device.backend = "cuda";
    device.is_gpu = true;
    device.local_memory_bytes = 232448;
    device.max_group_size = 1024;
    device.compute_capability = "9.0";
  } else {
    throw Error(ErrorCode::InvalidArgument, "invalid --limits '" + name + "' (expected auto, cpu, gpu or hopper)");
  }
  return device;
}

}  // namespace bfly::plan
