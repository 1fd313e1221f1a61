// Bluestein's tables (src/twiddle/chirp.*): the chirp with its exponent
// reduced in integers, the host FFT in long double, and the whole chirp-z
// identity checked against a direct DFT on the host.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "bfly/bfly.hpp"
#include "long_double_dft.hpp"
#include "twiddle/chirp.hpp"
#include "twiddle/oracle.hpp"

namespace {

using ld = long double;
using C = std::complex<ld>;

const ld kPi = bfly::test::kPiLong;
using bfly::test::direct_dft;
using bfly::test::random_vector;
using bfly::test::relative_l2;

TEST(Chirp, MatchesTheDefinitionWithTheExponentReduced) {
  for (std::int64_t n : {1, 2, 17, 1009, 65537}) {
    const auto c = bfly::twiddle::chirp(n, std::min<std::int64_t>(n, 3000));
    for (std::size_t j = 0; j < c.size(); ++j) {
      const ld angle = -kPi * static_cast<ld>((static_cast<std::int64_t>(j) * static_cast<std::int64_t>(j)) % (2 * n)) /
                       static_cast<ld>(n);
      ASSERT_LT(std::abs(c[j] - std::polar(1.0L, angle)), 1e-17L) << "n=" << n << " j=" << j;
    }
  }
  // Past j = 2^32 the square overflows 64 bits; the reduction must not.
  const std::int64_t big = (std::int64_t{1} << 33) + 7;
  const auto c = bfly::twiddle::chirp(big, 3);
  EXPECT_LT(std::abs(c[2] - std::polar(1.0L, -kPi * 4 / static_cast<ld>(big))), 1e-17L);
}

// The chirp's entries are products of two of the oracle's values (two-level
// tables): within a few units of long double's last place of the oracle's
// own value at every j, far below the half unit (1.1e-16) a double keeps.
TEST(Chirp, TwoLevelProductsStayWithinLongDoubleOfTheOracle) {
  for (std::int64_t n : {3, 1000, 1000003}) {
    const auto c = bfly::twiddle::chirp(n, n);
    long double worst = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t e =
          static_cast<std::int64_t>(static_cast<unsigned __int128>(j) * static_cast<unsigned __int128>(j) %
                                    static_cast<unsigned __int128>(2 * n));
      worst = std::max(worst, std::abs(c[static_cast<std::size_t>(j)] - bfly::twiddle::root(e, 2 * n)));
    }
    EXPECT_LT(worst, 1e-18L) << "n=" << n;
  }
}

TEST(Chirp, HostFftMatchesTheDirectDft) {
  for (std::size_t m : {1u, 2u, 8u, 64u, 1024u}) {
    auto x = random_vector(m);
    const auto ref = direct_dft(x);
    bfly::twiddle::fft_long_double(x);
    EXPECT_LT(relative_l2(x, ref), 1e-17L) << "m=" << m;
  }
  std::vector<C> odd(12);
  EXPECT_THROW(bfly::twiddle::fft_long_double(odd), bfly::Error);
}

// X[k] = c[k] * IFFT_m(FFT_m(x c, zero-padded) * kernel)[k]: the tables give
// the DFT of any length, here primes and a product of two primes.
TEST(Chirp, BluesteinIdentityGivesTheDft) {
  for (std::int64_t n : {1, 2, 3, 17, 97, 101 * 3, 1009}) {
    std::int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    const auto x = random_vector(static_cast<std::size_t>(n));
    const auto c = bfly::twiddle::chirp(n, n);
    const auto kernel = bfly::twiddle::bluestein_kernel(n, m);
    std::vector<C> a(static_cast<std::size_t>(m));
    for (std::int64_t j = 0; j < n; ++j) a[j] = x[j] * c[j];
    bfly::twiddle::fft_long_double(a);
    // Inverse FFT as conj(FFT(conj(.))); the kernel already holds 1/m.
    for (std::int64_t j = 0; j < m; ++j) a[j] = std::conj(a[j] * kernel[j]);
    bfly::twiddle::fft_long_double(a);
    std::vector<C> X(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) X[k] = c[k] * std::conj(a[k]);
    EXPECT_LT(relative_l2(X, direct_dft(x)), 1e-16L) << "n=" << n << " m=" << m;
  }
  EXPECT_THROW(bfly::twiddle::bluestein_kernel(17, 32), bfly::Error);  // 32 < 2*17-1
  // Any M >= 2N - 1 (a smooth one through the mixed-radix host FFT).
  const auto x = random_vector(17);
  const auto c = bfly::twiddle::chirp(17, 17);
  const auto kernel = bfly::twiddle::bluestein_kernel(17, 36);
  std::vector<C> a(36);
  for (std::int64_t j = 0; j < 17; ++j) a[j] = x[j] * c[j];
  a = bfly::twiddle::dft_long_double(a);
  for (std::size_t j = 0; j < a.size(); ++j) a[j] = std::conj(a[j] * kernel[j]);
  a = bfly::twiddle::dft_long_double(a);
  std::vector<C> X(17);
  for (std::int64_t k = 0; k < 17; ++k) X[k] = c[k] * std::conj(a[k]);
  EXPECT_LT(relative_l2(X, direct_dft(x)), 1e-17L);
}

// Single-precision plans take the kernel from an FFT in double: within
// 1e-14 of the long-double kernel's largest entry, far below a float's 6e-8.
TEST(Chirp, DoubleKernelStaysWithinDoubleOfTheLongDoubleOne) {
  for (std::int64_t n : {29, 1019, 100003}) {
    std::int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    for (std::int64_t length : {m, m / 4 * 3 >= 2 * n - 1 ? m / 4 * 3 : m}) {
      const auto wide = bfly::twiddle::bluestein_kernel(n, length);
      const auto narrow = bfly::twiddle::bluestein_kernel_f64(n, length);
      ASSERT_EQ(wide.size(), narrow.size());
      long double worst = 0, largest = 0;
      for (std::size_t e = 0; e < wide.size(); ++e) {
        const C v(narrow[e].real(), narrow[e].imag());
        worst = std::max(worst, std::abs(v - wide[e]));
        largest = std::max(largest, std::abs(wide[e]));
      }
      EXPECT_LT(worst / largest, 1e-14L) << "n=" << n << " m=" << length;
    }
  }
  std::vector<std::complex<double>> prime_length(1019);
  EXPECT_THROW(bfly::twiddle::dft_double(prime_length), bfly::Error);
}

}  // namespace
