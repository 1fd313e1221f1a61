// Shared test support: fresh random data, FFTW double references, error norms.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::test {

// Uniform in [-1, 1) for real and imaginary parts, fresh each call, from the
// run's seed (support/tier.hpp: BFLY_TEST_SEED repeats a run's data).
std::vector<std::complex<float>> random_data(std::size_t count);

std::vector<std::complex<double>> random_data_f64(std::size_t count);

// Real data for the real side of R2C problems: uniform in [-1, 1), as above.
std::vector<float> random_real_data(std::size_t count);
std::vector<double> random_real_data_f64(std::size_t count);

// Poison: NaN in every element, so anything the transform leaves unwritten shows.
void poison(std::vector<std::complex<float>>& data);
void poison(std::vector<std::complex<double>>& data);
void poison(std::vector<float>& data);
void poison(std::vector<double>& data);

// Makes the input of a C2R problem the half spectrum of a real array:
// wherever the real axis is 0 or (even n) n/2, X[k] = conj(X[-k]) over the
// other transformed axes (so X[0] and X[n/2] are real in 1D). C2R is only
// defined on such data; on anything else FFTW's result depends on its
// algorithm, so give FFTW and bfly the same symmetrised input.
void make_hermitian(const Problem& problem, std::vector<std::complex<float>>& data);
void make_hermitian(const Problem& problem, std::vector<std::complex<double>>& data);

// FFTW in double precision: batched 1D transforms of `length` along
// contiguous rows, unnormalised, forward or inverse.
std::vector<std::complex<double>> fftw_reference(const std::vector<std::complex<float>>& input, std::int64_t length,
                                                 std::int64_t batch, Direction direction);

// The offset of every logical element (batch b, i0, i1, ...) of `batch`
// arrays of `shape` in `layout` (resolved: strides and distance filled in),
// row-major order: the order of Expected's entries.
std::vector<std::int64_t> element_offsets(const std::vector<std::int64_t>& shape, std::int64_t batch,
                                          const Layout& layout);

// FFTW in double over the problem's axes and layouts (the guru interface),
// unnormalised: the expected value of every element the output layout
// addresses, with its offset in the output buffer. C2C and C2R problems take
// complex input (fftw_plan_guru64_dft / _dft_c2r; a C2R's values are real,
// held with a zero imaginary part), R2C problems real input (_dft_r2c).
struct Expected {
  std::vector<std::int64_t> offsets;
  std::vector<std::complex<double>> values;
};
Expected fftw_reference(const Problem& problem, const std::vector<std::complex<float>>& input);
Expected fftw_reference(const Problem& problem, const std::vector<float>& input);
// The same in long double (FFTW's fftwl), for double-precision problems.
Expected fftw_reference(const Problem& problem, const std::vector<std::complex<double>>& input);
Expected fftw_reference(const Problem& problem, const std::vector<double>& input);

struct Errors {
  double relative_l2 = 0;   // ||y - ref|| / ||ref||
  double relative_max = 0;  // max |y - ref| / max |ref|
  bool finite = true;       // no NaN or Inf in y
};
Errors compare(const std::vector<std::complex<float>>& result, const std::vector<std::complex<double>>& reference,
               double scale = 1.0);

// The result at the expected offsets against the expected values * scale.
Errors compare(const std::vector<std::complex<float>>& result, const Expected& expected, double scale = 1.0);
Errors compare(const std::vector<std::complex<double>>& result, const Expected& expected, double scale = 1.0);
// C2R results: real values against the expected (zero imaginary part).
Errors compare(const std::vector<float>& result, const Expected& expected, double scale = 1.0);
Errors compare(const std::vector<double>& result, const Expected& expected, double scale = 1.0);

// The device a backend's tests run on: with BFLY_TEST_DEVICE set, that device
// for its own backend only; else the backend's default ("cuda", "opencl").
// nullptr when the backend has no device here, with *why saying so.
const Device* backend_device(const std::string& backend, std::string* why);

// Every n in [1, limit] whose prime factors are all <= largest (7, 11 or 13), ascending.
std::vector<std::int64_t> smooth_lengths(std::int64_t limit, int largest = 7);

}  // namespace bfly::test
