// Exact multiplication of big integers written as text (include/bfly/exact.hpp):
// no base conversion at all, the product is computed in the base the
// numbers are written in (10^k or 16^k a limb), so reading and writing
// 10^8 digits stays linear.
#include <bfly/convolve.hpp>
#include <bfly/exact.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <type_traits>

#include "ops/big_text.hpp"
#include "ops/modular.hpp"
#include "ops/exact_start.hpp"

namespace bfly {
namespace ops {
namespace {

int digit_value(char c, bool hex) {
  if (c >= '0' && c <= '9') return c - '0';
  if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

BigText parse_big_text(const std::string& text, const char* which) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  const std::string t = first == std::string::npos ? "" : text.substr(first, last - first + 1);
  BigText p;
  std::size_t at = 0;
  if (at < t.size() && (t[at] == '+' || t[at] == '-')) p.negative = t[at++] == '-';
  if (t.compare(at, 2, "0x") == 0 || t.compare(at, 2, "0X") == 0) p.hex = true, at += 2;
  auto quote = [&] { return "'" + (t.size() > 40 ? t.substr(0, 37) + "..." : t) + "'"; };
  if (at == t.size())
    throw Error(ErrorCode::InvalidArgument,
                std::string("bigmul: the ") + which + " number " + quote() + " has no digits");
  for (std::size_t i = at; i < t.size(); ++i)
    if (digit_value(t[i], p.hex) < 0)
      throw Error(ErrorCode::InvalidArgument,
                  std::string("bigmul: the ") + which + " number " + quote() + " has '" + std::string(1, t[i]) +
                      "' at character " + std::to_string(i + 1) + " (expected " +
                      (p.hex ? "hex digits" : "decimal digits, or 0x and hex digits") + ")");
  const std::size_t nonzero = t.find_first_not_of('0', at);
  p.digits = nonzero == std::string::npos ? "0" : t.substr(nonzero);
  if (p.digits == "0") p.negative = false;
  return p;
}

// Limbs of k digits, least significant first, balanced: each in [-B/2, B/2).
std::vector<double> balanced_limbs(const std::string& digits, int k, bool hex) {
  const std::int64_t base =
      hex ? std::int64_t{1} << (4 * k) : static_cast<std::int64_t>(std::llround(std::pow(10.0, k)));
  const std::int64_t n = static_cast<std::int64_t>(digits.size());
  std::vector<std::int64_t> limbs(static_cast<std::size_t>((n + k - 1) / k));
  std::size_t at = 0;
  for (std::int64_t end = n; end > 0; end -= k) {
    std::int64_t v = 0;
    const std::int64_t begin = std::max<std::int64_t>(0, end - k);
    if (hex) {
      for (std::int64_t i = begin; i < end; ++i) v = v * 16 + digit_value(digits[i], true);
    } else {
      for (std::int64_t i = begin; i < end; ++i) v = v * 10 + (digits[i] - '0');  // (validated by parse)
    }
    limbs[at++] = v;
  }
  std::vector<double> out(limbs.size() + 1, 0.0);
  std::int64_t carry = 0;
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    std::int64_t d = limbs[i] + carry;
    carry = 0;
    if (d >= base / 2) d -= base, carry = 1;
    out[i] = static_cast<double>(d);
  }
  out[limbs.size()] = static_cast<double>(carry);
  while (out.size() > 1 && out.back() == 0) out.pop_back();
  return out;
}

// The number modulo p, from its digits, 15 at a time (below 2^60 either base).
std::uint64_t residue(const std::string& digits, bool hex, std::uint64_t p) {
  const std::uint64_t radix = hex ? 16 : 10;
  std::uint64_t full_scale = 1;  // radix^15, the scale of every whole chunk
  for (int i = 0; i < 15; ++i) full_scale *= radix;
  full_scale %= p;
  std::uint64_t v = 0;
  for (std::size_t at = 0; at < digits.size(); at += 15) {
    const std::size_t end = std::min(digits.size(), at + 15);
    std::uint64_t chunk = 0, scale = 1;
    if (hex) {
      for (std::size_t i = at; i < end; ++i)
        chunk = chunk * 16 + static_cast<std::uint64_t>(digit_value(digits[i], true)), scale *= 16;
    } else {
      for (std::size_t i = at; i < end; ++i)
        chunk = chunk * 10 + static_cast<std::uint64_t>(digits[i] - '0'), scale *= 10;
    }
    v = ops::mul_mod(v, end - at == 15 ? full_scale : scale % p, p) + chunk % p;
    if (v >= p) v -= p;
  }
  return v;
}

}  // namespace ops

namespace {

using ops::BigText;

// Balanced limbs of at most half_base in magnitude.
bool width_is_safe(std::int64_t terms, double half_base, std::int64_t points) {
  return ops::sums_round_exactly(static_cast<double>(terms) * half_base * half_base, points);
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One attempt with k digits a limb; empty when the rounding failed visibly.
std::string attempt(const Device& device, const BigText& x, const BigText& y, int k, ExactStats& stats) {
  auto start = Clock::now();
  const std::vector<double> a = ops::balanced_limbs(x.digits, k, x.hex), b = ops::balanced_limbs(y.digits, k, x.hex);
  stats.convert_ms += ms_since(start);
  start = Clock::now();
  Convolution c;
  c.signal_shape = {static_cast<std::int64_t>(a.size())};
  c.kernel_shape = {static_cast<std::int64_t>(b.size())};
  c.precision = Precision::Double;
  std::vector<double> sums = convolve(device, c, a.data(), b.data());
  const std::int64_t base =
      x.hex ? std::int64_t{1} << (4 * k) : static_cast<std::int64_t>(std::llround(std::pow(10.0, k)));
  // Carry into limbs in [0, base); the product of magnitudes is not
  // negative. Sums past 2^62 cannot be right (the error model keeps them
  // below 2^53), and below that the carries stay within 64 bits.
  std::vector<std::int64_t> limbs(sums.size());
  std::int64_t carry = 0;
  bool sane = true;
  const auto carry_with = [&](auto divisor) {  // a constant divisor where the base is known: no division instruction
    for (std::size_t i = 0; i < sums.size(); ++i) {
      const double s = sums[i], r = std::nearbyint(s);
      if (!(std::fabs(s - r) <= 0.375 && std::fabs(r) < 4.6e18)) {
        sane = false;
        return;
      }
      const std::int64_t v = static_cast<std::int64_t>(r) + carry;
      std::int64_t q = v / divisor, d = v - q * divisor;
      if (d < 0) d += divisor, --q;
      carry = q;
      limbs[i] = d;
    }
  };
  switch (x.hex ? 0 : k) {
    case 1:
      carry_with(std::integral_constant<std::int64_t, 10>{});
      break;
    case 2:
      carry_with(std::integral_constant<std::int64_t, 100>{});
      break;
    case 3:
      carry_with(std::integral_constant<std::int64_t, 1000>{});
      break;
    case 4:
      carry_with(std::integral_constant<std::int64_t, 10000>{});
      break;
    case 5:
      carry_with(std::integral_constant<std::int64_t, 100000>{});
      break;
    default:
      carry_with(base);
  }
  if (!sane) return {};
  while (carry > 0) {
    limbs.push_back(carry % base);
    carry /= base;
  }
  if (carry < 0) return {};  // a negative product of magnitudes: the sums were wrong
  while (limbs.size() > 1 && limbs.back() == 0) limbs.pop_back();
  stats.multiply_ms += ms_since(start);
  start = Clock::now();
  static const char* kDigits = "0123456789abcdef";
  std::string out(limbs.size() * static_cast<std::size_t>(k), '0');
  char* at = out.data();
  for (std::size_t i = limbs.size(); i-- > 0; at += k) {
    std::uint64_t v = static_cast<std::uint64_t>(limbs[i]);
    if (x.hex) {
      for (int j = k - 1; j >= 0; --j, v >>= 4) at[j] = kDigits[v & 15];
    } else {
      for (int j = k - 1; j >= 0; --j, v /= 10) at[j] = static_cast<char>('0' + v % 10);
    }
  }
  const std::size_t nonzero = out.find_first_not_of('0');
  std::string product = nonzero == std::string::npos ? "0" : out.substr(nonzero);
  stats.convert_ms += ms_since(start);
  return product;
}

}  // namespace

std::string bigmul(const Device& device, const std::string& x_text, const std::string& y_text, ExactStats* stats) {
  return detail::bigmul_from(device, x_text, y_text, 0, stats);
}

std::string detail::bigmul_from(const Device& device, const std::string& x_text, const std::string& y_text,
                                int start_digits, ExactStats* stats) {
  const BigText x = ops::parse_big_text(x_text, "first"), y = ops::parse_big_text(y_text, "second");
  if (x.hex != y.hex)
    throw Error(ErrorCode::InvalidArgument, "bigmul: one number is hex and the other decimal (write both in one base)");
  const bool negative = x.negative != y.negative && x.digits != "0" && y.digits != "0";
  const std::string prefix = std::string(negative ? "-" : "") + (x.hex ? "0x" : "");
  ExactStats local;
  ExactStats& s = stats ? *stats : local;
  s = ExactStats{};
  const std::int64_t longest = static_cast<std::int64_t>(std::max(x.digits.size(), y.digits.size()));
  int k = x.hex ? 3 : 4;
  const auto terms = [&](int digits) {
    return static_cast<std::int64_t>(std::min(x.digits.size(), y.digits.size())) / digits + 2;
  };
  const auto half = [&](int digits) { return 0.5 * std::pow(x.hex ? 16.0 : 10.0, digits); };
  while (k > 1 && !width_is_safe(terms(k), half(k), 2 * longest / k + 2)) --k;
  if (start_digits > 0) k = std::clamp(start_digits, 1, x.hex ? 7 : 9);  // the caller's (ops/exact_start.hpp)
  std::random_device entropy;
  std::mt19937_64 rng((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
  for (s.attempts = 1;; ++s.attempts) {
    s.limb_digits = k;
    const std::string product = attempt(device, x, y, k, s);
    bool ok = !product.empty();
    const auto start = Clock::now();
    for (int check = 0; check < 2 && ok; ++check) {
      const std::uint64_t p = ops::random_prime_61(rng);
      ok = ops::mul_mod(ops::residue(x.digits, x.hex, p), ops::residue(y.digits, x.hex, p), p) ==
           ops::residue(product, x.hex, p);
    }
    s.check_ms += ms_since(start);
    if (ok) return prefix + product;
    if (k == 1)
      throw Error(ErrorCode::Device,
                  "bigmul: the product failed its modular check even with one digit a limb "
                  "(the device's fp64 convolution is wrong)");
    --k;
  }
}

}  // namespace bfly
