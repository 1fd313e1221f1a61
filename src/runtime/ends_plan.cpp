#include "runtime/ends_plan.hpp"

#include <cctype>
#include <sstream>
#include <vector>

#include "codegen/storage_kernel.hpp"

namespace bfly::detail {
namespace {

Problem native_of(const Problem& problem) {
  Problem native = problem;
  native.storage = Storage::Native;
  return native;
}

// The side's data on the device: the caller's buffer, bfly's table in the
// working precision, or one zero word where the ops read none (the
// kernels' parameter is there all the same).
std::shared_ptr<BufferImpl> upload(DeviceImpl& device, const plan::ResolvedEnd& end, Precision precision) {
  if (end.data) return std::shared_ptr<BufferImpl>(end.data, &end.data->impl());
  const std::size_t n = std::max<std::size_t>(end.table.size(), 1);
  if (precision == Precision::Double) {
    std::vector<double> values(n, 0.0);
    std::copy(end.table.begin(), end.table.end(), values.begin());
    auto buffer = device.allocate(n * sizeof(double));
    device.write(*buffer, values.data(), n * sizeof(double), 0);
    return buffer;
  }
  std::vector<float> values(n, 0.0f);
  for (std::size_t i = 0; i < end.table.size(); ++i) values[i] = static_cast<float>(end.table[i]);
  auto buffer = device.allocate(n * sizeof(float));
  device.write(*buffer, values.data(), n * sizeof(float), 0);
  return buffer;
}

// A kernel that did not compile for the user's code: the compiler's lines
// that name the code's ("load callback:2:5: error: ..." from Clang,
// "load callback(2): error: ..." from NVRTC; the body's lines count from
// 1: pieces/callback.cpp), on one line; other failures as they came.
[[noreturn]] void rethrow_build_error(const Error& e) {
  std::string lines, line;
  std::istringstream log(e.what());
  while (std::getline(log, line)) {
    std::size_t from = line.find("load callback");
    if (from == std::string::npos) from = line.find("store callback");
    // ("bfly load callback": the generated lines after the body.)
    if (from == std::string::npos || (from >= 5 && line.compare(from - 5, 5, "bfly ") == 0)) continue;
    // Clang's "load callback:2:5: ..." and NVRTC's "load callback(2): ..."
    // alike as "load callback line 2: ...".
    std::string rest = line.substr(from);
    const std::size_t tag = rest.find("callback") + 8;
    std::size_t digits = tag + 1;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    if (digits > tag + 1 && (rest[tag] == ':' || rest[tag] == '(')) {
      std::size_t after = digits + (rest[tag] == '(' && digits < rest.size() && rest[digits] == ')' ? 1 : 0);
      if (after < rest.size() && rest[after] == ':') {  // (Clang's column)
        std::size_t column = after + 1;
        while (column < rest.size() && std::isdigit(static_cast<unsigned char>(rest[column]))) ++column;
        if (column > after + 1 && column < rest.size() && rest[column] == ':') after = column;
      }
      rest = rest.substr(0, tag) + " line " + rest.substr(tag + 1, digits - tag - 1) + ":" +
             (after < rest.size() ? rest.substr(after + (rest[after] == ':' ? 1 : 0)) : std::string());
    }
    lines += (lines.empty() ? "" : "; ") + rest;
  }
  if (lines.empty()) throw e;
  throw Error(ErrorCode::Build, "callback code does not compile: " + lines);
}

}  // namespace

EndsPlan::EndsPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options,
                   BuildStats& stats)
    : device_(std::move(device)), problem_(problem) {
  try {
    build(problem, options, stats);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Build) throw;
    rethrow_build_error(e);
  }
}

void EndsPlan::build(const Problem& problem, const PlanOptions& options, BuildStats& stats) {
  problem.validate();  // (before the native problem drops what it would refuse)
  const Problem native = native_of(problem);
  load_.end = plan::resolve_callback(options.load, native, true);
  store_.end = plan::resolve_callback(options.store, native, false);
  if (store_.end.ops.real_result() && problem.placement == Placement::InPlace)
    throw Error(ErrorCode::InvalidArgument, "store callback '" + options.store.ops +
                                                "' writes reals in place of complex points: plan it out of place");
  if (store_.end.ops.real_result() && problem.storage != Storage::Native)
    throw Error(ErrorCode::InvalidArgument, "store callback '" + options.store.ops + "' writes reals, not " +
                                                to_string(problem.storage) + " storage: plan it in f32");
  for (const Side* side : {&load_, &store_})
    if (side->end.data && side->end.data->device() != device_)
      throw Error(ErrorCode::InvalidArgument, "callback data lives on another device than the plan");
  plan::Ends ends;
  ends.storage = problem.storage;
  ends.load = load_.end.ops;
  ends.store = store_.end.ops;
  PlanOptions inner = options;  // (its callbacks are the ends')
  inner.load = {};
  inner.store = {};
  inner_ = std::make_unique<FusedPlan>(Device(device_), native, inner, ends);
  stats = inner_->stats();
  const bool in_real = problem.kind == Kind::R2C || problem.kind == Kind::R2R;
  const bool out_real = problem.kind == Kind::C2R || problem.kind == Kind::R2R;
  auto kernel = [&](bool load) {
    codegen::EndKernel k;
    k.precision = problem.precision;
    k.storage = problem.storage;
    k.load = load;
    k.complex = load ? !in_real : !out_real;
    k.ops = load ? load_.end.ops : store_.end.ops;
    ++stats.kernels;
    const std::string name = codegen::end_kernel_name(k);
    return device_->memo<KernelImpl>("kernel:" + name, [&] {
      ++stats.built;
      return device_->compile(codegen::generate_end_kernel(device_->dialect(), k), name).kernel;
    });
  };
  const std::size_t in_need = static_cast<std::size_t>(native.input_extent()) * native.input_element_bytes();
  const std::size_t out_need = static_cast<std::size_t>(native.output_extent()) * native.output_element_bytes();
  if (!inner_->loads_fused()) {
    load_.kernel = kernel(true);
    in_bytes_ = in_need;
  }
  if (!inner_->stores_fused()) {
    store_.kernel = kernel(false);
    out_bytes_ = out_need;
  }
  if (!load_.end.ops.empty()) load_.data = upload(*device_, load_.end, problem.precision);
  if (!store_.end.ops.empty()) store_.data = upload(*device_, store_.end, problem.precision);
  // In place, one workspace buffer holds what the end kernels read or
  // write (the inner plan keeps its intermediates off the caller's buffer:
  // plan/ends.hpp).
  if (problem.placement == Placement::InPlace && (load_.kernel || store_.kernel)) {
    in_bytes_ = std::max(in_need, out_need);
    out_bytes_ = 0;
  }
}

int EndsPlan::launches() const { return inner_->launches() + (load_.kernel ? 1 : 0) + (store_.kernel ? 1 : 0); }

std::size_t EndsPlan::output_element_bytes() const {
  if (!store_.end.ops.real_result()) return problem_.output_element_bytes();
  return problem_.precision == Precision::Double ? 8 : 4;
}

std::string EndsPlan::describe() const {
  auto side = [&](const Side& s, bool input) {
    const bool convert = problem_.storage != Storage::Native;
    if (!convert && s.end.ops.empty()) return std::string();
    std::string what = convert ? std::string(input ? "converted from " : "converted to ") + to_string(problem_.storage)
                               : std::string();
    if (!s.end.ops.empty()) what += (what.empty() ? "" : ", ") + std::string("callback ") + s.end.ops.text();
    return std::string(input ? "loads: " : "stores: ") + what +
           (s.kernel ? " in a kernel of its own (workspace)"
            : input  ? " in the first pass"
                     : " in the last pass") +
           "\n";
  };
  std::string head = "problem " + problem_.token() + "\n";
  if (problem_.storage != Storage::Native)
    head += "half storage (" + std::string(to_string(problem_.storage)) + ", fp32 compute)\n";
  return head + side(load_, true) + side(store_, false) + inner_->describe();
}

void EndsPlan::apply(const Side& side, const BufferImpl& dst, const BufferImpl& src, bool input, void* stream) const {
  const codegen::StorageDims dims = codegen::storage_dims(problem_, input);
  std::vector<KernelArg> args{KernelArg::of(dst), KernelArg::of(src)};
  if (side.data) args.push_back(KernelArg::of(*side.data));
  args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(dims.count)));
  for (int d = 0; d < 4; ++d) args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(dims.extent[d])));
  for (int d = 0; d < 5; ++d) args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(dims.stride[d])));
  const std::int64_t group = codegen::kStorageGroupSize;
  device_->launch(*side.kernel, static_cast<std::size_t>((dims.count + group - 1) / group),
                  static_cast<std::size_t>(group), 0, args, stream);
}

void EndsPlan::execute(const BufferImpl& in, const BufferImpl& out, void* stream) const {
  // The fused sides' data (a side with no ops binds none).
  const EndData data{load_.kernel ? nullptr : load_.data.get(), store_.kernel ? nullptr : store_.data.get()};
  if (!load_.kernel && !store_.kernel) return inner_->run(in, out, stream, data);
  Workspace& w = workspaces_.of(*device_, stream);
  std::lock_guard<std::mutex> lock(w.order);
  if (in_bytes_ > 0 && !w.in) w.in = device_->allocate(in_bytes_);
  if (out_bytes_ > 0 && !w.out) w.out = device_->allocate(out_bytes_);
  const bool in_place = problem_.placement == Placement::InPlace;
  const BufferImpl& source = load_.kernel ? *w.in : in;
  const BufferImpl& destination = !store_.kernel ? out : in_place ? *w.in : *w.out;
  // (In place with one side apart, the inner plan runs from one buffer to
  // another: its passes never meet the caller's buffer between them.)
  if (load_.kernel) apply(load_, source, in, true, stream);
  inner_->run(source, destination, stream, data);
  if (store_.kernel) apply(store_, out, destination, false, stream);
}

}  // namespace bfly::detail
