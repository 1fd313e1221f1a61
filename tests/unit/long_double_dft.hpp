// Host-side references for the table tests (test_chirp.cpp, test_rader.cpp):
// a direct DFT in long double, random data, the relative L2 distance.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace bfly::test {

using LongComplex = std::complex<long double>;

inline const long double kPiLong = 3.141592653589793238462643383279502884L;

inline std::vector<LongComplex> direct_dft(const std::vector<LongComplex>& x) {
  const std::size_t n = x.size();
  std::vector<LongComplex> out(n);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j)
      out[k] +=
          x[j] * std::polar(1.0L, -2 * kPiLong * static_cast<long double>((j * k) % n) / static_cast<long double>(n));
  return out;
}

inline std::vector<LongComplex> random_vector(std::size_t n) {
  std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<long double> uniform(-1, 1);
  std::vector<LongComplex> x(n);
  for (auto& v : x) v = {uniform(engine), uniform(engine)};
  return x;
}

inline long double relative_l2(const std::vector<LongComplex>& y, const std::vector<LongComplex>& ref) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < y.size(); ++i) diff += std::norm(y[i] - ref[i]), norm += std::norm(ref[i]);
  return std::sqrt(diff / norm);
}

}  // namespace bfly::test
