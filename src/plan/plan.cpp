#include "plan/plan.hpp"
#include "plan/ends.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>

#include "plan/factorize.hpp"
#include "plan/launch_model.hpp"
#include "plan/output_split.hpp"
#include "plan/solvers/solver.hpp"
#include "problem/text.hpp"

namespace bfly::plan {

const char* to_string(Slot s) {
  switch (s) {
    case Slot::Input:
      return "input";
    case Slot::Output:
      return "output";
    case Slot::Work0:
      return "work0";
    case Slot::Work1:
      return "work1";
  }
  return "?";
}

std::int64_t Pass::groups() const { return (transforms + spec.transforms_per_group - 1) / spec.transforms_per_group; }

namespace {

// Strides of the logical dims (0: batch, a+1: axis a) in one buffer.
using View = std::vector<std::int64_t>;

View layout_view(const Layout& layout) {
  View v{layout.distance};
  v.insert(v.end(), layout.strides.begin(), layout.strides.end());
  return v;
}

// Row-major over `order` (outermost first); natural order when empty. The
// extent of `padded_dim` is `padded` where that is nonzero (Bluestein's
// zero-padded data).
View work_view(const Problem& p, std::vector<int> order, int padded_dim = -1, std::int64_t padded = 0) {
  const int dims = p.rank() + 1;
  if (order.empty()) {
    order.resize(dims);
    std::iota(order.begin(), order.end(), 0);
  }
  View v(dims);
  std::int64_t stride = 1;
  for (int i = dims - 1; i >= 0; --i) {
    const int d = order[i];
    v[d] = stride;
    stride *= d == padded_dim && padded > 0 ? padded : d == 0 ? p.batch : p.shape[d - 1];
  }
  return v;
}

std::int64_t extent_of(const Problem& p, int dim) { return dim == 0 ? p.batch : p.shape[dim - 1]; }

// A Stockham pass of the dim (solver.hpp's PassFrame): index j along the
// axis = i + n_point * S with S = N / L, i = a' * P + k; the output index
// of point k' is a' * P * L + k + k' * P.
PassCore stockham_core(KernelSpec& spec, const Step& step, const PassFrame& f) {
  const std::int64_t L = step.length, P = step.stride_product, S = f.stockham_stride;
  spec.length = L;
  spec.stride_product = P;
  spec.cluster = step.cluster;
  spec.in_point_stride = S * f.src[f.dim];
  spec.out_point_stride = P * f.dst[f.dim];
  spec.dims.push_back({P, f.src[f.dim], f.dst[f.dim]});
  spec.twiddle_dim = P > 1 ? 0 : -1;
  spec.dims.push_back({S / P, P * f.src[f.dim], P * L * f.dst[f.dim]});
  return {L, false};
}

// A copy pass: row chunks of the source's innermost dim.
PassCore copy_core(KernelSpec& spec, const Step&, const PassFrame& f) {
  const std::int64_t L = largest_divisor_at_most(f.n, 32);
  spec.identity = true;
  spec.length = L;
  spec.in_point_stride = f.src[f.dim];
  spec.out_point_stride = f.dst[f.dim];
  spec.dims.push_back({f.n / L, L * f.src[f.dim], L * f.dst[f.dim]});
  return {L, false};
}

// The kernel of one step between two views: the solver's core (else a
// Stockham or copy pass), the dims it left, the solver's pieces, then the
// launch. `caller_src` and `caller_dst`: where Rader's kernel store finds
// x[0] and puts X[0] (its convolution's first source and last destination).
Pass make_pass(const Problem& p, const Step& step, const View& src, const View& dst, const DeviceLimits& limits,
               const View& caller_src, const View& caller_dst, std::size_t split_steps) {
  KernelSpec spec;
  spec.precision = p.precision;
  const int dims = p.rank() + 1;
  const int a = step.dim;
  const std::int64_t n = extent_of(p, a);
  // The points a step's transforms cover along the dim: Bluestein's passes
  // run over its zero-padded M points, a packed axis's over n/2.
  const bool padded = (step.chirp != Step::Chirp::None || (step.packed && step.padded > 0)) &&
                      step.chirp != Step::Chirp::Fused && step.chirp != Step::Chirp::Rader;
  PassFrame frame{p, a, n, padded ? step.padded : n, src, dst, caller_src, caller_dst, 0, {}};
  const bool stockham = step.core == nullptr && step.kind == Step::Kind::Fft;
  if (stockham) frame.stockham_stride = frame.span / step.length;
  const PassCore core = step.core != nullptr ? step.core(spec, step, frame)
                        : stockham           ? stockham_core(spec, step, frame)
                                             : copy_core(spec, step, frame);
  if (!core.all_dims) {
    for (int d = 1; d < dims; ++d)
      if (d != a) {
        frame.outer_dims.emplace_back(spec.dims.size(), d);
        spec.dims.push_back({extent_of(p, d), src[d], dst[d]});
      }
    frame.outer_dims.emplace_back(spec.dims.size(), 0);
    spec.dims.push_back({p.batch, src[0], dst[0]});
  }
  // Pieces may reshape the dims (row pairs halve one): the transform count
  // follows their product.
  auto transforms_of = [&spec] {
    std::int64_t product = 1;
    for (const IndexDim& d : spec.dims) product *= d.extent;
    return product;
  };
  const std::int64_t shaped = transforms_of();
  for (PassPieceFn piece : step.pieces) piece(spec, step, frame);
  const std::int64_t reshaped = transforms_of();
  // The output's split (output_split.hpp), on the plan's one pass.
  if (split_steps > 0) place_split(spec, p, split_steps, a);
  // 64-bit offsets once any offset or the transform count can pass 2^31.
  std::int64_t in_last = (spec.length - 1) * spec.in_point_stride, out_last = split_reach(spec);
  for (const IndexDim& d : spec.dims) {
    in_last += (d.extent - 1) * d.in_stride;
    out_last += (d.extent - 1) * d.out_stride;
  }
  const std::int64_t limit = std::int64_t{1} << 31;
  const std::int64_t elements = p.elements() / n * frame.span;
  spec.wide = in_last >= limit || out_last >= limit || elements >= limit;
  const std::string launch_from = complete_spec(spec, limits);
  if (split_steps > 0) check_split(spec, p);
  Pass pass;
  pass.what = step.what;
  pass.launch_from = launch_from;
  pass.spec = spec;
  pass.transforms = elements / core.points;
  if (reshaped != shaped) pass.transforms = pass.transforms / shaped * reshaped;
  if (spec.real_store == KernelSpec::RealStore::SplitPaired) {
    // Pairs (k, (c - k) mod P) of the P sub-transforms of each row (c = 0
    // packed, N mod P for Bluestein's two rows: codegen/pass_kernel.cpp),
    // c/2 + 1 + (P - c)/2 of them, counted twice (a group runs M/2 pairs).
    const std::int64_t P = spec.bluestein() ? spec.chirp_store_period() : spec.stride_product;
    const std::int64_t c = spec.bluestein() ? spec.chirp_length % P : 0;
    pass.transforms = 2 * (pass.transforms / P) * (c / 2 + 1 + (P - c) / 2);
  }
  return pass;
}

// Gives each step its source and destination: the first reads the input, the
// last writes the output, nothing writes the input of an out-of-place
// problem, a step writes the buffer it reads only where a group owns whole
// sub-transforms, and a permuted intermediate goes to workspace. Among the
// assignments, the one with the fewest workspace buffers (a search: plans
// have at most a dozen steps).
std::vector<std::pair<Slot, Slot>> assign_slots(const Problem& p, const std::vector<Step>& steps, int* workspace) {
  const bool in_place = p.placement == Placement::InPlace;
  // In place, input and output are one buffer: call it Output throughout.
  auto same = [&](Slot a, Slot b) {
    auto canon = [&](Slot s) { return in_place && s == Slot::Input ? Slot::Output : s; };
    return canon(a) == canon(b);
  };
  // Which buffers can hold a step's result: workspace holds complex points
  // only; the caller's buffers their own side (in place, the one buffer
  // both sides of a real problem), never a real axis's full n points.
  auto holds = [&](Slot s, Step::Side side) {
    if (s == Slot::Work0 || s == Slot::Work1) return side != Step::Side::Real;
    if (!p.is_real()) return true;
    if (side == Step::Side::Full) return false;
    return in_place || side == (p.kind == Kind::R2C ? Step::Side::Complex : Step::Side::Real);
  };
  std::vector<Slot> best, current;
  int best_work = 3;
  std::function<void(std::size_t, Slot, int)> search = [&](std::size_t j, Slot source, int work) {
    if (work >= best_work) return;
    if (j == steps.size()) {
      best = current;
      best_work = work;
      return;
    }
    const Step& step = steps[j];
    const bool last = j + 1 == steps.size();
    std::vector<Slot> candidates;
    if (last)
      candidates = {Slot::Output};
    else if (step.work_only)
      candidates = {Slot::Work0, Slot::Work1};
    else
      candidates = {source, Slot::Output, Slot::Work0, Slot::Work1};
    for (Slot dest : candidates) {
      if (dest == Slot::Input) continue;
      if (!holds(dest, step.to)) continue;
      if (same(dest, source) && !step.may_write_source(p)) continue;
      if (!in_place && dest == Slot::Input) continue;
      const int used = std::max(work, dest == Slot::Work1 ? 2 : dest == Slot::Work0 ? 1 : 0);
      if (dest == Slot::Work1 && work < 1) continue;  // Work0 first
      current.push_back(dest);
      search(j + 1, dest, used);
      current.pop_back();
    }
  };
  search(0, Slot::Input, 0);
  if (best.size() != steps.size())
    throw Error(ErrorCode::Unsupported, "no buffer assignment for the passes of " + p.token());
  std::vector<std::pair<Slot, Slot>> slots;
  Slot source = Slot::Input;
  for (Slot dest : best) {
    slots.push_back({source, dest});
    source = dest;
  }
  *workspace = best_work;
  return slots;
}

}  // namespace

namespace {

// Groups of `pass` per batch element when its groups cover the batch in
// order, element by element (the batch its last dim, whole groups an
// element); 0 otherwise.
std::int64_t groups_per_element(const Pass& pass, std::int64_t batch) {
  const KernelSpec& s = pass.spec;
  std::int64_t inner = 1;
  for (std::size_t d = 0; d + 1 < s.dims.size(); ++d) inner *= s.dims[d].extent;
  if (s.dims.empty() || inner * batch != pass.transforms || inner % s.transforms_per_group != 0) return 0;
  return inner / s.transforms_per_group;
}

// Pairs of consecutive passes through a workspace buffer that run as one
// chained launch, so the second reads the first's output from L2
// (Pass::chain_elements). Batch elements of at most l2_chain_bytes.
void chain_through_l2(PlanTree& tree, const DeviceLimits& limits) {
  const Problem& p = tree.problem;
  if (limits.l2_chain_bytes <= 0 || p.batch < 2) return;
  const std::int64_t element_bytes = p.elements() / p.batch * static_cast<std::int64_t>(p.element_bytes());
  if (2 * element_bytes > limits.l2_chain_bytes) return;
  const std::int64_t lookahead =
      std::min<std::int64_t>(p.batch - 1, std::max<std::int64_t>(1, limits.l2_chain_bytes / element_bytes));
  for (std::size_t j = 0; j + 1 < tree.passes.size(); ++j) {
    Pass& a = tree.passes[j];
    const Pass& b = tree.passes[j + 1];
    if (j > 0 && tree.passes[j - 1].chain_elements > 0) continue;  // b of the previous pair
    if (a.destination != b.source || (a.destination != Slot::Work0 && a.destination != Slot::Work1)) continue;
    if (!a.spec.chainable() || !b.spec.chainable()) continue;
    // Powers of two only: every such case measured won, while fp32 147456
    // (384 x 384) lost (H100: 0.803 -> 0.931 ms), though fp64 250000 won
    // (0.984 -> 0.877); the chained kernel's occupancy is a guess
    // (codegen/chain_kernel.cpp) that fits the powers of two.
    auto pow2 = [](std::int64_t n) { return (n & (n - 1)) == 0; };
    if (!pow2(a.spec.length) || !pow2(b.spec.length)) continue;
    // Unequal groups: the smaller runs on the first threads (whole warps).
    if (a.spec.group_size() != b.spec.group_size() &&
        (!limits.chain_unequal_groups || a.spec.group_size() % 32 != 0 || b.spec.group_size() % 32 != 0))
      continue;
    if (groups_per_element(a, p.batch) == 0 || groups_per_element(b, p.batch) == 0) continue;
    a.chain_elements = p.batch;
    a.chain_lookahead = lookahead;
    a.chain_groups_per_unit = limits.chain_groups_per_unit;
  }
}

}  // namespace

PlanTree make_plan(const Problem& problem, const DeviceLimits& device_limits, const PlanOptions& options) {
  problem.validate();
  if (problem.storage != Storage::Native) {  // the fp32 problem's plan, converting where it can (plan/ends.hpp)
    Problem native = problem;
    native.storage = Storage::Native;
    PlanTree tree = make_plan(native, device_limits, options);
    fuse_storage(tree, problem.storage);
    tree.problem = problem;
    return tree;
  }
  if (problem.kind == Kind::R2R)  // a pass a single-pass axis, else stages around FFTs (plan/r2r.hpp)
    throw Error(ErrorCode::Unsupported, "a DCT or DST (" + problem.token() + ") is planned by plan::r2r_stages");
  const DeviceLimits limits = for_precision(device_limits, problem.precision);
  const Solver* solver = nullptr;
  for (const Solver& s : solvers())
    if (s.strategy == options.strategy) solver = &s;
  return plan_of_steps(problem, solver->steps(problem, limits), solver->name, limits, options);
}

PlanTree plan_of_steps(const Problem& problem, std::vector<Step> steps, const char* solver_name,
                       const DeviceLimits& limits, const PlanOptions& options) {
  if (steps.empty()) {
    // Every transformed axis has one point: the transform is a copy (scaled
    // under a norm), done as 1-point transforms of the first axis.
    Step copy;
    copy.dim = problem.transform_axes().front() + 1;
    copy.what = "1-point transforms (copy)";
    steps.push_back(copy);
  }
  PlanTree tree;
  tree.problem = problem;
  if (limits.tuning) tree.tuning = limits.tuning->source.empty() ? "table" : limits.tuning->source;
  tree.solver = solver_name;
  if (options.strategy == Strategy::Auto) {
    bool one_dim = true;
    for (const Step& s : steps) one_dim = one_dim && s.dim == steps.front().dim && !s.plane;
    if (one_dim) tree.solver = steps.size() == 1 ? "single-pass" : "multi-pass";
  }
  const auto slots = assign_slots(problem, steps, &tree.workspace_buffers);
  // A workspace buffer holds the array, or its Bluestein-padded form.
  std::int64_t work_elements = problem.elements();
  for (const Step& s : steps)
    if (s.padded > 0) work_elements = std::max(work_elements, problem.elements() / problem.shape[s.dim - 1] * s.padded);
  tree.workspace_bytes =
      tree.workspace_buffers > 0 ? work_elements * static_cast<std::int64_t>(problem.element_bytes()) : 0;
  const View input = layout_view(problem.input_layout()), output = layout_view(problem.output_layout());
  // A real problem's steps see its complex side (the half spectrum) or, on
  // the real axis, the real shape; in place, its one buffer holds either side.
  const Problem complex = complex_side(problem);
  const bool in_place_real = problem.is_real() && problem.placement == Placement::InPlace;
  const View real_side = problem.kind == Kind::R2C ? input : output, complex_view = layout_view(complex.input_layout());
  std::vector<int> order;  // of the data the next step reads, where it is workspace
  std::vector<View> sources, destinations;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    auto view = [&](Slot s, Step::Side side, const std::vector<int>& o, bool padded) {
      if (side == Step::Side::Real && steps[j].packed && steps[j].padded > 0) {
        // The real side as complex pairs: the axis contiguous, the other strides halved.
        View v = real_side;
        for (std::size_t d = 0; d < v.size(); ++d) v[d] = static_cast<int>(d) == steps[j].dim ? 1 : v[d] / 2;
        return v;
      }
      if (in_place_real && (s == Slot::Input || s == Slot::Output))
        return side == Step::Side::Real ? real_side : complex_view;
      switch (s) {
        case Slot::Input:
          return input;
        case Slot::Output:
          return output;
        default:
          return work_view(side == Step::Side::Full ? problem : complex, o, steps[j].dim, padded ? steps[j].padded : 0);
      }
    };
    sources.push_back(view(slots[j].first, steps[j].from, order, steps[j].padded_source()));
    destinations.push_back(view(slots[j].second, steps[j].to, steps[j].order, steps[j].padded_destination()));
    order = steps[j].order;
  }
  for (std::size_t j = 0; j < steps.size(); ++j) {
    const bool on_complex_side = steps[j].from == Step::Side::Complex && steps[j].to == Step::Side::Complex;
    // A step may reach its group's first source and last destination
    // (Step::reach_back, reach_forward: Rader's kernel store).
    const std::size_t first = j - static_cast<std::size_t>(steps[j].reach_back);
    const std::size_t last = j + static_cast<std::size_t>(steps[j].reach_forward);
    // The output's split falls to the last pass (output_split.cpp: the only one).
    const std::size_t split_steps = !problem.output.split.none() && j + 1 == steps.size() ? steps.size() : 0;
    Pass pass = make_pass(on_complex_side ? complex : problem, steps[j], sources[j], destinations[j], limits,
                          sources[first], destinations[last], split_steps);
    pass.source = slots[j].first;
    pass.destination = slots[j].second;
    pass.caller_source = slots[first].first;
    pass.caller_destination = slots[last].second;
    pass.caller_first = first == 0;
    pass.caller_last = last + 1 == steps.size();
    tree.passes.push_back(pass);
  }
  chain_through_l2(tree, limits);
  return tree;
}

std::string PlanTree::print() const {
  std::ostringstream out;
  out << "plan " << problem.token() << "\n  solver " << solver;
  if (!tuning.empty()) out << ", tuning " << tuning;
  out << ", " << passes.size() << (passes.size() == 1 ? " pass" : " passes") << ", workspace " << workspace_buffers
      << " x " << (workspace_buffers > 0 ? workspace_bytes : problem.bytes()) << " bytes\n";
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const Pass& pass = passes[i];
    const KernelSpec& s = pass.spec;
    out << "  pass " << i << ": " << to_string(pass.source) << " -> " << to_string(pass.destination) << ", "
        << pass.what << "\n    length " << s.length;
    if (s.identity) {
      out << ", copy";
    } else {
      out << " = ";
      if (s.radices.empty()) out << "1";
      for (std::size_t r = 0; r < s.radices.size(); ++r) out << (r ? " x " : "") << s.radices[r];
    }
    out << ", " << s.geometry() << (s.has_pass_twiddles() ? ", pass twiddles" : "") << "\n    " << pass.transforms
        << " transforms in " << pass.groups() << " groups of " << s.transforms_per_group << " x "
        << s.threads_per_transform << " threads, " << s.points_per_thread() << " points per thread, " << s.local_bytes()
        << " bytes local" << (s.local_halves ? " (exchanged in halves)" : "") << ", "
        << (s.block_rows          ? "rows load and store as one block through local memory"
            : s.store_via_local() ? "store via local"
                                  : "direct store")
        << (s.staged == 1 ? ", staged (persistent groups; each thread copies its share of the next input to local "
                            "memory during this one)"
            : s.staged == 2
                ? ", staged (persistent groups; one bulk copy of the next input to local memory during this one)"
                : "");
    if (s.plane()) out << ", " << s.planes_per_group() << " planes a group: then " << s.plane_columns << " = ";
    for (std::size_t r = 0; s.plane() && r < s.plane_radices.size(); ++r) out << (r ? " x " : "") << s.plane_radices[r];
    if (s.plane()) out << " along the rows, " << s.plane_threads << " threads a row";
    if (s.clustered())
      out << ", in clusters of " << s.cluster << " groups (one row: then its " << s.cluster_width()
          << "-point DFTs across the groups' local memory)";
    if (!s.identity && s.min_groups_per_unit > 0) out << ", " << s.min_groups_per_unit << " groups per unit asked";
    out << "\n    launch from " << pass.launch_from << "\n    kernel " << s.name() << "\n";
    if (pass.chain_elements > 0)
      out << "    chained with the next pass in one launch through L2: " << pass.chain_elements
          << " batch elements, the next pass " << pass.chain_lookahead << " elements behind\n";
  }
  return out.str();
}

}  // namespace bfly::plan
