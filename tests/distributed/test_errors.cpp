// Mistakes across ranks give the same one-line bfly::Error on every rank,
// never a hang (issue 43). Each test checks that every rank threw, and the
// same text (its hash reduced over the ranks), so a rank that hangs fails
// by the test's timeout and a rank with another message by the hash.
#include <gtest/gtest.h>

#include "distributed/agree.hpp"
#include "distributed/mpi_support.hpp"

namespace bfly::test {
namespace {

// What `run` threw on this rank ("" where nothing).
template <class Run>
std::string error_of(Run run) {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The message every rank threw ("" where it threw none), after checking it
// is the same everywhere.
std::string thrown(const distributed::Problem& problem, const PlanOptions& options = distributed_options()) {
  std::string message;
  try {
    distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, options);
  } catch (const Error& e) {
    message = e.what();
  }
  std::uint64_t mine[2] = {distributed::detail::fingerprint(message), ~distributed::detail::fingerprint(message)};
  MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(mine[0], ~mine[1]) << "the ranks threw different messages; this one: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  if (mpi_rank() == 0) std::printf("[ error    ] %s\n", message.c_str());
  return message;
}

TEST(DistributedErrors, ShapesDisagree) {
  if (mpi_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  distributed::Problem problem;
  problem.shape = {8, mpi_rank() == 1 ? 6 : 8};
  const std::string message = thrown(problem);
  EXPECT_NE(message.find("disagree"), std::string::npos) << message;
  EXPECT_NE(message.find("rank 1 differs from rank 0"), std::string::npos) << message;
}

TEST(DistributedErrors, OptionsDisagree) {
  if (mpi_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  distributed::Problem problem;
  problem.shape = {8, 8};
  if (mpi_rank() == mpi_size() - 1) problem.precision = Precision::Double;
  EXPECT_NE(thrown(problem).find("disagree"), std::string::npos);
}

TEST(DistributedErrors, BadShapeEverywhere) {
  distributed::Problem problem;
  problem.shape = {8, 0, 4};
  EXPECT_NE(thrown(problem).find("length 0"), std::string::npos);
  problem.shape = {8};
  EXPECT_NE(thrown(problem).find("2 or 3"), std::string::npos);
}

TEST(DistributedErrors, RealTransformsNeedTheRealAxisWhole) {
  distributed::Problem problem;
  problem.shape = {8, 8, 8};
  problem.kind = Kind::R2C;
  problem.decomposition = distributed::Decomposition::PencilsTransposedIn;
  EXPECT_NE(thrown(problem).find("r2c needs the last axis (the real one) whole on input"), std::string::npos);
  problem.kind = Kind::C2R, problem.direction = Direction::Inverse;
  problem.decomposition = distributed::Decomposition::Pencils;
  EXPECT_NE(thrown(problem).find("c2r needs the last axis (the real one) whole on output"), std::string::npos);
  problem.shape = {8, 8};
  problem.decomposition = distributed::Decomposition::Slabs;
  EXPECT_NE(thrown(problem).find("which slabs splits"), std::string::npos);
  problem.direction = Direction::Forward;
  EXPECT_NE(thrown(problem).find("a c2r transform is inverse"), std::string::npos);
  problem.kind = Kind::R2R;
  EXPECT_NE(thrown(problem).find("not r2r"), std::string::npos);
}

// A grid whose product is not the rank count: refused the same on every
// rank (the ranks agree on the problem, grid included, first).
TEST(DistributedErrors, GridIsNotTheRankCount) {
  distributed::Problem problem;
  problem.shape = {8, 8, 8};
  problem.decomposition = distributed::Decomposition::Pencils;
  problem.grid = {mpi_size(), 2};
  const std::string message = thrown(problem);
  EXPECT_NE(message.find("the process grid " + std::to_string(mpi_size()) + "x2 has " + std::to_string(2 * mpi_size()) +
                         " ranks, the communicator " + std::to_string(mpi_size())),
            std::string::npos)
      << message;
  problem.grid = {mpi_size(), 1, 1};
  EXPECT_NE(thrown(problem).find("not two positive counts"), std::string::npos);
  problem.grid = {mpi_size(), 1};
  problem.decomposition = distributed::Decomposition::Slabs;
  EXPECT_NE(thrown(problem).find("is for pencils"), std::string::npos);
  problem.grid = {};
  problem.decomposition = distributed::Decomposition::Pencils;
  problem.shape = {8, 8};
  EXPECT_NE(thrown(problem).find("split 3D arrays"), std::string::npos);
}

TEST(DistributedErrors, GridsDisagree) {
  if (mpi_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  distributed::Problem problem;
  problem.shape = {8, 8, 8};
  problem.decomposition = distributed::Decomposition::Pencils;
  if (mpi_rank() == 1) problem.grid = {mpi_size(), 1};
  EXPECT_NE(thrown(problem).find("rank 1 differs from rank 0"), std::string::npos);
}

// A local plan that fails on one rank only (here a limits override only
// the last rank passes; options are not part of what the ranks must
// share): every rank throws that rank's error.
TEST(DistributedErrors, LocalPlanFailsOnOneRank) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  PlanOptions options = distributed_options();
  if (mpi_rank() == mpi_size() - 1) options.limits = "no_such_limit=1";
  const std::string message = thrown(problem, options);
  EXPECT_EQ(message.rfind("rank " + std::to_string(mpi_size() - 1) + ": ", 0), 0u) << message;
  EXPECT_NE(message.find("no_such_limit"), std::string::npos) << message;
}

// A failure on one rank only, at execute time: every rank throws it.
TEST(DistributedErrors, ExecuteFailsTogether) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  std::vector<std::complex<float>> in(static_cast<std::size_t>(plan.input_box().elements()));
  std::vector<std::complex<float>> out(static_cast<std::size_t>(plan.output_box().elements()));
  const std::string message = error_of([&] { plan.execute(mpi_rank() == 0 ? nullptr : in.data(), out.data()); });
  EXPECT_NE(message.find("rank 0: "), std::string::npos) << message;
  EXPECT_NE(message.find("null buffer"), std::string::npos) << message;
}

TEST(DistributedErrors, WrongElementType) {
  distributed::Problem problem;
  problem.shape = {6, 4};
  problem.precision = Precision::Double;
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  std::vector<std::complex<float>> in(static_cast<std::size_t>(plan.input_box().elements()));
  std::vector<std::complex<float>> out(static_cast<std::size_t>(plan.output_box().elements()));
  const std::string message = error_of([&] { plan.execute(in.data(), out.data()); });
  EXPECT_NE(message.find("complex<float> data on an f64 plan"), std::string::npos) << message;
}

// Real data on a C2C plan, complex data where R2C takes reals.
TEST(DistributedErrors, WrongKindOfData) {
  distributed::Problem problem;
  problem.shape = {6, 4};
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  std::vector<float> in(static_cast<std::size_t>(plan.input_box().elements()));
  std::vector<std::complex<float>> out(static_cast<std::size_t>(plan.output_box().elements()));
  const std::string message = error_of([&] { plan.execute(in.data(), out.data()); });
  EXPECT_NE(message.find("execute with float in and complex<float> out on a c2c plan"), std::string::npos) << message;
}

}  // namespace
}  // namespace bfly::test
