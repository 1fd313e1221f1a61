// The accuracy tests' oracle for real transforms (tests/support/reference.*):
// FFTW's guru r2c / c2r over a problem's axes and layouts must agree with
// FFTW's complex transform of the same data, the full spectrum of a real
// array, and must round-trip. Device-free.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "support/reference.hpp"

namespace bfly::test {
namespace {

Problem make(Kind kind, std::vector<std::int64_t> shape, std::vector<int> axes = {}, std::int64_t batch = 1) {
  Problem p;
  p.kind = kind;
  p.shape = std::move(shape);
  p.axes = std::move(axes);
  p.batch = batch;
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  return p;
}

// Row-major index of each of those logical elements in the full (real) shape.
std::vector<std::int64_t> indices_in(const std::vector<std::int64_t>& shape, std::int64_t batch,
                                     const std::vector<std::int64_t>& full) {
  Layout contiguous;
  contiguous.strides.assign(full.size(), 1);
  for (std::size_t k = full.size(); k-- > 1;) contiguous.strides[k - 1] = contiguous.strides[k] * full[k];
  contiguous.distance = contiguous.strides[0] * full[0];
  return element_offsets(shape, batch, contiguous);
}

// The same problem as C2C on contiguous data, over the full real shape.
Problem as_complex(const Problem& p, Direction direction) {
  Problem q = make(Kind::C2C, p.shape, p.axes, p.batch);
  q.direction = direction;
  q.precision = p.precision;
  return q;
}

struct Case {
  Problem problem;
  std::string what;
};

std::vector<Case> cases(Kind kind) {
  std::vector<Case> all;
  all.push_back({make(kind, {16}, {}, 3), "1D even"});
  all.push_back({make(kind, {15}, {}, 2), "1D odd"});
  all.push_back({make(kind, {1}), "1D of one point"});
  all.push_back({make(kind, {12, 10}), "2D"});
  all.push_back({make(kind, {12, 9}, {1, 0}), "2D, real axis 0"});
  all.push_back({make(kind, {7, 6, 5}, {-1, 0}, 2), "3D, axes -1 and 0, axis 1 a batch axis"});
  all.push_back({make(kind, {10, 6}, {0}), "2D, axis 0 only"});
  all.push_back({make(kind, {6, 5, 4}, {2, 1, 0}), "3D, real axis 0"});
  Problem strided = make(kind, {8, 10}, {}, 2);
  strided.input.strides = {13, 1};
  strided.input.distance = 8 * 13 + 3;
  strided.output.strides = {1, 9};  // transposed, with a gap
  strided.output.distance = 9 * 11;
  all.push_back({strided, "strided and transposed layouts"});
  Problem padded = make(kind, {6, 10}, {}, 2);
  padded.placement = Placement::InPlace;
  all.push_back({padded, "in-place padded layout"});
  return all;
}

double relative(double diff2, double ref2) { return std::sqrt(diff2 / ref2); }

TEST(Reference, R2cAgreesWithComplexTransformOfRealData) {
  for (const Case& c : cases(Kind::R2C)) {
    const Problem& p = c.problem;
    ASSERT_NO_THROW(p.validate()) << c.what << ": " << p.token();
    const std::vector<double> x = random_real_data_f64(static_cast<std::size_t>(p.input_extent()));
    const Expected e = fftw_reference(p, x);
    ASSERT_EQ(e.offsets, element_offsets(p.output_shape(), p.batch, p.output_layout())) << c.what;

    // The same real array, contiguous, as complex data.
    const Problem q = as_complex(p, Direction::Forward);
    const std::vector<std::int64_t> from = element_offsets(p.shape, p.batch, p.input_layout());
    std::vector<std::complex<double>> z(from.size());
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = x[static_cast<std::size_t>(from[i])];
    const Expected full = fftw_reference(q, z);
    const std::vector<std::int64_t> at = indices_in(p.output_shape(), p.batch, p.shape);
    double diff2 = 0, ref2 = 0;
    for (std::size_t i = 0; i < at.size(); ++i) {
      diff2 += std::norm(e.values[i] - full.values[static_cast<std::size_t>(at[i])]);
      ref2 += std::norm(full.values[static_cast<std::size_t>(at[i])]);
    }
    EXPECT_LT(relative(diff2, ref2), 1e-15) << c.what << ": " << p.token();
  }
}

TEST(Reference, C2rAgreesWithComplexTransformOfFullSpectrum) {
  for (const Case& c : cases(Kind::C2R)) {
    const Problem& p = c.problem;
    ASSERT_NO_THROW(p.validate()) << c.what << ": " << p.token();
    std::vector<std::complex<double>> half = random_data_f64(static_cast<std::size_t>(p.input_extent()));
    make_hermitian(p, half);
    const std::vector<std::complex<double>> given = half;
    const Expected e = fftw_reference(p, half);
    EXPECT_EQ(half, given) << c.what << ": the reference must not touch its input";
    ASSERT_EQ(e.offsets, element_offsets(p.output_shape(), p.batch, p.output_layout())) << c.what;

    // The full spectrum: X[k] for k along the real axis up to n/2, conj(X[-k])
    // beyond (every transformed axis negated).
    const int real = p.real_axis();
    const std::int64_t n = p.shape[real];
    std::vector<bool> transformed(p.shape.size(), false);
    for (int a : p.transform_axes()) transformed[a] = true;
    const std::vector<std::int64_t> complex_shape = p.complex_shape();
    const Layout in = p.input_layout();
    const std::vector<std::int64_t> full_index = indices_in(p.shape, p.batch, p.shape);  // 0, 1, 2, ...
    std::vector<std::complex<double>> spectrum(full_index.size());
    std::vector<std::int64_t> index(p.shape.size() + 1, 0);
    for (std::size_t i = 0; i < spectrum.size(); ++i) {
      const bool mirror = index[real + 1] > n / 2;
      std::int64_t offset = index[0] * in.distance;
      for (std::size_t a = 0; a < p.shape.size(); ++a) {
        const std::int64_t k = index[a + 1];
        offset += (mirror && transformed[a] ? (p.shape[a] - k) % p.shape[a] : k) * in.strides[a];
      }
      const std::complex<double> v = half[static_cast<std::size_t>(offset)];
      spectrum[i] = mirror ? std::conj(v) : v;
      for (std::size_t k = p.shape.size() + 1; k-- > 0;) {
        if (++index[k] < (k == 0 ? p.batch : p.shape[k - 1])) break;
        index[k] = 0;
      }
    }
    const Expected full = fftw_reference(as_complex(p, Direction::Inverse), spectrum);
    double diff2 = 0, ref2 = 0, imag2 = 0;
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      EXPECT_EQ(e.values[i].imag(), 0.0) << c.what;
      diff2 += std::norm(e.values[i] - full.values[i].real());
      ref2 += std::norm(full.values[i]);
      imag2 += full.values[i].imag() * full.values[i].imag();
    }
    EXPECT_LT(relative(diff2, ref2), 1e-15) << c.what << ": " << p.token();
    // The symmetrised input is a real array's spectrum: its complex inverse is real.
    EXPECT_LT(relative(imag2, ref2), 1e-15) << c.what << ": make_hermitian left a non-Hermitian spectrum";
  }
}

TEST(Reference, R2cThenC2rGivesBackNTimesTheInput) {
  for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{16}, {17}, {6, 9}, {5, 4, 6}})
    for (bool single : {true, false}) {
      Problem forward = make(Kind::R2C, shape, {}, 2), inverse = make(Kind::C2R, shape, {}, 2);
      const Precision precision = single ? Precision::Single : Precision::Double;
      forward.precision = inverse.precision = precision;
      const double n = static_cast<double>(forward.length());
      double diff2 = 0, ref2 = 0;
      if (single) {
        const std::vector<float> x = random_real_data(static_cast<std::size_t>(forward.input_extent()));
        const Expected spectrum = fftw_reference(forward, x);
        const std::vector<std::complex<float>> half(spectrum.values.begin(), spectrum.values.end());
        const Expected back = fftw_reference(inverse, half);
        for (std::size_t i = 0; i < x.size(); ++i) {
          diff2 += std::norm(back.values[i] - n * x[i]);
          ref2 += n * n * x[i] * x[i];
        }
        EXPECT_LT(relative(diff2, ref2), 1e-7) << inverse.token();  // the spectrum rounded to float
      } else {
        const std::vector<double> x = random_real_data_f64(static_cast<std::size_t>(forward.input_extent()));
        const Expected spectrum = fftw_reference(forward, x);
        const Expected back = fftw_reference(inverse, spectrum.values);
        for (std::size_t i = 0; i < x.size(); ++i) {
          diff2 += std::norm(back.values[i] - n * x[i]);
          ref2 += n * n * x[i] * x[i];
        }
        EXPECT_LT(relative(diff2, ref2), 1e-15) << inverse.token();
      }
    }
}

TEST(Reference, ElementOffsetsAreRowMajorOverBatchAndAxes) {
  const Layout layout{{1, 2}, 7};  // a column-major 2x3 array, arrays 7 apart
  EXPECT_EQ(element_offsets({2, 3}, 2, layout), (std::vector<std::int64_t>{0, 2, 4, 1, 3, 5, 7, 9, 11, 8, 10, 12}));
  EXPECT_EQ(element_offsets({4}, 1, Layout{{3}, 0}), (std::vector<std::int64_t>{0, 3, 6, 9}));
}

TEST(Reference, MakeHermitianMakesTheRealAxisEndsSelfConjugate) {
  // 1D: X[0] and (n even) X[n/2] real, nothing else touched.
  for (std::int64_t n : {1, 2, 7, 8}) {
    const Problem p = make(Kind::C2R, {n}, {}, 2);
    std::vector<std::complex<float>> x = random_data(static_cast<std::size_t>(p.input_extent()));
    const std::vector<std::complex<float>> before = x;
    make_hermitian(p, x);
    const std::int64_t h = n / 2 + 1;
    for (std::int64_t b = 0; b < 2; ++b)
      for (std::int64_t k = 0; k < h; ++k) {
        const std::complex<float> v = x[static_cast<std::size_t>(b * h + k)],
                                  w = before[static_cast<std::size_t>(b * h + k)];
        const bool end = k == 0 || (n % 2 == 0 && k == n / 2);
        EXPECT_EQ(v.real(), w.real()) << n << " " << k;
        EXPECT_EQ(v.imag(), end ? 0.0f : w.imag()) << n << " " << k;
      }
  }
  EXPECT_THROW(
      {
        std::vector<std::complex<float>> x(8);
        make_hermitian(make(Kind::R2C, {8}), x);
      },
      std::invalid_argument);
  EXPECT_THROW(fftw_reference(make(Kind::R2C, {8}), std::vector<std::complex<float>>(8)), std::invalid_argument);
  EXPECT_THROW(fftw_reference(make(Kind::C2R, {8}), std::vector<float>(8)), std::invalid_argument);
}

}  // namespace
}  // namespace bfly::test
