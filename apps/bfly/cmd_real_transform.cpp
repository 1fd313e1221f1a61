// bfly rfft / irfft: numpy.fft.rfftn / irfftn of an .npy file over --axes
// (by default the last axis only, as numpy.fft.rfft / irfft). The last of
// --axes AS TYPED is the halved one (n -> n // 2 + 1 points), as in numpy, so
// the axes keep the user's order here (fft sorts them; rfft must not).
#include <algorithm>
#include <complex>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "options.hpp"
#include "problem/text.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

struct RealTransformOptions {
  std::string input, output, norm = "backward";
  std::string axes;  // "A[,B,...]"; empty: the last axis
  bool axes_given = false;
  std::int64_t n = 0;  // irfft: the output length on the last transformed axis
  bool n_given = false;
  DeviceOptions device;
};

// The transformed axes: as typed, or the last axis.
std::vector<int> typed_axes(const RealTransformOptions& o, const io::NpyArray& input) {
  if (input.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  const int rank = static_cast<int>(input.shape.size());
  std::vector<int> axes =
      o.axes_given ? resolve_axes_in_order(o.axes, input.shape, o.input) : std::vector<int>{rank - 1};
  check_transformed_lengths(input.shape, axes, o.input);
  return axes;
}

// The transformed axes other than the real (last) one, ascending: their
// complex transforms run as in fft.
std::vector<int> complex_axes(std::vector<int> axes) {
  axes.pop_back();
  std::sort(axes.begin(), axes.end());
  return axes;
}

std::int64_t elements(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

Problem with(Problem p, Kind kind, bool f64, Norm norm) {
  p.kind = kind;
  p.precision = f64 ? Precision::Double : Precision::Single;
  p.direction = kind == Kind::R2C ? Direction::Forward : Direction::Inverse;
  p.placement = Placement::OutOfPlace;
  p.norm = norm;
  return p;
}

// The C2C steps over `axes` (ascending) of the complex array `data` of `shape`, in place.
template <class T>
void complex_steps(const Device& device, std::complex<T>* data, const std::vector<std::int64_t>& shape,
                   const std::vector<int>& axes, Direction direction, Norm norm) {
  if (axes.empty()) return;
  for (Problem problem : steps(shape, axes)) {
    problem.precision = sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single;
    problem.direction = direction;
    problem.placement = Placement::InPlace;
    problem.norm = norm;
    const Plan plan(device, problem);
    plan.execute_host(data, data);
  }
}

int run_rfft(const RealTransformOptions& o) {
  const Norm norm = parse_numpy_norm(o.norm);
  const io::NpyArray input = io::read_npy(o.input);
  if (input.dtype == io::DType::Complex64 || input.dtype == io::DType::Complex128)
    throw Error(ErrorCode::InvalidArgument, o.input + " holds " + io::to_string(input.dtype) +
                                                " data: rfft takes real input (float32 or float64); "
                                                "use bfly fft for complex data");
  const std::vector<int> axes = typed_axes(o, input);
  const int real_axis = axes.back();
  std::vector<std::int64_t> out_shape = input.shape;
  out_shape[real_axis] = out_shape[real_axis] / 2 + 1;
  const bool f64 = is_double(input.dtype);
  io::NpyArray result;
  result.dtype = f64 ? io::DType::Complex128 : io::DType::Complex64;
  result.shape = out_shape;
  result.data.resize(static_cast<std::size_t>(elements(out_shape)) * io::dtype_bytes(result.dtype));
  auto transform = [&](auto zero) {
    using T = decltype(zero);
    const auto* real = reinterpret_cast<const T*>(input.data.data());
    auto* spectrum = reinterpret_cast<std::complex<T>*>(result.data.data());
    const Device device = o.device.open();
    if (one_problem(input.shape.size(), axes.size())) {
      Problem problem;
      problem.shape = input.shape;
      problem.axes = axes;  // in the typed order: the last is the real axis
      Plan(device, with(problem, Kind::R2C, f64, norm)).execute_host(real, spectrum);
      return;
    }
    // More than one problem takes: the real axis alone first, then the
    // others as complex transforms of the half spectrum (rfftn is fftn over
    // the other axes of rfft over the last one; every norm's factor splits).
    Plan(device, with(view(input.shape, {real_axis}), Kind::R2C, f64, norm)).execute_host(real, spectrum);
    complex_steps(device, spectrum, out_shape, complex_axes(axes), Direction::Forward, norm);
  };
  // An empty array (a zero-length axis not transformed) stays empty, as in numpy.
  if (input.elements() > 0) {
    if (f64) transform(0.0);
    else transform(0.0f);
  }
  io::write_npy(o.output, result);
  return 0;
}

// The output lengths --n fits for an input of m points: n // 2 + 1 == m.
std::string fitting_lengths(std::int64_t m) {
  if (m == 1) return "n = 1";
  return "n = " + std::to_string(2 * m - 2) + " or " + std::to_string(2 * m - 1);
}

int run_irfft(const RealTransformOptions& o) {
  const Norm norm = parse_numpy_norm(o.norm);
  const io::NpyArray input = io::read_npy(o.input);
  const std::vector<int> axes = typed_axes(o, input);
  const int real_axis = axes.back();
  const std::int64_t m = input.shape[real_axis];
  const std::string where = " on axis " + std::to_string(real_axis) + " of " + o.input + " (shape " +
                            text::shape(input.shape) + ")";
  std::int64_t n = 2 * (m - 1);
  if (o.n_given) {
    n = o.n;
    if (n < 1)
      throw Error(ErrorCode::InvalidArgument, "invalid --n " + std::to_string(n) + ": the output length must be >= 1 (m = " +
                                                  std::to_string(m) + " points" + where + " fit " + fitting_lengths(m) + ")");
    if (n / 2 + 1 != m)
      throw Error(ErrorCode::InvalidArgument, "--n " + std::to_string(n) + " does not fit the input: an output of " +
                                                  std::to_string(n) + " reals has " + std::to_string(n / 2 + 1) +
                                                  " spectrum points, but there are m = " + std::to_string(m) + where +
                                                  " (" + fitting_lengths(m) + " fit)");
  } else if (n < 1) {
    throw Error(ErrorCode::InvalidArgument, "invalid number of data points (0): the default --n 2*(m-1) is 0 for m = " +
                                                std::to_string(m) + " point" + where + "; give --n 1");
  }
  std::vector<std::int64_t> out_shape = input.shape;
  out_shape[real_axis] = n;
  const bool f64 = is_double(input.dtype);
  io::NpyArray result;
  result.dtype = f64 ? io::DType::Float64 : io::DType::Float32;
  result.shape = out_shape;
  result.data.resize(static_cast<std::size_t>(elements(out_shape)) * io::dtype_bytes(result.dtype));
  auto transform = [&](auto spectrum) {
    using T = typename decltype(spectrum)::value_type::value_type;
    auto* real = reinterpret_cast<T*>(result.data.data());
    const Device device = o.device.open();
    if (one_problem(input.shape.size(), axes.size())) {
      Problem problem;
      problem.shape = out_shape;  // the real array's shape
      problem.axes = axes;
      Plan(device, with(problem, Kind::C2R, f64, norm)).execute_host(spectrum.data(), real);
      return;
    }
    // numpy's order: the complex inverse over the other axes, then the real one.
    complex_steps(device, spectrum.data(), input.shape, complex_axes(axes), Direction::Inverse, norm);
    Plan(device, with(view(out_shape, {real_axis}), Kind::C2R, f64, norm)).execute_host(spectrum.data(), real);
  };
  if (input.elements() > 0) {
    if (f64) transform(as_complex<double>(input));
    else transform(as_complex<float>(input));
  }
  io::write_npy(o.output, result);
  return 0;
}

void add_axes_and_device(CLI::App* command, RealTransformOptions& options, const char* axes_help) {
  command->add_option("--axes", options.axes, axes_help);
  command->add_option("--norm", options.norm, "backward (default), ortho or forward, as numpy.fft");
  options.device.add_to(*command);
}

}  // namespace

void add_real_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  {
    auto o = std::make_shared<RealTransformOptions>();
    CLI::App* command = app.add_subcommand(
        "rfft", "numpy.fft.rfftn of a real .npy file over --axes (default: the last axis, as numpy.fft.rfft)");
    command->add_option("input", o->input, "input .npy: float32 (single precision) or float64 (double); not complex")
        ->required();
    command->add_option("output", o->output,
                        "output .npy: complex64 for float32 input, complex128 for float64 (numpy gives complex128 "
                        "for both); the input's shape with the last transformed axis n -> n // 2 + 1")
        ->required();
    add_axes_and_device(command, *o,
                        "axes to transform, A[,B,...], negatives counting from the end (default: the last axis); "
                        "the LAST one as typed is halved, as numpy.fft.rfftn's axes");
    actions.emplace_back(command, [o, command] {
      o->axes_given = command->get_option("--axes")->count() > 0;
      return run_rfft(*o);
    });
  }
  {
    auto o = std::make_shared<RealTransformOptions>();
    CLI::App* command = app.add_subcommand(
        "irfft",
        "numpy.fft.irfftn of an .npy half spectrum over --axes (default: the last axis, as numpy.fft.irfft)");
    command->add_option("input", o->input,
                        "input .npy: complex64 or float32 (single precision), complex128 or float64 (double); "
                        "real input is promoted to complex; the imaginary parts of the points at 0 and (for an "
                        "even --n) n/2 on the last axis are ignored, as in numpy")
        ->required();
    command->add_option("output", o->output,
                        "output .npy: float32 for single-precision input, float64 for double (numpy gives float64 "
                        "for both); the input's shape with the last transformed axis m -> n")
        ->required();
    add_axes_and_device(command, *o,
                        "axes to transform, A[,B,...], negatives counting from the end (default: the last axis); "
                        "the LAST one as typed is the real one, as numpy.fft.irfftn's axes");
    command->add_option("--n", o->n,
                        "output length on the last transformed axis (numpy's n, or s[-1] of irfftn); default "
                        "2*(m-1) for m input points there; must satisfy n // 2 + 1 == m");
    actions.emplace_back(command, [o, command] {
      o->axes_given = command->get_option("--axes")->count() > 0;
      o->n_given = command->get_option("--n")->count() > 0;
      return run_irfft(*o);
    });
  }
}

}  // namespace bfly::cli
