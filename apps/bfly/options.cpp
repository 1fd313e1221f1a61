#include "options.hpp"

#include "problem/text.hpp"

namespace bfly::cli {

void ProblemOptions::add_to(CLI::App& app, bool with_token) {
  if (with_token) app.add_option("token", token, "problem token, e.g. c2c_f32_fwd_1024_b8_oop_none");
  app.add_option("--shape", shape, "transform length(s), e.g. 1024 (NxM for later multi-dimensional support)");
  app.add_option("--batch", batch, "number of transforms");
  app.add_flag("--inverse", inverse, "inverse transform");
  app.add_flag("--in-place", in_place, "in-place transform");
  app.add_option("--precision", precision, "single or double");
  app.add_option("--norm", norm, "none, backward, ortho or forward");
}

Problem ProblemOptions::problem() const {
  if (!token.empty()) {
    if (!shape.empty()) throw Error(ErrorCode::InvalidArgument, "give either a token or --shape, not both");
    return Problem::parse(token);
  }
  if (shape.empty()) throw Error(ErrorCode::InvalidArgument, "no problem given: pass a token or --shape N");
  Problem p;
  p.shape = text::parse_shape(shape);
  p.batch = batch;
  p.direction = inverse ? Direction::Inverse : Direction::Forward;
  p.placement = in_place ? Placement::InPlace : Placement::OutOfPlace;
  if (precision == "single") p.precision = Precision::Single;
  else if (precision == "double") p.precision = Precision::Double;
  else throw Error(ErrorCode::InvalidArgument, "invalid precision '" + precision + "' (expected single or double)");
  p.norm = parse_norm(norm);
  p.validate();
  return p;
}

void DeviceOptions::add_to(CLI::App& app) {
  app.add_option("--device", spec, "auto, cpu, gpu or opencl:P:D (default: $BFLY_DEVICE, else auto)");
}

}  // namespace bfly::cli
