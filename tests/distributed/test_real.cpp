// Distributed R2C and C2R (the real axis, the last, transformed first on
// the way out and last on the way back; the exchanges move the half
// spectrum): slabs in 2D and 3D and pencils in 3D, fp32 and fp64, against
// FFTW over the whole array (C2R inputs made Hermitian), outputs poisoned,
// odd and even real lengths, and a round trip on the same boxes.
#include <gtest/gtest.h>

#include "distributed/cases.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;

class Real : public ::testing::TestWithParam<distributed::Problem> {};

TEST_P(Real, MatchesFftw) { expect_matches_fftw(GetParam(), distributed_options()); }

constexpr auto f32 = Precision::Single;
constexpr auto f64 = Precision::Double;
constexpr auto slabs = Decomposition::Slabs;
constexpr auto slabs_back = Decomposition::SlabsTransposedIn;
constexpr auto pencils = Decomposition::Pencils;
constexpr auto pencils_back = Decomposition::PencilsTransposedIn;

INSTANTIATE_TEST_SUITE_P(
    Distributed, Real,
    ::testing::Values(make(Kind::R2C, {8, 10}, f32, Norm::None, slabs),           // 2D: 6 complex columns over np
                      make(Kind::C2R, {10, 9}, f64, Norm::Backward, slabs_back),  // 2D, odd real length
                      make(Kind::R2C, {6, 5, 8}, f64, Norm::Ortho, slabs),        // 3D
                      make(Kind::C2R, {5, 6, 7}, f32, Norm::Backward, slabs),     // 3D: C2C, exchange, C2R
                      make(Kind::R2C, {5, 6, 4}, f32, Norm::None, slabs_back),    // 3D: R2C over axes 0 and 2
                      make(Kind::R2C, {6, 5, 7}, f32, Norm::None, pencils),       // pencils: 4 complex points on axis 2
                      make(Kind::R2C, {3, 3, 4}, f64, Norm::Forward, pencils, {1, mpi_size()}),  // empty boxes
                      make(Kind::C2R, {6, 5, 7}, f64, Norm::Backward, pencils_back)),
    case_name);

// R2C forward with Pencils, then C2R with PencilsTransposedIn: the real
// input comes back (norm backward) on the same boxes, through four
// exchanges of the half spectrum.
TEST(RealRoundTrip, PencilsThereAndBack) {
  const std::vector<std::int64_t> shape{4, 6, 5};
  const distributed::Problem forward = make(Kind::R2C, shape, f64, Norm::Backward, pencils);
  const distributed::Problem backward = make(Kind::C2R, shape, f64, Norm::Backward, pencils_back);
  distributed::Plan there(MPI_COMM_WORLD, distributed_device(), forward, distributed_options());
  distributed::Plan back_again(MPI_COMM_WORLD, distributed_device(), backward, distributed_options());
  ASSERT_EQ(there.output_box(), back_again.input_box());
  ASSERT_EQ(there.input_box(), back_again.output_box());
  EXPECT_EQ(there.output_box().upper.size(), 3u);
  // The complex side's boxes are over the half shape: 5 / 2 + 1 = 3 points on axis 2.
  std::int64_t complex_points = 0;
  for (const distributed::Box& box : there.output_boxes()) complex_points += box.elements();
  EXPECT_EQ(complex_points, 4 * 6 * 3);

  const std::vector<double> global = shared_random_real<double>(4 * 6 * 5);
  const std::vector<double> in = box_part(global, shape, there.input_box());
  std::vector<std::complex<double>> middle(static_cast<std::size_t>(there.output_box().elements()));
  std::vector<double> out(in.size());
  poison(out);
  there.execute(in.data(), middle.data());
  back_again.execute(middle.data(), out.data());
  Expected identity;
  identity.values.assign(global.begin(), global.end());
  const Errors errors = global_errors(out, there.input_box(), shape, identity, 1.0);
  EXPECT_TRUE(errors.finite);
  EXPECT_LE(errors.relative_l2, 2e-15);
}

}  // namespace
}  // namespace bfly::test
