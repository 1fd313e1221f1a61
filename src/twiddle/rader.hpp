// Rader's tables, from the twiddle oracle. For a prime p with a primitive
// root g (L = p - 1), every nonzero index is a power of g, and
//   X[0]        = x[0] + sum_m a[m],
//   X[g^-q]     = x[0] + sum_m a[m] b[q - m]   (q = 0..L-1, cyclic),
// with a[m] = x[g^m] and b[j] = w_p^(g^-j): the DFT of p points is an
// L-point cyclic convolution, done with two L-point FFTs and the kernel
// below. Pure functions, tested on the host.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace bfly::twiddle {

// The smallest primitive root modulo the prime p (g = 1 for p = 2).
std::int64_t primitive_root(std::int64_t p);

// g^m mod p for m = 0..p-2 (g = primitive_root(p)): a permutation of 1..p-1.
std::vector<std::int64_t> rader_powers(std::int64_t p);

// FFT_L(b) / L, b[j] = w_p^(g^-j mod p), L = p - 1: the convolution kernel
// in the frequency domain (rounded once from long double by the caller).
std::vector<std::complex<long double>> rader_kernel(std::int64_t p);

}  // namespace bfly::twiddle
