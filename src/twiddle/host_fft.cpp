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

// A Stockham autosort FFT over the prime factors of n (each at most 23),
// iterative: stage s of radix r with l = the product of the earlier
// radices takes butterfly j (k = j mod l) from the points j + q n/r, times
// w_(l r)^(q k), and writes its r outputs to (j / l) l r + k + q l, as the
// generated kernels' stages do. Radix 2 is written out; the others take
// their r x r products from a table of w_r^e.
std::vector<Wide> stockham(std::vector<Wide> x) {
  const std::size_t n = x.size();
  const std::int64_t total = static_cast<std::int64_t>(n);
  const Roots w(total);
  std::vector<Wide> y(n), twiddled, rotation;
  std::size_t rest = n, l = 1;
  while (rest > 1) {
    const std::size_t r = smallest_factor(rest), span = n / r;
    const std::int64_t per_lr = total / static_cast<std::int64_t>(l * r);
    twiddled.resize(r);
    rotation.resize(r);
    for (std::size_t q = 0; q < r; ++q) rotation[q] = w(static_cast<std::int64_t>(q) * (total / static_cast<std::int64_t>(r)));
    for (std::size_t j = 0; j < span; ++j) {
      const std::size_t k = j % l, out = (j / l) * l * r + k;
      if (r == 2) {
        const Wide u = x[j], v = k == 0 ? x[j + span] : times(x[j + span], w(static_cast<std::int64_t>(k) * per_lr));
        y[out] = {u.real() + v.real(), u.imag() + v.imag()};
        y[out + l] = {u.real() - v.real(), u.imag() - v.imag()};
        continue;
      }
      for (std::size_t q = 0; q < r; ++q)
        twiddled[q] = k == 0 ? x[j + q * span] : times(x[j + q * span], w(static_cast<std::int64_t>(q * k) * per_lr));
      for (std::size_t s = 0; s < r; ++s) {
        Wide sum = twiddled[0];
        for (std::size_t q = 1; q < r; ++q) {
          const Wide v = times(twiddled[q], rotation[(q * s) % r]);
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
  if (smooth(x.size(), 23)) {
    return stockham(std::move(x));
  }
  // Bluestein: X[k] = c[k] * (conv of x c with conj c)[k], the convolution
  // by FFTs of the power of two m >= 2n - 1 (the inverse as conj FFT conj).
  std::int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  const std::vector<Wide> c = chirp(n, n);
  const std::vector<Wide> kernel = bluestein_kernel(n, m);
  std::vector<Wide> a(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j) a[static_cast<std::size_t>(j)] = times(x[static_cast<std::size_t>(j)], c[static_cast<std::size_t>(j)]);
  fft_long_double(a);
  for (std::int64_t k = 0; k < m; ++k) a[static_cast<std::size_t>(k)] = std::conj(times(a[static_cast<std::size_t>(k)], kernel[static_cast<std::size_t>(k)]));
  fft_long_double(a);
  for (std::int64_t k = 0; k < n; ++k)
    x[static_cast<std::size_t>(k)] = times(std::conj(a[static_cast<std::size_t>(k)]), c[static_cast<std::size_t>(k)]);
  return x;
}

}  // namespace bfly::twiddle
