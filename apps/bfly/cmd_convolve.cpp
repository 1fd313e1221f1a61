// bfly convolve A.npy K.npy OUT.npy: scipy.signal.fftconvolve (or, with
// --correlate, scipy.signal.correlate) of two .npy arrays through
// bfly::Convolver. The result's type is NumPy's result_type of the inputs:
// complex if either is, double precision if either is.
#include <bfly/convolve.hpp>

#include <complex>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "memory_needs.hpp"
#include "options.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

struct ConvolveOptions {
  std::string signal, kernel, output, mode = "full", axes;
  bool correlate = false, circular = false;
  DeviceOptions device;
};

bool is_complex(io::DType t) { return t == io::DType::Complex64 || t == io::DType::Complex128; }

// The array's elements as T (real or complex, either precision).
template <class T>
std::vector<T> elements_as(const io::NpyArray& a) {
  if constexpr (std::is_floating_point<T>::value) {
    std::vector<T> out(static_cast<std::size_t>(a.elements()));
    if (a.dtype == io::DType::Float32) {
      const float* p = reinterpret_cast<const float*>(a.data.data());
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<T>(p[i]);
    } else {
      const double* p = reinterpret_cast<const double*>(a.data.data());
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<T>(p[i]);
    }
    return out;
  } else {
    return as_complex<typename T::value_type>(a);
  }
}

int run(const ConvolveOptions& o) {
  io::OutputFile output(o.output, {o.signal, o.kernel});
  const io::NpyArray a = io::read_npy(o.signal);
  const io::NpyArray k = io::read_npy(o.kernel);
  if (a.shape.size() != k.shape.size())
    throw Error(ErrorCode::InvalidArgument, o.signal + " has " + std::to_string(a.shape.size()) + " dimensions and " +
                                                o.kernel + " " + std::to_string(k.shape.size()) +
                                                " (they must have the same number, as scipy.signal.fftconvolve)");
  Convolution c;
  c.mode = parse_convolve_mode(o.mode);
  c.correlate = o.correlate;
  c.circular = o.circular;
  c.complex = is_complex(a.dtype) || is_complex(k.dtype);
  c.precision = is_double(a.dtype) || is_double(k.dtype) ? Precision::Double : Precision::Single;
  // A 0-dimensional pair is a product, as in SciPy: one element each.
  const bool scalar = a.shape.empty();
  c.signal_shape = scalar ? std::vector<std::int64_t>{1} : a.shape;
  c.kernel_shape = scalar ? std::vector<std::int64_t>{1} : k.shape;
  if (!o.axes.empty()) c.axes = parse_axes(o.axes);
  io::NpyArray result;
  result.dtype = c.complex ? (c.precision == Precision::Double ? io::DType::Complex128 : io::DType::Complex64)
                           : (c.precision == Precision::Double ? io::DType::Float64 : io::DType::Float32);
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
    if (c.precision == Precision::Double) compute(std::complex<double>{});
    else compute(std::complex<float>{});
  } else {
    if (c.precision == Precision::Double) compute(double{});
    else compute(float{});
  }
  io::write_npy(output, result);
  return 0;
}

}  // namespace

void add_convolve_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<ConvolveOptions>();
  CLI::App* command = app.add_subcommand(
      "convolve", "scipy.signal.fftconvolve of two .npy arrays (--correlate: scipy.signal.correlate), through FFTs");
  command->add_option("signal", o->signal, "first array (.npy: float32, float64, complex64 or complex128)")->required();
  command->add_option("kernel", o->kernel, "second array, the same number of dimensions")->required();
  command->add_option("output", o->output, "result .npy, NumPy's result type of the two (- for standard output)")
      ->required();
  command->add_option("--mode", o->mode, "full (default), same (the first array's shape, centred) or valid");
  command->add_option("--axes", o->axes,
                      "axes to convolve, A[,B,...], negatives from the end (default: all); the others broadcast");
  command->add_flag("--correlate", o->correlate,
                    "cross-correlate: the second array reversed on the convolved axes and conjugated");
  command->add_flag("--circular", o->circular,
                    "circular convolution over the first array's lengths (the result has its shape)");
  o->device.add_to(*command);
  actions.emplace_back(command, [o] { return run(*o); });
}

}  // namespace bfly::cli
