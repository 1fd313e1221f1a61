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

std::vector<std::complex<long double>> bluestein_kernel(std::int64_t n, std::int64_t m) {
  if (n < 1 || m < 2 * n - 1)
    throw Error(ErrorCode::InvalidArgument, "Bluestein kernel of " + std::to_string(n) + " points needs a length >= " +
                                                std::to_string(2 * n - 1) + ", not " + std::to_string(m));
  const std::vector<std::complex<long double>> c = chirp(n, n);
  std::vector<std::complex<long double>> b(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < n; ++j) {
    b[static_cast<std::size_t>(j)] = std::conj(c[static_cast<std::size_t>(j)]);
    if (j > 0) b[static_cast<std::size_t>(m - j)] = std::conj(c[static_cast<std::size_t>(j)]);
  }
  b = dft_long_double(std::move(b));
  for (auto& v : b) v /= static_cast<long double>(m);
  return b;
}

}  // namespace bfly::twiddle
