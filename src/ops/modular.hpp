// Exact products through fp64 convolution (ops/polymul.cpp, ops/bigmul.cpp):
// the error model that picks their digit widths, and arithmetic modulo a
// 61-bit prime for the independent check (a random prime, Horner's rule).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

namespace bfly::ops {

// The error model (docs/EXACT.md): sums of at most `largest` in magnitude,
// from an fp64 convolution over about `points` points, round to the right
// integers when they stay below 2^52 and largest * 2^-53 * 8 log2(points)
// (eight units, above the few the analyses of radix-2 FFTs give) is at most
// 1/4, half of what rounding tolerates. The modular check backs it.
inline bool sums_round_exactly(double largest, std::int64_t points) {
  const double error = largest * std::ldexp(1.0, -53) * 8.0 * std::max(1.0, std::log2(static_cast<double>(points)));
  return largest < std::ldexp(1.0, 52) && error <= 0.25;
}

// a * b mod p for any 64-bit p.
inline std::uint64_t mul_mod_wide(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}

// a * b mod p for a, b < p < 2^62: the quotient from x87 long double
// (64-bit mantissa: off by at most one), the remainder exact modulo 2^64.
// A 128-bit remainder is a library call some ten times slower, and the
// bigmul check takes one per 15 digits.
inline std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  // (Through int64: the unsigned conversions to and from long double are library calls.)
  const std::uint64_t q = static_cast<std::uint64_t>(
      static_cast<std::int64_t>(static_cast<long double>(static_cast<std::int64_t>(a)) * static_cast<std::int64_t>(b) /
                                static_cast<std::int64_t>(p)));
  const std::int64_t r = static_cast<std::int64_t>(a * b - q * p);
  return static_cast<std::uint64_t>(r < 0                               ? r + static_cast<std::int64_t>(p)
                                    : r >= static_cast<std::int64_t>(p) ? r - static_cast<std::int64_t>(p)
                                                                        : r);
}

inline std::uint64_t pow_mod(std::uint64_t a, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1 % p;
  for (a %= p; e; e >>= 1, a = mul_mod_wide(a, a, p))
    if (e & 1) r = mul_mod_wide(r, a, p);
  return r;
}

// Deterministic Miller-Rabin for n < 2^64 (the first 12 primes as bases).
inline bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t q : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % q == 0) return n == q;
  std::uint64_t d = n - 1;
  int s = 0;
  while (d % 2 == 0) d /= 2, ++s;
  for (std::uint64_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    std::uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = mul_mod_wide(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

// A uniformly drawn prime in [2^60, 2^61).
inline std::uint64_t random_prime_61(std::mt19937_64& rng) {
  for (;;) {
    const std::uint64_t n = (rng() >> 4) | (std::uint64_t{1} << 60) | 1;
    if (is_prime(n)) return n;
  }
}

// v mod p for a signed v, in [0, p).
inline std::uint64_t signed_mod(std::int64_t v, std::uint64_t p) {
  const std::uint64_t m = (v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v)) % p;
  return v < 0 && m ? p - m : m;
}

}  // namespace bfly::ops
