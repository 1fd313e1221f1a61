// The accuracy fixture: each test runs once per backend (CUDA, OpenCL) and is
// skipped, saying why, where the backend has no device. A check runs one
// problem on fresh random data in [-1, 1) with the output poisoned (NaN)
// first, and compares with FFTW in double. Real transforms (R2C, C2R) take
// real data on their real side; a C2R's input is made Hermitian first (see
// make_hermitian), the same data for bfly and FFTW.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "support/backend_test.hpp"
#include "support/reference.hpp"
#include "support/test_options.hpp"
#include "support/tier.hpp"

namespace bfly::test {

// cuFFT's level for fp32 (the best peers reach 2e-7 to 6e-7).
constexpr double kTolerance = 5e-7;
// fp64: the bar (about 10 ulps of relative L2).
constexpr double kToleranceF64 = 2e-15;

class Accuracy : public BackendTest {
 protected:
  // Runs one problem on fresh data and returns its error against FFTW (in
  // long double for double precision). The elements an output layout skips
  // must keep their (poisoned) values.
  // A failure to plan or run names the problem (as a wrong result does), so
  // a sampled case can be run again alone.
  Errors check(const Problem& p, const PlanOptions& options = test_options()) const {
    try {
      return p.precision == Precision::Double ? run<double>(p, options) : run<float>(p, options);
    } catch (const std::exception& e) {
      ADD_FAILURE() << p.token() << ": " << e.what();
      Errors failed;
      failed.finite = false;
      return failed;
    }
  }

  void expect_accurate(const Problem& p, const PlanOptions& options = test_options()) const {
    const Errors e = check(p, options);
    EXPECT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, tolerance(p)) << p.token() << " (max error " << e.relative_max << ")";
  }

  static double tolerance(const Problem& p) { return p.precision == Precision::Double ? kToleranceF64 : kTolerance; }

 private:
  template <class T>
  Errors run(const Problem& p, const PlanOptions& options) const {
    switch (p.kind) {
      case Kind::R2C:
        return run<T, std::complex<T>>(p, options);
      case Kind::C2R:
        return run<std::complex<T>, T>(p, options);
      case Kind::C2C:
        break;
      case Kind::R2R:  // tests/accuracy/test_r2r.cpp has its own reference
        throw std::logic_error("the accuracy fixture runs FFTs only, not " + p.token());
    }
    return run<std::complex<T>, std::complex<T>>(p, options);
  }

  // In and Out: the element types of the two sides (T on the real side of a
  // real transform, complex<T> elsewhere).
  template <class In, class Out>
  Errors run(const Problem& p, const PlanOptions& options) const {
    const Plan plan(device(), p, options);
    std::vector<In> input = fresh<In>(static_cast<std::size_t>(p.input_extent()));
    if constexpr (std::is_floating_point<Out>::value) make_hermitian(p, input);  // C2R
    std::vector<Out> output(static_cast<std::size_t>(p.output_extent()));
    poison(output);
    const In* source = input.data();
    // C2C in place: one host array. A real transform's two sides differ in
    // type and size, so in place it still takes two host arrays (execute_host
    // copies the input side into the one device buffer, the output side out).
    if constexpr (std::is_same<In, Out>::value)
      if (p.placement == Placement::InPlace) {
        output = input;
        source = output.data();
      }
    plan.execute_host(source, output.data());
    const Expected expected = fftw_reference(p, input);
    Errors e = compare(output, expected, numpy_scale(p));
    if (p.placement == Placement::OutOfPlace && expected.offsets.size() < output.size()) {
      std::vector<bool> addressed(output.size(), false);
      for (std::int64_t o : expected.offsets) addressed[static_cast<std::size_t>(o)] = true;
      for (std::size_t i = 0; i < output.size(); ++i)
        if (!addressed[i] && !is_nan(output[i])) {
          ADD_FAILURE() << p.token() << ": element " << i << " outside the output layout was written";
          break;
        }
    }
    return e;
  }

  // numpy.fft's factor for the norm, stated here apart from Problem::scale
  // so that a bug there shows (docs/MUTATIONS.md found the tests used the
  // library's own factor): "backward" scales the inverse by 1/n, "forward"
  // the forward transform, "ortho" both by 1/sqrt(n); n is the product of
  // the transformed lengths; none, 1.
  static double numpy_scale(const Problem& p) {
    const double n = static_cast<double>(p.length());
    const bool forward = p.direction == Direction::Forward;
    if (p.norm == Norm::Ortho) return 1 / std::sqrt(n);
    if ((p.norm == Norm::Backward && !forward) || (p.norm == Norm::Forward && forward)) return 1 / n;
    return 1;
  }

  template <class V>
  static std::vector<V> fresh(std::size_t count) {
    if constexpr (std::is_same<V, float>::value)
      return random_real_data(count);
    else if constexpr (std::is_same<V, double>::value)
      return random_real_data_f64(count);
    else if constexpr (std::is_same<V, std::complex<float>>::value)
      return random_data(count);
    else
      return random_data_f64(count);
  }
  template <class T>
  static bool is_nan(const std::complex<T>& v) {
    return std::isnan(v.real());
  }
  template <class T>
  static bool is_nan(T v) {
    return std::isnan(v);
  }
};

}  // namespace bfly::test
