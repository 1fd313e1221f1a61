// Mistakes across ranks give the same one-line bfly::Error on every rank,
// never a hang (issue 43). Each test checks that every rank threw, and the
// same text (its hash reduced over the ranks), so a rank that hangs fails
// by the test's timeout and a rank with another message by the hash.
#include <gtest/gtest.h>

#include "distributed/agree.hpp"
#include "distributed/mpi_support.hpp"
#include "support/test_options.hpp"

namespace bfly::test {
namespace {

// The message every rank threw ("" where it threw none), after checking it
// is the same everywhere.
std::string thrown(const distributed::Problem& problem, const PlanOptions& options = test_options()) {
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

TEST(DistributedErrors, RealTransformsUnsupported) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  problem.kind = Kind::R2C;
  EXPECT_NE(thrown(problem).find("only C2C"), std::string::npos);
}

// A local plan that fails on one rank only (here a limits override only
// the last rank passes; options are not part of what the ranks must
// share): every rank throws that rank's error.
TEST(DistributedErrors, LocalPlanFailsOnOneRank) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  PlanOptions options = test_options();
  if (mpi_rank() == mpi_size() - 1) options.limits = "no_such_limit=1";
  const std::string message = thrown(problem, options);
  EXPECT_EQ(message.rfind("rank " + std::to_string(mpi_size() - 1) + ": ", 0), 0u) << message;
  EXPECT_NE(message.find("no_such_limit"), std::string::npos) << message;
}

// A failure on one rank only, at execute time: every rank throws it.
TEST(DistributedErrors, ExecuteFailsTogether) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, test_options());
  std::vector<std::complex<float>> in(static_cast<std::size_t>(plan.input_box().elements()));
  std::vector<std::complex<float>> out(static_cast<std::size_t>(plan.output_box().elements()));
  std::string message;
  try {
    plan.execute(mpi_rank() == 0 ? nullptr : in.data(), out.data());
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("rank 0: "), std::string::npos) << message;
  EXPECT_NE(message.find("null buffer"), std::string::npos) << message;
}

TEST(DistributedErrors, WrongElementType) {
  distributed::Problem problem;
  problem.shape = {6, 4};
  problem.precision = Precision::Double;
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, test_options());
  std::vector<std::complex<float>> in(static_cast<std::size_t>(plan.input_box().elements()));
  std::vector<std::complex<float>> out(static_cast<std::size_t>(plan.output_box().elements()));
  std::string message;
  try {
    plan.execute(in.data(), out.data());
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("complex<float> data on an f64 plan"), std::string::npos) << message;
}

}  // namespace
}  // namespace bfly::test
