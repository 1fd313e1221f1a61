// The one door below the public API for bfly's developer tools (the CLI's
// plan, gen, bench, tune and cache verbs): they include bfly's public
// headers and this, never backends/ or codegen/. What they may use from
// below is named here, and only that: plans without a device, the
// generated source, NVRTC's compile statistics, the kernel cache on disk,
// the limits a device plans under, and the raw kernels the benches time
// beside the transforms.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/kernel_cache.hpp"
#include "bfly/bfly.hpp"
#include "codegen/chain_kernel.hpp"
#include "codegen/dialect.hpp"
#include "plan/plan.hpp"

namespace bfly::detail {
class KernelImpl;
}

namespace bfly::inspect {

// The kernel cache on disk (`bfly cache`).
using KernelCache = detail::KernelCache;
using CacheInfo = detail::CacheInfo;
using CacheDevice = detail::CacheDevice;

// Dialects and the generated source (`bfly gen`, `bfly plan --nvrtc`).
using codegen::chain_shape;
using codegen::ChainShape;
using codegen::DialectKind;
using codegen::parse_dialect;
std::string pass_source(const plan::KernelSpec& spec, DialectKind dialect);
// Several passes' kernels in one program (the first with the preamble).
std::string program_source(const std::vector<plan::KernelSpec>& specs, DialectKind dialect);
// A DCT's or DST's stages' gather and twiddle kernels (codegen/r2r_kernel.hpp):
// each its name and its source (a program of its own, as the runtime builds it).
std::vector<std::pair<std::string, std::string>> r2r_kernels(const Problem& problem, DialectKind dialect);
std::string chain_name(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape);
std::string chain_source(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape);

// NVRTC's compiles and each kernel's registers and spills, no GPU needed.
using Nvrtc = cuda::Nvrtc;
using NvrtcResult = cuda::CompileResult;
using KernelResources = cuda::KernelResources;

// The limits `device` plans under: its policy with the override
// (BFLY_LIMITS) applied, as a Plan on it would.
plan::DeviceLimits planning_limits(const Device& device);

// A plain copy of `elements` 16-byte elements from `in` to `out`: the
// bench's yardstick for each case, compiled once a device.
class CopyKernel {
 public:
  explicit CopyKernel(const Device& device);
  void run(const Buffer& in, const Buffer& out, std::uint64_t elements) const;

 private:
  Device device_;
  std::shared_ptr<detail::KernelImpl> kernel_;
};

// The direct 2D convolution on the device, out = image * kernel, mode same
// (bench --app convolve's crossover), compiled once a device and precision.
class DirectConvolution {
 public:
  DirectConvolution(const Device& device, Precision precision);
  void run(const Buffer& out, const Buffer& image, const Buffer& kernel, std::int64_t h, std::int64_t w,
           std::int64_t k) const;

 private:
  Device device_;
  std::shared_ptr<detail::KernelImpl> kernel_;
};

// An OpenCL device's context, queue and device id (cl_context,
// cl_command_queue, cl_device_id), for peers that run on its queue. Throws
// Error(InvalidArgument) for a device of another backend.
struct OpenCLHandles {
  void* context = nullptr;
  void* queue = nullptr;
  void* device = nullptr;
};
OpenCLHandles opencl_handles(const Device& device);

}  // namespace bfly::inspect
