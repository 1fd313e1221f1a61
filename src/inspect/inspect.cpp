#include "inspect/inspect.hpp"

#include "backends/device_impl.hpp"
#include "codegen/r2r_kernel.hpp"
#include "codegen/copy_kernel.hpp"
#include "codegen/direct_convolution_kernel.hpp"
#include "codegen/pass_kernel.hpp"
#include "plan/limits_override.hpp"
#ifdef BFLY_HAVE_OPENCL
#include "backends/opencl/opencl_device.hpp"
#endif

namespace bfly::inspect {

std::string pass_source(const plan::KernelSpec& spec, DialectKind dialect) { return codegen::generate(spec, dialect); }

std::string program_source(const std::vector<plan::KernelSpec>& specs, DialectKind dialect) {
  return codegen::generate_program(specs, dialect);
}

std::vector<std::pair<std::string, std::string>> r2r_kernels(const Problem& problem, DialectKind dialect) {
  const Direction d = problem.direction;
  const int type =
      d == Direction::Inverse && (problem.type == 2 || problem.type == 3) ? 5 - problem.type : problem.type;
  const Family f = problem.family;
  const Precision p = problem.precision;
  return {{codegen::r2r_pre_kernel_name(f, type, p), codegen::generate_r2r_pre(dialect, f, type, p)},
          {codegen::r2r_post_kernel_name(f, type, p), codegen::generate_r2r_post(dialect, f, type, p)}};
}

std::string chain_name(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape) {
  return codegen::chain_name(a, b, shape);
}

std::string chain_source(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape) {
  return codegen::generate_chain(a, b, shape);
}

plan::DeviceLimits planning_limits(const Device& device) {
  return plan::with_override(device.impl()->limits(), plan::override_text({}));
}

CopyKernel::CopyKernel(const Device& device) : device_(device) {
  detail::DeviceImpl& impl = *device.impl();
  kernel_ = impl.memo<detail::KernelImpl>(
      "kernel:bfly_copy", [&] { return impl.compile(codegen::generate_copy(impl.dialect()), "bfly_copy").kernel; });
}

void CopyKernel::run(const Buffer& in, const Buffer& out, std::uint64_t elements) const {
  const std::size_t groups = (elements + codegen::kCopyGroupSize - 1) / codegen::kCopyGroupSize;
  device_.impl()->launch(
      *kernel_, groups, codegen::kCopyGroupSize, 0,
      {detail::KernelArg::of(in.impl()), detail::KernelArg::of(out.impl()), detail::KernelArg::of_u64(elements)});
}

DirectConvolution::DirectConvolution(const Device& device, Precision precision) : device_(device) {
  detail::DeviceImpl& impl = *device.impl();
  const std::string name = codegen::direct_convolution_kernel_name(precision);
  kernel_ = impl.memo<detail::KernelImpl>("kernel:" + name, [&] {
    return impl.compile(codegen::generate_direct_convolution(impl.dialect(), precision), name).kernel;
  });
}

void DirectConvolution::run(const Buffer& out, const Buffer& image, const Buffer& kernel, std::int64_t h,
                            std::int64_t w, std::int64_t k) const {
  using Arg = detail::KernelArg;
  const std::vector<Arg> args{Arg::of(out.impl()),
                              Arg::of(image.impl()),
                              Arg::of(kernel.impl()),
                              Arg::of_u64(static_cast<std::uint64_t>(h)),
                              Arg::of_u64(static_cast<std::uint64_t>(w)),
                              Arg::of_u64(static_cast<std::uint64_t>(k)),
                              Arg::of_u64(static_cast<std::uint64_t>(k))};
  const std::int64_t threads = h * ((w + codegen::kDirectOutputs - 1) / codegen::kDirectOutputs);
  const std::size_t groups =
      static_cast<std::size_t>((threads + codegen::kDirectGroupSize - 1) / codegen::kDirectGroupSize);
  device_.impl()->launch(*kernel_, groups, codegen::kDirectGroupSize, 0, args);
}

OpenCLHandles opencl_handles(const Device& device) {
#ifdef BFLY_HAVE_OPENCL
  if (device.info().backend == "opencl") {
    const detail::opencl::Handles h = detail::opencl::handles(*device.impl());
    return {h.context, h.queue, h.device};
  }
#endif
  throw Error(ErrorCode::InvalidArgument, "device " + device.info().spec + " is not an OpenCL device");
}

}  // namespace bfly::inspect
