// bfly::Convolver against direct convolution in long double: every mode,
// odd and even lengths, 1D/2D/3D, real and complex, both precisions,
// broadcast axes, correlation and circular convolution. The reference
// states SciPy's rules on its own (no code shared with ops/convolution.cpp):
// full out[i] = sum_j a[j] k[i - j]; same keeps the signal's length from
// (m - 1) / 2 (on a broadcast axis from (max - n) / 2); valid keeps
// |n - m| + 1 from min(n, m) - 1; correlation conjugates k and runs j the
// other way. The CLI tests compare with scipy.signal itself.
#include <bfly/convolve.hpp>

#include <algorithm>
#include <cstdlib>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

class Convolve : public Accuracy {};

using Shape = std::vector<std::int64_t>;

std::int64_t count(const Shape& s) {
  std::int64_t n = 1;
  for (auto v : s) n *= v;
  return n;
}

struct Case {
  Shape a, k;
  std::vector<int> axes;  // empty: all
  ConvolveMode mode = ConvolveMode::Full;
  bool correlate = false, circular = false;
};

// Direct evaluation in long double of one output element's sum.
template <class T>
std::vector<std::complex<long double>> direct(const Case& c, const std::vector<T>& a, const std::vector<T>& k,
                                              Shape* out_shape) {
  const int rank = static_cast<int>(c.a.size());
  std::vector<bool> conv(rank, c.axes.empty());
  for (int ax : c.axes) conv[ax < 0 ? ax + rank : ax] = true;
  Shape full(rank), start(rank), out(rank);
  for (int d = 0; d < rank; ++d) {
    const std::int64_t n = c.a[d], m = c.k[d];
    const bool summed = conv[d] && n != 1 && m != 1;  // a length-1 axis broadcasts
    full[d] = c.circular && summed ? n : summed ? n + m - 1 : std::max(n, m);
    out[d] = full[d];
    start[d] = 0;
    if (c.circular) continue;
    if (c.mode == ConvolveMode::Same) out[d] = n, start[d] = (full[d] - n) / 2;
    if (c.mode == ConvolveMode::Valid && summed)
      out[d] = std::max(n, m) - std::min(n, m) + 1, start[d] = std::min(n, m) - 1;
  }
  *out_shape = out;
  auto value = [](const T& v) {
    if constexpr (std::is_floating_point<T>::value)
      return std::complex<long double>(v, 0);
    else
      return std::complex<long double>(v.real(), v.imag());
  };
  std::vector<std::complex<long double>> result(static_cast<std::size_t>(count(out)));
  Shape o(rank, 0);
  for (std::size_t r = 0; r < result.size(); ++r) {
    // Sum over every element j of a: kernel index i - j on summed axes.
    std::complex<long double> sum = 0;
    Shape j(rank, 0);
    for (std::int64_t e = 0; e < count(c.a); ++e) {
      std::int64_t ka = 0, kk = 0;
      bool inside = true;
      for (int d = 0; d < rank && inside; ++d) {
        const std::int64_t i = o[d] + start[d], n = c.a[d], m = c.k[d];
        const bool summed = conv[d] && n != 1 && m != 1;
        std::int64_t ki;
        if (summed) {
          ki = c.correlate ? j[d] - i : i - j[d];
          if (c.correlate && !c.circular) ki += m - 1;  // correlation runs the kernel the other way
          if (c.circular) ki = ((ki % n) + n) % n;
          if (ki < 0 || ki >= m) inside = false;
        } else {
          // Broadcast: a's index must match the output's (or a is 1 there).
          if (n != 1 && j[d] != i) inside = false;
          ki = m == 1 ? 0 : i;
          // A correlation reverses the kernel on every requested axis.
          if (c.correlate && conv[d] && m != 1) ki = m - 1 - ki;
        }
        ka = ka * n + j[d];
        kk = kk * m + ki;
      }
      if (inside) {
        std::complex<long double> kv = value(k[static_cast<std::size_t>(kk)]);
        if (c.correlate) kv = std::conj(kv);
        sum += value(a[static_cast<std::size_t>(ka)]) * kv;
      }
      for (int d = rank - 1; d >= 0 && ++j[d] == c.a[d]; --d) j[d] = 0;
    }
    result[r] = sum;
    for (int d = rank - 1; d >= 0 && ++o[d] == out[d]; --d) o[d] = 0;
  }
  return result;
}

template <class T>
std::vector<T> fresh_values(std::size_t n) {
  if constexpr (std::is_same<T, float>::value)
    return random_real_data(n);
  else if constexpr (std::is_same<T, double>::value)
    return random_real_data_f64(n);
  else if constexpr (std::is_same<T, std::complex<float>>::value)
    return random_data(n);
  else
    return random_data_f64(n);
}

template <class T>
double relative_error(const std::vector<T>& got, const std::vector<std::complex<long double>>& want, bool* finite) {
  long double err = 0, norm = 0;
  *finite = true;
  for (std::size_t i = 0; i < want.size(); ++i) {
    std::complex<long double> g;
    if constexpr (std::is_floating_point<T>::value)
      g = {got[i], 0};
    else
      g = {got[i].real(), got[i].imag()};
    if (!std::isfinite(static_cast<double>(g.real())) || !std::isfinite(static_cast<double>(g.imag()))) *finite = false;
    err += std::norm(g - want[i]);
    norm += std::norm(want[i]);
  }
  return static_cast<double>(std::sqrt(err / std::max(norm, 1e-300L)));
}

// conv through a Convolver on a poisoned output, against `want`: every
// element written and finite, the relative L2 error within the precision's
// bound; prints where the product ran.
template <class T>
void expect_convolver_matches(const Device& device, const Convolution& conv, const std::vector<T>& a,
                              const std::vector<T>& k, const std::vector<std::complex<long double>>& want) {
  constexpr bool is_double = std::is_same<T, double>::value || std::is_same<T, std::complex<double>>::value;
  Convolver convolver(device, conv);
  convolver.set_kernel(k.data());
  std::vector<T> got(want.size());
  poison(got);
  convolver.execute_host(a.data(), got.data());
  bool finite = true;
  const double error = relative_error(got, want, &finite);
  EXPECT_TRUE(finite) << conv.describe() << ": unwritten or non-finite output";
  // FFT convolution's error grows like the transforms' (log of the padded
  // length) times the spread of the data's magnitudes; random data keeps
  // the sums well away from cancellation.
  EXPECT_LE(error, is_double ? 4e-15 : 1e-6) << conv.describe();
  std::printf("[ conv     ] %-100s rel. L2 %.2e%s\n", conv.describe().c_str(), error,
              convolver.product_fused() ? (", product in the " + convolver.product_placement()).c_str() : "");
}

template <class T>
void expect_matches(const Device& device, const Case& c, ProductAt product = ProductAt::Auto) {
  constexpr bool is_double = std::is_same<T, double>::value || std::is_same<T, std::complex<double>>::value;
  Convolution conv;
  conv.product = product;
  conv.signal_shape = c.a;
  conv.kernel_shape = c.k;
  conv.axes = c.axes;
  conv.mode = c.mode;
  conv.correlate = c.correlate;
  conv.circular = c.circular;
  conv.precision = is_double ? Precision::Double : Precision::Single;
  conv.complex = !std::is_floating_point<T>::value;
  const std::vector<T> a = fresh_values<T>(static_cast<std::size_t>(count(c.a)));
  const std::vector<T> k = fresh_values<T>(static_cast<std::size_t>(count(c.k)));
  Shape shape;
  const auto want = direct(c, a, k, &shape);
  ASSERT_EQ(conv.output_shape(), shape) << conv.describe();
  expect_convolver_matches(device, conv, a, k, want);
}

const std::vector<Case>& cases() {
  using M = ConvolveMode;
  static const std::vector<Case> all = {
      {{100}, {7}, {}, M::Full},
      {{100}, {7}, {}, M::Same},
      {{100}, {8}, {}, M::Same},
      {{101}, {8}, {}, M::Valid},
      {{7}, {100}, {}, M::Valid},  // SciPy swaps: the kernel is the larger
      {{7}, {100}, {}, M::Same},
      {{1}, {1}, {}, M::Full},
      {{1000}, {1}, {}, M::Full},
      {{97}, {97}, {}, M::Full},
      {{100}, {7}, {}, M::Full, true},
      {{64}, {9}, {}, M::Valid, true},
      {{64}, {10}, {}, M::Full, false, true},
      {{63}, {10}, {}, M::Full, true, true},
      {{37, 64}, {5, 8}, {}, M::Full},
      {{37, 64}, {5, 8}, {}, M::Same},
      {{37, 64}, {5, 8}, {}, M::Valid},
      {{37, 64}, {5, 8}, {}, M::Same, true},
      {{37, 64}, {1, 9}, {1}, M::Same},
      {{1, 50}, {6, 7}, {1}, M::Full},   // the signal broadcast over the kernel's rows
      {{6, 50}, {6, 7}, {1}, M::Valid},  // rows convolved pairwise
      {{5, 1}, {1, 6}, {}, M::Same},     // no axis transformed: a broadcast product
      {{50, 6}, {7, 1}, {0}, M::Full},   // the kernel broadcast along an inner axis (product unfused)
      {{9, 10, 11}, {3, 4, 2}, {}, M::Full},
      {{9, 10, 11}, {3, 4, 2}, {}, M::Same, true},
      {{4, 16, 12}, {4, 5, 5}, {1, 2}, M::Same},
      {{16, 12}, {5, 5}, {}, M::Full, true, true},
  };
  return all;
}

// The cases one element type runs: all of them in the exhaustive tier; in
// the quick tier 13 of the 26, every mode with and without correlation and
// circularity, in 1D and past it (each type draws its own, so the four
// tests together meet most cases every run).
std::vector<Case> cases_for(const std::string& type) {
  return sample("convolution cases, " + type, cases(), 13, [](const Case& c) {
    return std::string(to_string(c.mode)) + (c.correlate ? " correlate" : "") + (c.circular ? " circular" : "") +
           (c.a.size() > 1 ? " nd" : " 1d");
  });
}

TEST_P(Convolve, RealSinglePrecision) {
  for (const Case& c : cases_for("float32")) expect_matches<float>(device(), c);
}
TEST_P(Convolve, ComplexSinglePrecision) {
  for (const Case& c : cases_for("complex64")) expect_matches<std::complex<float>>(device(), c);
}
TEST_P(Convolve, RealDoublePrecision) {
  for (const Case& c : cases_for("float64")) expect_matches<double>(device(), c);
}
TEST_P(Convolve, ComplexDoublePrecision) {
  for (const Case& c : cases_for("complex128")) expect_matches<std::complex<double>>(device(), c);
}

// One kernel spectrum, many signals; a one-shot call matches the Convolver.
// The product rides on the inverse's first loads or the forward's last
// stores wherever the spectra line up and a pass can take it; the
// convolution is right either way, and with each placement forced
// (Convolution::product): the loads, the stores, a pass of its own.
TEST_P(Convolve, ProductFused) {
  struct Fused {
    Case c;
    bool expect_fused;
  };
  using M = ConvolveMode;
  const std::vector<Fused> all = {
      {{{3000}, {31}, {}, M::Same}, true},          // one real transform
      {{{120, 90}, {9, 9}, {}, M::Same}, true},     // an image
      {{{30000}, {15}, {}, M::Full}, true},         // overlap-save blocks
      {{{8, 1000}, {1, 63}, {1}, M::Full}, true},   // the kernel broadcast over rows
      {{{1, 1000}, {4, 63}, {1}, M::Full}, false},  // one signal against four kernels
      {{{1000, 3}, {63, 1}, {0}, M::Full}, false},  // the kernel broadcast along the inner axis
  };
  for (const Fused& f : all) {
    Convolution conv;
    conv.signal_shape = f.c.a;
    conv.kernel_shape = f.c.k;
    conv.axes = f.c.axes;
    conv.mode = f.c.mode;
    Convolver convolver(device(), conv);
    if (!f.expect_fused) EXPECT_FALSE(convolver.product_fused()) << conv.describe();
    // On a GPU the last pass may be a kind that cannot take the product;
    // the CPU's plans for these always can.
    if (f.expect_fused && device().info().is_cpu) EXPECT_TRUE(convolver.product_fused()) << conv.describe();
    expect_matches<float>(device(), f.c);
    expect_matches<std::complex<double>>(device(), f.c);
    // Each placement forced where the spectra line up: where it cannot go
    // there, a pass of its own.
    if (!f.expect_fused) continue;
    for (ProductAt at : {ProductAt::InverseLoads, ProductAt::ForwardStores, ProductAt::OwnPass}) {
      conv.product = at;
      const Convolver forced(device(), conv);
      const std::string where = forced.product_placement();
      if (at == ProductAt::OwnPass) EXPECT_EQ(where, "a pass of its own") << conv.describe();
      if (at == ProductAt::InverseLoads) EXPECT_NE(where, "forward's last stores") << conv.describe();
      if (at == ProductAt::ForwardStores) EXPECT_NE(where, "inverse's first loads") << conv.describe();
      expect_matches<float>(device(), f.c, at);
    }
  }
}

TEST_P(Convolve, KernelReusedAcrossSignals) {
  Case c{{300}, {31}, {}, ConvolveMode::Same};
  Convolution conv;
  conv.signal_shape = c.a;
  conv.kernel_shape = c.k;
  conv.mode = c.mode;
  const auto k = random_real_data(31);
  Convolver convolver(device(), conv);
  convolver.set_kernel(k.data());
  for (int round = 0; round < 3; ++round) {
    const auto a = random_real_data(300);
    Shape shape;
    const auto want = direct(c, a, k, &shape);
    std::vector<float> got(want.size());
    poison(got);
    convolver.execute_host(a.data(), got.data());
    bool finite = true;
    EXPECT_LE(relative_error(got, want, &finite), 1e-6);
    EXPECT_TRUE(finite);
    const std::vector<float> once = convolve(device(), conv, a.data(), k.data());
    EXPECT_EQ(once, got);
  }
}

// The device form: the caller's buffers in and out (output poisoned), the
// same result as the host form, and too small a buffer is an error.
TEST_P(Convolve, DeviceBuffers) {
  Convolution conv;
  conv.signal_shape = {3, 40, 50};
  conv.kernel_shape = {1, 7, 6};
  conv.axes = {1, 2};
  conv.mode = ConvolveMode::Same;
  conv.complex = true;
  const auto a = random_data(static_cast<std::size_t>(conv.signal_elements()));
  const auto k = random_data(static_cast<std::size_t>(conv.kernel_elements()));
  Convolver convolver(device(), conv);
  convolver.set_kernel(k.data());
  std::vector<std::complex<float>> host(static_cast<std::size_t>(conv.output_elements()));
  convolver.execute_host(a.data(), host.data());
  Buffer in(device(), a.size() * sizeof(a[0])), out(device(), host.size() * sizeof(host[0]));
  in.write(a.data(), a.size() * sizeof(a[0]));
  std::vector<std::complex<float>> got(host.size());
  poison(got);
  out.write(got.data(), got.size() * sizeof(got[0]));
  convolver.execute(in, out);
  device().synchronize();
  out.read(got.data(), got.size() * sizeof(got[0]));
  EXPECT_EQ(got, host);
  Shape shape;
  const auto want = direct(Case{conv.signal_shape, conv.kernel_shape, conv.axes, conv.mode}, a, k, &shape);
  bool finite = true;
  EXPECT_LE(relative_error(got, want, &finite), 1e-6);
  EXPECT_TRUE(finite);
  Buffer small(device(), 16);
  EXPECT_THROW(convolver.execute(small, out), Error);
  EXPECT_THROW(convolver.execute(in, small), Error);
}

// Long 1D signals against short kernels take overlap-save (the cost model's
// choice, shown by describe()); every mode and correlation against an
// O(n m) direct sum in long double.
template <class T>
void expect_overlap_save(const Device& device, std::int64_t n, std::int64_t m, ConvolveMode mode, bool correlate) {
  constexpr bool is_double = std::is_same<T, double>::value || std::is_same<T, std::complex<double>>::value;
  Convolution conv;
  conv.signal_shape = {n};
  conv.kernel_shape = {m};
  conv.mode = mode;
  conv.correlate = correlate;
  conv.precision = is_double ? Precision::Double : Precision::Single;
  conv.complex = !std::is_floating_point<T>::value;
  ASSERT_NE(conv.describe().find("overlap-save"), std::string::npos) << conv.describe();
  const std::vector<T> a = fresh_values<T>(static_cast<std::size_t>(n)),
                       k = fresh_values<T>(static_cast<std::size_t>(m));
  auto value = [](const T& v) {
    if constexpr (std::is_floating_point<T>::value)
      return std::complex<long double>(v, 0);
    else
      return std::complex<long double>(v.real(), v.imag());
  };
  // full[i] = sum_j a[j] k'[i - j], k' = k, or conj(k) reversed.
  std::vector<std::complex<long double>> full(static_cast<std::size_t>(n + m - 1));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t u = 0; u < m; ++u) {
      const std::complex<long double> kv = correlate ? std::conj(value(k[m - 1 - u])) : value(k[u]);
      full[j + u] += value(a[j]) * kv;
    }
  std::int64_t start = 0, count = n + m - 1;
  if (mode == ConvolveMode::Same) start = (m - 1) / 2, count = n;
  if (mode == ConvolveMode::Valid) start = std::min(n, m) - 1, count = std::max(n, m) - std::min(n, m) + 1;
  const std::vector<std::complex<long double>> want(full.begin() + start, full.begin() + start + count);
  expect_convolver_matches(device, conv, a, k, want);
}

TEST_P(Convolve, OverlapSaveLongSignals) {
  for (ConvolveMode mode : {ConvolveMode::Full, ConvolveMode::Same, ConvolveMode::Valid}) {
    expect_overlap_save<float>(device(), 100003, 7, mode, false);
    expect_overlap_save<std::complex<double>>(device(), 65536, 31, mode, mode == ConvolveMode::Same);
  }
  expect_overlap_save<double>(device(), 200000, 100, ConvolveMode::Full, true);
  expect_overlap_save<std::complex<float>>(device(), 50001, 16, ConvolveMode::Valid, false);
}

TEST_P(Convolve, RejectsMisuse) {
  Convolution conv;
  conv.signal_shape = {10};
  conv.kernel_shape = {3};
  Convolver convolver(device(), conv);
  std::vector<float> a(10), out(12);
  EXPECT_THROW(convolver.execute_host(a.data(), out.data()), Error);  // no kernel yet
  std::vector<double> wrong(3);
  EXPECT_THROW(convolver.set_kernel(wrong.data()), Error);  // double for a float convolution
}

INSTANTIATE_TEST_SUITE_P(Backends, Convolve, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
