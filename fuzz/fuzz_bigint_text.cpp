// libFuzzer target: the integers the exact products read as text, the
// whole input given to each reader:
//   - bigmul's numbers (ops::parse_big_text) and its host-side arithmetic on
//     them (ops::balanced_limbs for every limb width bigmul uses,
//     ops::residue);
//   - polymul's coefficient files (io::read_integer_lines).
// Properties: only bfly::Error escapes; parsed digits are digits of the
// base without leading zeros, zero never negative; the limbs are balanced
// and add up to the number (checked modulo primes, against a digit-by-digit
// Horner); residue agrees with that Horner; the integer lines come back one
// value per non-blank line, and written out and read again are the same.
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"
#include "io/text_file.hpp"
#include "ops/big_text.hpp"
#include "ops/modular.hpp"

namespace {

// 2^61 - 1 and a prime near 2^40: the check's 61-bit primes, and a small one.
constexpr std::uint64_t kPrimes[] = {2305843009213693951ull, 1099511627791ull};

std::uint64_t reduce(std::int64_t v, std::uint64_t p) {
  const std::int64_t r = v % static_cast<std::int64_t>(p);
  return static_cast<std::uint64_t>(r < 0 ? r + static_cast<std::int64_t>(p) : r);
}

std::uint64_t horner(const std::string& digits, bool hex, std::uint64_t p) {
  std::uint64_t v = 0;
  for (char c : digits) {
    const int d = c <= '9' ? c - '0' : c - 'a' + 10;
    v = (bfly::ops::mul_mod_wide(v, hex ? 16 : 10, p) + static_cast<std::uint64_t>(d)) % p;
  }
  return v;
}

void check_big_text(const std::string& text) {
  bfly::ops::BigText x;
  try {
    x = bfly::ops::parse_big_text(text, "first");
  } catch (const bfly::Error&) {
    return;
  }
  if (x.digits.empty() || (x.digits.size() > 1 && x.digits[0] == '0') || (x.digits == "0" && x.negative))
    bfly::fuzz::fail("'" + text + "' parsed to digits '" + x.digits + "'");
  for (char c : x.digits)
    if (!((c >= '0' && c <= '9') || (x.hex && c >= 'a' && c <= 'f') || (x.hex && c >= 'A' && c <= 'F')))
      bfly::fuzz::fail("'" + text + "' parsed to digits '" + x.digits + "'");
  std::string lower = x.digits;
  for (char& c : lower)
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  for (std::uint64_t p : kPrimes) {
    const std::uint64_t expected = horner(lower, x.hex, p);
    if (bfly::ops::residue(x.digits, x.hex, p) != expected)
      bfly::fuzz::fail("residue of '" + x.digits + "' modulo " + std::to_string(p));
    // bigmul's limb widths: up to 9 decimal or 7 hex digits.
    for (int k = 1; k <= (x.hex ? 7 : 9); ++k) {
      const std::vector<double> limbs = bfly::ops::balanced_limbs(x.digits, k, x.hex);
      std::uint64_t base = 1;
      for (int i = 0; i < k; ++i) base *= x.hex ? 16 : 10;
      std::uint64_t sum = 0, scale = 1;
      for (std::size_t i = 0; i < limbs.size(); ++i) {
        const double limb = limbs[i];
        if (!(limb >= -static_cast<double>(base / 2) && limb < static_cast<double>(base / 2)) ||
            limb != static_cast<double>(static_cast<std::int64_t>(limb)))
          bfly::fuzz::fail("limb " + std::to_string(limb) + " of '" + x.digits + "' in base " + std::to_string(base));
        sum = (sum + bfly::ops::mul_mod_wide(reduce(static_cast<std::int64_t>(limb), p), scale, p)) % p;
        scale = bfly::ops::mul_mod_wide(scale, base, p);
      }
      if (limbs.empty() || (limbs.size() > 1 && limbs.back() == 0) || sum != expected)
        bfly::fuzz::fail("the " + std::to_string(k) + "-digit limbs of '" + x.digits + "' do not add up to it");
    }
  }
}

void check_integer_lines(const std::string& text) {
  const std::string path = bfly::fuzz::write_scratch("integers.txt", text);
  std::vector<std::int64_t> values;
  try {
    values = bfly::io::read_integer_lines(path);
  } catch (const bfly::Error&) {
    return;
  }
  std::size_t lines = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (text.find_first_not_of(" \t\r", start) < end) ++lines;
    start = end + 1;
  }
  if (values.size() != lines)
    bfly::fuzz::fail(std::to_string(values.size()) + " integers from " + std::to_string(lines) + " non-blank lines");
  std::string written;
  for (std::int64_t v : values) written += std::to_string(v) + "\n";
  if (bfly::io::read_integer_lines(bfly::fuzz::write_scratch("written.txt", written)) != values)
    bfly::fuzz::fail("integers written and read again differ");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_big_text(text);
  check_integer_lines(text);
  return 0;
}
