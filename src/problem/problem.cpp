// Problem: the value type describing one transform, and its canonical token.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "bfly/bfly.hpp"
#include "problem/text.hpp"

namespace bfly {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument:
      return "invalid argument";
    case ErrorCode::Unsupported:
      return "unsupported";
    case ErrorCode::Device:
      return "device error";
    case ErrorCode::Build:
      return "kernel build failed";
    case ErrorCode::OutOfMemory:
      return "out of memory";
    case ErrorCode::Io:
      return "I/O error";
  }
  return "error";
}

const char* to_string(Kind k) {
  switch (k) {
    case Kind::C2C:
      return "c2c";
    case Kind::R2C:
      return "r2c";
    case Kind::C2R:
      return "c2r";
    case Kind::R2R:
      return "r2r";
  }
  return "c2c";
}

const char* to_string(Family f) { return f == Family::DCT ? "dct" : "dst"; }

const char* to_string(Precision p) { return p == Precision::Single ? "f32" : "f64"; }
const char* to_string(Storage s) { return s == Storage::Half ? "f16" : s == Storage::BFloat16 ? "bf16" : "native"; }
const char* to_string(Direction d) { return d == Direction::Forward ? "fwd" : "inv"; }
const char* to_string(Placement p) { return p == Placement::OutOfPlace ? "oop" : "ip"; }

const char* to_string(Norm n) {
  switch (n) {
    case Norm::None:
      return "none";
    case Norm::Backward:
      return "backward";
    case Norm::Ortho:
      return "ortho";
    case Norm::Forward:
      return "forward";
  }
  return "none";
}

Norm parse_norm(const std::string& text) {
  for (Norm n : {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward})
    if (text == to_string(n)) return n;
  throw Error(ErrorCode::InvalidArgument, "invalid norm '" + text + "' (expected none, backward, ortho or forward)");
}

const char* to_string(Strategy s) { return s == Strategy::Auto ? "auto" : "transpose"; }

Strategy parse_strategy(const std::string& text) {
  for (Strategy s : {Strategy::Auto, Strategy::Transpose})
    if (text == to_string(s)) return s;
  throw Error(ErrorCode::InvalidArgument, "invalid strategy '" + text + "' (expected auto or transpose)");
}

const char* to_string(Tier t) {
  switch (t) {
    case Tier::Default:
      return "default";
    case Tier::Specialised:
      return "specialised";
    case Tier::Generic:
      return "generic";
    case Tier::Tiered:
      return "tiered";
    case Tier::Auto:
      return "auto";
    case Tier::AtHand:
      return "at-hand";
  }
  return "default";
}

Tier parse_tier(const std::string& text) {
  for (Tier t : {Tier::Default, Tier::Specialised, Tier::Generic, Tier::Tiered, Tier::Auto, Tier::AtHand})
    if (text == to_string(t)) return t;
  throw Error(ErrorCode::InvalidArgument,
              "invalid tier '" + text + "' (expected default, specialised, generic, tiered, auto or at-hand)");
}

namespace {

Error invalid(const std::string& what) { return Error(ErrorCode::InvalidArgument, what); }

std::string list(const std::vector<std::int64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "." : "") + std::to_string(v[i]);
  return out;
}

// Row-major strides of `shape`.
std::vector<std::int64_t> contiguous(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

std::string split_text(const Split& split) {
  return std::to_string(split.axis) + "." + std::to_string(split.length) + "." + std::to_string(split.stride);
}

// A resolved layout's axes as (stride, extent) pairs, the split axis as two:
// its blocks (the split's stride) and the points within a block.
std::vector<std::pair<std::int64_t, std::int64_t>> layout_dims(const Layout& r,
                                                               const std::vector<std::int64_t>& shape) {
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    // (A split not checked yet, of no positive length: check_split refuses it.)
    if (static_cast<int>(k) != r.split.axis || r.split.length <= 0) {
      dims.push_back({r.strides[k], shape[k]});
      continue;
    }
    const std::int64_t c = r.split.length;
    dims.push_back({r.split.stride, (shape[k] + c - 1) / c});
    dims.push_back({r.strides[k], std::min(c, shape[k])});
  }
  return dims;
}

// The split's own checks: the output's, of a transformed axis, in blocks
// of a positive length at a positive stride.
void check_split(const Problem& p, const Split& split, const std::string& side,
                 const std::vector<std::int64_t>& shape) {
  const std::string what = side + " split " + split_text(split);
  if (side != "output") throw invalid(what + ": only the output stores an axis in blocks");
  if (p.kind != Kind::C2C || p.storage != Storage::Native)
    throw invalid(what + ": only a C2C problem of f32 or f64 stores an axis in blocks (this is " + to_string(p.kind) +
                  " of " + (p.storage == Storage::Native ? to_string(p.precision) : to_string(p.storage)) + ")");
  if (split.axis >= static_cast<int>(shape.size()))
    throw invalid(what + ": axis " + std::to_string(split.axis) + " is out of range for the rank-" +
                  std::to_string(shape.size()) + " shape " + text::shape(shape));
  const std::vector<int> axes = p.transform_axes();
  if (std::find(axes.begin(), axes.end(), split.axis) == axes.end())
    throw invalid(what + ": axis " + std::to_string(split.axis) +
                  " is not transformed (a batch axis splits by "
                  "its strides alone)");
  if (split.length <= 0)
    throw invalid(what + ": the block length " + std::to_string(split.length) + " must be positive");
  if (split.stride <= 0)
    throw invalid(what + ": the block stride " + std::to_string(split.stride) + " must be positive");
}

// Checks one side's layout; `side` is "input" or "output". Returns the
// largest offset + 1. Offsets must fit in 2^62 so index arithmetic cannot overflow.
std::int64_t check_layout(const Problem& p, const Layout& l, const std::string& side) {
  const std::int64_t cap = std::int64_t{1} << 62;
  const std::vector<std::int64_t> shape = side == "input" ? p.input_shape() : p.output_shape();
  if (!l.strides.empty() && l.strides.size() != shape.size())
    throw invalid(side + " strides " + list(l.strides) + " have " + std::to_string(l.strides.size()) +
                  " entries for a rank-" + std::to_string(shape.size()) + " shape " + text::shape(shape));
  for (std::int64_t s : l.strides)
    if (s <= 0) throw invalid(side + " stride " + std::to_string(s) + " in " + list(l.strides) + " must be positive");
  if (l.distance < 0) throw invalid(side + " distance " + std::to_string(l.distance) + " must be positive");
  if (!l.split.none()) check_split(p, l.split, side, shape);
  const Layout r = side == "input" ? p.input_layout() : p.output_layout();
  std::int64_t last = 0;  // the largest offset
  for (const auto& [stride, extent] : layout_dims(r, shape)) {
    if (stride > (cap - last) / extent)
      throw invalid(side + " strides " + list(r.strides) +
                    (r.split.none() ? "" : " (split " + split_text(r.split) + ")") + " over shape " +
                    text::shape(shape) + " reach past the largest offset, 2^62 = " + std::to_string(cap));
    last += (extent - 1) * stride;
  }
  if (p.batch > 1) {
    if (r.distance > (cap - last) / p.batch)
      throw invalid(side + " distance " + std::to_string(r.distance) + " times batch " + std::to_string(p.batch) +
                    " reaches past the largest offset, 2^62 = " + std::to_string(cap));
    last += (p.batch - 1) * r.distance;
  }
  return last + 1;
}

// A layout writes every element to its own place when, taking the axes by
// increasing stride, each stride steps past everything the smaller ones reach.
// (Sufficient, not necessary: interleavings such as strides 2 and 3 over 3x2
// are refused though they do not collide.)
void check_no_overlap(const Problem& p, const Layout& r, const std::string& side) {
  const std::vector<std::int64_t> shape = side == "input" ? p.input_shape() : p.output_shape();
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (stride, extent)
  for (const auto& d : layout_dims(r, shape))
    if (d.second > 1) dims.push_back(d);
  if (p.batch > 1) dims.push_back({r.distance, p.batch});
  std::sort(dims.begin(), dims.end());
  std::int64_t reach = 0;
  for (const auto& d : dims) {
    if (d.first <= reach)
      throw invalid(side + " layout (strides " + list(r.strides) + ", distance " + std::to_string(r.distance) +
                    (r.split.none() ? "" : ", split " + split_text(r.split)) + ") overlaps itself: stride " +
                    std::to_string(d.first) + " does not step past " + std::to_string(reach));
    reach += (d.second - 1) * d.first;
  }
}

}  // namespace

std::vector<int> Problem::transform_axes() const {
  std::vector<int> out;
  if (axes.empty()) {
    for (int k = 0; k < rank(); ++k) out.push_back(k);
    return out;
  }
  for (int a : axes) out.push_back(a < 0 ? a + rank() : a);
  std::sort(out.begin(), out.end());
  return out;
}

std::int64_t Problem::length() const {
  std::int64_t n = 1;
  for (int a : transform_axes())
    if (a >= 0 && a < rank()) n *= shape[a];
  return n;
}

std::int64_t Problem::elements() const {
  std::int64_t n = batch;
  for (std::int64_t s : shape) n *= s;
  return n;
}

std::size_t Problem::element_bytes() const {
  if (storage != Storage::Native) return 4;
  return precision == Precision::Single ? 8 : 16;
}

std::size_t Problem::bytes() const { return static_cast<std::size_t>(elements()) * element_bytes(); }

namespace {

// A layout with its defaults filled in: row-major strides, and a distance of
// one array's extent.
Layout resolved(Layout r, const std::vector<std::int64_t>& shape) {
  if (r.strides.empty()) r.strides = contiguous(shape);
  if (r.distance == 0) {
    // Saturated where the strides reach past int64: check_layout refuses
    // those strides before it reads the distance.
    const std::int64_t most = std::numeric_limits<std::int64_t>::max();
    std::int64_t extent = 1;
    for (const auto& [stride, points] : layout_dims(r, shape)) {
      const std::int64_t steps = points - 1;
      if (steps <= 0) continue;
      if (stride > (most - extent) / steps) {
        extent = most;
        break;
      }
      extent += steps * stride;
    }
    r.distance = extent;
  }
  return r;
}

// In place, a real transform's two sides share memory as FFTW and cuFFT lay
// it out: the complex side contiguous, each real row (the innermost axis)
// padded to the 2 * (n/2 + 1) reals of its complex row.
Layout in_place_real(const Problem& p, bool real_side) {
  Layout complex_side = resolved(Layout{}, p.complex_shape());
  if (!real_side) return complex_side;
  Layout r = complex_side;
  for (std::size_t k = 0; k + 1 < r.strides.size(); ++k) r.strides[k] *= 2;
  r.distance *= 2;
  return r;
}

}  // namespace

int Problem::real_axis() const {
  if (!is_real()) return -1;  // C2C, and R2R: reals on both sides, nothing halved
  if (axes.empty()) return rank() - 1;
  const int a = axes.back();
  return a < 0 ? a + rank() : a;
}

std::vector<std::int64_t> Problem::complex_shape() const {
  std::vector<std::int64_t> out = shape;
  const int a = real_axis();
  if (a >= 0 && a < rank()) out[a] = out[a] / 2 + 1;
  return out;
}

std::vector<std::int64_t> Problem::input_shape() const { return kind == Kind::C2R ? complex_shape() : shape; }
std::vector<std::int64_t> Problem::output_shape() const { return kind == Kind::R2C ? complex_shape() : shape; }

std::size_t Problem::input_element_bytes() const {
  return kind == Kind::R2C || kind == Kind::R2R ? element_bytes() / 2 : element_bytes();
}
std::size_t Problem::output_element_bytes() const {
  return kind == Kind::C2R || kind == Kind::R2R ? element_bytes() / 2 : element_bytes();
}

Layout Problem::input_layout() const {
  if (is_real() && placement == Placement::InPlace) return in_place_real(*this, kind == Kind::R2C);
  return resolved(input, input_shape());
}

Layout Problem::output_layout() const {
  if (is_real() && placement == Placement::InPlace) return in_place_real(*this, kind == Kind::C2R);
  if (placement == Placement::InPlace && output.is_default()) return input_layout();
  return resolved(output, output_shape());
}

std::int64_t Problem::input_extent() const { return check_layout(*this, input, "input"); }
std::int64_t Problem::output_extent() const {
  if (placement == Placement::InPlace && output.is_default() && !is_real()) return input_extent();
  return check_layout(*this, output, "output");
}

void Problem::validate() const {
  if (shape.empty()) throw Error(ErrorCode::InvalidArgument, "problem shape is empty");
  if (shape.size() > 4)
    throw invalid("shape " + text::shape(shape) + " has rank " + std::to_string(shape.size()) +
                  "; at most 4 axes are supported");
  // Element counts must fit comfortably in int64 bytes: cap at 2^58 points.
  const std::int64_t cap = std::int64_t{1} << 58;
  std::int64_t total = 1;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] <= 0)
      throw Error(ErrorCode::InvalidArgument,
                  "length " + std::to_string(shape[axis]) + " on axis " + std::to_string(axis) + " must be positive");
    if (total > cap / shape[axis])
      throw Error(ErrorCode::InvalidArgument, "shape " + text::shape(shape) +
                                                  " has too many elements: " + text::product(shape) +
                                                  ", past the limit of 2^58 = " + std::to_string(cap));
    total *= shape[axis];
  }
  if (batch <= 0) throw Error(ErrorCode::InvalidArgument, "batch " + std::to_string(batch) + " must be positive");
  if (storage != Storage::Native && precision != Precision::Single)
    throw invalid(std::string(to_string(storage)) + " storage computes in f32: its precision must be Single, not " +
                  to_string(precision));
  if (total > cap / batch) {
    std::vector<std::int64_t> factors = shape;
    factors.push_back(batch);
    throw Error(ErrorCode::InvalidArgument, "shape " + text::shape(shape) + " times batch " + std::to_string(batch) +
                                                " has too many elements: " + text::product(factors) +
                                                ", past the limit of 2^58 = " + std::to_string(cap));
  }
  std::vector<bool> seen(shape.size(), false);
  for (int a : axes) {
    if (a < -rank() || a >= rank())
      throw invalid("axis " + std::to_string(a) + " is out of range for the rank-" + std::to_string(rank()) +
                    " shape " + text::shape(shape));
    const int k = a < 0 ? a + rank() : a;
    if (seen[k])
      throw invalid("axis " + std::to_string(a) + " is repeated" +
                    (a < 0 ? " (it is axis " + std::to_string(k) + " of the rank-" + std::to_string(rank()) +
                                 " shape " + text::shape(shape) + ")"
                           : ""));
    seen[k] = true;
  }
  if (transform_axes().size() > 3)
    throw invalid("transforms over " + std::to_string(transform_axes().size()) +
                  " axes are not supported (at most 3; the others can be batch axes)");
  if (kind == Kind::R2C && direction != Direction::Forward)
    throw invalid("an r2c transform is forward (got direction inv); c2r is the inverse");
  if (kind == Kind::C2R && direction != Direction::Inverse)
    throw invalid("a c2r transform is inverse (got direction fwd); r2c is the forward one");
  if (kind == Kind::R2R) {
    if (type < 1 || type > 4)
      throw invalid("a " + std::string(to_string(family)) + " of type " + std::to_string(type) +
                    " (expected type 1, 2, 3 or 4)");
    for (int a : transform_axes())
      if (family == Family::DCT && type == 1 && shape[a] < 2)
        throw invalid("a DCT of type 1 needs at least 2 points (axis " + std::to_string(a) + " has " +
                      std::to_string(shape[a]) + ")");
  } else if (orthogonalize) {
    throw invalid("orthogonalize applies to a DCT or DST only, not to a " + std::string(to_string(kind)) + " problem");
  }
  if (is_real() && placement == Placement::InPlace) {
    if (!input.is_default() || !output.is_default())
      throw invalid(
          "in-place " + std::string(to_string(kind)) +
          " problems take the default padded layout only (FFTW's and cuFFT's); drop the strides or go out of place");
    if (real_axis() != rank() - 1)
      throw invalid("in-place " + std::string(to_string(kind)) + " needs the real axis innermost: axis " +
                    std::to_string(real_axis()) + " of the rank-" + std::to_string(rank()) + " shape " +
                    text::shape(shape) + " is not (go out of place)");
  }
  input_extent();
  if (placement == Placement::InPlace && !output.is_default() && output != input)
    throw invalid("in-place problem has an output layout different from its input layout");
  output_extent();
  check_no_overlap(*this, output_layout(), "output");
}

// The DCT's and DST's norm length: 2 (n - 1) for DCT-I, 2 (n + 1) for
// DST-I, 2 n for the other types (scipy.fft's), a product over the axes.
static double r2r_norm_length(const Problem& p) {
  double n = 1;
  for (int a : p.transform_axes()) {
    const double m = static_cast<double>(p.shape[a]);
    n *= p.type != 1 ? 2 * m : p.family == Family::DCT ? 2 * (m - 1) : 2 * (m + 1);
  }
  return n;
}

double Problem::scale() const {
  const double n = kind == Kind::R2R ? r2r_norm_length(*this) : static_cast<double>(length());
  const bool forward = direction == Direction::Forward;
  switch (norm) {
    case Norm::None:
      return 1.0;
    case Norm::Backward:
      return forward ? 1.0 : 1.0 / n;
    case Norm::Forward:
      return forward ? 1.0 / n : 1.0;
    case Norm::Ortho:
      return 1.0 / std::sqrt(n);
  }
  return 1.0;
}

std::string Problem::token() const {
  std::ostringstream out;
  if (kind == Kind::R2R)
    out << to_string(family) << type;
  else
    out << to_string(kind);
  out << '_' << (storage == Storage::Native ? to_string(precision) : to_string(storage)) << '_' << to_string(direction)
      << '_' << text::shape(shape) << "_b" << batch << '_' << to_string(placement) << '_' << to_string(norm);
  if (!axes.empty()) {
    out << "_ax";
    for (std::size_t i = 0; i < axes.size(); ++i) out << (i ? "." : "") << axes[i];
  }
  if (!input.strides.empty()) out << "_is" << list(input.strides);
  if (input.distance != 0) out << "_id" << input.distance;
  if (!output.strides.empty()) out << "_os" << list(output.strides);
  if (output.distance != 0) out << "_od" << output.distance;
  if (!output.split.none()) out << "_sp" << split_text(output.split);
  if (orthogonalize) out << "_orth";
  return out.str();
}

Problem Problem::parse(const std::string& token) {
  const std::vector<std::string> f = text::split(token, '_');
  auto bad = [&](const std::string& why) {
    return Error(ErrorCode::InvalidArgument, "malformed problem token '" + token + "': " + why);
  };
  if (f.size() < 7) throw bad("expected 7 fields kind_precision_direction_shape_bBATCH_placement_norm");
  Problem p;
  if (f[0] == "c2c")
    p.kind = Kind::C2C;
  else if (f[0] == "r2c")
    p.kind = Kind::R2C;
  else if (f[0] == "c2r")
    p.kind = Kind::C2R;
  else if (f[0].size() == 4 && (f[0].compare(0, 3, "dct") == 0 || f[0].compare(0, 3, "dst") == 0) && f[0][3] >= '1' &&
           f[0][3] <= '4') {
    p.kind = Kind::R2R;
    p.family = f[0][1] == 'c' ? Family::DCT : Family::DST;
    p.type = f[0][3] - '0';
  } else {
    throw bad("unknown kind '" + f[0] + "' (expected c2c, r2c, c2r or dct1..dct4, dst1..dst4)");
  }
  if (f[1] == "f32")
    p.precision = Precision::Single;
  else if (f[1] == "f64")
    p.precision = Precision::Double;
  else if (f[1] == "f16")
    p.storage = Storage::Half;  // (computed in Single)
  else if (f[1] == "bf16")
    p.storage = Storage::BFloat16;
  else
    throw bad("unknown precision '" + f[1] + "' (expected f32, f64, f16 or bf16)");
  if (f[2] == "fwd")
    p.direction = Direction::Forward;
  else if (f[2] == "inv")
    p.direction = Direction::Inverse;
  else
    throw bad("unknown direction '" + f[2] + "' (expected fwd or inv)");
  p.shape = text::parse_shape(f[3]);
  if (f[4].size() < 2 || f[4][0] != 'b') throw bad("batch field '" + f[4] + "' must look like b8");
  p.batch = text::parse_int(f[4].substr(1), "batch");
  if (f[5] == "oop")
    p.placement = Placement::OutOfPlace;
  else if (f[5] == "ip")
    p.placement = Placement::InPlace;
  else
    throw bad("unknown placement '" + f[5] + "' (expected oop or ip)");
  p.norm = parse_norm(f[6]);
  auto numbers = [&](const std::string& s, const std::string& what) {
    std::vector<std::int64_t> v;
    for (const std::string& part : text::split(s, '.')) v.push_back(text::parse_int(part, what));
    return v;
  };
  for (std::size_t i = 7; i < f.size(); ++i) {
    const std::string& x = f[i];
    const std::string tag = x.substr(0, 2), rest = x.size() > 2 ? x.substr(2) : "";
    if (x == "orth") {
      p.orthogonalize = true;
    } else if (tag == "ax") {
      for (std::int64_t a : numbers(rest, "axis")) {
        if (a < std::numeric_limits<int>::min() || a > std::numeric_limits<int>::max())
          throw bad("axis " + std::to_string(a) + " is out of range");
        p.axes.push_back(static_cast<int>(a));
      }
    } else if (tag == "is") {
      p.input.strides = numbers(rest, "input stride");
    } else if (tag == "id") {
      p.input.distance = text::parse_int(rest, "input distance");
    } else if (tag == "os") {
      p.output.strides = numbers(rest, "output stride");
    } else if (tag == "od") {
      p.output.distance = text::parse_int(rest, "output distance");
    } else if (tag == "sp") {
      const std::vector<std::int64_t> v = numbers(rest, "output split");
      if (v.size() != 3 || v[0] < 0 || v[0] > 3) throw bad("output split '" + x + "' must look like sp2.64.4096");
      p.output.split = Split{static_cast<int>(v[0]), v[1], v[2]};
    } else {
      throw bad("unknown field '" + x + "' (expected axN.M, isS.S, idD, osS.S, odD, spA.L.S or orth)");
    }
  }
  p.validate();
  return p;
}

bool Problem::operator==(const Problem& o) const {
  return kind == o.kind && shape == o.shape && axes == o.axes && batch == o.batch && input == o.input &&
         output == o.output && precision == o.precision && storage == o.storage && direction == o.direction &&
         placement == o.placement && norm == o.norm && (kind != Kind::R2R || (family == o.family && type == o.type)) &&
         orthogonalize == o.orthogonalize;
}

}  // namespace bfly
