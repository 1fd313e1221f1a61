// Double precision (complex128) against FFTW in long double: the same
// kernels generated in fp64, twiddles from the long-double oracle.
#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

class Double : public Accuracy {};

Problem make(std::vector<std::int64_t> shape, std::int64_t batch = 1, Direction direction = Direction::Forward,
             Placement placement = Placement::OutOfPlace, Norm norm = Norm::None) {
  Problem p;
  p.shape = std::move(shape);
  p.batch = batch;
  p.precision = Precision::Double;
  p.direction = direction;
  p.placement = placement;
  p.norm = norm;
  return p;
}

// Every fifth 13-smooth length from 2048 to 4096 (each length is a kernel
// to compile: the whole sweep took 6 minutes on PoCL; the lengths up to
// 2048 are in test_bluestein.cpp), forward and inverse; 4 of them in the
// quick tier.
TEST_P(Double, SmoothLengthsUpTo4096) {
  double worst = 0;
  std::string worst_token;
  int i = 0, k = 0;
  std::vector<std::int64_t> lengths;
  for (std::int64_t n : smooth_lengths(4096, 13))
    if (n > 2048 && (++k % 5 == 0 || n == 4096)) lengths.push_back(n);
  for (std::int64_t n : sample("fp64 13-smooth lengths 2049..4096", lengths, 4, [](std::int64_t m) {
         return (m & (m - 1)) == 0 ? "pow2" : m % 11 == 0 || m % 13 == 0 ? "radix 11 or 13" : "7-smooth";
       }))
    for (Direction d : {Direction::Forward, Direction::Inverse}) {
      const Problem p = make({n}, 2, d, ++i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace);
      const Errors e = check(p);
      ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
      ASSERT_LE(e.relative_l2, kToleranceF64) << p.token();
      if (e.relative_l2 > worst) worst = e.relative_l2, worst_token = p.token();
    }
  std::printf("worst relative L2 error %.3g at %s\n", worst, worst_token.c_str());
}

// Multi-pass lengths (the pass twiddles in fp64), 2D/3D and strided layouts.
TEST_P(Double, LargeAndMultiDimensional) {
  int i = 0;
  // (9000 and 12000: one pass past 8192 on Hopper.) The quick tier: 5 of
  // the 9, each class to 65536 and past it.
  for (std::int64_t n : sample_lengths(
           "fp64 large lengths", {8192, 9000, 12000, 16384, 65536, 100000, 1 << 20, 371293 /* 13^5 */, 1 << 22}, 5)) {
    const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
    expect_accurate(make({n}, 1, d, (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace));
    ++i;
  }
  expect_accurate(make({512, 512}));
  expect_accurate(make({1000, 1000}, 1, Direction::Inverse, Placement::InPlace));
  expect_accurate(make({64, 64, 64}, 2));
  expect_accurate(make({7, 4096}));
  Problem sub = make({6, 5, 8, 9}, 2);
  sub.axes = {0, 2};
  sub.input.strides = {1000, 100, 10, 1};
  sub.input.distance = 7000;
  expect_accurate(sub);
  PlanOptions transpose = test_options();
  transpose.strategy = Strategy::Transpose;
  expect_accurate(make({480, 640}), transpose);
}

TEST_P(Double, NormsAndRoundTrip) {
  for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
    for (Direction d : {Direction::Forward, Direction::Inverse})
      expect_accurate(make({1000}, 2, d, Placement::OutOfPlace, norm));
  const Plan forward(device(), make({4096}, 1, Direction::Forward, Placement::OutOfPlace, Norm::Backward));
  const Plan inverse(device(), make({4096}, 1, Direction::Inverse, Placement::OutOfPlace, Norm::Backward));
  const auto x = random_data_f64(4096);
  std::vector<std::complex<double>> y(x.size()), back(x.size());
  forward.execute_host(x.data(), y.data());
  inverse.execute_host(y.data(), back.data());
  double diff = 0, norm = 0;
  for (std::size_t k = 0; k < x.size(); ++k) diff += std::norm(back[k] - x[k]), norm += std::norm(x[k]);
  EXPECT_LE(std::sqrt(diff / norm), kToleranceF64);
  // complex<float> data on a double plan is refused.
  std::vector<std::complex<float>> f(4096);
  EXPECT_THROW(forward.execute_host(f.data(), f.data()), Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, Double, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
