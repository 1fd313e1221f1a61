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
// Where every axis's FFT of m points is one Stockham pass (fused_r2r_plan):
// the gather and the twiddle are that pass's load and store pieces
// (pieces/r2r.cpp), one read and one write of the data an axis. Elsewhere
// (axes of several passes, Rader's or Bluestein's kernels, 1-point axes;
// r2r_stages) they are kernels of their own around the FFT
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

// The step piece that makes a pass the fused DCT or DST (one per type,
// family and orthogonalize: a PassPieceFn holds no state). The pass's
// length is the FFT's m; the data's n follows from it.
template <int Type, bool Sine, bool Orthogonalize>
void r2r_piece(KernelSpec& spec, const Step&, const PassFrame&) {
  spec.r2r_type = Type;
  spec.r2r_sine = Sine;
  spec.r2r_orthogonalize = Orthogonalize;
  const std::int64_t m = spec.length;
  spec.r2r_points = Type == 1 ? (Sine ? m / 2 - 1 : m / 2 + 1) : Type == 4 ? m / 2 : m;
}

template <int Type>
PassPieceFn piece_of(bool sine, bool orthogonalize) {
  static const PassPieceFn table[2][2] = {{r2r_piece<Type, false, false>, r2r_piece<Type, false, true>},
                                          {r2r_piece<Type, true, false>, r2r_piece<Type, true, true>}};
  return table[sine ? 1 : 0][orthogonalize ? 1 : 0];
}

PassPieceFn piece_for(int type, bool sine, bool orthogonalize) {
  switch (type) {
    case 1:
      return piece_of<1>(sine, orthogonalize);
    case 2:
      return piece_of<2>(sine, orthogonalize);
    case 3:
      return piece_of<3>(sine, orthogonalize);
    default:
      return piece_of<4>(sine, orthogonalize);
  }
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
  tree.solver = "r2r: one pass an axis, the DCT's gather and twiddle in its loads and stores";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int a = axes[i];
    const std::int64_t n = p.shape[a], m = fft_length(type, p.family, n);
    if (m < 2) return std::nullopt;  // (an FFT's 1-point axis is no pass; a DCT's is)
    // The complex FFT of m points along the axis over the problem's own
    // layouts (strides counting reals; its m points may reach past the n
    // the data has: the pieces read and write only those), the first axis
    // from the input, the others in place on the output.
    Problem c;
    c.kind = Kind::C2C;
    c.precision = p.precision;
    c.shape = p.shape;
    c.shape[a] = m;
    c.axes = {a};
    c.batch = p.batch;
    c.input = i == 0 ? in : out;
    c.output = out;
    std::vector<Step> steps = axis_steps(c, a + 1, limits, {});
    if (steps.size() != 1) return std::nullopt;
    Step& s = steps[0];
    const bool one_pass = s.kind == Step::Kind::Fft && s.core == nullptr && s.chirp == Step::Chirp::None &&
                          s.prime == 0 && s.cluster == 1 && !s.plane && s.pieces.empty() && s.stride_product == 1 &&
                          s.length == m;
    if (!one_pass) return std::nullopt;
    s.pieces.push_back(piece_for(type, p.family == Family::DST, p.orthogonalize));
    Pass pass = plan_of_steps(c, steps, "r2r", limits, options).passes.at(0);
    const KernelSpec& spec = pass.spec;
    // The pieces admit no launch form but the plain one (Piece::admits).
    if (spec.r2r_type == 0 || spec.staged || spec.block_rows || spec.clustered() || spec.plane() || spec.local_halves ||
        spec.store_via_local() || pass.chain_elements > 0)
      return std::nullopt;
    pass.source = pass.caller_source = i == 0 ? Slot::Input : Slot::Output;
    pass.destination = pass.caller_destination = Slot::Output;
    pass.caller_first = i == 0;
    pass.caller_last = i + 1 == axes.size();
    tree.passes.push_back(pass);
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
    s.m = type == 1 ? (p.family == Family::DCT ? 2 * s.n - 2 : 2 * s.n + 2) : type == 4 ? 2 * s.n : s.n;
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
    s.fft.kind = Kind::C2C;
    s.fft.shape = {s.m};
    s.fft.batch = s.lines;
    s.fft.precision = p.precision;
    s.fft.direction = s.fft_direction;
    s.fft.placement = Placement::InPlace;
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
  out << "solver r2r: each axis a gather, a complex FFT and a twiddle (not fused)\n";
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const R2RStage& s = stages[i];
    out << "axis " << s.axis << ": " << to_string(s.family) << "-" << s.type << " of " << s.n << " points, " << s.lines
        << " lines\n";
    out << "  gather  bfly_r2r_pre_" << s.word() << ": " << (s.from_input ? "input" : "output") << " -> workspace, "
        << s.m << " complex points a line\n";
    out << "  fft     " << s.fft.token() << " (in place on the workspace):\n";
    std::istringstream inner(make_plan(s.fft, limits, options).print());
    for (std::string line; std::getline(inner, line);) out << "    " << line << "\n";
    out << "  twiddle bfly_r2r_post_" << s.word() << ": workspace -> output";
    if (s.scale != 1) out << ", scale " << s.scale;
    out << "\n";
  }
  return out.str();
}

}  // namespace bfly::plan
