// bfly bench --app bigmul: products of two random n-digit decimal numbers,
// bfly::bigmul beside GMP's mpz_mul on the same inputs (GMP when the CLI
// was built with it: libgmp-dev). Multiplication and conversion are timed
// apart: for bfly the convolution with its transfers and the carries
// (ExactStats::multiply_ms), beside the digits to limbs and back
// (convert_ms) and the modular check (check_ms); for GMP mpz_mul, beside
// mpz_set_str and mpz_get_str. Every product is compared with GMP's.
#include <bfly/exact.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "bench_bigmul.hpp"
#include "io/memory_budget.hpp"

#if BFLY_HAVE_GMP
#include <gmp.h>
#endif

namespace bfly::cli {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string random_digits(std::int64_t n, std::mt19937_64& rng) {
  std::string s(static_cast<std::size_t>(n), '0');
  for (auto& c : s) c = static_cast<char>('0' + rng() % 10);
  s[0] = static_cast<char>('1' + rng() % 9);
  return s;
}

// The runs a size gets: products of 10^8 digits take GMP seconds.
int repetitions_for(std::int64_t digits, int asked) {
  if (digits >= 50000000) return 1;
  if (digits >= 5000000) return std::min(asked, 3);
  return asked;
}

}  // namespace

int run_bigmul_bench(const Device& device, const BigmulBenchOptions& o) {
  for (std::int64_t n : o.digits)
    if (n < 1)
      throw Error(ErrorCode::InvalidArgument, "bench --app bigmul: digit count " + std::to_string(n) + " (at least 1)");
  // A product takes more than a byte of device memory a digit (a limb of a
  // few digits is a real value) in one buffer, and its two numbers a byte a
  // digit on the host: refused before the digits are made where that passes.
  const io::HostMemory host = io::host_memory();
  for (std::int64_t n : o.digits) {
    io::MemoryNeeds needs;
    needs.what = "bench --app bigmul of " + std::to_string(n) + " digits";
    needs.at(2 * static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(n));
    io::check_memory(needs, host, &device.info());
  }
  std::printf("bfly bench --app bigmul: products of two random n-digit decimal numbers on %s, beside GMP %s\n",
              device.info().name.c_str(),
#if BFLY_HAVE_GMP
              gmp_version
#else
              "(not built in: install libgmp-dev and rebuild)"
#endif
  );
  std::printf("%-11s %6s %12s %11s %9s %11s %12s %12s %10s %s\n", "digits", "limb", "bfly mul ms", "convert ms",
              "check ms", "total ms", "GMP mul ms", "GMP conv ms", "GMP/bfly", "product");
  std::mt19937_64 rng(2026);
  int status = 0;
  for (std::int64_t n : o.digits) {
    const std::string x = random_digits(n, rng), y = random_digits(n, rng);
    const int reps = repetitions_for(n, o.repetitions);
    ExactStats stats;
    std::string product = bigmul(device, x, y, &stats);  // warm-up: kernels and tables
    std::vector<double> mul, convert, check, total;
    for (int r = 0; r < reps; ++r) {
      const auto start = Clock::now();
      product = bigmul(device, x, y, &stats);
      total.push_back(ms_since(start));
      mul.push_back(stats.multiply_ms);
      convert.push_back(stats.convert_ms);
      check.push_back(stats.check_ms);
    }
    char gmp_mul[32] = "-", gmp_conv[32] = "-", ratio[32] = "-";
    const char* verdict = "not compared";
#if BFLY_HAVE_GMP
    mpz_t a, b, c;
    mpz_inits(a, b, c, nullptr);
    auto start = Clock::now();
    mpz_set_str(a, x.c_str(), 10);
    mpz_set_str(b, y.c_str(), 10);
    double conversion = ms_since(start);
    std::vector<double> gmp;
    for (int r = 0; r < reps; ++r) {
      start = Clock::now();
      mpz_mul(c, a, b);
      gmp.push_back(ms_since(start));
    }
    start = Clock::now();
    std::string text(mpz_sizeinbase(c, 10) + 2, '\0');
    mpz_get_str(text.data(), 10, c);
    text.resize(std::char_traits<char>::length(text.c_str()));
    conversion += ms_since(start);
    mpz_clears(a, b, c, nullptr);
    const bool same = text == product;
    verdict = same ? "equal to GMP's" : "DIFFERS from GMP's";
    if (!same) status = 1;
    std::snprintf(gmp_mul, sizeof gmp_mul, "%.2f", median(gmp));
    std::snprintf(gmp_conv, sizeof gmp_conv, "%.2f", conversion);
    std::snprintf(ratio, sizeof ratio, "%.2fx", median(gmp) / median(mul));
#endif
    std::printf("%-11lld %6d %12.2f %11.2f %9.2f %11.2f %12s %12s %10s %s\n", static_cast<long long>(n),
                stats.limb_digits, median(mul), median(convert), median(check), median(total), gmp_mul, gmp_conv, ratio,
                verdict);
  }
  std::printf(
      "limb = decimal digits a limb; bfly mul = the fp64 convolution (transfers, plans, FFTs) and the carries; "
      "convert = digits to limbs and back;\ncheck = the product modulo two random 61-bit primes; total = "
      "bfly::bigmul from text to text; GMP mul = mpz_mul alone; GMP conv = mpz_set_str twice and mpz_get_str; "
      "GMP/bfly = GMP mul / bfly mul; medians\n");
  return status;
}

}  // namespace bfly::cli
