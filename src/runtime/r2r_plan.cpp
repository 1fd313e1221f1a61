#include "runtime/r2r_plan.hpp"

#include "codegen/r2r_kernel.hpp"
#include "runtime/table_cache.hpp"
#include "runtime/tier_choice.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::detail {
namespace {

std::uint64_t bits(std::int64_t v) { return static_cast<std::uint64_t>(v); }

}  // namespace

std::optional<plan::PlanTree> fused_r2r_tree(DeviceImpl& device, const Problem& problem,
                                             const plan::DeviceLimits& limits, const PlanOptions& options) {
  std::optional<plan::PlanTree> fused = plan::fused_r2r_plan(problem, limits, options);
  const int tier = limits.generic_tier;
  if (fused && (tier == 1 || tier == 2 || (tier == 4 && !kernels_ready(device, *fused)))) fused.reset();
  return fused;
}

R2RPlan::R2RPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options,
                 BuildStats& stats)
    : device_(std::move(device)), problem_(problem) {
  const Precision precision = problem.precision;
  const std::size_t point = problem.element_bytes();
  for (const plan::R2RStage& s : plan::r2r_stages(problem)) {
    Stage st;
    st.stage = s;
    auto kernel = [&](const std::string& name, const std::string& source) {
      ++stats.kernels;
      return device_->memo<KernelImpl>("kernel:" + name, [&] {
        ++stats.built;
        return device_->compile(source, name).kernel;
      });
    };
    const codegen::DialectKind dialect = device_->dialect();
    st.pre = kernel(codegen::r2r_pre_kernel_name(s.family, s.type, precision),
                    codegen::generate_r2r_pre(dialect, s.family, s.type, precision));
    st.post = kernel(codegen::r2r_post_kernel_name(s.family, s.type, precision),
                     codegen::generate_r2r_post(dialect, s.family, s.type, precision));
    // w_8n^e for e < 2n: the types 2 and 3's w_4n^k at e = 2k, type 4's
    // w_8n^(2j) and w_8n^(2k+1); rounded once from the long-double oracle.
    const std::int64_t n = s.n;
    st.twiddles =
        device_->memo<BufferImpl>("r2r-stages:" + std::string(to_string(precision)) + ":" + std::to_string(n), [&] {
          return precision == Precision::Double ? upload(*device_, twiddle::table_f64(8 * n, 2 * n))
                                                : upload(*device_, twiddle::table_f32(8 * n, 2 * n));
        });
    st.fft = std::make_unique<Plan>(Device(device_), s.fft, options);
    // The complex side (m points a line, or a real FFT's m / 2 + 1) and,
    // for a real FFT, the real side (m reals a line).
    const bool real_fft = s.fft.kind != Kind::C2C;
    const std::int64_t points = real_fft ? s.m / 2 + 1 : s.m;
    workspace_bytes_ = std::max(workspace_bytes_, static_cast<std::size_t>(s.lines * points) * point);
    if (real_fft) real_bytes_ = std::max(real_bytes_, static_cast<std::size_t>(s.lines * s.m) * (point / 2));
    stages_.push_back(std::move(st));
  }
}

int R2RPlan::launches() const {
  int n = 0;
  for (const Stage& s : stages_) n += 2 + s.fft->passes();
  return n;
}

std::string R2RPlan::describe() const {
  std::string out = "problem " + problem_.token() + "\nsolver r2r: each axis a gather, an FFT and a twiddle\n";
  for (const Stage& s : stages_) {
    out += "axis " + std::to_string(s.stage.axis) + ": gather bfly_r2r_pre_" + s.stage.word() + ", fft " +
           s.stage.fft.token() + ", twiddle bfly_r2r_post_" + s.stage.word() + "\n";
    out += s.fft->describe();
  }
  return out;
}

void R2RPlan::execute(const BufferImpl& in, const BufferImpl& out, void* stream) const {
  Workspace& w = workspaces_.of(*device_, stream);
  std::lock_guard<std::mutex> lock(w.order);
  if (!w.buffer) w.buffer = std::make_unique<Buffer>(device_->allocate(workspace_bytes_), device_);
  if (real_bytes_ > 0 && !w.reals) w.reals = std::make_unique<Buffer>(device_->allocate(real_bytes_), device_);
  const bool single = problem_.precision == Precision::Single;
  auto real = [&](double v) { return single ? KernelArg::of_f32(v) : KernelArg::of_f64(v); };
  for (const Stage& st : stages_) {
    const plan::R2RStage& s = st.stage;
    auto geometry = [&](std::vector<KernelArg>& args, std::int64_t count, const std::int64_t* strides,
                        std::int64_t axis_stride) {
      args.push_back(KernelArg::of_u64(bits(count)));
      args.push_back(KernelArg::of_u64(bits(s.n)));
      args.push_back(KernelArg::of_u64(bits(s.m)));
      for (int d = 1; d < 4; ++d) args.push_back(KernelArg::of_u64(bits(s.extents[d])));
      for (int d = 0; d < 4; ++d) args.push_back(KernelArg::of_u64(bits(strides[d])));
      args.push_back(KernelArg::of_u64(bits(axis_stride)));
    };
    auto groups = [&](std::int64_t per) { return static_cast<std::size_t>(codegen::r2r_groups(s.lines, per)); };
    // The FFT's input and output in workspace: the complex side in place
    // (C2C), else from the real side to the complex one (R2C) or back (C2R).
    const Buffer& fft_in = s.fft.kind == Kind::R2C ? *w.reals : *w.buffer;
    const Buffer& fft_out = s.fft.kind == Kind::C2R ? *w.reals : *w.buffer;
    const std::int64_t gathered = s.fft.kind == Kind::C2R ? s.lines * (s.m / 2 + 1) : s.lines * s.m;
    std::vector<KernelArg> pre{KernelArg::of(fft_in.impl()), KernelArg::of(s.from_input ? in : out),
                               KernelArg::of(*st.twiddles)};
    geometry(pre, gathered, s.src_strides, s.src_axis_stride);
    pre.push_back(real(s.in_first));
    pre.push_back(real(s.in_last));
    device_->launch(*st.pre, groups(gathered / s.lines), codegen::kR2RGroupSize, 0, pre, stream);
    st.fft->execute(fft_in, fft_out, stream);
    std::vector<KernelArg> post{KernelArg::of(out), KernelArg::of(fft_out.impl()), KernelArg::of(*st.twiddles)};
    geometry(post, s.lines * s.n, s.dst_strides, s.dst_axis_stride);
    post.push_back(real(s.scale));
    post.push_back(real(s.out_first));
    post.push_back(real(s.out_last));
    device_->launch(*st.post, groups(s.n), codegen::kR2RGroupSize, 0, post, stream);
  }
}

}  // namespace bfly::detail
