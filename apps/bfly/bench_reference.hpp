// The benchmark's data and its yardstick of truth: a case's random input,
// FFTW's answer on it in a wider precision (double for fp32 cases, long
// double for fp64 ones where libfftw3l is found), and the relative L2 error
// of an output against that answer.
#pragma once

#include <cstdint>
#include <vector>

#include "bench_runner.hpp"

namespace bfly::cli {

// Host data in the working precision (float / complex<float> or double /
// complex<double>), as bfly and every peer upload it and read it back.
// operator new aligns it for either type.
using HostData = std::vector<unsigned char>;

// The input of a case, fresh each run, in [-1, 1) (never zeros): complex
// points, reals for R2C and R2R, half spectra of real arrays for C2R.
HostData random_input(const BenchCase& c);

// A half-storage case's data: `wide` (fp32 scalars) rounded to `storage`
// in place, returned as 16-bit values; and 16-bit values as fp32 ones.
HostData narrowed(HostData& wide, Storage storage);
HostData widened(const HostData& narrow, Storage storage);

// FFTW on the first `arrays` arrays of `input`: the output's scalars (re, im
// pairs of a complex output), or empty where FFTW was not found or could
// not plan it.
std::vector<long double> reference(const HostData& input, const BenchCase& c, std::int64_t arrays);

// Relative L2 error of the first ref.size() scalars of `y` (in `precision`);
// -1 for an empty reference, infinity where `y` holds a NaN.
double relative_error(const HostData& y, Precision precision, const std::vector<long double>& ref);

}  // namespace bfly::cli
