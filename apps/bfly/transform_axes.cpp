#include "transform_axes.hpp"

#include <algorithm>

#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
std::vector<int> resolve_axes_in_order(const std::string& text, const std::vector<std::int64_t>& shape,
                                       const std::string& path) {
  const int rank = static_cast<int>(shape.size());
  const std::string array = path + " (shape " + text::shape(shape) + ", rank " + std::to_string(rank) + ")";
  const std::vector<int> typed = parse_axes(text);
  if (typed.empty()) throw Error(ErrorCode::InvalidArgument, "--axes names no axis (expected A[,B,...])");
  std::vector<int> axes;
  for (int a : typed) {
    if (a < -rank || a >= rank)
      throw Error(ErrorCode::InvalidArgument, "axis " + std::to_string(a) + " is out of range for " + array +
                                                  ": expected " + std::to_string(-rank) + " to " +
                                                  std::to_string(rank - 1));
    axes.push_back(a < 0 ? a + rank : a);
  }
  return axes;
}

namespace {

std::vector<std::int64_t> parse_lengths(const std::string& text) {
  std::vector<std::int64_t> lengths;
  for (const std::string& item : text::split(text, ',')) {
    const std::int64_t n = text::parse_int(item, "--s length");
    if (n < 1 && n != -1)  // -1: the axis as it is (NumPy 2)
      throw Error(ErrorCode::InvalidArgument, "invalid length " + item + " in --s " + text +
                                                  ": the number of data points must be at least 1 (or -1: as it is)");
    lengths.push_back(n);
  }
  return lengths;
}

// The axes when --axes is not given: numpy's last len(s) axes, else the last.
std::vector<int> default_axes(const LengthOptions& o, const std::vector<std::int64_t>& shape,
                              const std::string& array) {
  const int rank = static_cast<int>(shape.size());
  if (!o.s_given) return {rank - 1};
  const int count = static_cast<int>(text::split(o.s, ',').size());
  if (count > rank)
    throw Error(ErrorCode::InvalidArgument, "--s " + o.s + " gives " + std::to_string(count) +
                                                " lengths, more than the " + std::to_string(rank) + " axes of " +
                                                array);
  std::vector<int> axes;
  for (int k = rank - count; k < rank; ++k) axes.push_back(k);
  return axes;
}

// Every array a transform passes through fits in the box of each axis's
// largest length (n // 2 + 1 <= n): refused past Problem's 2^58 elements
// (of the non-empty axes, as numpy counts), before any index overflows.
void check_size(const AxesAndLengths& r, const std::vector<std::int64_t>& shape, const std::string& array) {
  std::vector<std::int64_t> box = shape;
  for (std::size_t i = 0; i < r.axes.size(); ++i) box[r.axes[i]] = std::max(box[r.axes[i]], r.lengths[i]);
  constexpr std::int64_t kCap = std::int64_t{1} << 58;
  std::int64_t elements = 1;
  for (std::int64_t n : box) {
    if (n == 0) continue;
    if (elements > kCap / n)
      throw Error(ErrorCode::InvalidArgument,
                  "the lengths would make " + array + " as large as " + text::shape(box) + ", more than 2^58 elements");
    elements *= n;
  }
}

}  // namespace

AxesAndLengths resolve_lengths(const LengthOptions& o, const LengthRules& rules, const std::vector<std::int64_t>& shape,
                               const std::string& path) {
  const std::string array = path + " (shape " + text::shape(shape) + ")";
  if (o.n_given && o.s_given) throw Error(ErrorCode::InvalidArgument, "give --n or --s, not both");
  AxesAndLengths r;
  r.axes = o.axes_given ? resolve_axes_in_order(o.axes, shape, path) : default_axes(o, shape, array);
  if (rules.one_axis && r.axes.size() != 1)
    throw Error(ErrorCode::InvalidArgument, "--axes " + o.axes + " names " + std::to_string(r.axes.size()) +
                                                " axes, but this verb transforms one (numpy's axis)");
  if (o.s_given) {
    r.lengths = parse_lengths(o.s);
    if (r.lengths.size() != r.axes.size())
      throw Error(ErrorCode::InvalidArgument,
                  "--s " + o.s + " gives " + std::to_string(r.lengths.size()) + " lengths, but --axes " + o.axes +
                      " names " + std::to_string(r.axes.size()) + " (one length per axis, as numpy's s)");
    for (std::size_t i = 0; i < r.lengths.size(); ++i)
      if (r.lengths[i] == -1) r.lengths[i] = shape[r.axes[i]];
    check_size(r, shape, array);
    return r;
  }
  // numpy's defaults: every axis as it is, the real output of a half
  // spectrum of m points 2*(m-1) long; --n replaces the last.
  const int last = r.axes.back();
  for (int k : r.axes) r.lengths.push_back(shape[k]);
  if (o.n_given) {
    if (o.n < 1)
      throw Error(ErrorCode::InvalidArgument,
                  "invalid --n " + std::to_string(o.n) + ": the number of data points must be at least 1");
    if (r.axes.size() > 1 && !rules.n_is_last_length)
      throw Error(ErrorCode::InvalidArgument, "--n " + std::to_string(o.n) + " gives the length of one axis, but " +
                                                  "--axes " + o.axes + " names " + std::to_string(r.axes.size()) +
                                                  "; give --s with one length per axis");
    r.lengths.back() = o.n;
  } else if (rules.half_spectrum_input && shape[last] == 1) {
    throw Error(ErrorCode::InvalidArgument,
                "invalid number of data points (0): the default --n 2*(m-1) is 0 for m = 1 "
                "point on axis " +
                    std::to_string(last) + " of " + array + "; give --n");
  } else if (rules.half_spectrum_input && shape[last] > 1) {
    r.lengths.back() = 2 * (shape[last] - 1);
  }
  // numpy refuses 0 points, and so does bfly: an axis of length 0 left as it is.
  for (std::size_t i = 0; i < r.axes.size(); ++i)
    if (r.lengths[i] == 0)
      throw Error(ErrorCode::InvalidArgument, path + ": invalid number of data points (0) on axis " +
                                                  std::to_string(r.axes[i]) + " (shape " + text::shape(shape) +
                                                  "); give --n or --s to zero-pad it");
  check_size(r, shape, array);
  return r;
}

Norm parse_numpy_norm(const std::string& text) {
  if (text != "backward" && text != "ortho" && text != "forward")
    throw Error(ErrorCode::InvalidArgument,
                "invalid norm '" + text + "' (expected backward, ortho or forward, as numpy.fft)");
  return parse_norm(text);
}

}  // namespace bfly::cli
