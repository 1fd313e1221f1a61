// Rader's tables (src/twiddle/rader.*): the primitive root, the generator's
// powers as a permutation, the long-double DFT of any length, and the whole
// Rader identity checked against a direct DFT on the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "bfly/bfly.hpp"
#include "long_double_dft.hpp"
#include "twiddle/chirp.hpp"
#include "twiddle/rader.hpp"

namespace {

using ld = long double;
using C = std::complex<ld>;

using bfly::test::direct_dft;
using bfly::test::random_vector;
using bfly::test::relative_l2;

TEST(Rader, PrimitiveRootsAreTheSmallestGenerators) {
  EXPECT_EQ(bfly::twiddle::primitive_root(2), 1);
  EXPECT_EQ(bfly::twiddle::primitive_root(3), 2);
  EXPECT_EQ(bfly::twiddle::primitive_root(7), 3);
  EXPECT_EQ(bfly::twiddle::primitive_root(29), 2);
  EXPECT_EQ(bfly::twiddle::primitive_root(41), 6);
  EXPECT_EQ(bfly::twiddle::primitive_root(65537), 3);
  EXPECT_EQ(bfly::twiddle::primitive_root(2147483647), 7);       // 2^31 - 1
  EXPECT_THROW(bfly::twiddle::primitive_root(91), bfly::Error);  // 7 * 13
  EXPECT_THROW(bfly::twiddle::primitive_root(1), bfly::Error);
}

// g^0..g^(p-2) visit every nonzero residue once.
TEST(Rader, PowersArePermutationsOfTheNonzeroResidues) {
  for (std::int64_t p : {2, 3, 5, 29, 31, 1019, 4093, 65537}) {
    std::vector<std::int64_t> powers = bfly::twiddle::rader_powers(p);
    ASSERT_EQ(static_cast<std::int64_t>(powers.size()), p - 1);
    EXPECT_EQ(powers[0], 1);
    std::sort(powers.begin(), powers.end());
    for (std::int64_t j = 0; j < p - 1; ++j) ASSERT_EQ(powers[static_cast<std::size_t>(j)], j + 1) << "p=" << p;
  }
}

TEST(Rader, LongDoubleDftOfAnyLengthMatchesTheDirectDft) {
  // powers of two, 31-smooth (mixed radix) and not (Bluestein)
  for (std::size_t n : {1u, 2u, 3u, 12u, 28u, 64u, 97u, 1018u, 1260u, 2 * 3 * 5 * 23u}) {
    const auto x = random_vector(n);
    EXPECT_LT(relative_l2(bfly::twiddle::dft_long_double(x), direct_dft(x)), 1e-17L) << "n=" << n;
  }
}

// The identity the kernels compute: X[0] = x[0] + sum a, X[g^-q] = x[0] +
// IFFT_L(FFT_L(a) * kernel)[q] with a[m] = x[g^m] (the kernel holds 1/L).
TEST(Rader, IdentityGivesTheDft) {
  for (std::int64_t p : {3, 5, 29, 31, 37, 257, 1019}) {
    const std::int64_t L = p - 1;
    const auto x = random_vector(static_cast<std::size_t>(p));
    const auto powers = bfly::twiddle::rader_powers(p);
    const auto kernel = bfly::twiddle::rader_kernel(p);
    std::vector<C> a(static_cast<std::size_t>(L));
    for (std::int64_t m = 0; m < L; ++m) a[m] = x[powers[m]];
    a = bfly::twiddle::dft_long_double(a);
    C sum = a[0];
    for (std::int64_t e = 0; e < L; ++e) a[e] = std::conj(a[e] * kernel[e]);
    a = bfly::twiddle::dft_long_double(a);
    std::vector<C> X(static_cast<std::size_t>(p));
    X[0] = x[0] + sum;
    for (std::int64_t q = 0; q < L; ++q) X[powers[(L - q) % L]] = x[0] + std::conj(a[q]);
    EXPECT_LT(relative_l2(X, direct_dft(x)), 1e-17L) << "p=" << p;
  }
}

}  // namespace
