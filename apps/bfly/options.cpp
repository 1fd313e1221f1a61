#include "options.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "problem/text.hpp"

namespace bfly::cli {

std::vector<int> parse_axes(const std::string& text) {
  std::vector<int> axes;
  if (text.empty()) return axes;
  for (const std::string& item : text::split(text, ',')) {
    const std::int64_t a = text::parse_int(item, "axis");
    if (a < std::numeric_limits<int>::min() || a > std::numeric_limits<int>::max())
      throw Error(ErrorCode::InvalidArgument, "invalid axis '" + item + "' (out of range)");
    axes.push_back(static_cast<int>(a));
  }
  return axes;
}

std::string KindChoice::text() const {
  return kind == Kind::R2R ? to_string(family) + std::to_string(type) : std::string(to_string(kind));
}

KindChoice parse_kind(const std::string& text) {
  for (Kind kind : {Kind::C2C, Kind::R2C, Kind::C2R})
    if (text == to_string(kind)) return {kind};
  for (Family family : {Family::DCT, Family::DST})
    for (int type = 1; type <= 4; ++type)
      if (text == to_string(family) + std::to_string(type)) return {Kind::R2R, family, type};
  throw Error(ErrorCode::InvalidArgument,
              "invalid kind '" + text + "' (expected c2c, r2c, c2r, dct1..dct4 or dst1..dst4)");
}

void ProblemOptions::add_to(CLI::App& app, bool with_token) {
  if (with_token)
    app.add_option("token", token,
                   "problem token, e.g. c2c_f32_fwd_1024_b8_oop_none, c2c_f32_fwd_64x48_b1_oop_none_ax0 or "
                   "r2c_f32_fwd_1024_b1_oop_none");
  app.add_option("--kind", kind,
                 "c2c (default), r2c (real to half spectrum, forward), c2r (half spectrum to real, inverse): "
                 "--shape is then the real array's shape, and the last of --axes the halved one; or dct1..dct4, "
                 "dst1..dst4 (reals to reals of the same shape, scipy.fft.dctn / dstn over --axes; with --inverse "
                 "idctn / idstn)");
  app.add_option("--shape", shape, "array shape, outermost first: 1024, 1000x1000, 64x64x64 (rank 1 to 4)");
  app.add_option("--axes", axes,
                 "axes to transform, A[,B,...] (1 to 3 of them; negatives count from the end); default: every axis");
  app.add_option("--batch", batch, "number of arrays");
  app.add_flag("--inverse", inverse, "inverse transform");
  app.add_flag("--in-place", in_place, "in-place transform");
  app.add_option("--precision", precision,
                 "single or double; half or bfloat16: 16-bit buffers (fp16, bf16), computed in single");
  app.add_option("--norm", norm, "none, backward, ortho or forward");
  app.add_option("--strategy", strategy,
                 "auto (the planner's choice) or transpose (rows between explicit blocked transposes)");
}

Problem ProblemOptions::problem() const {
  if (!token.empty()) {
    if (!shape.empty()) throw Error(ErrorCode::InvalidArgument, "give either a token or --shape, not both");
    if (!axes.empty()) throw Error(ErrorCode::InvalidArgument, "give the axes in the token (_axA.B), not with --axes");
    if (!kind.empty())
      throw Error(ErrorCode::InvalidArgument, "give the kind in the token (r2c_..., c2r_...), not with --kind");
    return Problem::parse(token);
  }
  if (shape.empty()) throw Error(ErrorCode::InvalidArgument, "no problem given: pass a token or --shape N[xM...]");
  Problem p;
  p.shape = text::parse_shape(shape);
  p.axes = parse_axes(axes);
  p.batch = batch;
  const KindChoice choice = kind.empty() ? KindChoice{} : parse_kind(kind);
  p.kind = choice.kind;
  p.family = choice.family;
  p.type = choice.type;
  // c2r is the inverse by definition: --kind c2r alone says so; r2c with
  // --inverse is refused by validate(), naming both.
  p.direction = inverse || p.kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  p.placement = in_place ? Placement::InPlace : Placement::OutOfPlace;
  if (precision == "single")
    p.precision = Precision::Single;
  else if (precision == "double")
    p.precision = Precision::Double;
  else if (precision == "half")
    p.storage = Storage::Half;
  else if (precision == "bfloat16")
    p.storage = Storage::BFloat16;
  else
    throw Error(ErrorCode::InvalidArgument,
                "invalid precision '" + precision + "' (expected single, double, half or bfloat16)");
  p.norm = parse_norm(norm);
  p.validate();
  return p;
}

PlanOptions ProblemOptions::plan_options() const {
  PlanOptions o;
  o.strategy = parse_strategy(strategy);
  return o;
}

void DeviceOptions::add_to(CLI::App& app) {
  app.add_option("--device", spec, "auto, cpu, gpu, cuda:N or opencl:P:D (default: $BFLY_DEVICE, else auto)");
}

std::string tuning_option(const std::string& text) {
  if (text.empty() || text == "device") return "";
  if (text == "off") return "off";
  std::ifstream in(text, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot read tuning table '" + text + "'");
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace bfly::cli
