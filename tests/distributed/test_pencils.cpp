// Pencil-decomposed 3D C2C transforms (P0 x P1 grids, two exchanges within
// the grid's rows and columns) over the ranks of MPI_COMM_WORLD, under
// mpirun -np 1..4: automatic grids (np 2: 2 x 1, 3: 3 x 1, 4: 2 x 2) and
// explicit ones (1 x np, np x 1), uneven splits (6 x 5 x 7) and grids with
// more ranks than an axis (empty boxes: 1 x 4 over 3 x 3 x 2, 4 x 1 over 2),
// both precisions, both directions, both ways (pencils and back).
#include <gtest/gtest.h>

#include "distributed/cases.hpp"
#include "support/test_options.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;

class Pencils : public ::testing::TestWithParam<distributed::Problem> {};

TEST_P(Pencils, MatchesFftw) { expect_matches_fftw(GetParam(), distributed_options()); }

constexpr auto f32 = Precision::Single;
constexpr auto f64 = Precision::Double;
constexpr auto pencils = Decomposition::Pencils;
constexpr auto back = Decomposition::PencilsTransposedIn;

// Grids of every rank along one axis of the grid.
std::vector<int> one_row() { return {1, mpi_size()}; }
std::vector<int> one_column() { return {mpi_size(), 1}; }

INSTANTIATE_TEST_SUITE_P(
    Distributed, Pencils,
    ::testing::Values(make(Kind::C2C, {6, 5, 7}, f32, Norm::None, pencils),                       // automatic, uneven
                      inverse(make(Kind::C2C, {6, 5, 7}, f64, Norm::Backward, back)),             // and back
                      inverse(make(Kind::C2C, {3, 3, 2}, f32, Norm::Ortho, pencils, one_row())),  // empty boxes
                      make(Kind::C2C, {2, 8, 3}, f64, Norm::Forward, back, one_column())),        // empty boxes
    case_name);

// Forward with Pencils then inverse with PencilsTransposedIn on an
// explicit grid: each rank's input box comes back (norm backward).
TEST(PencilsRoundTrip, ForwardThenBack) {
  const std::vector<std::int64_t> shape{5, 6, 4};
  distributed::Problem forward = make(Kind::C2C, shape, f64, Norm::Backward, pencils, one_column());
  distributed::Problem backward = inverse(forward);
  backward.decomposition = back;
  distributed::Plan there(MPI_COMM_WORLD, distributed_device(), forward, distributed_options());
  distributed::Plan back_again(MPI_COMM_WORLD, distributed_device(), backward, distributed_options());
  ASSERT_EQ(there.output_box(), back_again.input_box());
  ASSERT_EQ(there.input_box(), back_again.output_box());
  EXPECT_EQ(there.grid(), one_column());

  const Errors errors = round_trip_errors(there, back_again);  // twice: plan once, execute many
  EXPECT_TRUE(errors.finite);
  EXPECT_LE(errors.relative_l2, 2e-15);
}

// The automatic grid is the most square one, P0 >= P1, and the boxes are
// the pencils it names (docs/DISTRIBUTED.md).
TEST(PencilsGrid, AutomaticAndBoxes) {
  const distributed::Problem problem = make(Kind::C2C, {6, 5, 7}, f32, Norm::None, pencils);
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  const int np = mpi_size();  // 4: 2 x 2, 6: 3 x 2, else (np <= 7) np x 1
  const std::vector<int> expected = np == 4   ? std::vector<int>{2, 2}
                                    : np == 6 ? std::vector<int>{3, 2}
                                              : std::vector<int>{np, 1};
  EXPECT_EQ(plan.grid(), expected);
  const distributed::Box& in = plan.input_box();
  const distributed::Box& out = plan.output_box();
  EXPECT_EQ(in.lower[2], 0);  // z-pencils in
  EXPECT_EQ(in.upper[2], 7);
  EXPECT_EQ(out.lower[0], 0);  // x-pencils out
  EXPECT_EQ(out.upper[0], 6);
  EXPECT_NE(plan.describe().find("stage 3"), std::string::npos) << plan.describe();
}

// A few cases on the specialised kernels (the library's default once
// compiled; the other tests run the generic tier: distributed_options()),
// so the layer is seen to work with both: slabs C2C and pencils R2C.
TEST(DistributedSpecialised, SlabsAndPencils) {
  expect_matches_fftw(make(Kind::C2C, {8, 8}, f32, Norm::None, Decomposition::Slabs), test_options());
  expect_matches_fftw(make(Kind::R2C, {4, 6, 8}, f32, Norm::None, pencils), test_options());
}

}  // namespace
}  // namespace bfly::test
