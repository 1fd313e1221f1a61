// The twiddle oracle (src/twiddle/oracle.*): w_n^e = exp(-2 pi i e / n)
// reduced to the first octant in integer arithmetic and evaluated in long
// double; the float tables derived from it must be correctly rounded.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "twiddle/oracle.hpp"

namespace {

using bfly::twiddle::root;
using bfly::twiddle::table_f32;
using bfly::twiddle::two_level_f32;

using ld = long double;

const ld kPi = 3.141592653589793238462643383279502884L;

// exp(-2 pi i e / n) straight from std::polar in long double, no reduction.
std::complex<ld> reference(std::int64_t e, std::int64_t n) {
  return std::polar(1.0L, -2 * kPi * static_cast<ld>(e) / static_cast<ld>(n));
}

std::string at(std::int64_t e, std::int64_t n) { return "root(" + std::to_string(e) + ", " + std::to_string(n) + ")"; }

// Exponents worth checking for n: small, around every octant boundary, near
// n, and a spread in between.
std::vector<std::int64_t> exponents(std::int64_t n) {
  std::vector<std::int64_t> es;
  for (std::int64_t e = 0; e < std::min<std::int64_t>(n, 64); ++e) es.push_back(e);
  for (std::int64_t k = 1; k <= 8; ++k)
    for (std::int64_t d = -2; d <= 2; ++d) {
      const std::int64_t e = k * n / 8 + d;
      if (e >= 0 && e < n) es.push_back(e);
    }
  const std::int64_t step = std::max<std::int64_t>(1, n / 997);
  for (std::int64_t e = 0; e < n; e += step) es.push_back(e);
  return es;
}

TEST(Oracle, AgreesWithPolarInLongDouble) {
  const ld eps = std::numeric_limits<ld>::epsilon();
  const std::vector<std::int64_t> lengths{
      1,  2,    3,    4,    5,     6,      7,      8,      9,       12,       16,        60,
      97, 1000, 1009, 4096, 65536, 531441, 823543, 390625, 1 << 20, 16777216, 100000007, std::int64_t{1} << 27};
  ld worst = 0;
  int checked = 0;
  for (std::int64_t n : lengths)
    for (std::int64_t e0 : exponents(n))
      for (std::int64_t wrap : {0, 1, -1, 3, -2}) {
        const std::int64_t e = e0 + wrap * n;  // negative and >= n reduce mod n
        const std::complex<ld> got = root(e, n);
        const std::complex<ld> want = reference(e, n);
        // The reference's own angle error grows with |e| / n.
        const ld tolerance = 16 * eps * (1 + std::abs(static_cast<ld>(e) / static_cast<ld>(n)));
        const ld error = std::abs(got - want);
        ASSERT_LE(error, tolerance) << at(e, n) << " = (" << static_cast<double>(got.real()) << ", "
                                    << static_cast<double>(got.imag()) << "), error " << static_cast<double>(error);
        ASSERT_EQ(got, root(e0, n)) << at(e, n) << " differs from " << at(e0, n);
        worst = std::max(worst, error);
        ++checked;
      }
  std::printf("[ info     ] %d roots checked, worst distance from std::polar %.3Le\n", checked, worst);
}

TEST(Oracle, HugeExponentsReduceExactly) {
  const std::int64_t n = 1000;
  for (std::int64_t e : {std::int64_t{7}, std::int64_t{999}, std::int64_t{250}})
    for (std::int64_t k : {std::int64_t{1} << 40, -(std::int64_t{1} << 40), std::int64_t{123456789}}) {
      EXPECT_EQ(root(e + k * n, n), root(e, n)) << at(e + k * n, n);
    }
  EXPECT_EQ(root(INT64_MAX, 2), root(1, 2));
  EXPECT_EQ(root(INT64_MIN, 2), root(0, 2));
}

TEST(Oracle, ExactAtMultiplesOfQuarterTurns) {
  for (std::int64_t n : {std::int64_t{4}, std::int64_t{8}, std::int64_t{12}, std::int64_t{20}, std::int64_t{1000},
                         std::int64_t{4096}, std::int64_t{3} << 20, std::int64_t{1} << 27}) {
    const std::int64_t q = n / 4;
    EXPECT_EQ(root(0, n), std::complex<ld>(1, 0)) << at(0, n);
    EXPECT_EQ(root(n, n), std::complex<ld>(1, 0)) << at(n, n);
    EXPECT_EQ(root(q, n), std::complex<ld>(0, -1)) << at(q, n);
    EXPECT_EQ(root(2 * q, n), std::complex<ld>(-1, 0)) << at(2 * q, n);
    EXPECT_EQ(root(3 * q, n), std::complex<ld>(0, 1)) << at(3 * q, n);
    EXPECT_EQ(root(-q, n), std::complex<ld>(0, 1)) << at(-q, n);
  }
  // Odd n: only e = 0 is a quarter turn, and the half turn of even n.
  for (std::int64_t n : {1, 3, 7, 1009}) EXPECT_EQ(root(0, n), std::complex<ld>(1, 0)) << at(0, n);
  for (std::int64_t n : {2, 6, 10, 1000002}) EXPECT_EQ(root(n / 2, n), std::complex<ld>(-1, 0)) << at(n / 2, n);
}

const std::vector<std::int64_t>& eighth_lengths() {
  static const std::vector<std::int64_t> lengths{8, 16, 1000, 65536, std::int64_t{5} << 20, std::int64_t{1} << 27};
  return lengths;
}

TEST(Oracle, OddEighthTurnsAreExactInWorkingPrecision) {
  // What the kernels see: the float and double roundings of w^(k n/8) are
  // (+-sqrt(1/2), +-sqrt(1/2)) with the signs of exp(-i k pi/4).
  const ld half_sqrt2 = 0.707106781186547524400844362104849039L;
  for (std::int64_t n : eighth_lengths())
    for (std::int64_t k : {1, 3, 5, 7}) {
      const std::int64_t e = k * n / 8;
      const std::complex<ld> w = root(e, n);
      const double re_sign = (k == 1 || k == 7) ? 1 : -1, im_sign = (k == 5 || k == 7) ? 1 : -1;
      EXPECT_EQ(static_cast<float>(w.real()), static_cast<float>(re_sign * half_sqrt2)) << at(e, n);
      EXPECT_EQ(static_cast<float>(w.imag()), static_cast<float>(im_sign * half_sqrt2)) << at(e, n);
      EXPECT_EQ(static_cast<double>(w.real()), static_cast<double>(re_sign * half_sqrt2)) << at(e, n);
      EXPECT_EQ(static_cast<double>(w.imag()), static_cast<double>(im_sign * half_sqrt2)) << at(e, n);
    }
}

TEST(Oracle, OddEighthTurnsHaveEqualMagnitudeComponentsInLongDouble) {
  // cos(pi/4) == sin(pi/4): an octant-reduced oracle can return the one value
  // for both; evaluating cos and sin of the rounded angle gives two.
  int unequal = 0, checked = 0;
  std::ostringstream first;
  for (std::int64_t n : eighth_lengths())
    for (std::int64_t k : {1, 3, 5, 7}) {
      const std::int64_t e = k * n / 8;
      const std::complex<ld> w = root(e, n);
      ++checked;
      if (std::abs(w.real()) == std::abs(w.imag())) continue;
      if (unequal++ == 0)
        first << at(e, n) << " = (" << std::scientific << std::setprecision(21) << w.real() << ", " << w.imag()
              << "), components differ by " << std::abs(w.real()) - std::abs(w.imag());
    }
  EXPECT_EQ(unequal, 0) << unequal << " of " << checked << " odd eighth turns have unequal components, e.g. "
                        << first.str();
}

TEST(Oracle, OctantSymmetriesHoldExactly) {
  // With the angle reduced by exact integer steps, the eight symmetric images
  // of a first-octant angle are built from the same cos and sin.
  for (std::int64_t n : {std::int64_t{8}, std::int64_t{40}, std::int64_t{4096}, std::int64_t{1000},
                         std::int64_t{3} << 16, std::int64_t{1} << 27}) {
    const std::int64_t step = std::max<std::int64_t>(1, n / 8 / 500);
    for (std::int64_t e = 0; 8 * e < n; e += step) {
      const std::complex<ld> w = root(e, n);  // (cos t, -sin t)
      if (e > 0) {
        EXPECT_EQ(root(n - e, n), std::conj(w)) << at(n - e, n);
      }
      const std::complex<ld> a = root(n / 4 - e, n), b = root(n / 2 - e, n), c = root(n / 4 + e, n);
      EXPECT_EQ(a, std::complex<ld>(-w.imag(), -w.real())) << at(n / 4 - e, n) << " vs " << at(e, n);
      EXPECT_EQ(b, std::complex<ld>(-w.real(), w.imag())) << at(n / 2 - e, n) << " vs " << at(e, n);
      EXPECT_EQ(c, std::complex<ld>(w.imag(), -w.real())) << at(n / 4 + e, n) << " vs " << at(e, n);
    }
  }
}

// Whether `f` is the float nearest to `x` (allowing either neighbour when x
// lies within the reference's own error of a rounding midpoint).
bool correctly_rounded(float f, ld x) {
  if (f == static_cast<float>(x)) return true;
  const ld below = std::nextafter(f, -2.0f), above = std::nextafter(f, 2.0f);
  const ld mid = f < x ? (static_cast<ld>(f) + above) / 2 : (static_cast<ld>(f) + below) / 2;
  return std::abs(x - mid) < 1e-17L;
}

TEST(Oracle, FloatTableIsCorrectlyRounded) {
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{7}, std::int64_t{60}, std::int64_t{256}, std::int64_t{1000},
                         std::int64_t{4096}, std::int64_t{823543}}) {
    const std::int64_t count = std::min<std::int64_t>(n, 1 << 17);
    const auto table = table_f32(n, count);
    ASSERT_EQ(table.size(), static_cast<std::size_t>(count)) << "table_f32(" << n << ")";
    for (std::int64_t j = 0; j < count; ++j) {
      const std::complex<ld> w = root(j, n);
      ASSERT_EQ(table[j], std::complex<float>(static_cast<float>(w.real()), static_cast<float>(w.imag())))
          << "table_f32(" << n << ")[" << j << "]";
      const std::complex<ld> exact = reference(j, n);
      ASSERT_TRUE(correctly_rounded(table[j].real(), exact.real()) && correctly_rounded(table[j].imag(), exact.imag()))
          << "table_f32(" << n << ")[" << j << "] = (" << table[j].real() << ", " << table[j].imag()
          << ") is not the nearest float to (" << static_cast<double>(exact.real()) << ", "
          << static_cast<double>(exact.imag()) << ")";
    }
  }
  // Counts past n wrap around.
  const auto wrapped = table_f32(8, 20);
  for (int j = 0; j < 20; ++j) EXPECT_EQ(wrapped[j], wrapped[j % 8]) << "table_f32(8, 20)[" << j << "]";
  EXPECT_EQ(wrapped[2], std::complex<float>(0, -1));
}

// The kernel's complex product (codegen/pass_kernel.cpp cmul, single precision with fmaf).
std::complex<float> kernel_cmul(std::complex<float> a, std::complex<float> b) {
  return {std::fma(a.real(), b.real(), -a.imag() * b.imag()), std::fma(a.real(), b.imag(), a.imag() * b.real())};
}

TEST(Oracle, TwoLevelTableReconstructsEveryPower) {
  struct Case {
    std::int64_t n;
    int bits;
  };
  // bits = ceil(log2(n) / 2), as make_spec chooses, plus lopsided splits.
  const std::vector<Case> cases{{64, 3},
                                {1000, 5},
                                {65536, 8},
                                {65536, 3},
                                {531441, 10},
                                {1 << 20, 10},
                                {823543, 10},
                                {390625, 10},
                                {1 << 24, 12},
                                {1 << 24, 20},
                                {std::int64_t{1} << 27, 14}};
  double worst = 0;
  for (const Case& c : cases) {
    const std::int64_t fine = std::int64_t{1} << c.bits;
    const std::int64_t coarse = (c.n + fine - 1) / fine;
    const auto table = two_level_f32(c.n, c.bits);
    ASSERT_EQ(table.size(), static_cast<std::size_t>(fine + coarse))
        << "two_level_f32(" << c.n << ", " << c.bits << ")";
    // Every exponent up to 2^20, then a stride that still visits every fine
    // and coarse entry in combination with varied partners.
    const std::int64_t step = c.n <= (1 << 20) ? 1 : 127;
    for (std::int64_t e = 0; e < c.n; e += step) {
      const std::complex<float> w = kernel_cmul(table[e & (fine - 1)], table[fine + (e >> c.bits)]);
      const std::complex<ld> exact = root(e, c.n);
      const double error = static_cast<double>(std::abs(std::complex<ld>(w.real(), w.imag()) - exact));
      worst = std::max(worst, error);
      ASSERT_LT(error, 3e-7) << "two_level_f32(" << c.n << ", " << c.bits << ") at e=" << e;
    }
    // The fine and coarse entries themselves are the rounded roots.
    for (std::int64_t j = 0; j < fine; j += std::max<std::int64_t>(1, fine / 256))
      ASSERT_EQ(table[j],
                std::complex<float>(static_cast<float>(root(j, c.n).real()), static_cast<float>(root(j, c.n).imag())))
          << "fine[" << j << "] of n=" << c.n;
    for (std::int64_t j = 0; j < coarse; j += std::max<std::int64_t>(1, coarse / 256))
      ASSERT_EQ(table[fine + j], std::complex<float>(static_cast<float>(root(j * fine, c.n).real()),
                                                     static_cast<float>(root(j * fine, c.n).imag())))
          << "coarse[" << j << "] of n=" << c.n;
  }
  std::printf("[ info     ] two-level reconstruction: worst error %.3e\n", worst);
}

}  // namespace
