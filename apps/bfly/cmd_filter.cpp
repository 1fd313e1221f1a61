// bfly filter IN OUT: frequency-domain filtering of a PNG image (8 or 16
// bits; gray, gray + alpha, RGB, RGBA) or a real .npy image (H x W, or
// H x W x C) through bfly::filter_images. Each colour channel is filtered;
// alpha is kept. A .npy image (or kernel) of bool, integers or float16 is
// promoted as scipy.fft promotes it (read_fft_input: float64, float16 to
// float32), and the result written in that type, raw. A PNG result is
// mapped into the PNG's range as the --help says (Picture below), then
// rounded and clipped to the input's depth.
#include <bfly/filter.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "commands.hpp"
#include "fft_input.hpp"
#include "io/npy.hpp"
#include "memory_needs.hpp"
#include "options.hpp"
#ifdef BFLY_HAVE_PNG
#include "io/png.hpp"
#endif

namespace bfly::cli {
namespace {

struct FilterOptions {
  std::string input, output, mask = "butterworth", pad = "reflect";
  std::string lowpass, highpass, band, blur, kernel;  // as typed: an error names them as they were given
  bool edges = false, spectrum = false;
  std::vector<std::string> operations;  // those of --lowpass ... --spectrum given, whatever their values
  DeviceOptions device;
  const std::string& operation() const { return operations.front(); }
};

// An option's value refused: "--blur must be a positive finite number (-1 given)".
[[noreturn]] void refuse(const std::string& option, const std::string& requirement, const std::string& text) {
  throw Error(ErrorCode::InvalidArgument,
              option + " must be " + requirement + " (" + (text.empty() ? "''" : text) + " given)");
}

// `text` (all of it, strtod's syntax) as a number that `ok` takes.
std::optional<double> number_in(const std::string& text, bool (*ok)(double)) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !ok(value)) return std::nullopt;
  return value;
}

double number_option(const std::string& option, const std::string& text, const std::string& requirement,
                     bool (*ok)(double)) {
  const std::optional<double> value = number_in(text, ok);
  if (!value) refuse(option, requirement, text);
  return *value;
}

bool is_fraction(double f) { return f > 0 && f <= 1; }  // of Nyquist; false for nan
bool is_positive_finite(double v) { return v > 0 && std::isfinite(v); }

// The one operation the options ask for (exactly one must be given).
FrequencyFilter parse_filter(const FilterOptions& o) {
  if (o.operations.size() != 1)
    throw Error(ErrorCode::InvalidArgument,
                "filter needs exactly one of --lowpass, --highpass, --bandpass, --blur, "
                "--kernel, --edges, --spectrum (" +
                    std::to_string(o.operations.size()) + " given)");
  FrequencyFilter f;
  f.padding = parse_padding(o.pad);
  const std::string kind = o.mask.substr(0, o.mask.find(':'));
  const char* const masks = "ideal, gaussian or butterworth[:ORDER], ORDER a positive finite number";
  if (kind == "ideal")
    f.mask = FilterMask::Ideal;
  else if (kind == "gaussian")
    f.mask = FilterMask::Gaussian;
  else if (kind == "butterworth")
    f.mask = FilterMask::Butterworth;
  else
    refuse("--mask", masks, o.mask);
  if (o.mask.find(':') != std::string::npos) {
    const std::optional<double> order = number_in(o.mask.substr(o.mask.find(':') + 1), &is_positive_finite);
    if (kind != "butterworth" || !order) refuse("--mask", masks, o.mask);
    f.order = *order;
  }
  const char* const fraction = "a fraction of Nyquist F, 0 < F <= 1";
  const std::string& operation = o.operation();
  if (operation == "--lowpass") {
    f.pass = FrequencyFilter::Pass::Low;
    f.low = number_option(operation, o.lowpass, fraction, &is_fraction);
  } else if (operation == "--highpass") {
    f.pass = FrequencyFilter::Pass::High;
    f.low = number_option(operation, o.highpass, fraction, &is_fraction);
  } else if (operation == "--blur") {
    f.pass = FrequencyFilter::Pass::Blur;
    f.sigma = number_option(operation, o.blur, "a positive finite number of pixels", &is_positive_finite);
  } else if (operation == "--edges") {
    f.pass = FrequencyFilter::Pass::High, f.low = 0.1;  // the seeds' edge picture: a high-pass's magnitude
  } else if (operation == "--bandpass") {
    const auto comma = o.band.find(',');
    const std::optional<double> f1 = number_in(o.band.substr(0, comma), &is_fraction),
                                f2 = comma == std::string::npos ? std::nullopt
                                                                : number_in(o.band.substr(comma + 1), &is_fraction);
    if (!f1 || !f2 || !(*f1 < *f2)) refuse(operation, "two fractions of Nyquist F1,F2, 0 < F1 < F2 <= 1", o.band);
    f.pass = FrequencyFilter::Pass::Band, f.low = *f1, f.high = *f2;
  }
  if (operation != "--spectrum" && operation != "--kernel") f.validate();
  return f;
}

// A real .npy image or kernel, promoted as scipy.fft promotes it: float32 or float64.
io::NpyArray read_real_npy(const std::string& path, const std::string& what) {
  io::NpyArray array = read_fft_input(path).array;
  if (is_complex(array.dtype))
    throw Error(ErrorCode::InvalidArgument, path + ": a " + to_string(array.dtype) + " " + what +
                                                "; filter takes real ones (bool, integers, float16 to float64)");
  return array;
}

// A --kernel: a 2-D real .npy as it is, or a PNG's first channel scaled to
// sum to 1 (a drawn blur keeps the image's brightness).
std::vector<double> read_kernel(const std::string& path, std::int64_t* kh, std::int64_t* kw) {
  if (io::is_npy_file(path)) {
    const io::NpyArray k = read_real_npy(path, "kernel");
    if (k.shape.size() != 2 || k.elements() == 0)
      throw Error(ErrorCode::InvalidArgument, path + ": a kernel is a non-empty 2-D array");
    *kh = k.shape[0];
    *kw = k.shape[1];
    return elements_as<double>(k);
  }
#ifdef BFLY_HAVE_PNG
  const io::Image image = io::read_png(path);
  *kh = image.height;
  *kw = image.width;
  std::vector<double> v(static_cast<std::size_t>(image.height * image.width));
  double sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sum += v[i] = image.samples[i * image.channels];
  if (!(sum > 0)) throw Error(ErrorCode::InvalidArgument, path + ": a kernel image that is all black");
  for (double& x : v) x /= sum;
  return v;
#else
  throw Error(ErrorCode::Unsupported, path + ": this bfly was built without libpng (.npy kernels only)");
#endif
}

// What the filtered planes picture, which decides how a PNG holds them.
enum class Picture {
  Values,      // an image's values (low-pass, blur, most kernels): as they are
  ZeroMean,    // values around 0, half of them negative (nothing passes frequency 0): offset by mid-grey
  Magnitudes,  // |high-pass| or the log spectrum, >= 0: stretched to the full range
};

// Filters (or transforms) planes in place.
Picture process(const FilterOptions& o, const FrequencyFilter& f, std::vector<double>& planes, std::int64_t count,
                std::int64_t h, std::int64_t w) {
  const Device device = o.device.open();
  if (o.operation() == "--kernel") {
    std::int64_t kh = 0, kw = 0;
    const std::vector<double> k = read_kernel(o.kernel, &kh, &kw);
    convolve_images(device, k.data(), kh, kw, f.padding, planes.data(), count, h, w);
    double sum = 0, magnitude = 0;
    for (double x : k) sum += x, magnitude += std::fabs(x);
    // (A Laplacian's or a Sobel's taps in floating point sum to ~1e-17 of their magnitude.)
    return std::fabs(sum) <= 1e-9 * magnitude ? Picture::ZeroMean : Picture::Values;
  }
  if (o.operation() == "--spectrum") {
    planes = log_spectrum(device, planes.data(), count, h, w);
    return Picture::Magnitudes;
  }
  filter_images(device, f, planes.data(), count, h, w);
  if (o.operation() == "--edges") {
    for (double& v : planes) v = std::fabs(v);
    return Picture::Magnitudes;
  }
  return f.response(0) == 0 ? Picture::ZeroMean : Picture::Values;
}

int run_npy(const FilterOptions& o, const FrequencyFilter& f, io::OutputFile& output) {
  io::NpyArray image = read_real_npy(o.input, "image");
  if (image.shape.size() != 2 && image.shape.size() != 3)
    throw Error(ErrorCode::InvalidArgument, o.input + ": an image is H x W or H x W x C; this array has " +
                                                std::to_string(image.shape.size()) + " dimensions");
  const std::int64_t h = image.shape[0], w = image.shape[1], c = image.shape.size() == 3 ? image.shape[2] : 1;
  if (h * w * c == 0) throw Error(ErrorCode::InvalidArgument, o.input + ": an empty image");
  const std::vector<double> values = elements_as<double>(image);
  std::vector<double> planes(values.size());
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < c; ++k) planes[k * h * w + i] = values[i * c + k];
  process(o, f, planes, c, h, w);
  // Back in the (promoted) image's type and element order.
  const bool f64 = image.dtype == io::DType::Float64;
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < c; ++k) {
      const double v = planes[k * h * w + i];
      unsigned char* at = image.data.data() + (i * c + k) * io::dtype_bytes(image.dtype);
      if (f64) {
        std::memcpy(at, &v, sizeof v);
      } else {
        const float s = static_cast<float>(v);
        std::memcpy(at, &s, sizeof s);
      }
    }
  io::write_npy(output, image);
  return 0;
}

#ifdef BFLY_HAVE_PNG
int run_png(const FilterOptions& o, const FrequencyFilter& f, io::OutputFile& output) {
  io::Image image = io::read_png(o.input);
  const std::int64_t h = image.height, w = image.width, c = image.channels;
  const std::int64_t colours = image.has_alpha() ? c - 1 : c;
  std::vector<double> planes(static_cast<std::size_t>(h * w * colours));
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < colours; ++k) planes[k * h * w + i] = image.samples[i * c + k];
  const Picture picture = process(o, f, planes, colours, h, w);
  const double top = std::ldexp(1.0, image.bits) - 1;
  double scale = 1, offset = 0;
  if (picture == Picture::ZeroMean) offset = std::ldexp(1.0, image.bits - 1);  // 128 of 255, 32768 of 65535
  if (picture == Picture::Magnitudes) {
    const double peak = *std::max_element(planes.begin(), planes.end());
    scale = peak > 0 ? top / peak : 0;
  }
  for (std::int64_t i = 0; i < h * w; ++i) {
    for (std::int64_t k = 0; k < colours; ++k)
      image.samples[i * c + k] =
          static_cast<std::uint16_t>(std::clamp(std::nearbyint(planes[k * h * w + i] * scale + offset), 0.0, top));
    if (o.operation() == "--spectrum" && image.has_alpha())
      image.samples[i * c + c - 1] = static_cast<std::uint16_t>(top);
  }
  io::write_png(output, image);
  return 0;
}
#endif

int run(const FilterOptions& o) {
  const FrequencyFilter f = parse_filter(o);
  io::OutputFile output(o.output, {o.input, o.kernel});
  const bool npy_in = io::is_npy_file(o.input);
  if (o.output != "-" && npy_in != ends_with(o.output, ".npy"))
    throw Error(ErrorCode::InvalidArgument,
                std::string("output '") + o.output +
                    "': " + (npy_in ? "a .npy image is written as .npy" : "a PNG image is written as .png"));
  check_memory(o.device, filter_needs(o.device.open(), o.input, o.kernel, f, o.operation() == "--spectrum"));
  if (npy_in) return run_npy(o, f, output);
#ifdef BFLY_HAVE_PNG
  return run_png(o, f, output);
#else
  throw Error(ErrorCode::Unsupported, o.input + ": this bfly was built without libpng (.npy images only)");
#endif
}

}  // namespace

void add_filter_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* command = app.add_subcommand(
      "filter",
      "frequency-domain image filtering of a PNG (8/16-bit gray, gray+alpha, RGB, RGBA) or real .npy image. A PNG "
      "result that removes the mean (--highpass, --bandpass, a --kernel summing to 0) has values around 0, half "
      "negative: it is offset by mid-grey (128 of 255, 32768 of 65535), then rounded and clipped; --edges and "
      "--spectrum are stretched to the full range; others are rounded and clipped. A .npy result is raw");
  command
      ->add_option("input", o->input,
                   "PNG image, or .npy of H x W or H x W x C: float32 or float64 (bool and integers are computed "
                   "and written as float64, float16 as float32)")
      ->required();
  command->add_option("output", o->output, "result, the input's format (- for standard output)")->required();
  const std::vector<CLI::Option*> operations = {
      command->add_option("--lowpass", o->lowpass, "keep frequencies below F (a fraction of Nyquist, 0 < F <= 1)")
          ->type_name("F"),
      command
          ->add_option("--highpass", o->highpass,
                       "keep frequencies above F (a PNG result: offset by mid-grey, as above)")
          ->type_name("F"),
      command
          ->add_option("--bandpass", o->band,
                       "keep frequencies between F1 and F2 (a PNG result: offset by mid-grey, as above)")
          ->type_name("F1,F2"),
      command->add_option("--blur", o->blur, "Gaussian blur of SIGMA pixels (SIGMA > 0)")->type_name("SIGMA"),
      command
          ->add_option("--kernel", o->kernel,
                       "convolve with a kernel: K.npy (2-D real, as it is; summing to 0, a PNG result is offset "
                       "by mid-grey) or K.png (its first channel, scaled to sum 1); the borders per --pad")
          ->type_name("K"),
      command->add_flag("--edges", o->edges,
                        "the edge picture: a Butterworth high-pass at 0.1 Nyquist, its magnitude stretched"),
      command->add_flag("--spectrum", o->spectrum, "the centred log-magnitude spectrum log(1 + |F|), stretched"),
  };
  command->add_option("--mask", o->mask, "ideal, gaussian or butterworth[:ORDER] (default butterworth, order 2)");
  command->add_option("--pad", o->pad, "borders: reflect (default), zero or wrap (the FFT's periodic image)");
  o->device.add_to(*command);
  actions.emplace_back(command, [o, operations] {
    for (const CLI::Option* option : operations)
      if (option->count() > 0) o->operations.push_back(option->get_name());
    return run(*o);
  });
}

}  // namespace bfly::cli
