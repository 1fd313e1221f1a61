// bfly bench --app convolve: 2D convolution of an image with square kernels
// of several widths through bfly::Convolver on device buffers, mode same.
// Times the convolution with the kernel's spectrum reused (execute) and a
// one-shot call (set_kernel from the host, then execute), and checks sampled
// output pixels against direct convolution in double on the host.
#include <bfly/convolve.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "bench_convolve.hpp"

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
  std::printf("%-10s %-14s %10s %12s %10s %12s\n", "kernel", "FFT shape", "plan ms", "execute ms", "one-shot ms",
              "max rel.err");
  int status = 0;
  for (std::int64_t k : o.kernel_sizes) {
    std::vector<T> kernel(static_cast<std::size_t>(k * k));
    for (auto& v : kernel) v = static_cast<T>(uniform(rng));
    Convolution c;
    c.signal_shape = {h, w};
    c.kernel_shape = {k, k};
    c.mode = ConvolveMode::Same;
    c.precision = sizeof(T) == 8 ? Precision::Double : Precision::Single;
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
    // Sampled pixels against direct convolution in double (SciPy's 'same':
    // output (y, x) is full (y + (k-1)/2, x + (k-1)/2)).
    std::vector<T> result(image.size());
    out.read(result.data(), result.size() * sizeof(T));
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
      worst = std::max(worst, std::fabs(static_cast<double>(result[y * w + x]) - sum) / std::max(scale, 1e-30));
    }
    const double limit = sizeof(T) == 8 ? 1e-13 : 1e-5;
    if (!(worst <= limit)) status = 1;
    const auto fft = conv.transform_shape();
    char shape[64];
    std::snprintf(shape, sizeof shape, "%lldx%lld", static_cast<long long>(fft[0]), static_cast<long long>(fft[1]));
    std::printf("%-10s %-14s %10.1f %12.3f %10.3f %12.2e%s\n", (std::to_string(k) + "x" + std::to_string(k)).c_str(),
                shape, plan_ms, median(execute), median(once), worst, worst <= limit ? "" : "  (above the limit)");
  }
  std::printf("execute = the convolution on device buffers with the kernel's spectrum kept (pad, R2C, product, C2R, "
              "cut);\none-shot = set_kernel from host memory (its FFT) and execute; medians of %d; rel.err = "
              "|bfly - direct| / sum |terms| over 64 sampled pixels (direct sums in double on the host)\n",
              o.repetitions);
  return status;
}

}  // namespace

int run_convolve_bench(const Device& device, const ConvolveBenchOptions& o) {
  if (o.shape.size() != 2)
    throw Error(ErrorCode::InvalidArgument, "bench --app convolve takes a 2D --shape (an image), not " +
                                                std::to_string(o.shape.size()) + " dimensions");
  for (std::int64_t k : o.kernel_sizes)
    if (k < 1) throw Error(ErrorCode::InvalidArgument, "kernel size " + std::to_string(k) + " (at least 1)");
  return o.precision == Precision::Double ? run_typed<double>(device, o) : run_typed<float>(device, o);
}

}  // namespace bfly::cli
