#include "memory_needs.hpp"

#include "fft_input.hpp"

#include <algorithm>
#include <initializer_list>

#include "inspect/inspect.hpp"
#include "ops/convolution_layout.hpp"
#include "plan/plan.hpp"
#include "problem/text.hpp"
#ifdef BFLY_HAVE_PNG
#include "io/png.hpp"
#endif

namespace bfly::cli {
namespace {

using io::saturating_product;

std::uint64_t sum(std::initializer_list<std::uint64_t> terms) {
  std::uint64_t total = 0;
  for (std::uint64_t t : terms) total = io::saturating_sum(total, t);
  return total;
}

std::uint64_t count(const std::vector<std::int64_t>& shape) {
  std::uint64_t n = 1;
  for (std::int64_t s : shape) n = saturating_product(n, static_cast<std::uint64_t>(std::max<std::int64_t>(s, 0)));
  return n;
}

std::uint64_t elements_of(std::int64_t elements) {
  return static_cast<std::uint64_t>(std::max<std::int64_t>(elements, 0));
}

// Balanced digits of `bits` bits the widest of `p` takes (polymul's digit_count).
std::uint64_t digits(const std::vector<std::int64_t>& p, int bits) {
  int widest = 1;
  for (std::int64_t v : p) {
    const std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    int length = 0;
    while (length < 64 && (magnitude >> length) != 0) ++length;
    widest = std::max(widest, length + 1);  // and the sign a balanced digit carries
  }
  return static_cast<std::uint64_t>((widest + bits - 1) / bits);
}

// The planner's workspace for `problem` on `device` (make_plan with the
// device's limits; a tuning table moves launches, not buffers).
DeviceBytes workspace(const Device& device, const Problem& problem) {
  const plan::PlanTree tree = plan::make_plan(problem, inspect::planning_limits(device));
  const std::uint64_t each = static_cast<std::uint64_t>(std::max<std::int64_t>(tree.workspace_bytes, 0));
  return {saturating_product(static_cast<std::uint64_t>(tree.workspace_buffers), each),
          tree.workspace_buffers > 0 ? each : 0};
}

}  // namespace

void check_memory(const DeviceOptions& device, const io::MemoryNeeds& needs) {
  const Device opened = device.open();
  io::check_memory(needs, io::host_memory(), &opened.info());
}

void check_host_memory(const io::MemoryNeeds& needs) { io::check_memory(needs, io::host_memory(), nullptr); }

DeviceBytes plan_bytes(const Device& device, const Problem& problem) {
  const std::uint64_t in = saturating_product(elements_of(problem.input_extent()), problem.input_element_bytes());
  const std::uint64_t out = saturating_product(elements_of(problem.output_extent()), problem.output_element_bytes());
  const DeviceBytes work = workspace(device, problem);
  const std::uint64_t buffers = problem.placement == Placement::InPlace ? std::max(in, out) : sum({in, out});
  return {sum({buffers, work.total}), std::max({in, out, work.largest})};
}

DeviceBytes convolver_bytes(const Device& device, const Convolution& c) {
  const ops::ConvolutionLayout l = ops::layout(c);
  if (l.axes.empty()) return {};  // a broadcast product, on the host
  // The three problems ConvolverImpl plans: the signal's forward transform
  // (overlap-save: its blocks), the kernel's, and the product's inverse.
  auto problem = [&](bool forward, const std::vector<std::int64_t>& shape) {
    Problem p;
    p.kind = c.complex ? Kind::C2C : forward ? Kind::R2C : Kind::C2R;
    p.direction = forward ? Direction::Forward : Direction::Inverse;
    p.shape = shape;
    p.axes = shape.size() == 2 && l.blocks ? std::vector<int>{1} : l.axes;
    p.precision = c.precision;
    return p;
  };
  const std::vector<std::int64_t> blocks{l.blocks, l.block};
  const Problem signal = problem(true, l.blocks ? blocks : l.signal_padded), kernel = problem(true, l.kernel_padded),
                inverse = problem(false, l.blocks ? blocks : l.product);
  const std::uint64_t real = c.precision == Precision::Double ? 8 : 4, point = c.complex ? 2 * real : real;
  auto bytes = [](std::uint64_t elements, std::uint64_t size) {
    return saturating_product(std::max<std::uint64_t>(elements, 1), size);
  };
  // Buffers it keeps, workspace included.
  const std::uint64_t buffers[] = {
      bytes(elements_of(signal.input_extent()), point),
      bytes(elements_of(signal.output_extent()), 2 * real),
      bytes(elements_of(kernel.output_extent()), 2 * real),
      inverse.input_shape() != signal.output_shape() ? bytes(elements_of(inverse.input_extent()), 2 * real) : 0,
      bytes(elements_of(inverse.output_extent()), point),
      l.blocks ? bytes(elements_of((l.blocks - 1) * l.step + l.block), point) : 0,
      l.blocks ? bytes(count(l.product), point) : 0};
  DeviceBytes kept;
  for (std::uint64_t b : buffers) kept = {sum({kept.total, b}), std::max(kept.largest, b)};
  for (const Problem& p : {signal, kernel, inverse}) {
    const DeviceBytes work = workspace(device, p);
    kept = {sum({kept.total, work.total}), std::max(kept.largest, work.largest)};
  }
  // Then set_kernel's staging and zero-padded kernel, or execute_host's
  // copies of the signal and the result.
  const bool wrapped = c.circular && c.correlate;
  const std::uint64_t staging = bytes(count(wrapped ? l.kernel_padded : c.kernel_shape), point);
  const std::uint64_t padded = wrapped ? 0 : bytes(count(l.kernel_padded), point);
  const std::uint64_t copies =
      sum({bytes(elements_of(c.signal_elements()), point), bytes(elements_of(c.output_elements()), point)});
  return {sum({kept.total, std::max(sum({staging, padded}), copies)}), std::max({kept.largest, staging, padded})};
}

io::MemoryNeeds convolve_needs(const Device& device, const Convolution& c, const io::NpyArray& signal,
                               const io::NpyArray& kernel) {
  io::MemoryNeeds needs;
  needs.what = "convolve: the " + c.describe() + ",";
  const std::uint64_t element = (c.precision == Precision::Double ? 8 : 4) * (c.complex ? 2 : 1);
  // cmd_convolve: both as read and as the result's type; bfly::convolve's
  // arranged kernel (padded for a circular correlation) while the
  // Convolver is set, then the result, then its bytes for the writer.
  const std::uint64_t held =
      sum({signal.data.size(), kernel.data.size(), saturating_product(elements_of(c.signal_elements()), element),
           saturating_product(elements_of(c.kernel_elements()), element)});
  const std::uint64_t arranged = saturating_product(
      c.circular && c.correlate ? count(ops::layout(c).kernel_padded) : elements_of(c.kernel_elements()), element);
  const std::uint64_t out = saturating_product(elements_of(c.output_elements()), element);
  const DeviceBytes d = convolver_bytes(device, c);
  needs.at(sum({held, std::max(arranged, out)}), d.total, d.largest);
  needs.at(sum({held, out, out}));
  return needs;
}

io::MemoryNeeds filter_needs(const Device& device, const std::string& input, const std::string& kernel,
                             const FrequencyFilter& f, bool spectrum) {
  io::MemoryNeeds needs;
  // The image as held (samples, or the .npy's data), its decoding's extra,
  // and the bytes the writer makes of the result (a copy of the .npy).
  std::int64_t h = 0, w = 0, planes = 0;
  std::uint64_t image = 0, decoding = 0, written = 0;
  // A kernel or image the command refuses is not sized: it fails there.
  auto npy_shape = [](const std::string& path, std::uint64_t* bytes) {
    // (Any type the promotion takes: as read, then promoted, as cmd_filter holds it.)
    const io::NpyHeader header = io::read_npy_header(path, fft_input_dtypes());
    *bytes = saturating_product(count(header.shape),
                                io::dtype_bytes(header.dtype) + io::dtype_bytes(promoted_dtype(header.dtype)));
    return header.shape;
  };
  if (io::is_npy_file(input)) {
    const std::vector<std::int64_t> shape = npy_shape(input, &image);
    if (shape.size() != 2 && shape.size() != 3) return needs;
    h = shape[0], w = shape[1], planes = shape.size() == 3 ? shape[2] : 1;
    written = image;
    needs.what = "filter of " + input + " (shape " + text::shape(shape) + ")";
  } else {
#ifdef BFLY_HAVE_PNG
    const io::PngHeader header = io::read_png_header(input);
    h = header.height, w = header.width, planes = header.channels % 2 == 0 ? header.channels - 1 : header.channels;
    const std::uint64_t pixels = saturating_product(static_cast<std::uint64_t>(h), static_cast<std::uint64_t>(w));
    image = saturating_product(pixels, 2 * static_cast<std::uint64_t>(header.channels));
    decoding = written = saturating_product(pixels, static_cast<std::uint64_t>(header.channels * header.bits / 8));
    needs.what = "filter of " + input + " (" + std::to_string(w) + " x " + std::to_string(h) + " pixels, " +
                 std::to_string(header.channels) + " channel(s) of " + std::to_string(header.bits) + " bits)";
#else
    return needs;
#endif
  }
  auto doubles = [](std::initializer_list<std::int64_t> extents) {
    std::uint64_t n = 8;
    for (std::int64_t e : extents) n = saturating_product(n, static_cast<std::uint64_t>(std::max<std::int64_t>(e, 0)));
    return n;
  };
  const std::uint64_t held = sum({image, doubles({planes, h, w})});  // cmd_filter's planes beside the image
  // The transforms of bfly/filter.hpp: over the last two axes of the planes, in fp64.
  auto planes_problem = [&](Kind kind, std::int64_t rows, std::int64_t columns) {
    Problem p;
    p.kind = kind;
    p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
    p.shape = {planes, rows, columns};
    p.axes = {1, 2};
    p.precision = Precision::Double;
    return p;
  };
  needs.at(sum({image, decoding}));
  if (!kernel.empty()) {
    // bfly::convolve_images (ops/filter.cpp): the kernel as read and as
    // doubles, the image extended by the kernel's size but zero padding,
    // then bfly::convolve's arranged kernel and result.
    std::uint64_t read = 0;
    std::vector<std::int64_t> k;
    if (io::is_npy_file(kernel)) {
      k = npy_shape(kernel, &read);
    } else {
#ifdef BFLY_HAVE_PNG
      const io::PngHeader header = io::read_png_header(kernel);
      k = {header.height, header.width};
      read = saturating_product(count(k), 3 * static_cast<std::uint64_t>(header.channels));  // decoding and samples
#endif
    }
    if (k.size() != 2 || count(k) == 0) return needs;
    Convolution c;
    c.kernel_shape = {1, k[0], k[1]};
    c.axes = {1, 2};
    c.precision = Precision::Double;
    const bool zero = f.padding == Padding::Zero;
    c.signal_shape = {planes, zero ? h : h + k[0] - 1, zero ? w : w + k[1] - 1};
    c.mode = zero ? ConvolveMode::Same : ConvolveMode::Valid;
    const DeviceBytes d = convolver_bytes(device, c);
    needs.at(sum({held, read, doubles({k[0], k[1]}), zero ? 0 : doubles({planes, c.signal_shape[1], c.signal_shape[2]}),
                  doubles({k[0], k[1]}), doubles({planes, h, w})}),
             d.total, d.largest);
  } else if (spectrum) {
    // bfly::log_spectrum: the planes as complex, their transform and the
    // result (then the planes' new value).
    const DeviceBytes d = plan_bytes(device, planes_problem(Kind::C2C, h, w));
    needs.at(sum({held, doubles({planes, h, w, 5})}), d.total, d.largest);
  } else {
    // bfly::filter_images: the planes padded (half their length each side,
    // up to a 7-smooth length, as its padded_length; none to wrap), their
    // half spectra and the mask's rows, and both plans' buffers at once.
    auto padded = [&](std::int64_t n) { return f.padding == Padding::Wrap ? n : ops::fast_length(2 * n); };
    const std::int64_t ph = padded(h), pw = padded(w), hw = pw / 2 + 1;
    const DeviceBytes r2c = plan_bytes(device, planes_problem(Kind::R2C, ph, pw)),
                      c2r = plan_bytes(device, planes_problem(Kind::C2R, ph, pw));
    needs.at(sum({held, doubles({planes, ph, pw}), doubles({planes, ph, hw, 2}), doubles({ph, hw})}),
             sum({r2c.total, c2r.total}), std::max(r2c.largest, c2r.largest));
  }
  needs.at(sum({held, written}));
  return needs;
}

io::MemoryNeeds polymul_needs(const Device& device, const std::vector<std::int64_t>& a,
                              const std::vector<std::int64_t>& b) {
  // ops/polymul.cpp's first attempt, 24-bit digits (narrower ones, where its
  // error model or check asks, take more): the digit arrays, their 2-D
  // convolution's sums and the exact coefficients (WideInt, 32 bytes), then
  // the output's bytes or text (at most 78 digits and a newline each).
  const auto n = static_cast<std::int64_t>(a.size()), m = static_cast<std::int64_t>(b.size());
  const auto da = static_cast<std::int64_t>(digits(a, 24)), db = static_cast<std::int64_t>(digits(b, 24));
  io::MemoryNeeds needs;
  needs.what = "polymul of " + std::to_string(n) + " and " + std::to_string(m) + " coefficients";
  if (n == 0 || m == 0) return needs;
  Convolution c;
  c.signal_shape = {n, da};
  c.kernel_shape = {m, db};
  c.precision = Precision::Double;
  const DeviceBytes d = convolver_bytes(device, c);
  const std::uint64_t coefficients = saturating_product(static_cast<std::uint64_t>(n + m), 8);
  const std::uint64_t terms = static_cast<std::uint64_t>(n + m - 1);
  needs.at(
      sum({coefficients, saturating_product(static_cast<std::uint64_t>(n * da + m * db), 8),
           saturating_product(terms, static_cast<std::uint64_t>(8 * (da + db - 1))), saturating_product(terms, 32)}),
      d.total, d.largest);
  needs.at(sum({coefficients, saturating_product(terms, 32 + 79)}));
  return needs;
}

io::MemoryNeeds bigmul_needs(const Device& device, const std::string& x, const std::string& y) {
  // ops/bigmul.cpp: the texts and their digits, limbs of at most 4 digits
  // (its widest; fewer take more limbs) as doubles, their convolution's
  // arranged kernel and sums, then the carried limbs and the product's text
  // (and its copies with the sign).
  const std::uint64_t text = sum({x.size(), y.size()});
  const auto na = static_cast<std::int64_t>(x.size() / 4 + 1), nb = static_cast<std::int64_t>(y.size() / 4 + 1);
  io::MemoryNeeds needs;
  needs.what = "bigmul of " + std::to_string(x.size()) + " and " + std::to_string(y.size()) + " digits";
  Convolution c;
  c.signal_shape = {na};
  c.kernel_shape = {nb};
  c.precision = Precision::Double;
  const DeviceBytes d = convolver_bytes(device, c);
  const std::uint64_t limbs = saturating_product(static_cast<std::uint64_t>(na + nb), 8);
  needs.at(sum({text, text, limbs, limbs, limbs}), d.total, d.largest);
  needs.at(sum({text, text, limbs, limbs, limbs, limbs / 2, text, text}));
  return needs;
}

}  // namespace bfly::cli
