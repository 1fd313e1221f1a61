// bfly bench --app convolve: 2D convolution of an image with square kernels
// of several widths through bfly::Convolver on device buffers, mode same.
// Times the convolution with the kernel's spectrum reused (execute) and a
// one-shot call (set_kernel from the host, then execute), beside a direct
// (spatial) convolution on the same device (codegen/direct_convolution_
// kernel.hpp), and checks sampled output pixels of both against direct
// convolution in double on the host. The last line names the crossover: the
// narrowest kernel from which the FFT is faster.
#include <bfly/convolve.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "bench_convolve.hpp"
#include "inspect/inspect.hpp"
#include "io/memory_budget.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double time_ms(const Device& device, F&& f) {
  device.synchronize();
  const auto start = std::chrono::steady_clock::now();
  f();
  device.synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The direct convolution's work where the bench skips it: a CPU device
// would take minutes at 4096^2 x 63^2.
constexpr double kDirectCpuLimit = 2e10;

// The direct convolution on the device: out = image * kernel, mode same.
using Direct = inspect::DirectConvolution;

template <class T>
int run_typed(const Device& device, const ConvolveBenchOptions& o) {
  const std::int64_t h = o.shape[0], w = o.shape[1];
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> image(static_cast<std::size_t>(h * w));
  for (auto& v : image) v = static_cast<T>(uniform(rng));
  Buffer in(device, image.size() * sizeof(T)), out(device, image.size() * sizeof(T));
  in.write(image.data(), image.size() * sizeof(T));
  std::printf("bfly bench --app convolve: %lldx%lld %s image, square kernels, mode same, on %s\n",
              static_cast<long long>(h), static_cast<long long>(w), sizeof(T) == 8 ? "float64" : "float32",
              device.info().name.c_str());
  std::printf("%-10s %-14s %-7s %10s %12s %12s %12s %9s %12s\n", "kernel", "FFT shape", "product", "plan ms",
              "execute ms", "one-shot ms", "direct ms", "direct/FFT", "max rel.err");
  int status = 0;
  const Direct direct(device, sizeof(T) == 8 ? Precision::Double : Precision::Single);
  Buffer direct_out(device, image.size() * sizeof(T));
  std::int64_t crossover = 0;  // the narrowest kernel from which the FFT won every wider one
  bool direct_measured = false;
  for (std::int64_t k : o.kernel_sizes) {
    std::vector<T> kernel(static_cast<std::size_t>(k * k));
    for (auto& v : kernel) v = static_cast<T>(uniform(rng));
    Convolution c;
    c.signal_shape = {h, w};
    c.kernel_shape = {k, k};
    c.mode = ConvolveMode::Same;
    c.precision = sizeof(T) == 8 ? Precision::Double : Precision::Single;
    c.product = o.product;
    const auto plan_start = std::chrono::steady_clock::now();
    Convolver conv(device, c);
    const double plan_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - plan_start).count();
    conv.set_kernel(kernel.data());
    conv.execute(in, out);  // warm-up
    std::vector<double> execute, once;
    for (int r = 0; r < o.repetitions; ++r) {
      execute.push_back(time_ms(device, [&] { conv.execute(in, out); }));
      once.push_back(time_ms(device, [&] {
        conv.set_kernel(kernel.data());
        conv.execute(in, out);
      }));
    }
    // The direct convolution: fewer repetitions (it takes up to seconds).
    const double work = static_cast<double>(h) * static_cast<double>(w) * static_cast<double>(k * k);
    const bool run_direct = !device.info().is_cpu || work <= kDirectCpuLimit;
    std::vector<double> direct_ms;
    if (run_direct) {
      Buffer kbuf(device, kernel.size() * sizeof(T));
      kbuf.write(kernel.data(), kernel.size() * sizeof(T));
      direct.run(direct_out, in, kbuf, h, w, k);  // warm-up
      for (int r = 0; r < std::max(1, std::min(o.repetitions, work > 1e11 ? 3 : o.repetitions)); ++r)
        direct_ms.push_back(time_ms(device, [&] { direct.run(direct_out, in, kbuf, h, w, k); }));
    }
    // Sampled pixels of both against direct convolution in double (SciPy's
    // 'same': output (y, x) is full (y + (k-1)/2, x + (k-1)/2)).
    std::vector<T> result(image.size()), spatial(run_direct ? image.size() : 0);
    out.read(result.data(), result.size() * sizeof(T));
    if (run_direct) direct_out.read(spatial.data(), spatial.size() * sizeof(T));
    double worst = 0;
    const std::int64_t off = (k - 1) / 2;
    for (int s = 0; s < 64; ++s) {
      const std::int64_t y = static_cast<std::int64_t>(rng() % h), x = static_cast<std::int64_t>(rng() % w);
      double sum = 0, scale = 0;
      for (std::int64_t i = 0; i < k; ++i)
        for (std::int64_t j = 0; j < k; ++j) {
          const std::int64_t sy = y + off - i, sx = x + off - j;
          if (sy < 0 || sy >= h || sx < 0 || sx >= w) continue;
          const double term = static_cast<double>(image[sy * w + sx]) * static_cast<double>(kernel[i * k + j]);
          sum += term;
          scale += std::fabs(term);
        }
      const double denominator = std::max(scale, 1e-30);
      worst = std::max(worst, std::fabs(static_cast<double>(result[y * w + x]) - sum) / denominator);
      if (run_direct) worst = std::max(worst, std::fabs(static_cast<double>(spatial[y * w + x]) - sum) / denominator);
    }
    const double limit = sizeof(T) == 8 ? 1e-13 : 1e-5;
    if (!(worst <= limit)) status = 1;
    const auto fft = conv.transform_shape();
    char shape[64];
    std::snprintf(shape, sizeof shape, "%lldx%lld", static_cast<long long>(fft[0]), static_cast<long long>(fft[1]));
    char direct_text[32] = "skipped", ratio[32] = "-";
    if (run_direct) {
      const double d = median(direct_ms), f = median(execute);
      std::snprintf(direct_text, sizeof direct_text, "%.3f", d);
      std::snprintf(ratio, sizeof ratio, "%.2fx", d / f);
      direct_measured = true;
      if (d > f && crossover == 0) crossover = k;
      if (d <= f) crossover = 0;  // the direct one won again: the crossover lies further on
    }
    std::printf("%-10s %-14s %-7s %10.1f %12.3f %12.3f %12s %9s %12.2e%s\n",
                (std::to_string(k) + "x" + std::to_string(k)).c_str(), shape,
                conv.product_placement() == "inverse's first loads" ? "loads"
                : conv.product_fused()                              ? "stores"
                                                                    : "pass",
                plan_ms, median(execute), median(once), direct_text, ratio, worst,
                worst <= limit ? "" : "  (above the limit)");
  }
  std::printf(
      "execute = the convolution on device buffers with the kernel's spectrum kept (pad, R2C, product, C2R, "
      "cut);\none-shot = set_kernel from host memory (its FFT) and execute; medians of %d; rel.err = "
      "|result - exact| / sum |terms| over 64 sampled pixels of both (exact: direct sums in double on the host);\n"
      "direct = a direct convolution on the device (4 outputs a thread, a sliding window), skipped on a CPU past "
      "%.0e multiply-adds; product = fused into the inverse FFT's first loads or the forward's last stores, or a pass "
      "of its own\n",
      o.repetitions, kDirectCpuLimit);
  if (direct_measured) {
    if (crossover > 0)
      std::printf("crossover: the FFT convolution is faster than the direct one from %lldx%lld kernels on\n",
                  static_cast<long long>(crossover), static_cast<long long>(crossover));
    else
      std::printf("crossover: the direct convolution was faster at the widest kernel measured\n");
  }
  return status;
}

}  // namespace

int run_convolve_bench(const Device& device, const ConvolveBenchOptions& o) {
  if (o.shape.size() != 2)
    throw Error(ErrorCode::InvalidArgument, "bench --app convolve takes a 2D --shape (an image), not " +
                                                std::to_string(o.shape.size()) + " dimensions");
  for (std::int64_t k : o.kernel_sizes)
    if (k < 1) throw Error(ErrorCode::InvalidArgument, "kernel size " + std::to_string(k) + " (at least 1)");
  // The image, on the host and the device, before anything is allocated.
  const std::int64_t h = o.shape[0], w = o.shape[1];
  if (h < 1 || w < 1)
    throw Error(ErrorCode::InvalidArgument, "bench --app convolve: image shape " + text::shape(o.shape));
  io::MemoryNeeds needs;
  needs.what = "bench --app convolve of a " + text::shape(o.shape) + " image";
  const std::uint64_t image =
      io::saturating_product(io::saturating_product(static_cast<std::uint64_t>(h), static_cast<std::uint64_t>(w)),
                             o.precision == Precision::Double ? 8 : 4);
  needs.at(image, image, image);
  io::check_memory(needs, io::host_memory(), &device.info());
  return o.precision == Precision::Double ? run_typed<double>(device, o) : run_typed<float>(device, o);
}

}  // namespace bfly::cli
