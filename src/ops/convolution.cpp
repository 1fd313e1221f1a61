// Convolution's shape rules: scipy.signal.fftconvolve's, reproduced
// (scipy/signal/_signaltools.py: _init_freq_conv_axes, _inputs_swap_needed,
// _apply_conv_mode, _centered).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "ops/convolution_layout.hpp"
#include "problem/text.hpp"

namespace bfly {

const char* to_string(ConvolveMode mode) {
  switch (mode) {
    case ConvolveMode::Full:
      return "full";
    case ConvolveMode::Same:
      return "same";
    case ConvolveMode::Valid:
      return "valid";
  }
  return "?";
}

ConvolveMode parse_convolve_mode(const std::string& text) {
  if (text == "full") return ConvolveMode::Full;
  if (text == "same") return ConvolveMode::Same;
  if (text == "valid") return ConvolveMode::Valid;
  throw Error(ErrorCode::InvalidArgument, "unknown convolution mode '" + text + "' (expected full, same or valid)");
}

ProductAt parse_product_at(const std::string& text) {
  if (text == "auto") return ProductAt::Auto;
  if (text == "loads") return ProductAt::InverseLoads;
  if (text == "stores") return ProductAt::ForwardStores;
  if (text == "pass") return ProductAt::OwnPass;
  throw Error(ErrorCode::InvalidArgument,
              "unknown product placement '" + text + "' (expected auto, loads, stores or pass)");
}

void Convolution::validate() const { ops::layout(*this); }
std::vector<std::int64_t> Convolution::output_shape() const { return ops::layout(*this).output; }
std::int64_t Convolution::signal_elements() const { return ops::product_of(signal_shape); }
std::int64_t Convolution::kernel_elements() const { return ops::product_of(kernel_shape); }
std::int64_t Convolution::output_elements() const { return ops::product_of(output_shape()); }

std::string Convolution::describe() const {
  const ops::ConvolutionLayout l = ops::layout(*this);
  std::ostringstream out;
  out << (correlate ? "correlation" : "convolution") << " of " << (complex ? "complex " : "real ")
      << (precision == Precision::Double ? "f64 " : "f32 ") << text::shape(signal_shape) << " with "
      << text::shape(kernel_shape) << (circular ? ", circular" : std::string(", ") + to_string(mode)) << " -> "
      << text::shape(l.output);
  if (l.axes.empty()) {
    out << " (broadcast product, no transform)";
  } else if (l.blocks) {
    out << " by overlap-save: " << l.blocks << " blocks of " << l.block << " points, " << l.step << " kept from each";
  } else {
    out << " through FFTs of " << text::shape(l.product) << " over axes ";
    for (std::size_t i = 0; i < l.axes.size(); ++i) out << (i ? "," : "") << l.axes[i];
  }
  return out.str();
}

namespace ops {

std::int64_t product_of(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

std::vector<std::int64_t> strides_of(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int a = static_cast<int>(shape.size()) - 2; a >= 0; --a) s[a] = s[a + 1] * shape[a + 1];
  return s;
}

std::int64_t fast_length(std::int64_t n, bool even) {
  if (n < 1) n = 1;
  // 7-smooth numbers are dense enough (about 1 in 10 near 10^6) that a walk
  // up from n is cheap; every bfly length of this form runs at its best.
  for (std::int64_t m = n;; ++m) {
    if (even && m % 2) continue;
    std::int64_t r = m;
    for (std::int64_t p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

// The cost model: a transform of x points costs x log2 x. One transform of
// the whole padded length M against `blocks` transforms of `block` points
// (block from the fast lengths from 4 (m - 1) up, so at least 3/4 of each
// block's outputs are kept): overlap-save where it costs at most 0.7 of the
// whole, as it does for signals far longer than their kernels
// (scipy.signal.oaconvolve's case). 1D linear convolutions only.
void choose_overlap_save(const Convolution& c, ConvolutionLayout& l) {
  if (l.rank != 1 || l.axes.size() != 1 || c.circular) return;
  const std::int64_t n = c.signal_shape[0], m = c.kernel_shape[0], full = n + m - 1, whole = l.product[0];
  auto cost = [](double x) { return x * std::log2(std::max(2.0, x)); };
  double best = 0.7 * cost(static_cast<double>(whole));
  for (std::int64_t want = std::max<std::int64_t>(64, 4 * (m - 1)); want < whole / 2; want *= 2) {
    const std::int64_t block = fast_length(want, !c.complex), step = block - (m - 1);
    const std::int64_t blocks = (full + step - 1) / step;
    const double total = static_cast<double>(blocks) * cost(static_cast<double>(block));
    if (blocks >= 2 && total < best) best = total, l.blocks = blocks, l.block = block, l.step = step;
  }
  if (l.blocks) {
    l.signal_padded = l.kernel_padded = {l.block};
    l.product = {l.blocks * l.step};  // the linear result as the blocks leave it
  }
}

ConvolutionLayout layout(const Convolution& c) {
  const auto& s1 = c.signal_shape;
  const auto& s2 = c.kernel_shape;
  const int rank = static_cast<int>(s1.size());
  if (rank < 1 || rank > 4)
    throw Error(ErrorCode::InvalidArgument,
                "convolution: the signal's rank " + std::to_string(rank) + " is outside 1..4");
  if (static_cast<int>(s2.size()) != rank)
    throw Error(ErrorCode::InvalidArgument, "convolution: the signal " + text::shape(s1) + " and the kernel " +
                                                text::shape(s2) + " should have the same number of dimensions");
  for (int a = 0; a < rank; ++a)
    if (s1[a] < 1 || s2[a] < 1)
      throw Error(ErrorCode::InvalidArgument, "convolution: length " + std::to_string(std::min(s1[a], s2[a])) +
                                                  " on axis " + std::to_string(a) + " (lengths must be at least 1)");
  ConvolutionLayout l;
  l.rank = rank;
  std::vector<int> requested;
  if (c.axes.empty()) {
    for (int a = 0; a < rank; ++a) requested.push_back(a);
  } else {
    for (int a : c.axes) {
      const int r = a < 0 ? a + rank : a;
      if (r < 0 || r >= rank)
        throw Error(ErrorCode::InvalidArgument,
                    "convolution: axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
      if (std::find(requested.begin(), requested.end(), r) != requested.end())
        throw Error(ErrorCode::InvalidArgument, "convolution: axis " + std::to_string(a) + " is repeated");
      requested.push_back(r);
    }
  }
  std::sort(requested.begin(), requested.end());
  l.reversed_axes = requested;
  for (int a : requested)
    if (s1[a] != 1 && s2[a] != 1) l.axes.push_back(a);
  if (l.axes.size() > 3)
    throw Error(ErrorCode::InvalidArgument, "convolution: " + std::to_string(l.axes.size()) +
                                                " axes to convolve (at most 3: bfly's transforms take 1 to 3 axes)");
  auto convolved = [&](int a) { return std::find(l.axes.begin(), l.axes.end(), a) != l.axes.end(); };
  for (int a = 0; a < rank; ++a)
    if (!convolved(a) && s1[a] != s2[a] && s1[a] != 1 && s2[a] != 1)
      throw Error(ErrorCode::InvalidArgument, "convolution: incompatible shapes " + text::shape(s1) + " and " +
                                                  text::shape(s2) + " on axis " + std::to_string(a) +
                                                  " (not convolved: lengths must match or one be 1)");
  if (c.circular) {
    if (c.mode != ConvolveMode::Full)
      throw Error(ErrorCode::InvalidArgument, std::string("convolution: a circular convolution has no mode '") +
                                                  to_string(c.mode) + "' (its result has the signal's shape)");
    for (int a : l.axes)
      if (s2[a] > s1[a])
        throw Error(ErrorCode::InvalidArgument, "convolution: circular, the kernel's length " + std::to_string(s2[a]) +
                                                    " on axis " + std::to_string(a) + " exceeds the signal's " +
                                                    std::to_string(s1[a]));
  }
  if (c.mode == ConvolveMode::Valid) {
    bool ok1 = true, ok2 = true;
    for (int a : l.axes) ok1 = ok1 && s1[a] >= s2[a], ok2 = ok2 && s2[a] >= s1[a];
    if (!ok1 && !ok2)
      throw Error(ErrorCode::InvalidArgument, "convolution: for mode 'valid', one of " + text::shape(s1) + " and " +
                                                  text::shape(s2) +
                                                  " must be at least as large as the other on every convolved axis");
    l.swapped = !ok1;
  }
  const int halved = c.complex || l.axes.empty() ? -1 : l.axes.back();
  l.signal_padded = s1;
  l.kernel_padded = s2;
  l.product.resize(rank);
  l.start.assign(rank, 0);
  l.output.resize(rank);
  for (int a = 0; a < rank; ++a) {
    const std::int64_t n = s1[a], m = s2[a];
    if (!convolved(a)) {
      l.product[a] = std::max(n, m);
      l.output[a] = l.product[a];
    } else {
      const std::int64_t full = c.circular ? n : n + m - 1;
      const std::int64_t padded = c.circular ? n : fast_length(full, a == halved);
      l.signal_padded[a] = l.kernel_padded[a] = l.product[a] = padded;
      l.output[a] = full;
    }
    // _apply_conv_mode: same keeps the signal's shape (on every axis, as
    // SciPy's _centered does); valid keeps |n - m| + 1 on convolved axes.
    std::int64_t keep = l.output[a];
    if (!c.circular && c.mode == ConvolveMode::Same) keep = n;
    if (!c.circular && c.mode == ConvolveMode::Valid && convolved(a)) keep = (n > m ? n - m : m - n) + 1;
    l.start[a] = (l.output[a] - keep) / 2;
    l.output[a] = keep;
  }
  choose_overlap_save(c, l);
  return l;
}

}  // namespace ops
}  // namespace bfly
