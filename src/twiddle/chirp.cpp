#include "twiddle/chirp.hpp"

#include <algorithm>
#include <stdexcept>

#include "bfly/bfly.hpp"
#include "twiddle/host_fft.hpp"
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

namespace {

// b[j] = conj(c[j]) for |j| < n, placed cyclically in m points.
template <class T>
std::vector<std::complex<T>> kernel_input(std::int64_t n, std::int64_t m) {
  if (n < 1 || m < 2 * n - 1)
    throw Error(ErrorCode::InvalidArgument, "Bluestein kernel of " + std::to_string(n) + " points needs a length >= " +
                                                std::to_string(2 * n - 1) + ", not " + std::to_string(m));
  const std::vector<std::complex<long double>> c = chirp(n, n);
  std::vector<std::complex<T>> b(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j) {
    const std::complex<T> v(static_cast<T>(c[static_cast<std::size_t>(j)].real()),
                            -static_cast<T>(c[static_cast<std::size_t>(j)].imag()));
    b[static_cast<std::size_t>(j)] = v;
    if (j > 0) b[static_cast<std::size_t>(m - j)] = v;
  }
  return b;
}

}  // namespace

std::vector<std::complex<long double>> bluestein_kernel(std::int64_t n, std::int64_t m) {
  std::vector<std::complex<long double>> b = dft_long_double(kernel_input<long double>(n, m));
  for (auto& v : b) v /= static_cast<long double>(m);
  return b;
}

std::vector<std::complex<double>> bluestein_kernel_f64(std::int64_t n, std::int64_t m) {
  std::vector<std::complex<double>> b = dft_double(kernel_input<double>(n, m));
  for (auto& v : b) v /= static_cast<double>(m);
  return b;
}

}  // namespace bfly::twiddle
