// ops/modular.hpp: the fast a * b mod p (long double quotient) against the
// 128-bit remainder, on random and extreme operands below 61-bit primes and
// below the largest prime the contract allows (under 2^62).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "ops/modular.hpp"

namespace {

TEST(Modular, MulModMatchesTheWideRemainder) {
  std::mt19937_64 rng(std::random_device{}());
  for (int round = 0; round < 200; ++round) {
    const std::uint64_t p = bfly::ops::random_prime_61(rng);
    ASSERT_TRUE(bfly::ops::is_prime(p));
    ASSERT_LT(p, std::uint64_t{1} << 61);
    const std::uint64_t edges[] = {0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1};
    for (std::uint64_t a : edges)
      for (std::uint64_t b : edges)
        ASSERT_EQ(bfly::ops::mul_mod(a, b, p), bfly::ops::mul_mod_wide(a, b, p)) << a << " * " << b << " mod " << p;
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t a = rng() % p, b = rng() % p;
      ASSERT_EQ(bfly::ops::mul_mod(a, b, p), bfly::ops::mul_mod_wide(a, b, p)) << a << " * " << b << " mod " << p;
    }
  }
  const std::uint64_t p = (std::uint64_t{1} << 62) - 57;  // prime
  ASSERT_TRUE(bfly::ops::is_prime(p));
  std::mt19937_64 rng2(7);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t a = i < 3 ? p - 1 - i : rng2() % p, b = i < 3 ? p - 1 : rng2() % p;
    ASSERT_EQ(bfly::ops::mul_mod(a, b, p), bfly::ops::mul_mod_wide(a, b, p)) << a << " * " << b << " mod " << p;
  }
}

}  // namespace
