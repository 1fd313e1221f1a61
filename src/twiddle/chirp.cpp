#include "twiddle/chirp.hpp"

#include <algorithm>
#include <stdexcept>

#include "bfly/bfly.hpp"
#include "twiddle/oracle.hpp"
#include "twiddle/roots.hpp"

namespace bfly::twiddle {

using Wide = std::complex<long double>;

std::vector<std::complex<long double>> chirp(std::int64_t n, std::int64_t count) {
  std::vector<std::complex<long double>> c(static_cast<std::size_t>(count));
  const Roots w(2 * n);
  const unsigned __int128 period = 2 * static_cast<unsigned __int128>(n);
  for (std::int64_t j = 0; j < count; ++j) {
    const unsigned __int128 square = static_cast<unsigned __int128>(j) * static_cast<unsigned __int128>(j);
    // exp(-pi i j^2 / n) = w_{2n}^{j^2 mod 2n}
    c[static_cast<std::size_t>(j)] = w(static_cast<std::int64_t>(square % period));
  }
  return c;
}

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

std::vector<std::complex<long double>> bluestein_kernel(std::int64_t n, std::int64_t m) {
  if (n < 1 || m < 2 * n - 1 || (m & (m - 1)) != 0)
    throw Error(ErrorCode::InvalidArgument, "Bluestein kernel of " + std::to_string(n) + " points needs a power of two >= " +
                                                std::to_string(2 * n - 1) + ", not " + std::to_string(m));
  const std::vector<std::complex<long double>> c = chirp(n, n);
  std::vector<std::complex<long double>> b(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j) {
    b[static_cast<std::size_t>(j)] = std::conj(c[static_cast<std::size_t>(j)]);
    if (j > 0) b[static_cast<std::size_t>(m - j)] = std::conj(c[static_cast<std::size_t>(j)]);
  }
  fft_long_double(b);
  for (auto& v : b) v /= static_cast<long double>(m);
  return b;
}

}  // namespace bfly::twiddle
