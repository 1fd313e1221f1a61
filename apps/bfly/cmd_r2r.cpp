// bfly dct / idct / dst / idst: scipy.fft.dctn / idctn / dstn / idstn of a
// real .npy file over --axes (by default the last axis, as scipy.fft.dct),
// each axis cropped or zero-padded to its --n / --s length first, as scipy
// does. One problem an axis in turn (the transforms and every norm's factor
// are separable), the axis seen as the middle of (outer, n, inner), so any
// rank works.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

#include "commands.hpp"
#include "fft_input.hpp"
#include "io/npy.hpp"
#include "options.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

struct R2ROptions {
  std::string input, output, norm = "backward", orthogonalize, tier = "at-hand";
  int type = 2;
  LengthOptions lengths;
  DeviceOptions device;
};

struct R2RVerb {
  const char* name;
  Family family;
  Direction direction;
  const char* help;
};

const R2RVerb kVerbs[] = {
    {"dct", Family::DCT, Direction::Forward, "scipy.fft.dctn of a real .npy file over --axes (default: the last)"},
    {"idct", Family::DCT, Direction::Inverse, "scipy.fft.idctn of a real .npy file over --axes (default: the last)"},
    {"dst", Family::DST, Direction::Forward, "scipy.fft.dstn of a real .npy file over --axes (default: the last)"},
    {"idst", Family::DST, Direction::Inverse, "scipy.fft.idstn of a real .npy file over --axes (default: the last)"},
};

bool parse_bool(const std::string& text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  throw Error(ErrorCode::InvalidArgument, "invalid --orthogonalize '" + text + "' (expected true or false)");
}

// `data` of `shape`, axis `axis` cropped or zero-padded to n (scipy keeps
// the leading points).
template <class T>
std::vector<T> resized(const std::vector<T>& data, std::vector<std::int64_t>& shape, int axis, std::int64_t n) {
  std::int64_t outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k) outer *= shape[k];
  for (std::size_t k = static_cast<std::size_t>(axis) + 1; k < shape.size(); ++k) inner *= shape[k];
  const std::int64_t m = shape[axis], keep = std::min(m, n);
  std::vector<T> out(static_cast<std::size_t>(outer * n * inner), T(0));
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < keep; ++j)
      std::copy_n(data.begin() + (o * m + j) * inner, inner, out.begin() + (o * n + j) * inner);
  shape[axis] = n;
  return out;
}

template <class T>
io::NpyArray transform(const io::NpyArray& input, const R2RVerb& verb, const R2ROptions& o,
                       const AxesAndLengths& resolved, const Device& device, Norm norm, bool orthogonalize) {
  std::vector<T> data = elements_as<T>(input);
  std::vector<std::int64_t> shape = input.shape;
  for (std::size_t i = 0; i < resolved.axes.size(); ++i) {
    const int axis = resolved.axes[i];
    data = resized(data, shape, axis, resolved.lengths[i]);
    std::int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= shape[k];
    for (std::size_t k = static_cast<std::size_t>(axis) + 1; k < shape.size(); ++k) inner *= shape[k];
    if (outer * inner == 0) continue;
    Problem p;
    p.kind = Kind::R2R;
    p.family = verb.family;
    p.type = o.type;
    p.direction = verb.direction;
    p.norm = norm;
    p.orthogonalize = orthogonalize;
    p.precision = sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single;
    p.shape = {outer, shape[axis], inner};
    p.axes = {1};
    PlanOptions options;
    options.tier = parse_tier(o.tier);
    options.on_wait = [](const std::string& message) { std::fprintf(stderr, "bfly: %s\n", message.c_str()); };
    const Plan plan(device, p, options);
    std::vector<T> out(data.size());
    plan.execute_host(data.data(), out.data());
    data.swap(out);
  }
  io::NpyArray result;
  result.dtype = sizeof(T) == sizeof(double) ? io::DType::Float64 : io::DType::Float32;
  result.shape = shape;
  result.data.resize(data.size() * sizeof(T));
  std::memcpy(result.data.data(), data.data(), result.data.size());
  return result;
}

int run(const R2RVerb& verb, const R2ROptions& o) {
  io::OutputFile output(o.output, {o.input});
  if (o.type < 1 || o.type > 4)
    throw Error(ErrorCode::InvalidArgument, "invalid --type " + std::to_string(o.type) + " (expected 1, 2, 3 or 4)");
  const Norm norm = parse_numpy_norm(o.norm);
  // scipy's default: orthogonalize with the ortho norm.
  const bool orthogonalize = o.orthogonalize.empty() ? norm == Norm::Ortho : parse_bool(o.orthogonalize);
  FftInput input = promote(io::read_npy(o.input, fft_input_dtypes()));
  if (input.array.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  if (is_complex(input.array.dtype))
    throw Error(ErrorCode::InvalidArgument, o.input + " holds " + io::to_string(input.file_dtype) + " data: " +
                                                verb.name + " takes real input (bool, integers, float16 to float64)");
  const AxesAndLengths resolved = resolve_lengths(o.lengths, {}, input.array.shape, o.input);
  for (std::size_t i = 0; i < resolved.axes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (resolved.axes[i] == resolved.axes[j])
        throw Error(ErrorCode::InvalidArgument, "--axes " + o.lengths.axes + " repeats axis " +
                                                    std::to_string(resolved.axes[i]) + " (scipy: axes must be unique)");
  for (std::size_t i = 0; i < resolved.axes.size(); ++i)
    if (verb.family == Family::DCT && o.type == 1 && resolved.lengths[i] < 2)
      throw Error(ErrorCode::InvalidArgument, "a DCT of type 1 needs at least 2 points (axis " +
                                                  std::to_string(resolved.axes[i]) + " has " +
                                                  std::to_string(resolved.lengths[i]) + ")");
  const Device device = o.device.open();
  const io::NpyArray result = input.array.dtype == io::DType::Float64
                                  ? transform<double>(input.array, verb, o, resolved, device, norm, orthogonalize)
                                  : transform<float>(input.array, verb, o, resolved, device, norm, orthogonalize);
  io::write_npy(output, result);
  return 0;
}

}  // namespace

void add_r2r_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  for (const R2RVerb& verb : kVerbs) {
    auto o = std::make_shared<R2ROptions>();
    CLI::App* command = app.add_subcommand(verb.name, verb.help);
    command
        ->add_option("input", o->input,
                     "input .npy, real: bool, integers or float16 to float64, either byte order, C or Fortran "
                     "order; float32 and float16 compute in single precision (float32 out), the rest in double")
        ->required();
    command->add_option("output", o->output, "output .npy (- for standard output)")->required();
    command->add_option("--type", o->type, "the DCT's or DST's type: 1, 2 (default), 3 or 4, as scipy's type");
    CLI::Option* axes = command->add_option(
        "--axes", o->lengths.axes, "axes to transform, A[,B,...], negatives counting from the end (default: the last)");
    CLI::Option* n = command->add_option(
        "--n", o->lengths.n, "length of the one transformed axis (scipy's n): the input cropped or zero-padded to n");
    CLI::Option* s = command->add_option(
        "--s", o->lengths.s,
        "lengths N[,M,...], one per transformed axis, as scipy's s; without --axes the last len(s) axes");
    command->add_option("--norm", o->norm, "backward (default), ortho or forward, as scipy.fft");
    command->add_option("--orthogonalize", o->orthogonalize,
                        "true or false, as scipy's orthogonalize (default: true with --norm ortho, else false)");
    command->add_option("--tier", o->tier, "at-hand (default), specialised, generic, tiered or auto, as bfly fft's");
    o->device.add_to(*command);
    actions.emplace_back(command, [o, verb, axes, n, s] {
      o->lengths.axes_given = axes->count() > 0;
      o->lengths.n_given = n->count() > 0;
      o->lengths.s_given = s->count() > 0;
      return run(verb, *o);
    });
  }
}

}  // namespace bfly::cli
