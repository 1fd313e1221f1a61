#include "runtime/half_plan.hpp"

#include "codegen/storage_kernel.hpp"

namespace bfly::detail {
namespace {

Problem native_of(const Problem& problem) {
  Problem native = problem;
  native.storage = Storage::Native;
  return native;
}

}  // namespace

HalfPlan::HalfPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options,
                   BuildStats& stats)
    : device_(std::move(device)), problem_(problem) {
  problem.validate();  // (before the native problem drops what it would refuse)
  const Problem native = native_of(problem);
  inner_ = std::make_unique<FusedPlan>(Device(device_), native, options, problem.storage);
  stats = inner_->stats();
  auto kernel = [&](bool to_storage, bool complex) {
    ++stats.kernels;
    const std::string name = codegen::storage_kernel_name(problem.storage, to_storage, complex);
    return device_->memo<KernelImpl>("kernel:" + name, [&] {
      ++stats.built;
      return device_
          ->compile(codegen::generate_storage_kernel(device_->dialect(), problem.storage, to_storage, complex), name)
          .kernel;
    });
  };
  const bool in_real = problem.kind == Kind::R2C || problem.kind == Kind::R2R;
  const bool out_real = problem.kind == Kind::C2R || problem.kind == Kind::R2R;
  const std::size_t in_need = static_cast<std::size_t>(native.input_extent()) * native.input_element_bytes();
  const std::size_t out_need = static_cast<std::size_t>(native.output_extent()) * native.output_element_bytes();
  if (!inner_->loads_convert()) {
    from_storage_ = kernel(false, !in_real);
    in_bytes_ = in_need;
  }
  if (!inner_->stores_convert()) {
    to_storage_ = kernel(true, !out_real);
    out_bytes_ = out_need;
  }
  // In place, one fp32 buffer holds what the conversions read or write
  // (the inner plan keeps its intermediates off the caller's buffer:
  // plan/storage.hpp).
  if (problem.placement == Placement::InPlace && (from_storage_ || to_storage_)) {
    in_bytes_ = std::max(in_need, out_need);
    out_bytes_ = 0;
  }
}

int HalfPlan::launches() const { return inner_->launches() + (from_storage_ ? 1 : 0) + (to_storage_ ? 1 : 0); }

std::string HalfPlan::describe() const {
  const std::string word = to_string(problem_.storage);
  auto side = [&](bool fused, bool input) {
    return std::string(input ? "loads: " : "stores: ") +
           (fused ? "converted in the " + std::string(input ? "first pass" : "last pass")
                  : "converted by " +
                        codegen::storage_kernel_name(problem_.storage, !input,
                                                     input ? problem_.kind != Kind::R2C && problem_.kind != Kind::R2R
                                                           : problem_.kind != Kind::C2R && problem_.kind != Kind::R2R) +
                        " through fp32 workspace");
  };
  return "problem " + problem_.token() + "\nhalf storage (" + word +
         ", fp32 compute): " + side(inner_->loads_convert(), true) + "; " + side(inner_->stores_convert(), false) +
         "\n" + inner_->describe();
}

void HalfPlan::convert(KernelImpl& kernel, const BufferImpl& dst, const BufferImpl& src, bool input,
                       void* stream) const {
  const codegen::StorageDims dims = codegen::storage_dims(problem_, input);
  std::vector<KernelArg> args{KernelArg::of(dst), KernelArg::of(src),
                              KernelArg::of_u64(static_cast<std::uint64_t>(dims.count))};
  for (int d = 0; d < 4; ++d) args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(dims.extent[d])));
  for (int d = 0; d < 5; ++d) args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(dims.stride[d])));
  const std::int64_t group = codegen::kStorageGroupSize;
  device_->launch(kernel, static_cast<std::size_t>((dims.count + group - 1) / group), static_cast<std::size_t>(group),
                  0, args, stream);
}

void HalfPlan::execute(const BufferImpl& in, const BufferImpl& out, void* stream) const {
  if (!from_storage_ && !to_storage_) return inner_->run(in, out, stream);
  Workspace& w = workspaces_.of(*device_, stream);
  std::lock_guard<std::mutex> lock(w.order);
  if (in_bytes_ > 0 && !w.in) w.in = device_->allocate(in_bytes_);
  if (out_bytes_ > 0 && !w.out) w.out = device_->allocate(out_bytes_);
  const bool in_place = problem_.placement == Placement::InPlace;
  const BufferImpl& source = from_storage_ ? *w.in : in;
  const BufferImpl& destination = !to_storage_ ? out : in_place ? *w.in : *w.out;
  // (In place with one side converted apart, the inner plan runs from one
  // buffer to another: its passes never meet the caller's buffer between
  // them.)
  if (from_storage_) convert(*from_storage_, source, in, true, stream);
  inner_->run(source, destination, stream);
  if (to_storage_) convert(*to_storage_, out, destination, false, stream);
}

}  // namespace bfly::detail
