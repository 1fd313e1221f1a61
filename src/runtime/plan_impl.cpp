// Executing a plan: compiled kernels, twiddle tables and workspace for each
// pass, and the launches.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

#include "backends/device_impl.hpp"
#include "codegen/chain_kernel.hpp"
#include "codegen/kernel_params.hpp"
#include "codegen/pass_kernel.hpp"
#include "pieces/piece.hpp"
#include "plan/launch_alternatives.hpp"
#include "plan/limits_override.hpp"
#include "plan/plan.hpp"
#include "plan/solvers/solver.hpp"
#include "plan/ends.hpp"
#include "runtime/fused_plan.hpp"
#include "runtime/generic_plan.hpp"
#include "runtime/ends_plan.hpp"
#include "runtime/fused_occupancy.hpp"
#include "runtime/r2r_plan.hpp"
#include "runtime/pass_tables.hpp"
#include "runtime/per_stream.hpp"
#include "runtime/tier_choice.hpp"
#include "runtime/table_cache.hpp"
#include "runtime/tuning_files.hpp"
#include "runtime/wait_notice.hpp"
#include "twiddle/oracle.hpp"

namespace bfly {

const char* version() { return "0.1.0"; }

namespace detail {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
struct scalar {
  using type = T;
};
template <class T>
struct scalar<std::complex<T>> {
  using type = T;
};

}  // namespace

class PlanImpl {
 public:
  static constexpr std::size_t kStagedSpillLimit = 128;  // bytes a thread
  static constexpr std::size_t kFusedSpillLimit = 64;    // bytes a thread

  struct CompiledPass {
    plan::Pass pass;
    std::shared_ptr<KernelImpl> kernel;
    std::shared_ptr<BufferImpl> twiddles;
    std::shared_ptr<BufferImpl> pass_twiddles;
    std::shared_ptr<BufferImpl> tables;  // Bluestein's chirp and kernel, Rader's, the split's twiddles
    std::size_t resident_groups = 0;     // a staged kernel's launch: the groups the device runs at once
    // This pass and the next as one chained launch (Pass::chain_elements):
    // its kernel and the groups it launches (its counters: Queue).
    std::shared_ptr<KernelImpl> chain;
    std::size_t chain_groups = 0;
    // The kernel's parameters in order, each with the piece that binds it
    // (nullptr: the runtime's own), found once here rather than at every
    // launch.
    std::vector<std::pair<codegen::Param, const pieces::Piece*>> params;
  };

  // What a plan's executions write besides the caller's buffers: the
  // workspace and the chained launches' counters. Executions on different
  // queues or streams overlap, so each queue has its own, made on the
  // plan's first execution there (the first queue takes the set made with
  // the plan). Executions on one queue share it: each enqueues all its
  // launches under `order`, so two threads' launches never interleave and
  // the in-order queue runs one execution after the other.
  struct Queue {
    std::mutex order;
    std::vector<std::shared_ptr<BufferImpl>> workspace;
    std::vector<std::shared_ptr<BufferImpl>> chain_counters;  // by pass; null but where a chain starts
    bool made = false;
  };

  // `ends`: half storage's conversion and callbacks (a convolution's
  // pointwise product among them) fused into the first pass's loads and
  // the last pass's stores where those passes take them (plan/ends.hpp;
  // see fused()); the ends plan (runtime/ends_plan.hpp) applies the rest.
  PlanImpl(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options,
           const plan::Ends& ends = {})
      : device_(std::move(device)), spare_(std::make_unique<Queue>()) {
    device_->check_usable();  // before any of the device's locks (a fork may have left one held)
    auto start = Clock::now();
    if (!problem.output.split.none() && (!options.load.empty() || !options.store.empty()))
      throw Error(ErrorCode::Unsupported, "callbacks and an output split in one plan (" + problem.token() +
                                              "): the split's stores take no callback yet");
    if (problem.storage != Storage::Native || !options.load.empty() || !options.store.empty()) {
      // The fp32 problem's plan inside (runtime/ends_plan.hpp).
      tree_.problem = problem;
      ends_ = std::make_unique<EndsPlan>(device_, problem, options, stats_);
      return;
    }
    // The device's limits under the override (PlanOptions::limits, else BFLY_LIMITS).
    limits_ = plan::with_override(device_->limits(), plan::override_text(options));
    plan::DeviceLimits& limits = limits_;
    if (options.tuning.empty()) {
      // The device's table, read once per device.
      limits.tuning = device_->memo<plan::TuningTable>(
          "tuning", [&] { return std::const_pointer_cast<plan::TuningTable>(tuning_for(device_->info())); });
    } else {
      limits.tuning = tuning_from_options(options.tuning, device_->info());
    }
    if (options.tier != Tier::Default)
      limits.generic_tier = options.tier == Tier::Generic  ? 1
                            : options.tier == Tier::Tiered ? 2
                            : options.tier == Tier::Auto   ? 3
                            : options.tier == Tier::AtHand ? 4
                                                           : 0;
    if (problem.kind == Kind::R2R) {  // a DCT or DST (runtime/r2r_plan.hpp)
      const std::optional<plan::PlanTree> fused = fused_r2r_tree(*device_, problem, limits, options);
      limits.generic_tier = 0;
      if (!fused) {
        tree_.problem = problem;
        r2r_ = std::make_unique<R2RPlan>(device_, problem, options, stats_);
        stats_.plan_ms = ms_since(start);
        return;
      }
      tree_ = *fused;
    } else {
      tree_ = plan::make_plan(problem, limits, options);
    }
    check_fits(problem);
    if (!problem.output.split.none()) limits.generic_tier = 0;  // (the generic tier's stores take strides alone)
    const bool chosen = limits.generic_tier >= 3;
    if (chosen)  // Auto, AtHand (runtime/tier_choice.hpp)
      limits.generic_tier = !ends.empty() || kernels_ready(*device_, tree_) ? 0 : limits.generic_tier == 3 ? 2 : 1;
    if (limits.generic_tier && ends.empty()) {
      // Nothing compiled for this size (runtime/generic_plan.hpp). Where the
      // default tier chose it and it cannot be made (its workspace, 2-4x
      // the problem's, does not fit), the specialised plan is made instead.
      try {
        generic_ = std::make_unique<GenericPlan>(device_, tree_.problem, limits, stats_);
      } catch (const Error&) {
        if (!chosen) throw;
        limits.generic_tier = 0;
      }
    }
    if (generic_) {
      stats_.plan_ms = ms_since(start);
      if (limits.generic_tier == 2) {
        // Tiered: the specialised plan is made on a thread of its own while
        // executions run the generic one; the first execution after it is
        // made runs it (each keeps its own workspace, so the swap is safe
        // between executions on any queue). It tells nobody of its wait.
        PlanOptions specialised = options;
        specialised.tier = Tier::Specialised;
        specialised.on_wait = nullptr;
        specialised_ = std::async(std::launch::async, [device = device_, problem, specialised] {
                         background_priority();
                         auto made = std::make_shared<PlanImpl>(device, problem, specialised);
                         if (!device->info().is_gpu)
                           rehearse(*device, problem,
                                    [&](const BufferImpl& in, const BufferImpl& out) { made->execute(in, out); });
                         return made;
                       }).share();
      }
      return;
    }
    plan::fuse_ends(tree_, ends);
    stats_.plan_ms = ms_since(start);
    // The passes' kernels compile at once, each on a thread of its own
    // (NVRTC and OpenCL compile on the calling thread, and a device makes
    // each kernel once however many threads ask: DeviceImpl::memo), so a
    // plan waits for its slowest kernel rather than for their sum. Passes
    // whose kernels are made already, or a plan of one pass, stay on this
    // thread.
    int to_make = 0;
    for (const plan::Pass& pass : tree_.passes) to_make += device_->has_memo("kernel:" + pass.spec.name()) ? 0 : 1;
    WaitNotice notice(options.on_wait, problem.token(), to_make);
    std::vector<std::future<CompiledPass>> builds(tree_.passes.size());
    if (tree_.passes.size() > 1)
      for (std::size_t i = 0; i < tree_.passes.size(); ++i)
        if (!device_->has_memo("kernel:" + tree_.passes[i].spec.name()))
          builds[i] = std::async(std::launch::async,
                                 [this, pass = tree_.passes[i], c = chained(i)] { return build(pass, !c); });
    for (std::size_t i = 0; i < tree_.passes.size(); ++i) {
      passes_.push_back(builds[i].valid() ? builds[i].get() : build(tree_.passes[i], !chained(i)));
      tree_.passes[i] = passes_.back().pass;  // as built (a staged kernel may have fallen back)
    }
    notice.done();
    // (build() may have dropped it.)
    fused_ = !passes_.empty() &&
             (!passes_.back().pass.spec.store_ops.empty() || !passes_.front().pass.spec.load_ops.empty());
    for (std::size_t i = 0; i + 1 < passes_.size(); ++i)
      if (passes_[i].pass.chain_elements > 0) build_chain(passes_[i], passes_[i + 1]);
    per_queue_ = tree_.workspace_buffers > 0 ||
                 std::any_of(passes_.begin(), passes_.end(), [](const CompiledPass& c) { return c.chain != nullptr; });
    // One queue's set now, so a plan that cannot have it fails here.
    if (per_queue_) make(*spare_);
  }

  // The queue's workspace and counters (under its `order`, or before the
  // plan is shared). A failed allocation leaves none, to be tried again.
  void make(Queue& queue) const {
    if (queue.made) return;
    std::vector<std::shared_ptr<BufferImpl>> workspace, counters(passes_.size());
    for (int w = 0; w < tree_.workspace_buffers; ++w)
      workspace.push_back(device_->allocate(static_cast<std::size_t>(tree_.workspace_bytes)));
    for (std::size_t i = 0; i < passes_.size(); ++i) {
      if (!passes_[i].chain) continue;
      // The ticket (64 bits), groups gone, a spare word, then a word per
      // element: zero now, and the kernel leaves them zero.
      const std::vector<std::uint32_t> zeros(static_cast<std::size_t>(4 + passes_[i].pass.chain_elements), 0u);
      counters[i] = device_->allocate(zeros.size() * sizeof(zeros[0]));
      device_->write(*counters[i], zeros.data(), zeros.size() * sizeof(zeros[0]), 0);
    }
    queue.workspace = std::move(workspace);
    queue.chain_counters = std::move(counters);
    queue.made = true;
  }

  // The set of `stream` (nullptr: the device's own queue), made on first use.
  Queue& queue_of(void* stream) const {
    return queues_.of(*device_, stream, [&] { return spare_ ? std::move(spare_) : std::make_unique<Queue>(); });
  }

  // A problem whose buffers the device cannot hold is refused before any
  // kernel is built, naming the sizes and the device's limit.
  void check_fits(const Problem& p) const {
    const DeviceInfo& info = device_->info();
    const std::size_t limit = info.max_allocation_bytes;
    if (limit == 0) return;  // unknown
    const std::pair<const char*, std::size_t> buffers[] = {
        {"input", static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes()},
        {"output", static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes()},
        {"workspace", tree_.workspace_buffers > 0 ? static_cast<std::size_t>(tree_.workspace_bytes) : 0}};
    for (const auto& [what, bytes] : buffers)
      if (bytes > limit)
        throw Error(ErrorCode::OutOfMemory, "problem " + p.token() + " needs an " + std::string(what) + " buffer of " +
                                                std::to_string(bytes) + " bytes; the largest allocation on " +
                                                info.spec + " is " + std::to_string(limit) + " bytes");
  }

  // The chained kernel of passes a and b (codegen/chain_kernel.hpp).
  void build_chain(CompiledPass& a, const CompiledPass& b) {
    const std::int64_t elements = a.pass.chain_elements;
    const codegen::ChainShape shape = codegen::chain_shape(a.pass, b.pass);
    const std::string name = codegen::chain_name(a.pass.spec, b.pass.spec, shape);
    a.chain = make_kernel(name, [&] { return codegen::generate_chain(a.pass.spec, b.pass.spec, shape); });
    const std::size_t total = static_cast<std::size_t>(elements * (shape.groups_a + shape.groups_b));
    a.chain_groups =
        std::min(total, device_->resident_groups(
                            *a.chain, static_cast<std::size_t>(codegen::chain_group_size(a.pass.spec, b.pass.spec)),
                            chain_local_bytes(a.pass.spec, b.pass.spec), true));
  }

  // The two bodies share one dynamic array (codegen/chain_kernel.hpp).
  static std::size_t chain_local_bytes(const plan::KernelSpec& a, const plan::KernelSpec& b) {
    return std::max(a.local_bytes(), b.local_bytes());
  }

  // Kernel `name` from the source `generate` writes, made once per device,
  // its codegen and compile times counted.
  std::shared_ptr<KernelImpl> make_kernel(const std::string& name, const std::function<std::string()>& generate) {
    return device_->memo<KernelImpl>("kernel:" + name, [&] {
      auto start = Clock::now();
      const std::string source = generate();
      const double codegen_ms = ms_since(start);
      start = Clock::now();
      CompileOutcome outcome = device_->compile(source, name);
      std::lock_guard<std::mutex> lock(stats_mutex_);  // (passes build on threads of their own)
      ++stats_.built;
      stats_.codegen_ms += codegen_ms;
      stats_.compile_ms += ms_since(start);
      stats_.cache_hits += outcome.cache_hit ? 1 : 0;
      stats_.shipped += outcome.shipped ? 1 : 0;
      return outcome.kernel;
    });
  }

  // Whether pass i runs in a chained launch (its own kernel then unused).
  bool chained(std::size_t i) const {
    return tree_.passes[i].chain_elements > 0 || (i > 0 && tree_.passes[i - 1].chain_elements > 0);
  }

  // A model launch whose kernel spilled `spilled` bytes a thread, more than
  // plan::tolerated_spill_bytes: the first of plan::relaunch_candidates
  // whose kernel spills no more than that, else the one that spills least,
  // if less; nothing where none spills less.
  std::optional<plan::Pass> relaunched(const plan::Pass& pass, std::size_t spilled) {
    const std::vector<plan::KernelSpec> candidates = plan::relaunch_candidates(pass.spec, limits_);
    const std::optional<std::size_t> chosen =
        plan::choose_relaunch(candidates, spilled, plan::tolerated_spill_bytes(pass.spec, limits_), [&](std::size_t i) {
          const plan::KernelSpec& spec = candidates[i];
          auto kernel = make_kernel(spec.name(), [&] { return codegen::generate(spec, device_->dialect()); });
          return device_->spill_bytes(*kernel);
        });
    if (!chosen) return std::nullopt;
    plan::Pass best = pass;
    best.spec = candidates[*chosen];
    best.launch_from = "model, relaunched (" + std::to_string(pass.spec.threads_per_transform) + " threads, " +
                       std::to_string(pass.spec.min_groups_per_unit) + " groups a unit, spilled " +
                       std::to_string(spilled) + " bytes a thread)";
    return best;
  }

  // The pass's tables and, when `compile`, its kernel.
  CompiledPass build(const plan::Pass& pass, bool compile = true) {
    CompiledPass compiled{pass, nullptr, nullptr, nullptr, nullptr, 0, nullptr, 0, {}};
    const plan::KernelSpec& spec = pass.spec;
    if (compile)
      compiled.kernel = make_kernel(spec.name(), [&] { return codegen::generate(spec, device_->dialect()); });
    if (compile && pass.launch_from == "model")
      if (const std::size_t spilled = device_->spill_bytes(*compiled.kernel);
          spilled > plan::tolerated_spill_bytes(spec, limits_))
        if (std::optional<plan::Pass> other = relaunched(pass, spilled)) return build(*other);
    if (spec.staged && device_->spill_bytes(*compiled.kernel) > kStagedSpillLimit) {
      // The loop over transforms costs registers; where the compiler
      // spilled many for them (the NVRTC sweep lists such kernels), the
      // spills' traffic costs more than staging gains: the unstaged kernel
      // runs. (H100: 12288 spilling 424 bytes a thread ran at 44% of the
      // copy kernel staged, 63% not; a few spilled words cost less than
      // staging gains: 9000 53% -> 72%, 12000 60% -> 63% at 24 bytes.)
      plan::Pass unstaged = pass;
      unstaged.spec.staged = 0;
      unstaged.launch_from += " (unstaged: the staged kernel spilled)";
      return build(unstaged);
    }
    if ((!spec.store_ops.empty() || !spec.load_ops.empty()) &&
        device_->spill_bytes(*compiled.kernel) > kFusedSpillLimit) {
      return build(plan::unfused(pass, "the fused kernel spilled"));
    }
    if (compile)
      if (std::optional<plan::Pass> kept = occupancy_kept(
              *device_, pass, *compiled.kernel,
              [&](const plan::KernelSpec& s) {
                return make_kernel(s.name(), [&] { return codegen::generate(s, device_->dialect()); });
              },
              kFusedSpillLimit))
        return build(*kept);
    {
      std::lock_guard<std::mutex> lock(stats_mutex_);
      ++stats_.kernels;
    }
    if (spec.staged)
      compiled.resident_groups =
          device_->resident_groups(*compiled.kernel, static_cast<std::size_t>(spec.group_size()), spec.local_bytes());
    auto start = Clock::now();
    const PassTables tables = pass_tables(*device_, spec);
    compiled.twiddles = tables.twiddles;
    compiled.pass_twiddles = tables.pass_twiddles;
    compiled.tables = tables.tables;
    std::lock_guard<std::mutex> lock(stats_mutex_);
    stats_.twiddle_ms += ms_since(start);
    compiled.params = pieces::bound_params(compiled.pass.spec);
    return compiled;
  }

  // `data`: the fused callbacks' (fused() plans only).
  void execute(const BufferImpl& in, const BufferImpl& out, void* stream = nullptr, const EndData& data = {}) const {
    device_->check_usable();
    const Problem& p = tree_.problem;
    if (fused_ != (data.load != nullptr || data.store != nullptr))
      throw Error(ErrorCode::InvalidArgument,
                  fused_ ? "fused plan executed without its multiplier" : "multiplier given to an unfused plan");
    const std::size_t in_need = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_need = static_cast<std::size_t>(p.output_extent()) * output_element_bytes();
    if (in.bytes() < in_need)
      throw Error(ErrorCode::InvalidArgument, "input buffer of " + std::to_string(in.bytes()) +
                                                  " bytes is smaller than the " + std::to_string(in_need) +
                                                  " bytes of " + p.token());
    if (out.bytes() < out_need)
      throw Error(ErrorCode::InvalidArgument, "output buffer of " + std::to_string(out.bytes()) +
                                                  " bytes is smaller than the " + std::to_string(out_need) +
                                                  " bytes of " + p.token());
    const bool same = in.identity() == out.identity();
    if (p.placement == Placement::InPlace && !same)
      throw Error(ErrorCode::InvalidArgument,
                  "in-place plan " + p.token() + " needs the same buffer as input and output");
    if (p.placement == Placement::OutOfPlace && same)
      throw Error(ErrorCode::InvalidArgument,
                  "out-of-place plan " + p.token() + " was given one buffer as input and output; plan it in place");
    run(in, out, stream, data);
  }

  // execute() past its checks (a half plan's inner plan: its converting
  // sides are 16-bit buffers).
  void run(const BufferImpl& in, const BufferImpl& out, void* stream, const EndData& data = {}) const {
    if (const PlanImpl* made = specialised()) return made->run(in, out, stream, data);
    if (ends_) return ends_->execute(in, out, stream);
    if (generic_) return generic_->execute(in, out, stream);
    if (r2r_) return r2r_->execute(in, out, stream);
    if (!per_queue_) return launch(in, out, stream, data, nullptr);
    Queue& queue = queue_of(stream);
    std::lock_guard<std::mutex> lock(queue.order);
    make(queue);
    launch(in, out, stream, data, &queue);
  }

  // The passes' launches, reading and writing `queue`'s workspace (nullptr
  // where the plan has none).
  void launch(const BufferImpl& in, const BufferImpl& out, void* stream, const EndData& data,
              const Queue* queue) const {
    const Problem& p = tree_.problem;
    const bool inverse = p.direction == Direction::Inverse;
    const double scale = p.scale();
    // The kernels' `real` arguments are of the working precision.
    auto real = [&](double v) {
      return p.precision == Precision::Double ? KernelArg::of_f64(v) : KernelArg::of_f32(v);
    };
    // A pass kernel's arguments, bound by its parameters (codegen/kernel_params.hpp).
    auto pass_args = [&](std::size_t j) {
      const CompiledPass& c = passes_[j];
      const bool first = j == 0, last = j + 1 == passes_.size();
      std::vector<KernelArg> args;
      namespace P = codegen::params;
      for (const auto& [param, piece] : c.params) {
        if (piece != nullptr) {
          const pieces::LaunchFacts facts{
              c.pass, inverse,   scale,     [&](plan::Slot s) { return KernelArg::of(slot(s, in, out, queue)); },
              real,   data.load, data.store};
          args.push_back(piece->bind(param, facts));
        } else if (param == P::In) {
          args.push_back(KernelArg::of(slot(c.pass.source, in, out, queue)));
        } else if (param == P::Out) {
          args.push_back(KernelArg::of(slot(c.pass.destination, in, out, queue)));
        } else if (param == P::Twiddles) {
          args.push_back(KernelArg::of(*c.twiddles));
        } else if (param == P::PassTwiddles) {
          args.push_back(KernelArg::of(*c.pass_twiddles));
        } else if (param == P::Transforms) {
          args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(c.pass.transforms)));
        } else if (param == P::InSign) {
          args.push_back(real(first && inverse ? -1.0 : 1.0));
        } else if (param == P::OutRe) {
          args.push_back(real(last ? scale : 1.0));
        } else if (param == P::OutIm) {
          args.push_back(real(last ? (inverse ? -scale : scale) : 1.0));
        } else if (param == P::Tables) {
          args.push_back(KernelArg::of(*c.tables));
        }
      }
      return args;
    };
    for (std::size_t j = 0; j < passes_.size(); ++j) {
      const CompiledPass& c = passes_[j];
      if (c.chain) {  // this pass and the next, in one launch
        std::vector<KernelArg> args = pass_args(j);
        const std::vector<KernelArg> next = pass_args(j + 1);
        args.insert(args.end(), next.begin(), next.end());
        args.push_back(KernelArg::of(*queue->chain_counters.at(j)));
        args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(c.pass.chain_elements)));
        args.push_back(KernelArg::of_u64(static_cast<std::uint64_t>(c.pass.chain_lookahead)));
        device_->launch(*c.chain, c.chain_groups,
                        static_cast<std::size_t>(codegen::chain_group_size(c.pass.spec, passes_[j + 1].pass.spec)),
                        chain_local_bytes(c.pass.spec, passes_[j + 1].pass.spec), args, stream, true);
        ++j;
        continue;
      }
      const std::vector<KernelArg> args = pass_args(j);
      const plan::KernelSpec& spec = c.pass.spec;
      std::size_t groups = static_cast<std::size_t>(c.pass.groups());
      if (spec.staged && c.resident_groups > 0) groups = std::min(groups, c.resident_groups);
      device_->launch(*c.kernel, groups, static_cast<std::size_t>(c.pass.spec.group_size()), c.pass.spec.local_bytes(),
                      args, stream);
    }
  }

  // In and Out are T or std::complex<T>: real data on the real side of an
  // R2C / C2R problem, complex elsewhere.
  template <class In, class Out>
  void execute_host(const In* in, Out* out) {
    device_->check_usable();
    const Problem& p = tree_.problem;
    auto type = [](bool real, bool single) {
      return std::string(real ? (single ? "float" : "double") : (single ? "complex<float>" : "complex<double>"));
    };
    const bool in_real = !is_complex<In>::value, out_real = !is_complex<Out>::value;
    const bool is_single = std::is_same<typename scalar<In>::type, float>::value;
    const bool want_in_real = p.kind == Kind::R2C || p.kind == Kind::R2R;
    const bool want_out_real =
        p.kind == Kind::C2R || p.kind == Kind::R2R || output_element_bytes() * 2 == p.output_element_bytes();
    const bool want_single = p.precision == Precision::Single;
    const bool half = std::is_same<In, std::uint16_t>::value, want_half = p.storage != Storage::Native;
    if (half != want_half)
      throw Error(ErrorCode::InvalidArgument, std::string("execute_host with ") + (half ? "16-bit" : "fp32/fp64") +
                                                  " values on plan " + p.token() + ", which takes " +
                                                  (want_half ? "16-bit ones (uint16_t)" : "float or double ones"));
    if (!half && (in_real != want_in_real || out_real != want_out_real || is_single != want_single))
      throw Error(ErrorCode::InvalidArgument, "execute_host with " + type(in_real, is_single) + " input and " +
                                                  type(out_real, is_single) + " output on plan " + p.token() +
                                                  ", which takes " + type(want_in_real, want_single) + " and " +
                                                  type(want_out_real, want_single));
    std::lock_guard<std::mutex> lock(host_mutex_);
    const std::size_t in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(p.output_extent()) * output_element_bytes();
    if (!host_in_) {
      // In place, one buffer holds both sides (a real transform's differ in size).
      host_in_ = device_->allocate(p.placement == Placement::InPlace ? std::max(in_bytes, out_bytes) : in_bytes);
      host_out_ = p.placement == Placement::InPlace ? host_in_ : device_->allocate(out_bytes);
    }
    // Elements the output layout skips keep the caller's values.
    std::int64_t out_elements = p.batch;
    for (std::int64_t e : p.output_shape()) out_elements *= e;
    const bool gaps = p.output_extent() != out_elements;
    if (gaps && p.placement == Placement::OutOfPlace) device_->write(*host_out_, out, out_bytes, 0);
    device_->write(*host_in_, in, in_bytes, 0);
    execute(*host_in_, *host_out_);
    device_->read(*host_out_, out, out_bytes, 0);
  }

  const plan::PlanTree& tree() const { return tree_; }
  // An output element's bytes: reals where the store callback ends in one.
  std::size_t output_element_bytes() const {
    return ends_ ? ends_->output_element_bytes() : tree_.problem.output_element_bytes();
  }
  // What runs now: a tiered plan's specialised plan once made.
  std::string describe() const {
    if (const PlanImpl* made = specialised()) return made->describe();
    if (r2r_) return r2r_->describe();
    if (ends_) return ends_->describe();
    if (!generic_) return tree_.print();
    return generic_->describe() +
           (specialised_.valid() ? "  (tiered: the specialised kernels are being made in the background)\n" : "");
  }
  int launches() const {
    if (const PlanImpl* made = specialised()) return made->launches();
    if (r2r_) return r2r_->launches();
    if (ends_) return ends_->launches();
    return generic_ ? generic_->launches() : static_cast<int>(tree_.passes.size());
  }

  // A tiered plan's specialised plan where it is made (else nullptr: still
  // being made, failed, or not tiered); it then runs every execution.
  const PlanImpl* specialised() const {
    if (const PlanImpl* made = made_.load(std::memory_order_acquire)) return made;
    if (!specialised_.valid() || specialised_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return nullptr;
    try {
      const PlanImpl* made = specialised_.get().get();
      made_.store(made, std::memory_order_release);
      return made;
    } catch (const std::exception&) {
      return nullptr;  // (the generic plan goes on)
    }
  }
  bool fused() const { return fused_; }
  const BuildStats& stats() const { return stats_; }
  const std::shared_ptr<DeviceImpl>& device() const { return device_; }
  // One queue's (every queue the plan runs on has as much: Queue).
  std::size_t workspace_bytes() const {
    if (const PlanImpl* made = specialised()) return made->workspace_bytes();
    if (generic_) return generic_->workspace_bytes();
    if (r2r_) return r2r_->workspace_bytes();
    if (ends_) return ends_->workspace_bytes();
    return static_cast<std::size_t>(tree_.workspace_buffers) * static_cast<std::size_t>(tree_.workspace_bytes);
  }

 private:
  const BufferImpl& slot(plan::Slot s, const BufferImpl& in, const BufferImpl& out, const Queue* queue) const {
    switch (s) {
      case plan::Slot::Input:
        return in;
      case plan::Slot::Output:
        return out;
      case plan::Slot::Work0:
        return *queue->workspace.at(0);
      case plan::Slot::Work1:
        return *queue->workspace.at(1);
    }
    return out;
  }

  std::shared_ptr<DeviceImpl> device_;
  plan::DeviceLimits limits_;  // as planned with (the override and table applied)
  plan::PlanTree tree_;
  std::unique_ptr<GenericPlan> generic_;  // the generic tier's plan, where it runs this problem
  std::unique_ptr<R2RPlan> r2r_;          // a DCT's or DST's stages (runtime/r2r_plan.hpp)
  std::unique_ptr<EndsPlan> ends_;        // half storage's or callbacks' (runtime/ends_plan.hpp)
  // Tiered (generic_tier 2): the specialised plan being made, and once made.
  std::shared_future<std::shared_ptr<PlanImpl>> specialised_;
  mutable std::atomic<const PlanImpl*> made_{nullptr};
  bool fused_ = false;  // a pass has callbacks (KernelSpec::load_ops, store_ops)
  std::vector<CompiledPass> passes_;
  bool per_queue_ = false;  // the plan has workspace or counters: a Queue each
  // By queue or stream handle, and thread where the handle means one stream
  // a thread; never removed (a handle is reused only once its stream's work
  // is done).
  PerStream<Queue> queues_;
  mutable std::unique_ptr<Queue> spare_;  // made with the plan, until a queue takes it
  BuildStats stats_;
  std::mutex stats_mutex_;  // build() runs on a thread a pass
  std::mutex host_mutex_;
  std::shared_ptr<BufferImpl> host_in_, host_out_;
};

FusedPlan::FusedPlan(const Device& device, const Problem& problem, std::int64_t period, FuseAt at)
    : impl_(std::make_shared<PlanImpl>(device.impl(), problem, PlanOptions{},
                                       plan::product_ends(problem, period, at == FuseAt::LastStores))),
      ends_(plan::product_ends(problem, period, at == FuseAt::LastStores)),
      at_(at) {}
FusedPlan::FusedPlan(const Device& device, const Problem& problem, const PlanOptions& options, const plan::Ends& ends)
    : impl_(std::make_shared<PlanImpl>(device.impl(), problem, options, ends)), ends_(ends) {}
bool FusedPlan::loads_fused() const { return plan::loads_fused(impl_->tree(), ends_); }
bool FusedPlan::stores_fused() const { return plan::stores_fused(impl_->tree(), ends_); }
void FusedPlan::run(const BufferImpl& in, const BufferImpl& out, void* stream, const EndData& data) const {
  impl_->run(in, out, stream, data);
}
int FusedPlan::launches() const { return impl_->launches(); }
std::size_t FusedPlan::workspace_bytes() const { return impl_->workspace_bytes(); }
const BuildStats& FusedPlan::stats() const { return impl_->stats(); }
FusedPlan::~FusedPlan() {
  if (impl_ && impl_->device()->inherited()) fork_guard::abandon(std::move(impl_));
}
bool FusedPlan::fused() const { return impl_->fused(); }
const Problem& FusedPlan::problem() const { return impl_->tree().problem; }
std::string FusedPlan::describe() const { return impl_->describe(); }
void FusedPlan::execute(const Buffer& in, const Buffer& out, const Buffer* multiplier) const {
  EndData data;
  if (impl_->fused()) (at_ == FuseAt::LastStores ? data.store : data.load) = &multiplier->impl();
  impl_->execute(in.impl(), out.impl(), nullptr, data);
}

}  // namespace detail

Plan::Plan(const Device& device, const Problem& problem, const PlanOptions& options)
    : impl_(std::make_unique<detail::PlanImpl>(device.impl(), problem, options)), options_(options) {}
void Plan::set_callbacks(const Callback& load, const Callback& store) {
  PlanOptions options = options_;
  options.load = load;
  options.store = store;
  impl_ = std::make_unique<detail::PlanImpl>(impl_->device(), problem(), options);
  options_ = std::move(options);
}
Plan::~Plan() {  // in a child forked after the plan was made, dropped but never released: fork_guard.hpp
  if (impl_ && impl_->device()->inherited()) (void)impl_.release();
}
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

const Problem& Plan::problem() const { return impl_->tree().problem; }
std::string Plan::describe() const { return impl_->describe(); }
std::size_t Plan::workspace_bytes() const { return impl_->workspace_bytes(); }
const BuildStats& Plan::build_stats() const { return impl_->stats(); }
int Plan::passes() const { return impl_->launches(); }
std::size_t Plan::output_element_bytes() const { return impl_->output_element_bytes(); }

void Plan::execute(const Buffer& in, const Buffer& out) const {
  if (in.device() != impl_->device() || out.device() != impl_->device())
    throw Error(ErrorCode::InvalidArgument, "buffers belong to another device than the plan");
  impl_->execute(in.impl(), out.impl());
}

void Plan::execute(const Buffer& in, const Buffer& out, void* stream) const {
  if (in.device() != impl_->device() || out.device() != impl_->device())
    throw Error(ErrorCode::InvalidArgument, "buffers belong to another device than the plan");
  impl_->execute(in.impl(), out.impl(), stream);
}

void Plan::execute_host(const std::complex<float>* in, std::complex<float>* out) const { impl_->execute_host(in, out); }

void Plan::execute_host(const std::complex<double>* in, std::complex<double>* out) const {
  impl_->execute_host(in, out);
}

void Plan::execute_host(const float* in, std::complex<float>* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const double* in, std::complex<double>* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const std::complex<float>* in, float* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const std::complex<double>* in, double* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const float* in, float* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const double* in, double* out) const { impl_->execute_host(in, out); }
void Plan::execute_host(const std::uint16_t* in, std::uint16_t* out) const { impl_->execute_host(in, out); }

}  // namespace bfly
