#include "twiddle/rader.hpp"

#include "bfly/bfly.hpp"
#include "twiddle/host_fft.hpp"
#include "twiddle/roots.hpp"

namespace bfly::twiddle {

namespace {

using Wide = std::complex<long double>;

std::int64_t times_mod(std::int64_t a, std::int64_t b, std::int64_t p) {
  return static_cast<std::int64_t>(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b) %
                                   static_cast<unsigned __int128>(p));
}

std::int64_t power_mod(std::int64_t base, std::int64_t e, std::int64_t p) {
  std::int64_t result = 1 % p;
  for (base %= p; e > 0; e >>= 1, base = times_mod(base, base, p))
    if (e & 1) result = times_mod(result, base, p);
  return result;
}

bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

}  // namespace

std::int64_t primitive_root(std::int64_t p) {
  if (!is_prime(p))
    throw Error(ErrorCode::InvalidArgument, "Rader's algorithm needs a prime length, not " + std::to_string(p));
  if (p == 2) return 1;
  // g generates the group exactly when g^((p-1)/q) != 1 for every prime q | p-1.
  std::vector<std::int64_t> factors;
  std::int64_t rest = p - 1;
  for (std::int64_t q = 2; q * q <= rest; ++q)
    if (rest % q == 0) {
      factors.push_back(q);
      while (rest % q == 0) rest /= q;
    }
  if (rest > 1) factors.push_back(rest);
  for (std::int64_t g = 2;; ++g) {
    bool generates = true;
    for (std::int64_t q : factors) generates = generates && power_mod(g, (p - 1) / q, p) != 1;
    if (generates) return g;
  }
}

std::vector<std::int64_t> rader_powers(std::int64_t p) {
  const std::int64_t g = primitive_root(p);
  std::vector<std::int64_t> powers(static_cast<std::size_t>(p - 1));
  std::int64_t v = 1;
  for (auto& e : powers) {
    e = v;
    v = times_mod(v, g, p);
  }
  return powers;
}

std::vector<Wide> rader_kernel(std::int64_t p) {
  const std::vector<std::int64_t> powers = rader_powers(p);
  const std::int64_t L = p - 1;
  const Roots w(p);
  std::vector<Wide> b(static_cast<std::size_t>(L));
  // g^-j = g^(L - j)
  for (std::int64_t j = 0; j < L; ++j)
    b[static_cast<std::size_t>(j)] = w(powers[static_cast<std::size_t>((L - j) % L)]);
  b = dft_long_double(std::move(b));
  for (auto& v : b) v /= static_cast<long double>(L);
  return b;
}

}  // namespace bfly::twiddle
