#include "twiddle/host_fft.hpp"

#include <algorithm>

#include "bfly/bfly.hpp"
#include "twiddle/chirp.hpp"
#include "twiddle/roots.hpp"

namespace bfly::twiddle {

namespace {

using Wide = std::complex<long double>;

std::size_t smallest_factor(std::size_t n) {
  for (std::size_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return d;
  return n;
}

template <class T>
inline std::complex<T> product(const std::complex<T>& a, const std::complex<T>& b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// A Stockham autosort FFT over the prime factors of n (each at most 31),
// iterative: stage s of radix r with l = the product of the earlier
// radices takes butterfly j (k = j mod l) from the points j + q n/r, times
// w_(l r)^(q k), and writes its r outputs to (j / l) l r + k + q l, as the
// generated kernels' stages do. Radices 2 and 4 are written out; the
// others take their r x r products from a table of w_r^e. w(e) is w_n^e.
template <class T, class Root>
std::vector<std::complex<T>> stockham(std::vector<std::complex<T>> x, const Root& w) {
  using Complex = std::complex<T>;
  const std::size_t n = x.size();
  const std::int64_t total = static_cast<std::int64_t>(n);
  std::vector<Complex> y(n), twiddled, rotation, stage;
  std::size_t rest = n, l = 1;
  while (rest > 1) {
    // Radix 4 where it divides: half the passes over memory of radix 2.
    const std::size_t r = rest % 4 == 0 ? 4 : smallest_factor(rest), span = n / r;
    const std::int64_t per_lr = total / static_cast<std::int64_t>(l * r);
    twiddled.resize(r);
    rotation.resize(r);
    for (std::size_t q = 0; q < r; ++q)
      rotation[q] = w(static_cast<std::int64_t>(q) * (total / static_cast<std::int64_t>(r)));
    // This stage's w_(l r)^(q k), k < l, 0 < q < r, laid out in the order
    // the butterflies use them: l (r - 1) lookups a stage instead of n (r -
    // 1) / r, and read in sequence (the whole table's strided reads missed
    // the caches: 2^21 points in double took 0.25 s).
    stage.resize(l * (r - 1));
    for (std::size_t k = 0; k < l; ++k)
      for (std::size_t q = 1; q < r; ++q) stage[k * (r - 1) + q - 1] = w(static_cast<std::int64_t>(q * k) * per_lr);
    // j = b l + k: consecutive j read consecutive points, and k's twiddles
    // step through the table at a fixed stride (no division a butterfly).
    for (std::size_t b = 0, j = 0; b < span / l; ++b)
      for (std::size_t k = 0; k < l; ++k, ++j) {
        const std::size_t out = b * l * r + k;
        if (r == 2) {
          const Complex u = x[j], v = k == 0 ? x[j + span] : product(x[j + span], stage[k]);
          y[out] = {u.real() + v.real(), u.imag() + v.imag()};
          y[out + l] = {u.real() - v.real(), u.imag() - v.imag()};
          continue;
        }
        for (std::size_t q = 0; q < r; ++q)
          twiddled[q] = k == 0 || q == 0 ? x[j + q * span] : product(x[j + q * span], stage[k * (r - 1) + q - 1]);
        if (r == 4) {
          const Complex& a0 = twiddled[0];
          const Complex& a1 = twiddled[1];
          const Complex& a2 = twiddled[2];
          const Complex& a3 = twiddled[3];
          const Complex t0{a0.real() + a2.real(), a0.imag() + a2.imag()},
              t1{a0.real() - a2.real(), a0.imag() - a2.imag()};
          const Complex t2{a1.real() + a3.real(), a1.imag() + a3.imag()};
          const Complex t3{a1.imag() - a3.imag(), a3.real() - a1.real()};  // -i (a1 - a3)
          y[out] = {t0.real() + t2.real(), t0.imag() + t2.imag()};
          y[out + l] = {t1.real() + t3.real(), t1.imag() + t3.imag()};
          y[out + 2 * l] = {t0.real() - t2.real(), t0.imag() - t2.imag()};
          y[out + 3 * l] = {t1.real() - t3.real(), t1.imag() - t3.imag()};
          continue;
        }
        for (std::size_t s = 0; s < r; ++s) {
          Complex sum = twiddled[0];
          for (std::size_t q = 1; q < r; ++q) {
            const Complex v = product(twiddled[q], rotation[(q * s) % r]);
            sum = {sum.real() + v.real(), sum.imag() + v.imag()};
          }
          y[out + s * l] = sum;
        }
      }
    x.swap(y);
    l *= r;
    rest /= r;
  }
  return x;
}

bool smooth(std::size_t n, std::size_t largest) {
  for (std::size_t d = 2; d <= largest; ++d)
    while (n % d == 0) n /= d;
  return n == 1;
}

}  // namespace

void fft_long_double(std::vector<std::complex<long double>>& a) {
  const std::size_t m = a.size();
  if (m == 0 || (m & (m - 1)) != 0)
    throw Error(ErrorCode::InvalidArgument, "fft_long_double needs a power-of-two length, not " + std::to_string(m));
  // Bit reversal, then iterative butterflies.
  for (std::size_t i = 1, j = 0; i < m; ++i) {
    std::size_t bit = m >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  std::vector<Wide> w(std::max<std::size_t>(1, m / 2));
  const Roots roots(static_cast<std::int64_t>(m));
  for (std::size_t k = 0; k < m / 2; ++k) w[k] = roots(static_cast<std::int64_t>(k));
  for (std::size_t len = 2; len <= m; len <<= 1) {
    const std::size_t half = len / 2, step = m / len;
    for (std::size_t start = 0; start < m; start += len)
      for (std::size_t k = 0; k < half; ++k) {
        const Wide u = a[start + k], v = times(a[start + k + half], w[k * step]);
        a[start + k] = {u.real() + v.real(), u.imag() + v.imag()};
        a[start + k + half] = {u.real() - v.real(), u.imag() - v.imag()};
      }
  }
}

std::vector<Wide> dft_long_double(std::vector<Wide> x) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  if (n == 0 || (n & (n - 1)) == 0) {
    if (n > 0) fft_long_double(x);
    return x;
  }
  if (smooth(x.size(), 31)) {
    return stockham<long double>(std::move(x), Roots(n));
  }
  // Bluestein: X[k] = c[k] * (conv of x c with conj c)[k], the convolution
  // by FFTs of the power of two m >= 2n - 1 (the inverse as conj FFT conj).
  std::int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  const std::vector<Wide> c = chirp(n, n);
  const std::vector<Wide> kernel = bluestein_kernel(n, m);
  std::vector<Wide> a(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j)
    a[static_cast<std::size_t>(j)] = times(x[static_cast<std::size_t>(j)], c[static_cast<std::size_t>(j)]);
  fft_long_double(a);
  for (std::int64_t k = 0; k < m; ++k)
    a[static_cast<std::size_t>(k)] =
        std::conj(times(a[static_cast<std::size_t>(k)], kernel[static_cast<std::size_t>(k)]));
  fft_long_double(a);
  for (std::int64_t k = 0; k < n; ++k)
    x[static_cast<std::size_t>(k)] = times(std::conj(a[static_cast<std::size_t>(k)]), c[static_cast<std::size_t>(k)]);
  return x;
}

std::vector<std::complex<double>> dft_double(std::vector<std::complex<double>> x) {
  const std::size_t n = x.size();
  if (n == 0 || !smooth(n, 31))
    throw Error(ErrorCode::InvalidArgument, "dft_double needs a 31-smooth length, not " + std::to_string(n));
  // w_n^e rounded once from the oracle's long-double values, then every
  // butterfly in double (SSE, several times x87's speed).
  std::vector<std::complex<double>> w(n);
  const Roots roots(static_cast<std::int64_t>(n));
  for (std::size_t e = 0; e < n; ++e) {
    const Wide v = roots(static_cast<std::int64_t>(e));
    w[e] = {static_cast<double>(v.real()), static_cast<double>(v.imag())};
  }
  return stockham<double>(std::move(x), [&w](std::int64_t e) { return w[static_cast<std::size_t>(e)]; });
}

}  // namespace bfly::twiddle
