// bfly convolve A.npy K.npy OUT.npy: scipy.signal.fftconvolve (or, with
// --correlate, scipy.signal.correlate) of two .npy arrays through
// bfly::Convolver. Each input is promoted as scipy.fft promotes it
// (read_fft_input: bool and integers to float64, float16 to float32), and
// both then computed in numpy.result_type of the promoted pair: the type
// scipy.signal.fftconvolve returns, also for --correlate (where
// scipy.signal.correlate would cast back to an integer or float16 input type).
#include <bfly/convolve.hpp>

#include <complex>
#include <cstring>

#include "commands.hpp"
#include "fft_input.hpp"
#include "io/npy.hpp"
#include "memory_needs.hpp"
#include "options.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

struct ConvolveOptions {
  std::string signal, kernel, output, mode = "full", axes;
  bool correlate = false, circular = false, axes_given = false;
  DeviceOptions device;
};

int run(const ConvolveOptions& o) {
  io::OutputFile output(o.output, {o.signal, o.kernel});
  const io::NpyArray a = read_fft_input(o.signal).array;
  const io::NpyArray k = read_fft_input(o.kernel).array;
  if (a.shape.size() != k.shape.size())
    throw Error(ErrorCode::InvalidArgument, o.signal + " has " + std::to_string(a.shape.size()) + " dimensions and " +
                                                o.kernel + " " + std::to_string(k.shape.size()) +
                                                " (they must have the same number, as scipy.signal.fftconvolve)");
  Convolution c;
  c.mode = parse_convolve_mode(o.mode);
  c.correlate = o.correlate;
  c.circular = o.circular;
  io::NpyArray result;
  result.dtype = common_type(a.dtype, k.dtype);
  c.complex = is_complex(result.dtype);
  c.precision = is_double(result.dtype) ? Precision::Double : Precision::Single;
  // A 0-dimensional pair is a product, as in SciPy: one element each.
  const bool scalar = a.shape.empty();
  c.signal_shape = scalar ? std::vector<std::int64_t>{1} : a.shape;
  c.kernel_shape = scalar ? std::vector<std::int64_t>{1} : k.shape;
  if (o.axes_given) {
    c.axes = parse_axes(o.axes);
    // As scipy.signal.fftconvolve(axes=[]): not a request for every axis.
    if (c.axes.empty()) throw Error(ErrorCode::InvalidArgument, "--axes names no axis (expected A[,B,...])");
  }
  if (a.elements() == 0 || k.elements() == 0) {
    // SciPy returns an empty 1-D array for an empty input.
    result.shape = {0};
    io::write_npy(output, result);
    return 0;
  }
  c.validate();
  check_memory(o.device, convolve_needs(o.device.open(), c, a, k));
  result.shape = scalar ? std::vector<std::int64_t>{} : c.output_shape();
  auto compute = [&](auto tag) {
    using T = decltype(tag);
    const std::vector<T> signal = elements_as<T>(a), kernel = elements_as<T>(k);
    const std::vector<T> out = convolve(o.device.open(), c, signal.data(), kernel.data());
    result.data.resize(out.size() * sizeof(T));
    std::memcpy(result.data.data(), out.data(), result.data.size());
  };
  if (c.complex) {
    if (c.precision == Precision::Double)
      compute(std::complex<double>{});
    else
      compute(std::complex<float>{});
  } else {
    if (c.precision == Precision::Double)
      compute(double{});
    else
      compute(float{});
  }
  io::write_npy(output, result);
  return 0;
}

}  // namespace

void add_convolve_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<ConvolveOptions>();
  CLI::App* command = app.add_subcommand(
      "convolve", "scipy.signal.fftconvolve of two .npy arrays (--correlate: scipy.signal.correlate), through FFTs");
  command
      ->add_option("signal", o->signal,
                   "first array (.npy: bool, integer, float16 to float64, complex64 or complex128; bool and integers "
                   "are computed in float64, float16 in float32, as scipy.fft does)")
      ->required();
  command->add_option("kernel", o->kernel, "second array, the same number of dimensions")->required();
  command
      ->add_option("output", o->output,
                   "result .npy of scipy.signal.fftconvolve's type: NumPy's result type of the two promoted inputs "
                   "(float32, float64, complex64 or complex128; - for standard output)")
      ->required();
  command->add_option("--mode", o->mode, "full (default), same (the first array's shape, centred) or valid");
  CLI::Option* axes = command->add_option(
      "--axes", o->axes, "axes to convolve, A[,B,...], negatives from the end (default: all); the others broadcast");
  command->add_flag("--correlate", o->correlate,
                    "cross-correlate: the second array reversed on the convolved axes and conjugated");
  command->add_flag("--circular", o->circular,
                    "circular convolution over the first array's lengths (the result has its shape)");
  o->device.add_to(*command);
  actions.emplace_back(command, [o, axes] {
    o->axes_given = axes->count() > 0;
    return run(*o);
  });
}

}  // namespace bfly::cli
