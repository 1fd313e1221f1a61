#include "twiddle/oracle.hpp"

#include <cmath>

namespace bfly::twiddle {

namespace {

const long double kTwoPi = 6.283185307179586476925286766559005768L;

// cos and sin of 2 pi num / den for 0 <= num/den <= 1/8.
std::complex<long double> first_octant(std::int64_t num, std::int64_t den) {
  if (8 * num == den) {
    // Exactly pi/4: both components are sqrt(1/2); cosl and sinl may differ
    // in the last bit, which would break the symmetry of the table.
    const long double h = std::sqrt(0.5L);
    return {h, h};
  }
  const long double angle = kTwoPi * static_cast<long double>(num) / static_cast<long double>(den);
  return {std::cos(angle), std::sin(angle)};
}

}  // namespace

std::complex<long double> root(std::int64_t e, std::int64_t n) {
  e %= n;
  if (e < 0) e += n;
  // Reduce theta = 2 pi e / n to [0, pi/4] with exact integer arithmetic on
  // the fraction e/n (kept as num/den); each step records how cos and sin map.
  bool conj = false;  // theta in (pi, 2 pi): cos(theta) = cos(2pi - theta), sin negated
  std::int64_t num = e, den = n;
  if (2 * num > den) {
    num = den - num;
    conj = true;
  }
  bool reflect_half = false;  // theta in (pi/2, pi]: cos negated, sin kept
  if (4 * num > den) {
    num = den - 2 * num;
    den *= 2;
    reflect_half = true;
  }
  bool swap = false;  // theta in (pi/4, pi/2]: cos and sin swap
  if (8 * num > den) {
    num = den - 4 * num;
    den *= 4;
    swap = true;
  }
  std::complex<long double> v = first_octant(num, den);
  long double c = v.real(), s = v.imag();
  if (swap) std::swap(c, s);
  if (reflect_half) c = -c;
  if (conj) s = -s;
  // exp(-i theta) = cos theta - i sin theta
  return {c, -s};
}

namespace {

template <class T>
std::vector<std::complex<T>> table(std::int64_t n, std::int64_t count) {
  std::vector<std::complex<T>> out(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j) {
    const auto w = root(j, n);
    out[j] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
  return out;
}

template <class T>
std::vector<std::complex<T>> two_level(std::int64_t n, int bits) {
  const std::int64_t fine = std::int64_t{1} << bits;
  const std::int64_t coarse = (n + fine - 1) / fine;
  std::vector<std::complex<T>> out(static_cast<std::size_t>(fine + coarse));
  for (std::int64_t j = 0; j < fine; ++j) {
    const auto w = root(j, n);
    out[j] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
  for (std::int64_t j = 0; j < coarse; ++j) {
    const auto w = root(j * fine, n);
    out[fine + j] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
  }
  return out;
}

}  // namespace

std::vector<std::complex<float>> table_f32(std::int64_t n, std::int64_t count) { return table<float>(n, count); }
std::vector<std::complex<float>> two_level_f32(std::int64_t n, int bits) { return two_level<float>(n, bits); }
std::vector<std::complex<double>> table_f64(std::int64_t n, std::int64_t count) { return table<double>(n, count); }
std::vector<std::complex<double>> two_level_f64(std::int64_t n, int bits) { return two_level<double>(n, bits); }

}  // namespace bfly::twiddle
