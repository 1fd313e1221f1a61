#include "transform_axes.hpp"

#include <algorithm>

#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

std::vector<int> resolve_axes_in_order(const std::string& text, const std::vector<std::int64_t>& shape,
                                       const std::string& path) {
  const int rank = static_cast<int>(shape.size());
  const std::string array = path + " (shape " + text::shape(shape) + ", rank " + std::to_string(rank) + ")";
  const std::vector<int> typed = parse_axes(text);
  if (typed.empty()) throw Error(ErrorCode::InvalidArgument, "--axes names no axis (expected A[,B,...])");
  std::vector<int> owner(rank, -1);  // which typed entry names each axis
  std::vector<int> axes;
  for (std::size_t i = 0; i < typed.size(); ++i) {
    const int a = typed[i];
    if (a < -rank || a >= rank)
      throw Error(ErrorCode::InvalidArgument, "axis " + std::to_string(a) + " is out of range for " + array +
                                                  ": expected " + std::to_string(-rank) + " to " +
                                                  std::to_string(rank - 1));
    const int k = a < 0 ? a + rank : a;
    if (owner[k] >= 0) {
      const int first = typed[owner[k]];
      throw Error(ErrorCode::InvalidArgument,
                  first == a ? "axis " + std::to_string(a) + " is repeated in --axes " + text
                             : "axis " + std::to_string(a) + " in --axes " + text + " repeats axis " +
                                   std::to_string(first) + " of " + array);
    }
    owner[k] = static_cast<int>(i);
    axes.push_back(k);
  }
  return axes;
}

std::vector<int> resolve_axes(const std::string& text, const std::vector<std::int64_t>& shape,
                              const std::string& path) {
  std::vector<int> axes = resolve_axes_in_order(text, shape, path);
  std::sort(axes.begin(), axes.end());
  return axes;
}

void check_transformed_lengths(const std::vector<std::int64_t>& shape, const std::vector<int>& axes,
                               const std::string& path) {
  for (int k : axes)
    if (shape[k] == 0)
      throw Error(ErrorCode::InvalidArgument, path + ": invalid number of data points (0) on axis " +
                                                  std::to_string(k) + " (shape " + text::shape(shape) + ")");
}

Problem view(const std::vector<std::int64_t>& shape, const std::vector<int>& group) {
  Problem p;
  p.shape.clear();
  const int rank = static_cast<int>(shape.size());
  p.batch = 1;
  for (int k = 0; k < group.front(); ++k) p.batch *= shape[k];
  for (int k = group.front(); k < rank;) {
    if (contains(group, k)) {
      p.axes.push_back(static_cast<int>(p.shape.size()));
      p.shape.push_back(shape[k++]);
    } else {
      std::int64_t n = 1;
      while (k < rank && !contains(group, k)) n *= shape[k++];
      p.shape.push_back(n);
    }
  }
  return p;
}

std::vector<Problem> steps(const std::vector<std::int64_t>& shape, const std::vector<int>& axes) {
  constexpr std::size_t kMaxRank = 4, kMaxAxes = 3;
  if (one_problem(shape.size(), axes.size())) {
    Problem p;
    p.shape = shape;
    p.axes = axes;
    return {p};
  }
  std::vector<Problem> out;
  std::vector<int> group{axes.back()};
  for (std::size_t i = axes.size() - 1; i-- > 0;) {
    std::vector<int> wider{axes[i]};
    wider.insert(wider.end(), group.begin(), group.end());
    if (wider.size() <= kMaxAxes && view(shape, wider).shape.size() <= kMaxRank) {
      group = wider;
    } else {
      out.push_back(view(shape, group));
      group = {axes[i]};
    }
  }
  out.push_back(view(shape, group));
  return out;
}

Norm parse_numpy_norm(const std::string& text) {
  if (text != "backward" && text != "ortho" && text != "forward")
    throw Error(ErrorCode::InvalidArgument,
                "invalid norm '" + text + "' (expected backward, ortho or forward, as numpy.fft)");
  return parse_norm(text);
}

}  // namespace bfly::cli
