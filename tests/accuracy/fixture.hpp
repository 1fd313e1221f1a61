// The accuracy fixture: each test runs once per backend (CUDA, OpenCL) and is
// skipped, saying why, where the backend has no device. A check runs one
// problem on fresh random data in [-1, 1) with the output poisoned (NaN)
// first, and compares with FFTW in double.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "support/reference.hpp"

namespace bfly::test {

// cuFFT's level for fp32 (the best peers reach 2e-7 to 6e-7).
constexpr double kTolerance = 5e-7;
// fp64: the bar (about 10 ulps of relative L2).
constexpr double kToleranceF64 = 2e-15;

class Accuracy : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    device_ = backend_device(GetParam(), &why);
    if (!device_) GTEST_SKIP() << "no " << GetParam() << " device: " << why;
    std::printf("[ device   ] %s: %s\n", device_->info().spec.c_str(), device_->info().name.c_str());
  }
  const Device& device() const { return *device_; }

  // Runs one problem on fresh data and returns its error against FFTW (in
  // long double for double precision). The elements an output layout skips
  // must keep their (poisoned) values.
  Errors check(const Problem& p, const PlanOptions& options = {}) const {
    return p.precision == Precision::Double ? run<double>(p, options) : run<float>(p, options);
  }

  void expect_accurate(const Problem& p, const PlanOptions& options = {}) const {
    const Errors e = check(p, options);
    EXPECT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, tolerance(p)) << p.token() << " (max error " << e.relative_max << ")";
  }

  static double tolerance(const Problem& p) { return p.precision == Precision::Double ? kToleranceF64 : kTolerance; }

 private:
  template <class T>
  Errors run(const Problem& p, const PlanOptions& options) const {
    const Plan plan(device(), p, options);
    const std::size_t in_count = static_cast<std::size_t>(p.input_extent());
    std::vector<std::complex<T>> input;
    if constexpr (sizeof(T) == sizeof(float)) input = random_data(in_count);
    else input = random_data_f64(in_count);
    std::vector<std::complex<T>> output(static_cast<std::size_t>(p.output_extent()));
    if (p.placement == Placement::InPlace) {
      output = input;
      plan.execute_host(output.data(), output.data());
    } else {
      poison(output);
      plan.execute_host(input.data(), output.data());
    }
    const Expected expected = fftw_reference(p, input);
    Errors e = compare(output, expected, p.scale());
    if (p.placement == Placement::OutOfPlace && expected.offsets.size() < output.size()) {
      std::vector<bool> addressed(output.size(), false);
      for (std::int64_t o : expected.offsets) addressed[static_cast<std::size_t>(o)] = true;
      for (std::size_t i = 0; i < output.size(); ++i)
        if (!addressed[i] && !std::isnan(output[i].real())) {
          ADD_FAILURE() << p.token() << ": element " << i << " outside the output layout was written";
          break;
        }
    }
    return e;
  }

  const Device* device_ = nullptr;
};

}  // namespace bfly::test
