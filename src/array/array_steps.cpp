// array_steps(): any array transform as Problems of at most 3 axes and rank
// 4 (include/bfly/array.hpp has the rules). The one place that maps an
// ndarray onto Problems: the CLI's numpy verbs and the Python package call it.
#include "bfly/array.hpp"

#include <algorithm>
#include <string>

#include "problem/text.hpp"

namespace bfly {
namespace {

using Shape = std::vector<std::int64_t>;

Error invalid(const std::string& what) { return Error(ErrorCode::InvalidArgument, what); }

Shape contiguous(const Shape& shape) {
  Shape strides(shape.size());
  std::int64_t step = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = step;
    step *= shape[k];
  }
  return strides;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The strides one side is read with: its own, a unit axis's as 1 (any
// stride serves it), C-contiguous where none are given.
Shape side_strides(const Shape& given, const Shape& shape) {
  if (given.empty()) return contiguous(shape);
  Shape out = given;
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (shape[k] == 1) out[k] = 1;
  return out;
}

// Batch axes of one group, neighbours merged: dims first..last as one of
// `size` points at the last's strides.
struct Merged {
  int first;
  std::int64_t size, in_stride, out_stride;
  int last;
};

// The arrays one group's Problem runs on: shapes and element strides of
// each side, and which memory they are.
struct GroupSides {
  Shape in_shape, in_strides, out_shape, out_strides;
  ArrayOperand source, target;
};

std::size_t real_bytes(Precision p) { return p == Precision::Double ? 8 : 4; }

// One group of at most 3 axes as a Problem and its offsets. `real_shape` is
// the shape the Problem takes (the real side's for R2C / C2R).
ArrayStep group_step(Kind kind, Direction direction, const ArrayTransform& t, const Shape& real_shape,
                     const std::vector<int>& group, const GroupSides& s, bool in_place) {
  const int rank = static_cast<int>(real_shape.size());
  std::vector<Merged> merged;
  for (int d = 0; d < rank; ++d) {
    if (contains(group, d) || real_shape[d] <= 1) continue;
    Merged* last = merged.empty() ? nullptr : &merged.back();
    bool chains = last != nullptr && s.in_strides[last->last] == s.in_strides[d] * s.in_shape[d] &&
                  s.out_strides[last->last] == s.out_strides[d] * s.out_shape[d];
    for (int k = last == nullptr ? d : last->last + 1; chains && k < d; ++k) chains = !contains(group, k);
    if (chains) {
      last->size *= real_shape[d];
      last->in_stride = s.in_strides[d];
      last->out_stride = s.out_strides[d];
      last->last = d;
    } else {
      merged.push_back({d, real_shape[d], s.in_strides[d], s.out_strides[d], d});
    }
  }
  // Shape slots left (rank <= 4) plus the batch; the outermost rest loop.
  const std::size_t room = 5 - group.size();
  const std::size_t looped = merged.size() > room ? merged.size() - room : 0;
  const auto in_bytes = static_cast<std::int64_t>(real_bytes(t.precision) * (kind == Kind::R2C ? 1 : 2));
  const auto out_bytes = static_cast<std::int64_t>(real_bytes(t.precision) * (kind == Kind::C2R ? 1 : 2));
  ArrayStep step;
  step.source = s.source;
  step.target = s.target;
  std::vector<bool> looped_dim(rank, false);
  for (std::size_t g = 0; g < looped; ++g) {
    const Merged& m = merged[g];
    std::vector<std::pair<std::int64_t, std::int64_t>> next;
    next.reserve(step.offsets.size() * static_cast<std::size_t>(m.size));
    for (const auto& [a, b] : step.offsets)
      for (std::int64_t i = 0; i < m.size; ++i)
        next.emplace_back(a + i * m.in_stride * in_bytes, b + i * m.out_stride * out_bytes);
    step.offsets = std::move(next);
    for (int d = m.first; d <= m.last; ++d) looped_dim[d] = true;
  }
  Problem p;
  p.kind = kind;
  p.precision = t.precision;
  p.direction = direction;
  p.norm = t.norm;
  p.placement = in_place ? Placement::InPlace : Placement::OutOfPlace;
  std::size_t kept = looped;
  std::int64_t in_distance = 0, out_distance = 0;
  if (kept < merged.size()) {
    p.batch = merged[kept].size;
    in_distance = merged[kept].in_stride;
    out_distance = merged[kept].out_stride;
    ++kept;
  }
  // The group's axes and the kept batch axes, in the array's order.
  Shape pin, pout;
  p.shape.clear();
  std::vector<int> position(rank, -1);
  for (int d = 0; d < rank; ++d) {
    if (contains(group, d)) {
      position[d] = static_cast<int>(p.shape.size());
      p.shape.push_back(real_shape[d]);
      pin.push_back(s.in_strides[d]);
      pout.push_back(s.out_strides[d]);
    } else {
      for (std::size_t g = kept; g < merged.size(); ++g)
        if (merged[g].first == d) {
          p.shape.push_back(merged[g].size);
          pin.push_back(merged[g].in_stride);
          pout.push_back(merged[g].out_stride);
        }
    }
  }
  for (int g : group) p.axes.push_back(position[g]);
  // Default layouts stay default, so the token and the planner see them so.
  Shape side = p.shape;
  if (kind != Kind::C2C) side[p.axes.back()] = p.shape[p.axes.back()] / 2 + 1;
  const Shape& in_side = kind != Kind::C2R ? p.shape : side;
  const Shape& out_side = kind != Kind::R2C ? p.shape : side;
  if (pin == contiguous(in_side) && (p.batch == 1 || in_distance == pin[0] * in_side[0])) pin.clear(), in_distance = 0;
  if (pout == contiguous(out_side) && (p.batch == 1 || out_distance == pout[0] * out_side[0]))
    pout.clear(), out_distance = 0;
  if (in_place) pout.clear(), out_distance = 0;
  if (p.batch == 1) in_distance = out_distance = 0;
  p.input = Layout{pin, in_distance, {}};
  p.output = Layout{pout, out_distance, {}};
  bool all_in_order = static_cast<int>(p.axes.size()) == p.rank();
  for (int k = 0; all_in_order && k < p.rank(); ++k) all_in_order = p.axes[k] == k;
  if (all_in_order) p.axes.clear();  // the token's default
  p.validate();
  // The Problem must stay inside the arrays it is launched on: a mismatch
  // is a bug here, caught before any launch.
  auto reach = [&](const Shape& shape, const Shape& strides, std::int64_t bytes) {
    std::int64_t last = 0;
    for (int d = 0; d < rank; ++d)
      if (!looped_dim[d] && shape[d] > 0) last += (shape[d] - 1) * strides[d];
    return (last + 1) * bytes;
  };
  if (p.input_extent() * static_cast<std::int64_t>(p.input_element_bytes()) >
          reach(s.in_shape, s.in_strides, in_bytes) ||
      p.output_extent() * static_cast<std::int64_t>(p.output_element_bytes()) >
          reach(s.out_shape, s.out_strides, out_bytes))
    throw Error(ErrorCode::InvalidArgument, "bfly internal error: problem " + p.token() +
                                                " reaches past its arrays (input " + text::shape(s.in_shape) +
                                                ", output " + text::shape(s.out_shape) + ")");
  step.problem = std::move(p);
  return step;
}

}  // namespace

const char* to_string(ArrayOperand o) {
  switch (o) {
    case ArrayOperand::Input:
      return "input";
    case ArrayOperand::Output:
      return "output";
    case ArrayOperand::Temporary:
      return "temporary";
  }
  return "?";
}

std::vector<int> ArrayTransform::resolved_axes() const {
  const int rank = static_cast<int>(shape.size());
  std::vector<int> out;
  if (axes.empty())
    for (int k = 0; k < rank; ++k) out.push_back(k);
  for (int a : axes) out.push_back(a < 0 ? a + rank : a);
  return out;
}

std::vector<std::int64_t> ArrayTransform::input_shape() const {
  Shape s = shape;
  if (kind == Kind::C2R) s[resolved_axes().back()] = s[resolved_axes().back()] / 2 + 1;
  return s;
}

std::vector<std::int64_t> ArrayTransform::output_shape() const {
  Shape s = shape;
  if (kind == Kind::R2C) s[resolved_axes().back()] = s[resolved_axes().back()] / 2 + 1;
  return s;
}

void ArrayTransform::validate() const {
  const int rank = static_cast<int>(shape.size());
  if (rank == 0) throw invalid("the array's shape is empty (rank 0): nothing to transform");
  for (int k = 0; k < rank; ++k)
    if (shape[k] <= 0)
      throw invalid("length " + std::to_string(shape[k]) + " on axis " + std::to_string(k) + " of shape " +
                    text::shape(shape) + " must be positive");
  std::vector<bool> seen(rank, false);
  for (int a : axes) {
    if (a < -rank || a >= rank)
      throw invalid("axis " + std::to_string(a) + " is out of range for the rank-" + std::to_string(rank) + " shape " +
                    text::shape(shape));
    const int k = a < 0 ? a + rank : a;
    if (seen[k]) throw invalid("axis " + std::to_string(a) + " is repeated in the axes");
    seen[k] = true;
  }
  if (kind == Kind::R2C && direction != Direction::Forward)
    throw invalid("an r2c transform is forward (got direction inv); c2r is the inverse");
  if (kind == Kind::C2R && direction != Direction::Inverse)
    throw invalid("a c2r transform is inverse (got direction fwd); r2c is the forward one");
  if (kind == Kind::C2R && placement == Placement::InPlace)
    throw invalid("a c2r array transform is out of place (it leaves its input as it was)");
  const Shape in = input_shape(), out = output_shape();
  for (const auto& [name, strides, side] :
       {std::tuple{"input", &input_strides, &in}, std::tuple{"output", &output_strides, &out}}) {
    if (strides->empty()) continue;
    if (strides->size() != shape.size())
      throw invalid(std::string(name) + " strides " + text::shape(*strides) + " give " +
                    std::to_string(strides->size()) + " entries for the rank-" + std::to_string(rank) + " shape " +
                    text::shape(shape));
    for (int k = 0; k < rank; ++k)
      if ((*side)[k] > 1 && (*strides)[k] <= 0)
        throw invalid(std::string(name) + " stride " + std::to_string((*strides)[k]) + " on axis " + std::to_string(k) +
                      " must be positive (copy the array to a positive-stride one)");
  }
}

bool ArraySteps::single_launch() const {
  return steps.size() == 1 && temporary_shape.empty() && steps[0].offsets.size() == 1 &&
         steps[0].offsets[0] == std::pair<std::int64_t, std::int64_t>{0, 0};
}

ArraySteps array_steps(const ArrayTransform& t) {
  t.validate();
  const std::vector<int> axes = t.resolved_axes();
  const Shape in_shape = t.input_shape(), out_shape = t.output_shape();
  const Shape ins = side_strides(t.input_strides, in_shape), outs = side_strides(t.output_strides, out_shape);
  // Groups of at most 3 axes from the last, the last group (the real axis's) first.
  std::vector<std::vector<int>> groups;
  for (std::size_t k = axes.size(); k > 0; k = k > 3 ? k - 3 : 0)
    groups.emplace_back(axes.begin() + static_cast<std::ptrdiff_t>(k > 3 ? k - 3 : 0),
                        axes.begin() + static_cast<std::ptrdiff_t>(k));
  const bool in_place = t.placement == Placement::InPlace;
  using O = ArrayOperand;
  ArraySteps out;
  if (t.kind == Kind::C2R) {
    if (groups.size() == 1) {
      out.steps.push_back(group_step(Kind::C2R, Direction::Inverse, t, t.shape, groups[0],
                                     {in_shape, ins, out_shape, outs, O::Input, O::Output}, false));
      return out;
    }
    // The complex axes first (inverse, into the temporary), then the real one.
    out.temporary_shape = in_shape;
    const Shape tmp = contiguous(in_shape);
    for (std::size_t i = 1; i < groups.size(); ++i) {
      const bool first = i == 1;
      out.steps.push_back(group_step(
          Kind::C2C, Direction::Inverse, t, in_shape, groups[i],
          {in_shape, first ? ins : tmp, in_shape, tmp, first ? O::Input : O::Temporary, O::Temporary}, !first));
    }
    out.steps.push_back(group_step(Kind::C2R, Direction::Inverse, t, t.shape, groups[0],
                                   {in_shape, tmp, out_shape, outs, O::Temporary, O::Output}, false));
    return out;
  }
  out.steps.push_back(group_step(t.kind, t.direction, t, t.shape, groups[0],
                                 {in_shape, ins, out_shape, outs, O::Input, O::Output}, in_place));
  for (std::size_t i = 1; i < groups.size(); ++i)
    out.steps.push_back(group_step(Kind::C2C, t.direction, t, out_shape, groups[i],
                                   {out_shape, outs, out_shape, outs, O::Output, O::Output}, true));
  return out;
}

}  // namespace bfly
