// Bluestein's chirp-z tables, from the twiddle oracle. A DFT of n points is
// a convolution: with c[j] = exp(-pi i j^2 / n) and nk = (n^2 + k^2 - (k-n)^2)/2,
//   X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k - j]),
// computed as a cyclic convolution of length m >= 2n - 1 with two FFTs of m
// points and the FFT of conj(c) below. Pure functions, tested on the host.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "twiddle/host_fft.hpp"

namespace bfly::twiddle {

// c[j] = exp(-pi i j^2 / n) for j < count: the exponent j^2 is reduced
// modulo 2n in integers before it becomes an angle (j^2 itself overflows a
// double's mantissa long before j does).
std::vector<std::complex<long double>> chirp(std::int64_t n, std::int64_t count);

// FFT_m(b) / m with b[j] = conj(c[j]) for |j| < n, placed cyclically (b[m - j]
// = b[j]), zero elsewhere: the convolution kernel in the frequency domain.
// m >= 2n - 1, any length (host_fft.hpp's FFTs).
std::vector<std::complex<long double>> bluestein_kernel(std::int64_t n, std::int64_t m);
// The same through a double-precision FFT (m 23-smooth), several times
// faster: for single-precision plans (host_fft.hpp's dft_double).
std::vector<std::complex<double>> bluestein_kernel_f64(std::int64_t n, std::int64_t m);

}  // namespace bfly::twiddle
