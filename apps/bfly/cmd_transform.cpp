// bfly fft / ifft: numpy.fft.fftn / ifftn of an .npy file over --axes (by
// default the last axis only, as numpy.fft.fft / ifft).
#include <complex>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "options.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

struct TransformOptions {
  std::string input, output, norm = "backward";
  std::string axes;  // "A[,B,...]"; empty: the last axis
  bool axes_given = false;
  DeviceOptions device;
};

int run(const TransformOptions& o, Direction direction) {
  const Norm norm = parse_numpy_norm(o.norm);
  const io::NpyArray input = io::read_npy(o.input);
  if (input.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  const int rank = static_cast<int>(input.shape.size());
  const std::vector<int> axes =
      o.axes_given ? resolve_axes(o.axes, input.shape, o.input) : std::vector<int>{rank - 1};
  check_transformed_lengths(input.shape, axes, o.input);
  const bool f64 = is_double(input.dtype);
  io::NpyArray result;
  result.dtype = f64 ? io::DType::Complex128 : io::DType::Complex64;
  result.shape = input.shape;
  auto transform = [&](auto data) {
    result.data.resize(data.size() * sizeof(data[0]));
    if (data.empty()) return;  // an empty array (a zero-length axis not transformed) stays empty, as in numpy
    const Device device = o.device.open();
    for (Problem problem : steps(input.shape, axes)) {
      problem.precision = f64 ? Precision::Double : Precision::Single;
      problem.direction = direction;
      problem.placement = Placement::InPlace;
      problem.norm = norm;
      const Plan plan(device, problem);
      plan.execute_host(data.data(), data.data());
    }
    std::memcpy(result.data.data(), data.data(), result.data.size());
  };
  if (f64) transform(as_complex<double>(input));
  else transform(as_complex<float>(input));
  io::write_npy(o.output, result);
  return 0;
}

void add(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions, const char* name, Direction direction,
         const char* help) {
  auto options = std::make_shared<TransformOptions>();
  CLI::App* command = app.add_subcommand(name, help);
  command->add_option("input", options->input,
                      "input .npy: complex64 or float32 (single precision), complex128 or float64 (double)")
      ->required();
  command->add_option("output", options->output, "output .npy (complex64 or complex128 as the input, same shape)")
      ->required();
  CLI::Option* axes = command->add_option(
      "--axes", options->axes,
      "axes to transform, A[,B,...], negatives counting from the end (default: the last axis), as numpy.fft.fftn's axes");
  command->add_option("--norm", options->norm, "backward (default), ortho or forward, as numpy.fft");
  options->device.add_to(*command);
  actions.emplace_back(command, [options, direction, axes] {
    options->axes_given = axes->count() > 0;
    return run(*options, direction);
  });
}

}  // namespace

void add_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  add(app, actions, "fft", Direction::Forward,
      "numpy.fft.fftn of an .npy file over --axes (default: the last axis, as numpy.fft.fft)");
  add(app, actions, "ifft", Direction::Inverse,
      "numpy.fft.ifftn of an .npy file over --axes (default: the last axis, as numpy.fft.ifft)");
}

}  // namespace bfly::cli
