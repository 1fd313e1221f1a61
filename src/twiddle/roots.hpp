// Host-side helpers of the long-double tables (chirp.cpp, rader.cpp): roots
// of unity in bulk from few oracle calls, and a complex product without
// the library's checks.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "twiddle/oracle.hpp"

namespace bfly::twiddle {

// a * b written out: std::complex's operator* checks for infinities and
// NaNs through a library call (__mulxc3), which dominated these loops.
inline std::complex<long double> times(const std::complex<long double>& a, const std::complex<long double>& b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// w_n^e for e < n as fine[e % B] * coarse[e / B] with B about sqrt(n):
// some 2 sqrt(n) calls of the oracle instead of one an entry. Each product
// is within a few units in the last place of long double (about 1e-19), far
// below what the tables keep (a double's half unit is 1.1e-16).
class Roots {
 public:
  explicit Roots(std::int64_t n) {
    while (block_ * block_ < n) block_ *= 2;
    fine_.resize(static_cast<std::size_t>(block_));
    for (std::int64_t j = 0; j < block_; ++j) fine_[static_cast<std::size_t>(j)] = root(j, n);
    coarse_.resize(static_cast<std::size_t>((n + block_ - 1) / block_));
    for (std::size_t q = 0; q < coarse_.size(); ++q) coarse_[q] = root(static_cast<std::int64_t>(q) * block_, n);
  }
  std::complex<long double> operator()(std::int64_t e) const {
    return times(fine_[static_cast<std::size_t>(e % block_)], coarse_[static_cast<std::size_t>(e / block_)]);
  }

 private:
  std::int64_t block_ = 1;
  std::vector<std::complex<long double>> fine_, coarse_;
};

}  // namespace bfly::twiddle
