// Callbacks read against a problem's side (plan/callbacks.hpp), and the
// EndOps' text (plan/end_ops.hpp).
#include "plan/callbacks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace bfly::plan {
namespace {

// Past this many points on an axis, a cosine-sum window is computed in the
// kernel rather than read from a table (EndOp::Window).
constexpr std::int64_t kComputedWindow = 16384;

[[noreturn]] void refuse(bool input, const std::string& what) {
  throw Error(ErrorCode::InvalidArgument, std::string(input ? "load" : "store") + " callback: " + what);
}

// A number after "name:", whole or refused by name.
double number(const std::string& op, const std::string& text, bool input) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    refuse(input, "bad number '" + text + "' in '" + op + "'");
  return v;
}

// 48 bits of the FNV-1a hash of `text`, in hex (plan/end_ops.hpp: hash).
std::string hash48(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char hex[20];
  std::snprintf(hex, sizeof hex, "%012llx", static_cast<unsigned long long>(h & 0xffffffffffffull));
  return hex;
}

// I0, the modified Bessel function of the first kind (Kaiser's window):
// its series, whose terms fall once k > x/2.
double bessel_i0(double x) {
  double sum = 1, term = 1;
  const double q = x * x / 4;
  for (int k = 1; k < 1000; ++k) {
    term *= q / (static_cast<double>(k) * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

// The side's layout as dims, outermost first, checked to nest: each
// stride past the reach of the smaller ones, so an offset's index along
// each is rest / stride (EndOps::dims).
// `base[a]`: axis a's window in the table (-1: not windowed); `pad[a]` the
// points EndOp::Pad keeps along it (0: all).
std::vector<EndOps::Dim> layout_dims(const Problem& p, bool input, const std::vector<std::int64_t>& base,
                                     const std::vector<std::int64_t>& pad, bool& nests) {
  const std::vector<std::int64_t> shape = input ? p.input_shape() : p.output_shape();
  const Layout layout = input ? p.input_layout() : p.output_layout();
  std::vector<EndOps::Dim> dims;
  for (std::size_t a = 0; a < shape.size(); ++a)
    if (shape[a] > 1 || base[a] >= 0) dims.push_back({layout.strides[a], shape[a], base[a], pad[a]});
  if (p.batch > 1) dims.push_back({layout.distance, p.batch, -1, 0});
  std::stable_sort(dims.begin(), dims.end(),
                   [](const EndOps::Dim& a, const EndOps::Dim& b) { return a.stride > b.stride; });
  nests = true;
  std::int64_t reach = 0;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    if (d->stride <= reach || d->stride <= 0) nests = false;
    reach += d->stride * (d->extent - 1);
  }
  return dims;
}

}  // namespace

std::vector<double> window_values(const std::string& name, std::int64_t n, double beta) {
  std::vector<double> w(static_cast<std::size_t>(n), 1.0);
  if (n <= 1) return w;  // (scipy: a window of one point is 1)
  const double pi = 3.14159265358979323846;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = 2 * pi * static_cast<double>(i) / static_cast<double>(n);
    double& v = w[static_cast<std::size_t>(i)];
    if (name == "hann")
      v = 0.5 - 0.5 * std::cos(x);
    else if (name == "hamming")
      v = 0.54 - 0.46 * std::cos(x);
    else if (name == "blackman")
      v = 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);
    else if (name == "kaiser") {
      const double r = 2.0 * static_cast<double>(i) / static_cast<double>(n) - 1;
      v = bessel_i0(beta * std::sqrt(std::max(0.0, 1 - r * r))) / bessel_i0(beta);
    } else
      throw Error(ErrorCode::InvalidArgument, "unknown window '" + name + "'");
  }
  return w;
}

ResolvedEnd resolve_callback(const Callback& cb, const Problem& p, bool input) {
  ResolvedEnd out;
  EndOps& ops = out.ops;
  const bool real_side =
      input ? (p.kind == Kind::R2C || p.kind == Kind::R2R) : (p.kind == Kind::C2R || p.kind == Kind::R2R);
  ops.complex_values = !real_side;
  if (cb.ops.empty()) {
    if (!cb.code.empty() || !cb.values.empty() || cb.data) refuse(input, "code, values or data given without ops");
    return out;
  }
  const std::vector<int> axes = p.transform_axes();
  std::string window;              // the window op's name ("" none)
  std::vector<std::int64_t> pads;  // pad's lengths (one, or one a transformed axis)
  double beta = 0;
  int readers = 0;  // ops that read the data buffer
  std::stringstream list(cb.ops);
  std::string op;
  while (std::getline(list, op, ',')) {
    op.erase(0, op.find_first_not_of(" \t"));
    op.erase(op.find_last_not_of(" \t") + 1);
    const std::size_t colon = op.find(':');
    const std::string name = op.substr(0, colon), arg = colon == std::string::npos ? "" : op.substr(colon + 1);
    if (!ops.empty() && ops.real_result())
      refuse(input, "'" + op + "' after magnitude, power or db (they end the chain)");
    EndStep step;
    if (name == "scale" && colon != std::string::npos) {
      step = {EndOp::Scale, number(op, arg, input), 0};
    } else if ((name == "hann" || name == "hamming" || name == "blackman" || name == "window") && arg.empty()) {
      step.op = EndOp::Window;
      window = name;
      ++readers;
    } else if (name == "kaiser" && colon != std::string::npos) {
      step.op = EndOp::Window;
      window = name;
      beta = number(op, arg, input);
      ++readers;
    } else if (name == "pad" && colon != std::string::npos) {
      if (!input) refuse(false, "'pad' is a load op (zero padding of the input)");
      if (!pads.empty()) refuse(true, "'pad' twice");
      std::stringstream lengths(arg);
      std::string length;
      while (std::getline(lengths, length, 'x')) {
        const double v = number(op, length, input);
        if (v < 1 || v != std::floor(v) || v > 9e15)
          refuse(true, "bad length '" + length + "' in '" + op + "' (a whole number of points, 1 or more)");
        pads.push_back(static_cast<std::int64_t>(v));
      }
      if (pads.size() != 1 && pads.size() != axes.size())
        refuse(true, "'" + op + "' names " + std::to_string(pads.size()) + " lengths; it takes one, or one a " +
                         "transformed axis (" + std::to_string(axes.size()) + ")");
      step.op = EndOp::Pad;
    } else if (name == "mask" && arg.empty()) {
      step.op = EndOp::Mask;
      ++readers;
    } else if (name == "code" && arg.empty()) {
      if (!ops.code.empty() || cb.code.empty()) refuse(input, "op 'code' needs the code, once");
      step.op = EndOp::Code;
      ops.code = cb.code;
    } else if ((name == "magnitude" || name == "power" || name == "db") && arg.empty()) {
      if (input) refuse(true, "'" + name + "' is a store op");
      if (real_side) refuse(false, "'" + name + "' needs a complex output (this problem stores reals)");
      step.op = name == "magnitude" ? EndOp::Magnitude : name == "power" ? EndOp::Power : EndOp::Decibel;
    } else {
      refuse(input, "unknown op '" + op +
                        "' (scale:S, hann, hamming, blackman, kaiser:BETA, window, mask, code, on loads pad:N, and on "
                        "stores magnitude, power, db)");
    }
    ops.steps.push_back(step);
  }
  if (ops.empty()) refuse(input, "no op in '" + cb.ops + "'");
  if (readers > 1) refuse(input, "'" + cb.ops + "' has more than one op that reads values or data (one a side)");
  const bool code = !ops.code.empty();
  if (!cb.code.empty() && !code) refuse(input, "code given without the op 'code'");
  if (readers == 0 && !code && (!cb.values.empty() || cb.data))
    refuse(input, "values or data given to ops that read none");
  if (code) {
    // What bfly checks before the compiler sees it: a body that returns,
    // its brackets balanced, no preprocessor lines (the two dialects'
    // headers differ, and the body's lines are numbered from 1 in the
    // compiler's messages).
    int depth = 0;
    for (char c : ops.code) {
      depth += c == '{' || c == '(' ? 1 : c == '}' || c == ')' ? -1 : 0;
      if (depth < 0) break;
    }
    if (depth != 0) refuse(input, "the code's brackets do not balance");
    if (ops.code.find("return") == std::string::npos) refuse(input, "the code never returns the value");
    std::stringstream lines(ops.code);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n)
      if (line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] == '#')
        refuse(input, "line " + std::to_string(n) + " of the code is a preprocessor line: " + line);
  }
  const std::int64_t extent = input ? p.input_extent() : p.output_extent();
  // (A real side read as complex points indexes its reals at 2 o + 1.)
  ops.wide = 2 * extent > 0xffffffffll;
  const std::size_t real_bytes = p.precision == Precision::Double ? 8 : 4;
  if (!window.empty() || !pads.empty()) {
    const std::vector<std::int64_t> shape = input ? p.input_shape() : p.output_shape();
    std::vector<std::int64_t> base(shape.size(), -1), pad(shape.size(), 0);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const auto a = static_cast<std::size_t>(axes[i]);
      if (!window.empty()) base[a] = total;
      total += shape[a];
      // (A pad at or past the axis's length keeps it whole.)
      const std::int64_t keep = pads.empty() ? 0 : pads[pads.size() == 1 ? 0 : i];
      if (keep < shape[a]) pad[a] = keep;
    }
    bool nests = false;
    ops.dims = layout_dims(p, input, base, pad, nests);
    if (!nests)
      refuse(input, std::string(window.empty() ? "'pad'" : "a window") +
                        " needs a layout whose axes do not overlap (each stride past the inner ones' reach)");
  }
  if (!window.empty()) {
    const std::vector<std::int64_t> shape = input ? p.input_shape() : p.output_shape();
    std::int64_t total = 0;
    for (int a : axes) total += shape[static_cast<std::size_t>(a)];
    std::int64_t longest = 0;
    for (int a : axes) longest = std::max(longest, shape[static_cast<std::size_t>(a)]);
    const double family = window == "hann" ? 2 : window == "hamming" ? 3 : window == "blackman" ? 4 : 1;
    const bool computed = family > 1 && longest > kComputedWindow;
    for (EndStep& s : ops.steps)
      if (s.op == EndOp::Window && computed) s.value = family;
    if (window == "window") {
      if (!cb.data && static_cast<std::int64_t>(cb.values.size()) != total)
        refuse(input, "'window' has " + std::to_string(cb.values.size()) + " values; it needs " +
                          std::to_string(total) + " (each transformed axis's length in turn)");
      if (cb.data && cb.data->bytes() < static_cast<std::size_t>(total) * real_bytes)
        refuse(input, "'window''s data holds fewer than its " + std::to_string(total) + " reals");
      if (!cb.data) out.table = cb.values;
    } else if (!computed) {
      for (int a : axes) {
        const std::vector<double> w = window_values(window, shape[static_cast<std::size_t>(a)], beta);
        out.table.insert(out.table.end(), w.begin(), w.end());
      }
    }
  }
  if (std::any_of(ops.steps.begin(), ops.steps.end(), [](const EndStep& s) { return s.op == EndOp::Mask; })) {
    if (!cb.data && static_cast<std::int64_t>(cb.values.size()) != extent)
      refuse(input, "'mask' has " + std::to_string(cb.values.size()) + " values; it needs " + std::to_string(extent) +
                        " (one a " + (input ? "input" : "output") + " element, the layout's extent)");
    if (cb.data && cb.data->bytes() < static_cast<std::size_t>(extent) * real_bytes)
      refuse(input, "'mask''s data holds fewer than the side's " + std::to_string(extent) + " reals");
    if (!cb.data) out.table = cb.values;
  }
  out.data = cb.data;
  return out;
}

bool EndOps::real_result() const {
  return !steps.empty() &&
         (steps.back().op == EndOp::Magnitude || steps.back().op == EndOp::Power || steps.back().op == EndOp::Decibel);
}

std::string EndOps::text() const {
  std::ostringstream out;
  out.precision(17);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const EndStep& s = steps[i];
    out << (i ? "," : "");
    switch (s.op) {
      case EndOp::Scale:
        out << "scale(" << s.value << ")";
        break;
      case EndOp::Window:
        out << "window(";
        for (std::size_t d = 0; d < dims.size(); ++d)
          out << (d ? " " : "") << dims[d].extent << ":" << dims[d].stride
              << (dims[d].base >= 0 ? "@" + std::to_string(dims[d].base) : "");
        out << ")" << (s.value == 2 ? " hann" : s.value == 3 ? " hamming" : s.value == 4 ? " blackman" : "");
        break;
      case EndOp::Mask:
        out << "mask";
        break;
      case EndOp::Pad:
        out << "pad(";
        for (std::size_t d = 0; d < dims.size(); ++d)
          out << (d ? " " : "") << dims[d].extent << ":" << dims[d].stride << "<" << dims[d].pad;
        out << ")";
        break;
      case EndOp::Multiply:
        out << "multiply(" << s.period << ")";
        break;
      case EndOp::Code:
        out << "code#" << hash48(code);
        break;
      case EndOp::Magnitude:
        out << "magnitude";
        break;
      case EndOp::Power:
        out << "power";
        break;
      case EndOp::Decibel:
        out << "db";
        break;
    }
  }
  if (!steps.empty() && !complex_values) out << " (reals)";
  if (!steps.empty() && !wide) out << " (32-bit)";
  return out.str();
}

std::string EndOps::hash() const { return hash48(text()); }

}  // namespace bfly::plan
