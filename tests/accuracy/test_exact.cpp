// bfly::polymul against GMP (the oracle, not the engine): random and
// adversarial coefficients (every one at INT64_MAX or INT64_MIN, where the
// digits are widest and the sums largest), lengths around powers of two,
// single coefficients and zeros. Every coefficient must be exact.
#include <bfly/exact.hpp>

#include <limits>
#include <random>

#include "accuracy/fixture.hpp"
#include "ops/exact_start.hpp"

#ifdef BFLY_TEST_HAVE_GMP
#include <gmp.h>
#endif

namespace bfly::test {
namespace {

class Exact : public Accuracy {};

// Where a length sits beside a power of two: a length's padded FFT and its
// digit count change there. The quick tier samples the lengths by it.
std::string beside_power_of_two(std::size_t n) {
  if ((n & (n - 1)) == 0) return "power of two";
  return (n & (n + 1)) == 0 ? "one below" : "above";
}

#ifdef BFLY_TEST_HAVE_GMP
// The product by schoolbook multiplication in GMP, as decimal strings.
std::vector<std::string> gmp_product(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  std::vector<std::string> out(a.size() + b.size() - 1);
  mpz_t sum, x, y;
  mpz_inits(sum, x, y, nullptr);
  auto set = [](mpz_t z, std::int64_t v) {
    // mpz_set_si takes a long (64 bits here); kept explicit for INT64_MIN.
    mpz_set_si(z, static_cast<long>(v));
  };
  for (std::size_t k = 0; k < out.size(); ++k) {
    mpz_set_ui(sum, 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (k < i || k - i >= b.size()) continue;
      set(x, a[i]);
      set(y, b[k - i]);
      mpz_addmul(sum, x, y);
    }
    char* text = mpz_get_str(nullptr, 10, sum);
    out[k] = text;
    void (*release)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &release);
    release(text, std::strlen(text) + 1);
  }
  mpz_clears(sum, x, y, nullptr);
  return out;
}
#endif

void expect_exact(const Device& device, const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
                  const std::string& what) {
#ifdef BFLY_TEST_HAVE_GMP
  ExactStats stats;
  const std::vector<WideInt> c = polymul(device, a, b, &stats);
  const std::vector<std::string> want = gmp_product(a, b);
  ASSERT_EQ(c.size(), want.size()) << what;
  std::size_t wrong = 0, first = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (c[k].to_string() != want[k] && wrong++ == 0) first = k;
  EXPECT_EQ(wrong, 0u) << what << ": coefficient " << first << " is " << c[first].to_string() << ", GMP's "
                       << want[first];
  std::printf(
      "[ exact    ] %-60s %zu x %zu: %d-bit digits, %d attempt(s), convolution %s\n", what.c_str(), a.size(), b.size(),
      stats.limb_bits, stats.attempts,
      stats.transform_shape.empty()
          ? "-"
          : (std::to_string(stats.transform_shape[0]) + "x" + std::to_string(stats.transform_shape[1])).c_str());
#else
  (void)device, (void)a, (void)b, (void)what;
  GTEST_SKIP() << "GMP (libgmp-dev) not found at build time: no oracle";
#endif
}

std::vector<std::int64_t> random_coefficients(std::mt19937_64& rng, std::size_t n, int bits) {
  std::vector<std::int64_t> v(n);
  for (auto& x : v) {
    const std::uint64_t r = rng();
    x = bits >= 64 ? static_cast<std::int64_t>(r)
                   : static_cast<std::int64_t>(r >> (64 - bits)) - (std::int64_t{1} << (bits - 1));
  }
  return v;
}

// The quick tier: the lengths of the INT64_MAX and widest-digit factors
// sampled, one on each side of a power of two and one past 4096.
TEST_P(Exact, PolymulMatchesGmp) {
  std::mt19937_64 rng = engine_for("Exact.PolymulMatchesGmp data");
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  expect_exact(device(), {3}, {-7}, "single coefficients");
  expect_exact(device(), {0, 0, 0}, {1, 2}, "zeros");
  expect_exact(device(), {kMin}, {kMin}, "INT64_MIN squared (2^126)");
  expect_exact(device(), random_coefficients(rng, 100, 64), random_coefficients(rng, 37, 64), "random int64");
  expect_exact(device(), random_coefficients(rng, 1000, 8), random_coefficients(rng, 999, 20), "random small");
  for (std::size_t n : sample("polymul INT64_MAX lengths", std::vector<std::size_t>{255, 256, 257, 4095, 4096, 4097}, 3,
                              beside_power_of_two))
    expect_exact(device(), std::vector<std::int64_t>(n, kMax), std::vector<std::int64_t>(n, kMax),
                 "every coefficient INT64_MAX, n = " + std::to_string(n));
  // The worst case of the error model: every digit at its largest magnitude
  // for the width the model picks at these sizes (INT64_MAX's balanced
  // digits are small: -1, 0, ..., 2^k).
  for (std::size_t n : sample("polymul widest-digit lengths", std::vector<std::size_t>{1000, 4096, 20000}, 2,
                              [](std::size_t m) { return m > 4096 ? "long" : "short"; })) {
    ExactStats probe;
    polymul(device(), random_coefficients(rng, n, 64), random_coefficients(rng, n, 64), &probe);
    const int b = probe.limb_bits;
    std::int64_t v = 0;
    for (int shift = 0; shift + b <= 62; shift += b) v += ((std::int64_t{1} << (b - 1)) - 1) << shift;
    expect_exact(device(), std::vector<std::int64_t>(n, v), std::vector<std::int64_t>(n, -v),
                 "every digit at its maximum (" + std::to_string(b) + " bits), n = " + std::to_string(n));
  }
  expect_exact(device(), std::vector<std::int64_t>(3000, kMin), std::vector<std::int64_t>(2000, kMin),
               "every coefficient INT64_MIN");
  std::vector<std::int64_t> alternating(2048);
  for (std::size_t i = 0; i < alternating.size(); ++i) alternating[i] = i % 2 ? kMin : kMax;
  expect_exact(device(), alternating, alternating, "alternating INT64_MAX, INT64_MIN");
}

// Digits far too wide for fp64 (forced): the modular check must reject the
// rounded product and the retries must end exact.
TEST_P(Exact, CheckCatchesUnsafeDigitWidths) {
#ifdef BFLY_TEST_HAVE_GMP
  std::mt19937_64 rng = engine_for("Exact.CheckCatchesUnsafeDigitWidths data");
  const std::vector<std::int64_t> a = random_coefficients(rng, 2048, 64);
  ExactStats stats;
  const std::vector<WideInt> c = detail::polymul_from(device(), a, a, 30, &stats);
  EXPECT_GT(stats.attempts, 1) << "30-bit digits passed the check";
  const std::vector<std::string> want = gmp_product(a, a);
  for (std::size_t k = 0; k < want.size(); ++k) ASSERT_EQ(c[k].to_string(), want[k]) << "coefficient " << k;
  std::printf("[ exact    ] forced 30-bit digits: %d attempts, passed at %d bits\n", stats.attempts, stats.limb_bits);
#else
  GTEST_SKIP() << "GMP (libgmp-dev) not found at build time: no oracle";
#endif
}

#ifdef BFLY_TEST_HAVE_GMP
std::string gmp_multiply(const std::string& x, const std::string& y, int base) {
  mpz_t a, b, c;
  mpz_inits(a, b, c, nullptr);
  auto set = [&](mpz_t z, const std::string& text) {
    std::string t = text;
    const bool negative = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t = t.substr(1);  // GMP takes no sign but '-'
    if (base == 16) t = t.substr(2);
    EXPECT_EQ(mpz_set_str(z, t.c_str(), base), 0) << text.substr(0, 40);
    if (negative) mpz_neg(z, z);
  };
  set(a, x);
  set(b, y);
  mpz_mul(c, a, b);
  std::string out(mpz_sizeinbase(c, base) + 2, '\0');
  mpz_get_str(&out[0], base, c);
  out.resize(std::strlen(out.c_str()));
  mpz_clears(a, b, c, nullptr);
  if (base == 16) out = out[0] == '-' ? "-0x" + out.substr(1) : "0x" + out;
  return out;
}
#endif

std::string random_digits(std::mt19937_64& rng, std::size_t n, bool hex) {
  static const char* kDigits = "0123456789abcdef";
  std::string s(n, '0');
  for (auto& c : s) c = kDigits[rng() % (hex ? 16 : 10)];
  s[0] = kDigits[1 + rng() % (hex ? 15 : 9)];
  return (hex ? "0x" : "") + s;
}

TEST_P(Exact, BigmulMatchesGmp) {
#ifdef BFLY_TEST_HAVE_GMP
  // The quick tier: the long factors' lengths sampled, each side of a power
  // of two with short and long ones; the short cases whole.
  std::mt19937_64 rng = engine_for("Exact.BigmulMatchesGmp data");
  auto stratum = [](std::size_t n) { return beside_power_of_two(n) + (n > 1024 ? " long" : " short"); };
  std::vector<std::pair<std::string, std::string>> cases = {{"0", "12345"}, {"1", "-1"},      {"-0", "7"},
                                                            {"999", "999"}, {"-0x1", "0xff"}, {"+42", "000123"}};
  for (std::size_t n :
       sample("bigmul decimal lengths", std::vector<std::size_t>{1, 4, 5, 1023, 1024, 1025, 4096, 20000}, 5, stratum))
    cases.push_back({random_digits(rng, n, false), random_digits(rng, n / 2 + 1, false)});
  // every digit 9: the largest limbs
  for (std::size_t n :
       sample("bigmul all-nines lengths", std::vector<std::size_t>{4095, 4096, 4097, 30000}, 3, stratum))
    cases.push_back({std::string(n, '9'), "-" + std::string(n, '9')});
  for (std::size_t n : sample("bigmul hex lengths", std::vector<std::size_t>{3, 3000, 16384}, 2,
                              [](std::size_t m) { return m > 1024 ? "long" : "short"; }))
    cases.push_back({"0x" + std::string(n, 'f'), random_digits(rng, n, true)});
  for (const auto& [x, y] : cases) {
    const bool hex = x.find("0x") != std::string::npos;
    ExactStats stats;
    const std::string got = bigmul(device(), x, y, &stats);
    const std::string want = gmp_multiply(x, y, hex ? 16 : 10);
    EXPECT_EQ(got, want) << x.substr(0, 30) << " x " << y.substr(0, 30);
    std::printf("[ bigmul   ] %zu x %zu %s digits: %d a limb, %d attempt(s)\n", x.size(), y.size(),
                hex ? "hex" : "decimal", stats.limb_digits, stats.attempts);
  }
  ExactStats stats;
  const std::string x = random_digits(rng, 50000, false), y = random_digits(rng, 50000, false);
  const std::string got = detail::bigmul_from(device(), x, y, 8, &stats);  // far too wide: the check must send it back
  EXPECT_GT(stats.attempts, 1);
  EXPECT_EQ(got, gmp_multiply(x, y, 10));
  std::printf("[ bigmul   ] forced 8 digits a limb: %d attempts, passed at %d\n", stats.attempts, stats.limb_digits);
  EXPECT_THROW(bigmul(device(), "12a", "3"), Error);
  EXPECT_THROW(bigmul(device(), "0x12", "3"), Error);
  EXPECT_THROW(bigmul(device(), "", "3"), Error);
#else
  GTEST_SKIP() << "GMP (libgmp-dev) not found at build time: no oracle";
#endif
}

TEST_P(Exact, RejectsEmptyFactors) {
  EXPECT_THROW(polymul(device(), {}, {1}), Error);
  EXPECT_THROW(polymul(device(), {1}, {}), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, Exact, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
