// Problem: the value type describing one transform, and its canonical token.
#include <cmath>
#include <limits>
#include <sstream>

#include "bfly/bfly.hpp"
#include "problem/text.hpp"

namespace bfly {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::Device: return "device error";
    case ErrorCode::Build: return "kernel build failed";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::Io: return "I/O error";
  }
  return "error";
}

const char* to_string(Precision p) { return p == Precision::Single ? "f32" : "f64"; }
const char* to_string(Direction d) { return d == Direction::Forward ? "fwd" : "inv"; }
const char* to_string(Placement p) { return p == Placement::OutOfPlace ? "oop" : "ip"; }

const char* to_string(Norm n) {
  switch (n) {
    case Norm::None: return "none";
    case Norm::Backward: return "backward";
    case Norm::Ortho: return "ortho";
    case Norm::Forward: return "forward";
  }
  return "none";
}

Norm parse_norm(const std::string& text) {
  for (Norm n : {Norm::None, Norm::Backward, Norm::Ortho, Norm::Forward})
    if (text == to_string(n)) return n;
  throw Error(ErrorCode::InvalidArgument,
              "invalid norm '" + text + "' (expected none, backward, ortho or forward)");
}

std::int64_t Problem::length() const {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

std::int64_t Problem::elements() const { return length() * batch; }

std::size_t Problem::element_bytes() const {
  return precision == Precision::Single ? 8 : 16;
}

std::size_t Problem::bytes() const {
  return static_cast<std::size_t>(elements()) * element_bytes();
}

void Problem::validate() const {
  if (shape.empty())
    throw Error(ErrorCode::InvalidArgument, "problem shape is empty");
  // Element counts must fit comfortably in int64 bytes: cap at 2^58 points.
  const std::int64_t cap = std::int64_t{1} << 58;
  std::int64_t total = 1;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] <= 0)
      throw Error(ErrorCode::InvalidArgument,
                  "length " + std::to_string(shape[axis]) + " on axis " + std::to_string(axis) +
                      " must be positive");
    if (total > cap / shape[axis])
      throw Error(ErrorCode::InvalidArgument, "shape " + text::shape(shape) + " has too many elements");
    total *= shape[axis];
  }
  if (batch <= 0)
    throw Error(ErrorCode::InvalidArgument, "batch " + std::to_string(batch) + " must be positive");
  if (total > cap / batch)
    throw Error(ErrorCode::InvalidArgument,
                "shape " + text::shape(shape) + " times batch " + std::to_string(batch) +
                    " has too many elements");
}

double Problem::scale() const {
  const double n = static_cast<double>(length());
  const bool forward = direction == Direction::Forward;
  switch (norm) {
    case Norm::None: return 1.0;
    case Norm::Backward: return forward ? 1.0 : 1.0 / n;
    case Norm::Forward: return forward ? 1.0 / n : 1.0;
    case Norm::Ortho: return 1.0 / std::sqrt(n);
  }
  return 1.0;
}

std::string Problem::token() const {
  std::ostringstream out;
  out << "c2c_" << to_string(precision) << '_' << to_string(direction) << '_' << text::shape(shape)
      << "_b" << batch << '_' << to_string(placement) << '_' << to_string(norm);
  return out.str();
}

Problem Problem::parse(const std::string& token) {
  const std::vector<std::string> f = text::split(token, '_');
  auto bad = [&](const std::string& why) {
    return Error(ErrorCode::InvalidArgument, "malformed problem token '" + token + "': " + why);
  };
  if (f.size() != 7)
    throw bad("expected 7 fields kind_precision_direction_shape_bBATCH_placement_norm");
  if (f[0] != "c2c") throw bad("unknown kind '" + f[0] + "' (expected c2c)");
  Problem p;
  if (f[1] == "f32") p.precision = Precision::Single;
  else if (f[1] == "f64") p.precision = Precision::Double;
  else throw bad("unknown precision '" + f[1] + "' (expected f32 or f64)");
  if (f[2] == "fwd") p.direction = Direction::Forward;
  else if (f[2] == "inv") p.direction = Direction::Inverse;
  else throw bad("unknown direction '" + f[2] + "' (expected fwd or inv)");
  p.shape = text::parse_shape(f[3]);
  if (f[4].size() < 2 || f[4][0] != 'b') throw bad("batch field '" + f[4] + "' must look like b8");
  p.batch = text::parse_int(f[4].substr(1), "batch");
  if (f[5] == "oop") p.placement = Placement::OutOfPlace;
  else if (f[5] == "ip") p.placement = Placement::InPlace;
  else throw bad("unknown placement '" + f[5] + "' (expected oop or ip)");
  p.norm = parse_norm(f[6]);
  p.validate();
  return p;
}

bool Problem::operator==(const Problem& o) const {
  return shape == o.shape && batch == o.batch && precision == o.precision &&
         direction == o.direction && placement == o.placement && norm == o.norm;
}

}  // namespace bfly
