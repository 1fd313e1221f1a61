#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>

#include "plan/factorize.hpp"
#include "plan/launch_model.hpp"
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

// The kernel of one step between two views.
// `caller_src` and `caller_dst`: where Rader's kernel store finds x[0] and
// puts X[0] (its convolution's first source and last destination).
Pass make_pass(const Problem& p, const Step& step, const View& src, const View& dst, const DeviceLimits& limits,
               const View& caller_src, const View& caller_dst) {
  KernelSpec spec;
  spec.precision = p.precision;
  const int dims = p.rank() + 1;
  const int a = step.dim;
  const std::int64_t n = extent_of(p, a);
  // The points a step's transforms cover along the dim: Bluestein's passes
  // run over its zero-padded M points.
  const bool rader = step.chirp == Step::Chirp::Rader;
  const bool fused = step.chirp == Step::Chirp::Fused || rader;
  const bool packed_passes = step.packed && step.padded > 0;
  const std::int64_t span = (step.chirp == Step::Chirp::None && !packed_passes) || fused ? n : step.padded;
  const bool forward_real = p.kind == Kind::R2C;
  if (step.plane) {
    // Planes (solvers/plane.cpp): the columns' FFTs along dim a (the row
    // pitches as point strides), each plane's C columns the innermost dim
    // of the sub-transform index, the planes the dims past it.
    const int b = a + 1;
    spec.length = n;
    spec.plane_columns = extent_of(p, b);
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.dims.push_back({spec.plane_columns, src[b], dst[b]});
    for (int d = 1; d < dims; ++d)
      if (d != a && d != b && extent_of(p, d) > 1) spec.dims.push_back({extent_of(p, d), src[d], dst[d]});
    spec.dims.push_back({p.batch, src[0], dst[0]});
    std::int64_t in_last = 0, out_last = 0;
    for (int d = 0; d < dims; ++d) {
      in_last += (extent_of(p, d) - 1) * src[d];
      out_last += (extent_of(p, d) - 1) * dst[d];
    }
    const std::int64_t limit = std::int64_t{1} << 31;
    spec.wide = in_last >= limit || out_last >= limit || p.elements() >= limit;
    Pass pass;
    pass.what = step.what;
    pass.launch_from = complete_spec(spec, limits);
    pass.spec = spec;
    pass.transforms = p.elements() / n;  // the columns of every plane
    return pass;
  }
  if (step.packed && !packed_passes) {
    // An even real axis as n/2 complex points (solvers/real_axis.cpp); point
    // strides count reals on the real side.
    using K = KernelSpec;
    spec.length = n / 2;
    spec.real_load = forward_real ? K::RealLoad::Pairs : K::RealLoad::Mirror;
    spec.real_store = forward_real ? K::RealStore::Split : K::RealStore::Pairs;
    spec.real_length = n;
    spec.in_point_stride = forward_real ? 2 * src[a] : src[a];
    spec.out_point_stride = forward_real ? dst[a] : 2 * dst[a];
  } else if (step.kind == Step::Kind::Fft && rader) {
    // Rader in one kernel: an (N - 1)-point convolution per N-point axis,
    // or per p-point sub-transform of the first Stockham pass of N = p m
    // (step.prime): point j of sub-transform i at i + j m, output k at i p + k.
    const std::int64_t prime = step.prime > 0 ? step.prime : n, m = n / prime;
    spec.length = prime - 1;
    spec.in_point_stride = m * src[a];
    spec.out_point_stride = dst[a];
    if (m > 1) spec.dims.push_back({m, src[a], prime * dst[a]});
    spec.rader_prime = prime;
    spec.convolve = true;
  } else if (step.kind == Step::Kind::Fft && fused) {
    // Bluestein in one kernel: an M-point transform per N-point axis.
    spec.length = step.padded;
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.chirp_length = n;
    spec.chirp_load = true;
    spec.convolve = true;
  } else if (step.kind == Step::Kind::Fft) {
    // Index j along the axis = i + n_point * S with S = N / L, i = a' * P + k;
    // the output index of point k' is a' * P * L + k + k' * P.
    const std::int64_t L = step.length, P = step.stride_product, S = span / L;
    spec.length = L;
    spec.stride_product = P;
    spec.cluster = step.cluster;
    spec.in_point_stride = S * src[a];
    spec.out_point_stride = P * dst[a];
    spec.dims.push_back({P, src[a], dst[a]});
    spec.twiddle_dim = P > 1 ? 0 : -1;
    spec.dims.push_back({S / P, P * src[a], P * L * dst[a]});
    // The middle passes are plain FFT passes (shared with fast lengths).
    if (step.rader && step.chirp != Step::Chirp::Middle) {
      // Rader past one kernel (solvers/rader.cpp).
      spec.rader_prime = n;
      if (step.chirp == Step::Chirp::Load || step.chirp == Step::Chirp::LoadKernelStore) {
        spec.rader_gather = true;
        spec.axis_dim = 1;
        spec.axis_stride = S;
      }
      spec.rader_kernel_store = step.chirp == Step::Chirp::KernelStore || step.chirp == Step::Chirp::LoadKernelStore;
      spec.rader_scatter = step.chirp == Step::Chirp::ChirpStore;
    } else if (step.chirp != Step::Chirp::None && step.chirp != Step::Chirp::Middle) {
      spec.chirp_length = n;
    }
    if (!step.rader && (step.chirp == Step::Chirp::Load || step.chirp == Step::Chirp::LoadKernelStore)) {
      // The first pass (P == 1): point j = i + n_point * S of the N-point input.
      spec.chirp_load = true;
      spec.axis_dim = 1;
      spec.axis_stride = S;
    }
    // The last passes (S == P): output e = k + k' * P.
    if (!step.rader && (step.chirp == Step::Chirp::KernelStore || step.chirp == Step::Chirp::LoadKernelStore))
      spec.chirp_store = KernelSpec::ChirpStore::Kernel;
    if (!step.rader && step.chirp == Step::Chirp::ChirpStore) spec.chirp_store = KernelSpec::ChirpStore::Chirp;
    if (step.real_first && !forward_real) {
      // The first pass (P == 1): point j = i + n_point * S of the axis.
      spec.axis_dim = 1;
      spec.axis_stride = S;
    }
    if (packed_passes) {
      // The packed axis in several passes (solvers/real_axis.cpp): the first
      // R2C pass and the last C2R pass are plain complex passes over the
      // real side read as pairs; the inverse's first pass loads the mirror,
      // the forward's last splits pairs of sub-transforms.
      using K = KernelSpec;
      if (step.real_first && !forward_real) spec.real_load = K::RealLoad::Mirror;
      if (step.real_last && forward_real) spec.real_store = K::RealStore::SplitPaired;
      if (spec.real()) {
        spec.real_length = n;
        spec.real_twiddle_bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(n)) / 2));
      }
    }
  } else {
    // Row chunks of the source's innermost dim.
    const std::int64_t L = largest_divisor_at_most(n, 32);
    spec.identity = true;
    spec.length = L;
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.dims.push_back({n / L, L * src[a], L * dst[a]});
  }
  // Rader's kernel store reaches its row's x[0] and X[0] in other buffers.
  auto caller = [&](int d, IndexDim dim) {
    if (spec.rader_kernel_store) {
      dim.caller_in = caller_src[static_cast<std::size_t>(d)];
      dim.caller_out = caller_dst[static_cast<std::size_t>(d)];
    }
    return dim;
  };
  for (int d = 1; d < dims; ++d)
    if (d != a) spec.dims.push_back(caller(d, {extent_of(p, d), src[d], dst[d]}));
  spec.dims.push_back(caller(0, {p.batch, src[0], dst[0]}));
  if (!step.packed && (step.real_first || step.real_last)) {
    // A real axis as an n-point complex FFT: its first pass reads the real
    // side or extends the half spectrum, its last writes the other side.
    using K = KernelSpec;
    if (step.real_first) spec.real_load = forward_real ? K::RealLoad::Real : K::RealLoad::Hermitian;
    if (step.real_last) spec.real_store = forward_real ? K::RealStore::Half : K::RealStore::Real;
    if (!spec.bluestein()) spec.real_length = n;  // Bluestein's kernels take N at run time
  }
  if (step.packed && !packed_passes) {
    // Both reals of a point in one complex access: the axis contiguous and
    // every offset on the real side even.
    const bool real_in = forward_real;
    bool aligned = (real_in ? src[a] : dst[a]) == 1;
    for (const IndexDim& d : spec.dims) aligned = aligned && (real_in ? d.in_stride : d.out_stride) % 2 == 0;
    spec.real_pairs_aligned = aligned;
  }
  // 64-bit offsets once any offset or the transform count can pass 2^31.
  std::int64_t in_last = (spec.length - 1) * spec.in_point_stride, out_last = (spec.length - 1) * spec.out_point_stride;
  for (const IndexDim& d : spec.dims) {
    in_last += (d.extent - 1) * d.in_stride;
    out_last += (d.extent - 1) * d.out_stride;
  }
  const std::int64_t limit = std::int64_t{1} << 31;
  const std::int64_t elements = p.elements() / n * span;
  spec.wide = in_last >= limit || out_last >= limit || elements >= limit;
  const std::string launch_from = complete_spec(spec, limits);
  Pass pass;
  pass.what = step.what;
  pass.launch_from = launch_from;
  pass.spec = spec;
  pass.transforms = rader && step.prime > 0                    ? elements / step.prime
                    : fused || (step.packed && !packed_passes) ? elements / n
                                                               : elements / spec.length;
  if (spec.real_store == KernelSpec::RealStore::SplitPaired) {
    // Pairs (k, P - k) of the P sub-transforms of each row: P/2 + 1 of them,
    // counted twice (a group runs M/2 pairs).
    const std::int64_t P = spec.stride_product;
    pass.transforms = 2 * (pass.transforms / P) * (P / 2 + 1);
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
  const DeviceLimits limits = for_precision(device_limits, problem.precision);
  const Solver* solver = nullptr;
  for (const Solver& s : solvers())
    if (s.strategy == options.strategy) solver = &s;
  std::vector<Step> steps = solver->steps(problem, limits);
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
  tree.solver = solver->name;
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
    // Rader's kernel store reaches its convolution's source (x[0]) and
    // final destination (X[0]): the first and last steps of its group.
    std::size_t first = j, last = j;
    const bool rader_store = steps[j].rader && (steps[j].chirp == Step::Chirp::KernelStore ||
                                                steps[j].chirp == Step::Chirp::LoadKernelStore);
    if (rader_store) {
      while (first > 0 &&
             !(steps[first].chirp == Step::Chirp::Load || steps[first].chirp == Step::Chirp::LoadKernelStore))
        --first;
      while (last + 1 < steps.size() && steps[last].chirp != Step::Chirp::ChirpStore) ++last;
    }
    Pass pass = make_pass(on_complex_side ? complex : problem, steps[j], sources[j], destinations[j], limits,
                          sources[first], destinations[last]);
    pass.source = slots[j].first;
    pass.destination = slots[j].second;
    pass.rader_source = slots[first].first;
    pass.rader_destination = slots[last].second;
    pass.rader_first = first == 0;
    pass.rader_last = last + 1 == steps.size();
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
