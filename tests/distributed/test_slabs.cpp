// Slab-decomposed 2D and 3D C2C transforms over the ranks of
// MPI_COMM_WORLD (run under mpirun -np 1..4: tests/distributed/CMakeLists.txt),
// each rank's output box against FFTW over the whole array (double for
// fp32, long double for fp64), with the accuracy suite's limits. Outputs
// are poisoned (NaN) first, so a point the plan leaves unwritten fails.
// The shapes are chosen so that np = 3 splits unevenly (8, 10) and np = 4
// meets axes shorter than the ranks (3: empty boxes on both sides).
#include <gtest/gtest.h>

#include "distributed/mpi_support.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;

struct Case {
  std::vector<std::int64_t> shape;
  Precision precision;
  Direction direction;
  Norm norm;
  Decomposition decomposition;
};

std::string name(const Case& c) {
  distributed::Problem problem;
  problem.shape = c.shape, problem.precision = c.precision, problem.direction = c.direction;
  problem.norm = c.norm, problem.decomposition = c.decomposition;
  return problem.token();
}

// Runs one case on every rank; returns the errors reduced over the ranks.
template <class T>
Errors run(const Case& c) {
  distributed::Problem problem;
  problem.shape = c.shape, problem.precision = c.precision, problem.direction = c.direction;
  problem.norm = c.norm, problem.decomposition = c.decomposition;
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());

  Problem whole;
  whole.shape = c.shape, whole.precision = c.precision, whole.direction = c.direction, whole.norm = c.norm;
  std::int64_t elements = 1;
  for (std::int64_t n : c.shape) elements *= n;
  const std::vector<std::complex<T>> global = shared_random<T>(elements);
  const Expected expected = fftw_reference(whole, global);

  const std::vector<std::complex<T>> in = box_part(global, c.shape, plan.input_box());
  std::vector<std::complex<T>> out(static_cast<std::size_t>(plan.output_box().elements()));
  poison(out);
  plan.execute(in.data(), out.data());
  return global_errors(out, plan.output_box(), c.shape, expected, whole.scale());
}

// gtest names a failing case by its token, not its bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << name(c); }

class Slabs : public ::testing::TestWithParam<Case> {};

TEST_P(Slabs, MatchesFftw) {
  const Case& c = GetParam();
  const Errors errors = c.precision == Precision::Single ? run<float>(c) : run<double>(c);
  const double limit = c.precision == Precision::Single ? 5e-7 : 2e-15;
  EXPECT_TRUE(errors.finite) << name(c) << " on " << mpi_size() << " ranks left points unwritten";
  EXPECT_LE(errors.relative_l2, limit) << name(c) << " on " << mpi_size() << " ranks";
  if (mpi_rank() == 0)
    std::printf("[ errors   ] %s np=%d: relative L2 %.2e, max %.2e\n", name(c).c_str(), mpi_size(), errors.relative_l2,
                errors.relative_max);
}

constexpr auto f32 = Precision::Single;
constexpr auto f64 = Precision::Double;
constexpr auto fwd = Direction::Forward;
constexpr auto inv = Direction::Inverse;
constexpr auto slabs = Decomposition::Slabs;
constexpr auto back = Decomposition::SlabsTransposedIn;

INSTANTIATE_TEST_SUITE_P(
    Distributed, Slabs,
    ::testing::Values(Case{{8, 8}, f32, fwd, Norm::None, slabs},            // 2D, even for np 1, 2, 4
                      Case{{10, 8}, f64, inv, Norm::Backward, slabs},       // 2D, np 3: 4 + 3 + 3 rows
                      Case{{3, 10}, f32, inv, Norm::Ortho, slabs},          // np 4: an empty input box
                      Case{{8, 10, 6}, f32, fwd, Norm::None, slabs},        // 3D, both splits uneven for np 3
                      Case{{10, 3, 4}, f64, fwd, Norm::Forward, slabs},     // np 4: an empty output box
                      Case{{3, 3, 5}, f64, inv, Norm::None, slabs},         // np 4: both empty
                      Case{{32, 32, 32}, f32, inv, Norm::Backward, slabs},  // the largest
                      Case{{16, 16, 16}, f64, fwd, Norm::None, slabs},      //
                      Case{{8, 10}, f32, inv, Norm::None, back},            // the way back, 2D
                      Case{{6, 10, 8}, f64, inv, Norm::Backward, back}),    // and 3D
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string text = name(info.param);
      for (char& ch : text)
        if (ch == '-') ch = '_';
      return text;
    });

// Forward with Slabs then inverse with SlabsTransposedIn: each rank's
// input box comes back (norm backward), through two exchanges.
TEST(SlabsRoundTrip, ForwardThenBack) {
  const std::vector<std::int64_t> shape{9, 10, 4};
  distributed::Problem forward;
  forward.shape = shape, forward.precision = f64, forward.norm = Norm::Backward;
  distributed::Problem inverse = forward;
  inverse.direction = inv, inverse.decomposition = back;
  distributed::Plan there(MPI_COMM_WORLD, distributed_device(), forward, distributed_options());
  distributed::Plan back_again(MPI_COMM_WORLD, distributed_device(), inverse, distributed_options());
  ASSERT_EQ(there.output_box(), back_again.input_box());
  ASSERT_EQ(there.input_box(), back_again.output_box());
  // One rank keeps its box: the exchange is skipped.
  const char* exchange = there.transport() == distributed::Transport::Nccl ? "NCCL" : "MPI_Alltoallv";
  EXPECT_NE(there.describe().find(mpi_size() > 1 ? exchange : "none"), std::string::npos) << there.describe();

  const Errors errors = round_trip_errors(there, back_again);  // twice: plan once, execute many
  EXPECT_TRUE(errors.finite);
  EXPECT_LE(errors.relative_l2, 2e-15);
}

}  // namespace
}  // namespace bfly::test
