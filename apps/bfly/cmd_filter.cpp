// bfly filter IN OUT: frequency-domain filtering of a PNG image (8 or 16
// bits; gray, gray + alpha, RGB, RGBA) or a float .npy image (H x W, or
// H x W x C) through bfly::filter_images. Each colour channel is filtered;
// alpha is kept. PNG results are clipped and rounded to the input's depth.
#include <bfly/filter.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "memory_needs.hpp"
#include "options.hpp"
#ifdef BFLY_HAVE_PNG
#include "io/png.hpp"
#endif

namespace bfly::cli {
namespace {

struct FilterOptions {
  std::string input, output, mask = "butterworth", pad = "reflect", band, kernel;
  double lowpass = 0, highpass = 0, blur = 0;
  bool edges = false, spectrum = false;
  DeviceOptions device;
};

// The one operation the flags ask for (exactly one must be given).
FrequencyFilter parse_filter(const FilterOptions& o, bool* edges, bool* spectrum) {
  int given = (o.lowpass > 0) + (o.highpass > 0) + !o.band.empty() + (o.blur > 0) + o.edges + o.spectrum +
              !o.kernel.empty();
  if (given != 1)
    throw Error(ErrorCode::InvalidArgument, "filter needs exactly one of --lowpass, --highpass, --bandpass, --blur, "
                                            "--kernel, --edges, --spectrum (" + std::to_string(given) + " given)");
  FrequencyFilter f;
  f.padding = parse_padding(o.pad);
  const std::string kind = o.mask.substr(0, o.mask.find(':'));
  if (kind == "ideal") f.mask = FilterMask::Ideal;
  else if (kind == "gaussian") f.mask = FilterMask::Gaussian;
  else if (kind == "butterworth") f.mask = FilterMask::Butterworth;
  else throw Error(ErrorCode::InvalidArgument, "unknown mask '" + o.mask + "' (expected ideal, gaussian or butterworth[:ORDER])");
  if (o.mask.find(':') != std::string::npos) {
    const std::string order = o.mask.substr(o.mask.find(':') + 1);
    char* end = nullptr;
    f.order = std::strtod(order.c_str(), &end);
    if (kind != "butterworth" || order.empty() || *end != '\0' || !(f.order > 0))
      throw Error(ErrorCode::InvalidArgument, "invalid mask '" + o.mask + "' (an order is butterworth:ORDER, ORDER > 0)");
  }
  *edges = o.edges;
  *spectrum = o.spectrum;
  if (o.lowpass > 0) f.pass = FrequencyFilter::Pass::Low, f.low = o.lowpass;
  if (o.highpass > 0) f.pass = FrequencyFilter::Pass::High, f.low = o.highpass;
  if (o.blur > 0) f.pass = FrequencyFilter::Pass::Blur, f.sigma = o.blur;
  if (o.edges) f.pass = FrequencyFilter::Pass::High, f.low = 0.1;  // the seeds' edge picture: a high-pass's magnitude
  if (!o.band.empty()) {
    const auto comma = o.band.find(',');
    char* end1 = nullptr;
    char* end2 = nullptr;
    const std::string a = o.band.substr(0, comma), b = comma == std::string::npos ? "" : o.band.substr(comma + 1);
    f.pass = FrequencyFilter::Pass::Band;
    f.low = std::strtod(a.c_str(), &end1);
    f.high = std::strtod(b.c_str(), &end2);
    if (comma == std::string::npos || a.empty() || b.empty() || *end1 || *end2)
      throw Error(ErrorCode::InvalidArgument, "invalid --bandpass '" + o.band + "' (expected F1,F2)");
  }
  if (!*spectrum && o.kernel.empty()) f.validate();
  return f;
}

// A --kernel: a 2-D float .npy as it is, or a PNG's first channel scaled to
// sum to 1 (a drawn blur keeps the image's brightness).
std::vector<double> read_kernel(const std::string& path, std::int64_t* kh, std::int64_t* kw) {
  if (io::is_npy_file(path)) {
    const io::NpyArray k = io::read_npy(path, {io::DType::Float32, io::DType::Float64});
    if (k.shape.size() != 2 || k.elements() == 0)
      throw Error(ErrorCode::InvalidArgument, path + ": a kernel is a non-empty 2-D array");
    *kh = k.shape[0];
    *kw = k.shape[1];
    std::vector<double> v(static_cast<std::size_t>(k.elements()));
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (k.dtype == io::DType::Float64) std::memcpy(&v[i], k.data.data() + 8 * i, 8);
      else {
        float s;
        std::memcpy(&s, k.data.data() + 4 * i, 4);
        v[i] = s;
      }
    }
    return v;
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

// Filters (or transforms) planes in place; edges: magnitudes; spectrum: the log spectrum.
void process(const FilterOptions& o, const FrequencyFilter& f, bool edges, bool spectrum, std::vector<double>& planes,
             std::int64_t count, std::int64_t h, std::int64_t w) {
  const Device device = o.device.open();
  if (!o.kernel.empty()) {
    std::int64_t kh = 0, kw = 0;
    const std::vector<double> k = read_kernel(o.kernel, &kh, &kw);
    convolve_images(device, k.data(), kh, kw, f.padding, planes.data(), count, h, w);
    return;
  }
  if (spectrum) {
    planes = log_spectrum(device, planes.data(), count, h, w);
    return;
  }
  filter_images(device, f, planes.data(), count, h, w);
  if (edges)
    for (double& v : planes) v = std::fabs(v);
}

int run_npy(const FilterOptions& o, const FrequencyFilter& f, bool edges, bool spectrum, io::OutputFile& output) {
  const io::NpyArray in = io::read_npy(o.input, {io::DType::Float32, io::DType::Float64});
  if (in.shape.size() != 2 && in.shape.size() != 3)
    throw Error(ErrorCode::InvalidArgument, o.input + ": an image is H x W or H x W x C; this array has " +
                                                std::to_string(in.shape.size()) + " dimensions");
  const std::int64_t h = in.shape[0], w = in.shape[1], c = in.shape.size() == 3 ? in.shape[2] : 1;
  if (h * w * c == 0) throw Error(ErrorCode::InvalidArgument, o.input + ": an empty image");
  std::vector<double> planes(static_cast<std::size_t>(h * w * c));
  const bool f64 = in.dtype == io::DType::Float64;
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < c; ++k) {
      double v;
      if (f64) std::memcpy(&v, in.data.data() + (i * c + k) * 8, 8);
      else {
        float s;
        std::memcpy(&s, in.data.data() + (i * c + k) * 4, 4);
        v = s;
      }
      planes[k * h * w + i] = v;
    }
  process(o, f, edges, spectrum, planes, c, h, w);
  io::NpyArray out = in;
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < c; ++k) {
      const double v = planes[k * h * w + i];
      if (f64) std::memcpy(out.data.data() + (i * c + k) * 8, &v, 8);
      else {
        const float s = static_cast<float>(v);
        std::memcpy(out.data.data() + (i * c + k) * 4, &s, 4);
      }
    }
  io::write_npy(output, out);
  return 0;
}

#ifdef BFLY_HAVE_PNG
int run_png(const FilterOptions& o, const FrequencyFilter& f, bool edges, bool spectrum, io::OutputFile& output) {
  io::Image image = io::read_png(o.input);
  const std::int64_t h = image.height, w = image.width, c = image.channels;
  const std::int64_t colours = image.has_alpha() ? c - 1 : c;
  std::vector<double> planes(static_cast<std::size_t>(h * w * colours));
  for (std::int64_t i = 0; i < h * w; ++i)
    for (std::int64_t k = 0; k < colours; ++k) planes[k * h * w + i] = image.samples[i * c + k];
  process(o, f, edges, spectrum, planes, colours, h, w);
  const double top = std::ldexp(1.0, image.bits) - 1;
  // Edges and spectra are pictures of magnitudes: stretched to the full range.
  double scale = 1;
  if (edges || spectrum) {
    const double peak = *std::max_element(planes.begin(), planes.end());
    scale = peak > 0 ? top / peak : 0;
  }
  for (std::int64_t i = 0; i < h * w; ++i) {
    for (std::int64_t k = 0; k < colours; ++k)
      image.samples[i * c + k] =
          static_cast<std::uint16_t>(std::clamp(std::nearbyint(planes[k * h * w + i] * scale), 0.0, top));
    if (spectrum && image.has_alpha()) image.samples[i * c + c - 1] = static_cast<std::uint16_t>(top);
  }
  io::write_png(output, image);
  return 0;
}
#endif

int run(const FilterOptions& o) {
  bool edges = false, spectrum = false;
  const FrequencyFilter f = parse_filter(o, &edges, &spectrum);
  io::OutputFile output(o.output, {o.input, o.kernel});
  const bool npy_in = io::is_npy_file(o.input);
  if (o.output != "-" && npy_in != ends_with(o.output, ".npy"))
    throw Error(ErrorCode::InvalidArgument, std::string("output '") + o.output + "': " +
                                                (npy_in ? "a .npy image is written as .npy" : "a PNG image is written as .png"));
  check_memory(o.device, filter_needs(o.device.open(), o.input, o.kernel, f, spectrum));
  if (npy_in) return run_npy(o, f, edges, spectrum, output);
#ifdef BFLY_HAVE_PNG
  return run_png(o, f, edges, spectrum, output);
#else
  throw Error(ErrorCode::Unsupported, o.input + ": this bfly was built without libpng (.npy images only)");
#endif
}

}  // namespace

void add_filter_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* command = app.add_subcommand(
      "filter", "frequency-domain image filtering of a PNG (8/16-bit gray, gray+alpha, RGB, RGBA) or float .npy image");
  command->add_option("input", o->input, "PNG image, or .npy float32/float64 of H x W or H x W x C")->required();
  command->add_option("output", o->output, "result, the input's format (- for standard output)")->required();
  command->add_option("--lowpass", o->lowpass, "keep frequencies below F (a fraction of Nyquist, 0 < F <= 1)");
  command->add_option("--highpass", o->highpass, "keep frequencies above F");
  command->add_option("--bandpass", o->band, "keep frequencies between F1 and F2: F1,F2");
  command->add_option("--blur", o->blur, "Gaussian blur of SIGMA pixels");
  command->add_option("--kernel", o->kernel,
                      "convolve with a kernel: K.npy (2-D float, as it is) or K.png (its first channel, scaled to sum 1); "
                      "the borders per --pad");
  command->add_flag("--edges", o->edges, "the edge picture: a Butterworth high-pass at 0.1 Nyquist, its magnitude stretched");
  command->add_flag("--spectrum", o->spectrum, "the centred log-magnitude spectrum log(1 + |F|), stretched");
  command->add_option("--mask", o->mask, "ideal, gaussian or butterworth[:ORDER] (default butterworth, order 2)");
  command->add_option("--pad", o->pad, "borders: reflect (default), zero or wrap (the FFT's periodic image)");
  o->device.add_to(*command);
  actions.emplace_back(command, [o] { return run(*o); });
}

}  // namespace bfly::cli
