// The one twiddle oracle every table and butterfly constant comes from:
// w_n^e = exp(-2 pi i e / n), angles reduced to the first octant in exact
// integer arithmetic, then evaluated in long double (pocketfft's approach),
// so each stored value is the correctly rounded working-precision number.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace bfly::twiddle {

// exp(-2 pi i e / n) for any integer e (reduced mod n), n >= 1.
std::complex<long double> root(std::int64_t e, std::int64_t n);

// w_n^j for j in [0, count).
std::vector<std::complex<float>> table_f32(std::int64_t n, std::int64_t count);

// Two-level table for w_n^e, e < n: fine[e & (2^bits-1)] followed by
// coarse[e >> bits]; fine has 2^bits entries, coarse ceil(n / 2^bits).
std::vector<std::complex<float>> two_level_f32(std::int64_t n, int bits);

// The same in double precision.
std::vector<std::complex<double>> table_f64(std::int64_t n, std::int64_t count);
std::vector<std::complex<double>> two_level_f64(std::int64_t n, int bits);

}  // namespace bfly::twiddle
