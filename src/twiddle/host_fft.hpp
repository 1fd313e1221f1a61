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
// factor is at most 23, else Bluestein over power-of-two FFTs.
std::vector<std::complex<long double>> dft_long_double(std::vector<std::complex<long double>> x);

}  // namespace bfly::twiddle
