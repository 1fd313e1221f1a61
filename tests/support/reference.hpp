// Shared test support: fresh random data, FFTW double references, error norms.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::test {

// Uniform in [-1, 1) for real and imaginary parts, new seed each call.
std::vector<std::complex<float>> random_data(std::size_t count);

std::vector<std::complex<double>> random_data_f64(std::size_t count);

// Poison: NaN in every element, so anything the transform leaves unwritten shows.
void poison(std::vector<std::complex<float>>& data);
void poison(std::vector<std::complex<double>>& data);

// FFTW in double precision: batched 1D transforms of `length` along
// contiguous rows, unnormalised, forward or inverse.
std::vector<std::complex<double>> fftw_reference(const std::vector<std::complex<float>>& input, std::int64_t length,
                                                 std::int64_t batch, Direction direction);

// FFTW in double over the problem's axes and layouts (the guru interface),
// unnormalised: the expected value of every element the output layout
// addresses, with its offset in the output buffer.
struct Expected {
  std::vector<std::int64_t> offsets;
  std::vector<std::complex<double>> values;
};
Expected fftw_reference(const Problem& problem, const std::vector<std::complex<float>>& input);
// The same in long double (FFTW's fftwl), for double-precision problems.
Expected fftw_reference(const Problem& problem, const std::vector<std::complex<double>>& input);

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

// The device a backend's tests run on: with BFLY_TEST_DEVICE set, that device
// for its own backend only; else the backend's default ("cuda", "opencl").
// nullptr when the backend has no device here, with *why saying so.
const Device* backend_device(const std::string& backend, std::string* why);

// Every n in [1, limit] whose prime factors are all <= largest (7, 11 or 13), ascending.
std::vector<std::int64_t> smooth_lengths(std::int64_t limit, int largest = 7);

}  // namespace bfly::test
