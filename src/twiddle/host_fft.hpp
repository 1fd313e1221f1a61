// Host FFTs in long double, for the tables (chirp.cpp, rader.cpp): forward
// (exp(-2 pi i jk / n)), twiddles from the oracle. Pure functions, tested
// on the host.
#pragma once

#include <complex>
#include <vector>

namespace bfly::twiddle {

// In place, a power-of-two length (radix 2).
void fft_long_double(std::vector<std::complex<long double>>& data);

// Any length: radix 2 for powers of two, mixed radix where every prime
// factor is at most 31, else Bluestein over power-of-two FFTs.
std::vector<std::complex<long double>> dft_long_double(std::vector<std::complex<long double>> x);

// In double, a 31-smooth length (as Bluestein's M): for the tables of
// single-precision plans, whose floats keep 6e-8 where this FFT's error is
// about 1e-16 x log2(n). Throws Error(InvalidArgument) for other lengths.
std::vector<std::complex<double>> dft_double(std::vector<std::complex<double>> x);

}  // namespace bfly::twiddle
