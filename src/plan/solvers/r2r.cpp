// The DCT and DST, types 1 to 4 (Kind::R2R), as scipy.fft defines them,
// each axis through a complex FFT of the existing machinery, which already
// handles every length (Rader, Bluestein, multi-pass):
// - types 2 and 3 by Makhoul's method (IEEE TASSP 28(1), 1980): DCT-II
//   gathers v[j] = x[2j], v[n-1-j] = x[2j+1], takes V = FFT_n(v) and writes
//   y[k] = 2 Re(w_4n^k V[k]); DCT-III is its transpose: V[k] = w_4n^-k
//   (x[k] - i x[n-k]) (x[n] = 0), v = the unnormalised inverse FFT_n, and
//   y[2j] = Re v[j], y[2j+1] = Re v[n-1-j];
// - type 4 as a zero-padded FFT of 2n: y[k] = 2 Re(w_8n^(2k+1) Z[k]),
//   Z = FFT_2n(x[j] w_8n^2j);
// - type 1 through the symmetric extension, gathered by an index map: DCT-I
//   the even extension of 2(n-1) points (y = Re Z), DST-I the odd one of
//   2(n+1) (0, x, 0, -reverse x; y[k] = -Im Z[k+1]);
// - the DSTs by the DCTs: DST-II(x)[k] = DCT-II(x[j] (-1)^j)[n-1-k] and, for
//   types 3 and 4, DST(x)[k] = (-1)^k DCT(reverse x)[k], the signs and the
//   reversal in the same gather and twiddle.
// Where every axis's FFT of m points is Stockham passes (fused_r2r_plan):
// the gather is the first pass's load piece and the twiddle the last's
// store piece (pieces/r2r.cpp): one read and one write of the data an axis
// where the FFT is one pass, none more than the FFT's own where it is
// several. Elsewhere (Rader's or Bluestein's kernels, clusters, 1-point
// axes; r2r_stages) they are kernels of their own around the FFT
// (codegen/r2r_kernel.cpp), reading and writing the caller's strided
// layout, the FFT in place on workspace of `lines` x m complex points:
// correct at every length, but three trips through memory and more. Both
// run a complex FFT of real data: twice a real FFT's arithmetic, the same
// memory traffic.
#include <cmath>
#include <sstream>

#include "plan/plan.hpp"
#include "plan/r2r.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

int computed_type(const Problem& p) {
  return p.direction == Direction::Inverse && (p.type == 2 || p.type == 3) ? 5 - p.type : p.type;
}

// The complex FFT's length for n points: Makhoul's n (types 2, 3), the
// zero-padded 2n (type 4), the symmetric extensions 2(n - 1) (DCT-I) and
// 2(n + 1) (DST-I).
std::int64_t fft_length(int type, Family family, std::int64_t n) {
  if (type == 1) return family == Family::DCT ? 2 * n - 2 : 2 * n + 2;
  return type == 4 ? 2 * n : n;
}

// The step pieces that make the first pass of an axis the DCT's gather and
// the last its twiddle: what they are of is on the problem they plan (the
// complex FFT's, family, type and orthogonalize set as fused_r2r_plan
// computes them); the pass's FFT is m points of the data's n.
void r2r_fields(KernelSpec& spec, const PassFrame& f) {
  const Problem& c = f.problem;
  spec.r2r_type = c.type;
  spec.r2r_sine = c.family == Family::DST;
  spec.r2r_orthogonalize = c.orthogonalize;
  const std::int64_t m = f.span;
  spec.r2r_points = c.type == 1 ? (spec.r2r_sine ? m / 2 - 1 : m / 2 + 1) : c.type == 4 ? m / 2 : m;
}
void r2r_load_piece(KernelSpec& spec, const Step&, const PassFrame& f) {
  r2r_fields(spec, f);
  spec.r2r_load = true;
  // The first of several passes: point n of sub-transform i (the core's
  // dim 1) is j = i + n S along the axis, S the pass's point stride.
  if (f.stockham_stride > 1) {
    spec.axis_dim = 1;
    spec.axis_stride = f.stockham_stride;
  }
}
void r2r_store_piece(KernelSpec& spec, const Step&, const PassFrame& f) {
  r2r_fields(spec, f);
  spec.r2r_store = true;
}
// Types 2 to 4 of an even n in one pass of n/2 points (pieces/r2r_packed.cpp).
void r2r_packed_piece(KernelSpec& spec, const Step&, const PassFrame& f) {
  const Problem& c = f.problem;
  spec.r2r_packed = true;
  spec.r2r_type = c.type;
  spec.r2r_sine = c.family == Family::DST;
  spec.r2r_orthogonalize = c.orthogonalize;
  spec.r2r_points = 2 * f.span;
}

// Only Stockham passes take the pieces: Rader's and Bluestein's kernels
// have loads and stores of their own.
bool plain_passes(const std::vector<Step>& steps) {
  for (const Step& s : steps)
    if (s.kind != Step::Kind::Fft || s.core != nullptr || s.chirp != Step::Chirp::None || s.prime != 0 ||
        s.cluster != 1 || s.plane || !s.pieces.empty())
      return false;
  return !steps.empty() && steps.front().stride_product == 1;
}

// Type 4's packed loads hold two reals and a twiddle a point, each a read
// in flight: where a thread's share of the registers cannot take them (1000
// threads: 64, where the NVRTC sweep saw 15000 points spill), the FFT of 2n
// runs instead.
bool packed_fits_registers(const KernelSpec& spec, const DeviceLimits& limits) {
  if (!spec.r2r_packed || spec.r2r_type != 4 || limits.registers_per_unit <= 0) return true;
  const std::int64_t words = spec.precision == Precision::Double ? 2 : 1;
  const std::int64_t threads = (spec.group_size() + 31) / 32 * 32;  // registers are granted per warp
  return 4 * words * spec.points_per_thread() <= limits.registers_per_unit / threads;
}

// The axis's plan of `steps` where every pass takes the pieces: they admit
// no launch form but the plain one (Piece::admits), and the last pass's
// outputs must be e = k + k' P. The complex points between passes fit no
// real buffer: workspace.
std::optional<PlanTree> admitted(const Problem& c, std::vector<Step> steps, const DeviceLimits& limits,
                                 const PlanOptions& options) {
  for (std::size_t j = 0; j + 1 < steps.size(); ++j) steps[j].work_only = true;
  PlanTree axis = plan_of_steps(c, steps, "r2r", limits, options);
  for (const Pass& pass : axis.passes) {
    const KernelSpec& spec = pass.spec;
    if (spec.staged || spec.block_rows || spec.clustered() || spec.plane() || spec.local_halves ||
        pass.chain_elements > 0 ||
        ((spec.r2r_store || spec.r2r_packed) && (spec.store_via_local() || spec.axis_dim >= 0)) ||
        !packed_fits_registers(spec, limits))
      return std::nullopt;
  }
  return axis;
}

}  // namespace

std::optional<PlanTree> fused_r2r_plan(const Problem& p, const DeviceLimits& device_limits,
                                       const PlanOptions& options) {
  p.validate();
  if (options.strategy != Strategy::Auto) return std::nullopt;
  const int type = computed_type(p);
  const std::vector<int> axes = p.transform_axes();
  const DeviceLimits limits = for_precision(device_limits, p.precision);
  const Layout in = p.input_layout(), out = p.output_layout();
  PlanTree tree;
  tree.problem = p;
  tree.solver = "r2r: each axis's FFT, the DCT's gather in its first loads and its twiddle in its last stores";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int a = axes[i];
    const std::int64_t n = p.shape[a], m = fft_length(type, p.family, n);
    if (m < 2) return std::nullopt;  // (an FFT's 1-point axis is no pass; a DCT's is)
    // The complex FFT of m points along the axis over the problem's own
    // layouts (strides counting reals; its m points may reach past the n
    // the data has: the pieces read and write only those), the first axis
    // from the input, the others from the output, where they write. The
    // family, type and orthogonalize ride on it for the step pieces.
    Problem c;
    c.kind = Kind::C2C;
    c.precision = p.precision;
    c.shape = p.shape;
    c.axes = {a};
    c.batch = p.batch;
    c.input = i == 0 ? in : out;
    c.output = out;
    c.family = p.family;
    c.type = type;
    c.orthogonalize = p.orthogonalize;
    // Types 2 to 4 of an even n: n/2 points in one pass where they fit,
    // two reals a point (half the FFT of n's work, a quarter of type 4's
    // FFT of 2n); else the FFT of m.
    std::optional<PlanTree> axis;
    if (type >= 2 && n % 2 == 0 && n >= 4) {
      c.shape[a] = n / 2;
      std::vector<Step> steps = axis_steps(c, a + 1, limits, {});
      if (steps.size() == 1 && plain_passes(steps)) {
        steps.front().pieces.push_back(r2r_packed_piece);
        axis = admitted(c, steps, limits, options);
      }
    }
    if (!axis) {
      c.shape[a] = m;
      std::vector<Step> steps = axis_steps(c, a + 1, limits, {});
      // Past one pass the stages cost less for types 1 to 3: their real FFT
      // packs n / 2 points a line, where this complex FFT of m carries the
      // reals as complex points through every pass (H200, fp32, 2^26
      // points: 2^20 fused in two passes 1.13 ms, the stages 0.8 ms
      // estimated from their gather 0.19, R2C 0.44 and twiddle 0.20;
      // 65536 in four passes 1.3 ms, the stages 0.69). So do type 4's of an
      // even n, the complex FFT of n / 2 (65536: two fused passes of 2n 1.3
      // ms); of an odd n it keeps two fused passes: its stages run the same
      // FFT of 2n.
      if (!plain_passes(steps) || steps.size() > (type == 4 && n % 2 == 1 ? 2u : 1u)) return std::nullopt;
      steps.front().pieces.push_back(r2r_load_piece);
      steps.back().pieces.push_back(r2r_store_piece);
      axis = admitted(c, steps, limits, options);
      if (!axis) return std::nullopt;
    }
    for (Pass pass : axis->passes) {
      // The first axis reads the input; the others the output (their plan's input).
      auto slot = [&](Slot s) { return i > 0 && s == Slot::Input ? Slot::Output : s; };
      pass.source = slot(pass.source);
      pass.caller_source = slot(pass.caller_source);
      pass.destination = slot(pass.destination);
      pass.caller_destination = slot(pass.caller_destination);
      pass.caller_first = i == 0 && pass.caller_first;
      pass.caller_last = i + 1 == axes.size() && pass.caller_last;
      tree.passes.push_back(pass);
    }
    tree.workspace_buffers = std::max(tree.workspace_buffers, axis->workspace_buffers);
    tree.workspace_bytes = std::max(tree.workspace_bytes, axis->workspace_bytes);
  }
  return tree;
}

std::string R2RStage::word() const {
  return std::string(to_string(family)) + std::to_string(type) + "_" + to_string(fft.precision);
}

std::vector<R2RStage> r2r_stages(const Problem& p) {
  const std::vector<int> axes = p.transform_axes();
  const Layout in = p.input_layout(), out = p.output_layout();
  const bool inverse = p.direction == Direction::Inverse;
  const int type = inverse && (p.type == 2 || p.type == 3) ? 5 - p.type : p.type;
  const double root2 = std::sqrt(2.0);
  std::vector<R2RStage> stages;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    R2RStage s;
    s.axis = axes[i];
    s.n = p.shape[s.axis];
    s.type = type;
    s.family = p.family;
    // Type 4 of an even n: the half-length complex form (pieces/r2r_packed.cpp's
    // algorithm, its pre- and post-twiddles in the gather and the twiddle).
    s.m = type == 1   ? (p.family == Family::DCT ? 2 * s.n - 2 : 2 * s.n + 2)
          : type == 4 ? (s.n % 2 == 0 ? s.n / 2 : 2 * s.n)
                      : s.n;
    s.fft_direction = type == 3 ? Direction::Inverse : Direction::Forward;
    s.from_input = i == 0;
    const Layout& src = s.from_input ? in : out;
    // The other dims, outermost first: the batch, then the other axes.
    std::vector<std::int64_t> extents{p.batch}, src_strides{src.distance}, dst_strides{out.distance};
    for (int a = 0; a < p.rank(); ++a) {
      if (a == s.axis) continue;
      extents.push_back(p.shape[a]);
      src_strides.push_back(src.strides[a]);
      dst_strides.push_back(out.strides[a]);
    }
    const std::size_t pad = 4 - extents.size();
    for (std::size_t d = 0; d < extents.size(); ++d) {
      s.extents[pad + d] = extents[d];
      s.src_strides[pad + d] = src_strides[d];
      s.dst_strides[pad + d] = dst_strides[d];
      s.lines *= extents[d];
    }
    s.src_axis_stride = src.strides[s.axis];
    s.dst_axis_stride = out.strides[s.axis];
    if (p.orthogonalize) {
      // scipy's: the matrix's first (DST: last) row and column scaled so
      // that the ortho-normalised one is orthogonal (scipy PR #15102; the
      // DSTs' last element since SciPy 1.11, PR #18613).
      const bool dct = p.family == Family::DCT;
      if (dct && type == 1) s.in_first = s.in_last = root2, s.out_first = s.out_last = 1 / root2;
      if (dct && type == 2) s.out_first = 1 / root2;
      if (dct && type == 3) s.in_first = root2;
      if (!dct && type == 2) s.out_last = 1 / root2;
      if (!dct && type == 3) s.in_last = root2;
    }
    // Types 1 to 3 transform real data or a Hermitian spectrum: a real FFT
    // of m (an R2C of the gathered reals; type 3 a C2R of its half
    // spectrum), out of place between the workspace's two sides, half the
    // complex FFT's work. Type 4's zero-padded 2n points are complex.
    s.fft.kind = type == 4 ? Kind::C2C : type == 3 ? Kind::C2R : Kind::R2C;
    s.fft.shape = {s.m};
    s.fft.batch = s.lines;
    s.fft.precision = p.precision;
    s.fft.direction = s.fft_direction;
    s.fft.placement = type == 4 ? Placement::InPlace : Placement::OutOfPlace;
    s.fft.norm = Norm::None;
    stages.push_back(s);
  }
  stages.back().scale = p.scale();
  return stages;
}

std::string print_r2r(const Problem& p, const DeviceLimits& limits, const PlanOptions& options) {
  std::ostringstream out;
  p.validate();
  if (const std::optional<PlanTree> fused = fused_r2r_plan(p, limits, options)) return fused->print();
  const std::vector<R2RStage> stages = r2r_stages(p);
  out << "problem " << p.token() << "\n";
  out << "solver r2r: each axis a gather, an FFT and a twiddle (not fused)\n";
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const R2RStage& s = stages[i];
    out << "axis " << s.axis << ": " << to_string(s.family) << "-" << s.type << " of " << s.n << " points, " << s.lines
        << " lines\n";
    const char* gathered = s.fft.kind == Kind::R2C   ? " reals a line\n"
                           : s.fft.kind == Kind::C2R ? " points' half spectrum a line\n"
                                                     : " complex points a line\n";
    out << "  gather  bfly_r2r_pre_" << s.word() << ": " << (s.from_input ? "input" : "output") << " -> workspace, "
        << s.m << gathered;
    out << "  fft     " << s.fft.token()
        << (s.fft.kind == Kind::C2C ? " (in place on the workspace):\n" : " (between the workspace's two sides):\n");
    std::istringstream inner(make_plan(s.fft, limits, options).print());
    for (std::string line; std::getline(inner, line);) out << "    " << line << "\n";
    out << "  twiddle bfly_r2r_post_" << s.word() << ": workspace -> output";
    if (s.scale != 1) out << ", scale " << s.scale;
    out << "\n";
  }
  return out.str();
}

}  // namespace bfly::plan
