// Bluestein's chirp-z tables, from the twiddle oracle. A DFT of n points is
// a convolution: with c[j] = exp(-pi i j^2 / n) and nk = (n^2 + k^2 - (k-n)^2)/2,
//   X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k - j]),
// computed as a cyclic convolution of length m >= 2n - 1 with two FFTs of m
// points and the FFT of conj(c) below. Pure functions, tested on the host.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace bfly::twiddle {

// c[j] = exp(-pi i j^2 / n) for j < count: the exponent j^2 is reduced
// modulo 2n in integers before it becomes an angle (j^2 itself overflows a
// double's mantissa long before j does).
std::vector<std::complex<long double>> chirp(std::int64_t n, std::int64_t count);

// FFT_m(b) / m with b[j] = conj(c[j]) for |j| < n, placed cyclically (b[m - j]
// = b[j]), zero elsewhere: the convolution kernel in the frequency domain.
// m must be a power of two >= 2n - 1.
std::vector<std::complex<long double>> bluestein_kernel(std::int64_t n, std::int64_t m);

// An in-place radix-2 FFT of a power-of-two length in long double, forward
// (exp(-2 pi i jk / m)), twiddles from the oracle: the host-side FFT the
// kernel table needs.
void fft_long_double(std::vector<std::complex<long double>>& data);

}  // namespace bfly::twiddle
