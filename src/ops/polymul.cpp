// Exact integer polynomial multiplication (include/bfly/exact.hpp): balanced
// b-bit digits, one fp64 2D convolution (coefficient x digit), rounding,
// recombination, and the independent check modulo a random prime.
#include <bfly/convolve.hpp>
#include <bfly/exact.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "ops/modular.hpp"
#include "ops/exact_start.hpp"

namespace bfly {
namespace {

// Balanced base-2^b digits of v, least significant first: v = sum d_s 2^(b s)
// with -2^(b-1) <= d_s < 2^(b-1).
std::vector<std::int64_t> balanced_digits(std::int64_t value, int bits) {
  std::vector<std::int64_t> digits;
  __int128 v = value;
  const __int128 base = static_cast<__int128>(1) << bits, half = base / 2;
  while (v != 0) {
    __int128 d = v % base;  // in (-base, base), the sign of v
    if (d < 0) d += base;
    if (d >= half) d -= base;
    digits.push_back(static_cast<std::int64_t>(d));
    v = (v - d) / base;
  }
  return digits;
}

int digit_count(const std::vector<std::int64_t>& p, int bits) {
  // The widest coefficient needs the most digits; INT64_MIN and INT64_MAX
  // bound it, so only the extreme values need trying.
  const auto [lo, hi] = std::minmax_element(p.begin(), p.end());
  return std::max<int>(
      1, static_cast<int>(std::max(balanced_digits(*lo, bits).size(), balanced_digits(*hi, bits).size())));
}

// b-bit balanced digits: the largest sum of the digit convolution is at
// most terms * 2^(2b-2).
bool width_is_safe(int bits, std::int64_t terms, std::int64_t points) {
  return ops::sums_round_exactly(static_cast<double>(terms) * std::ldexp(1.0, 2 * bits - 2), points);
}

// a(r) mod p by Horner's rule.
std::uint64_t evaluate(const std::vector<std::int64_t>& a, std::uint64_t r, std::uint64_t p) {
  std::uint64_t v = 0;
  for (auto it = a.rbegin(); it != a.rend(); ++it) v = (ops::mul_mod(v, r, p) + ops::signed_mod(*it, p)) % p;
  return v;
}

std::uint64_t evaluate(const std::vector<WideInt>& c, std::uint64_t r, std::uint64_t p) {
  std::uint64_t v = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) v = (ops::mul_mod(v, r, p) + it->mod(p)) % p;
  return v;
}

// One attempt at b-bit digits; empty when the rounding went wrong visibly.
std::vector<WideInt> attempt(const Device& device, const std::vector<std::int64_t>& a,
                             const std::vector<std::int64_t>& b, int bits, ExactStats* stats) {
  const std::int64_t da = digit_count(a, bits), db = digit_count(b, bits);
  const std::int64_t n = static_cast<std::int64_t>(a.size()), m = static_cast<std::int64_t>(b.size());
  auto digits_of = [&](const std::vector<std::int64_t>& p, std::int64_t d) {
    std::vector<double> out(p.size() * static_cast<std::size_t>(d), 0.0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const auto digits = balanced_digits(p[i], bits);
      for (std::size_t s = 0; s < digits.size(); ++s) out[i * d + s] = static_cast<double>(digits[s]);
    }
    return out;
  };
  Convolution c;
  c.signal_shape = {n, da};
  c.kernel_shape = {m, db};
  c.precision = Precision::Double;
  Convolver convolver(device, c);
  if (stats) stats->transform_shape = convolver.transform_shape();
  const std::vector<double> ka = digits_of(b, db);
  convolver.set_kernel(ka.data());
  const std::vector<double> sa = digits_of(a, da);
  std::vector<double> sums(static_cast<std::size_t>(c.output_elements()));
  convolver.execute_host(sa.data(), sums.data());
  const std::int64_t width = da + db - 1;
  std::vector<WideInt> product(static_cast<std::size_t>(n + m - 1));
  for (std::int64_t k = 0; k < n + m - 1; ++k)
    for (std::int64_t u = 0; u < width; ++u) {
      const double x = sums[static_cast<std::size_t>(k * width + u)];
      const double r = std::nearbyint(x);
      // A sum far from an integer is a failure the check would also catch.
      if (!(std::fabs(x - r) <= 0.375) || std::fabs(r) >= std::ldexp(1.0, 62)) return {};
      product[static_cast<std::size_t>(k)].add_shifted(static_cast<std::int64_t>(r), static_cast<int>(u) * bits);
    }
  return product;
}

}  // namespace

std::vector<WideInt> polymul(const Device& device, const std::vector<std::int64_t>& a,
                             const std::vector<std::int64_t>& b, ExactStats* stats) {
  return detail::polymul_from(device, a, b, 0, stats);
}

std::vector<WideInt> detail::polymul_from(const Device& device, const std::vector<std::int64_t>& a,
                                          const std::vector<std::int64_t>& b, int start_bits, ExactStats* stats) {
  if (a.empty() || b.empty())
    throw Error(ErrorCode::InvalidArgument,
                std::string("polymul: the ") + (a.empty() ? "first" : "second") + " polynomial has no coefficients");
  const std::int64_t shorter = static_cast<std::int64_t>(std::min(a.size(), b.size()));
  const std::int64_t points = static_cast<std::int64_t>(a.size() + b.size()) * 16;
  int bits = 24;
  while (bits > 1 && !width_is_safe(bits, shorter * std::max(digit_count(a, bits), digit_count(b, bits)), points))
    --bits;
  if (start_bits > 0) bits = std::clamp(start_bits, 1, 31);  // the caller's (ops/exact_start.hpp)
  std::random_device entropy;
  std::mt19937_64 rng((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
  ExactStats local;
  ExactStats& s = stats ? *stats : local;
  for (s.attempts = 1;; ++s.attempts) {
    s.limb_bits = bits;
    std::vector<WideInt> c = attempt(device, a, b, bits, &s);
    if (!c.empty()) {
      // Two independent points, each modulo its own random prime.
      bool ok = true;
      for (int check = 0; check < 2 && ok; ++check) {
        const std::uint64_t p = ops::random_prime_61(rng), r = rng() % p;
        ok = ops::mul_mod(evaluate(a, r, p), evaluate(b, r, p), p) == evaluate(c, r, p);
      }
      if (ok) return c;
    }
    if (bits == 1)
      throw Error(ErrorCode::Device,
                  "polymul: the product failed its modular check even with 1-bit digits "
                  "(the device's fp64 convolution is wrong)");
    bits = std::max(1, bits - 3);
  }
}

}  // namespace bfly
