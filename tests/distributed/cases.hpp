// Parameterised cases of the distributed tests: a distributed::Problem
// each, named by its token, checked against FFTW over the whole array with
// the accuracy suite's limits (relative L2 5e-7 in fp32, 2e-15 in fp64).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "distributed/mpi_support.hpp"

namespace bfly::test {

// A problem from its fields, the grid empty (automatic) unless given.
inline distributed::Problem make(Kind kind, std::vector<std::int64_t> shape, Precision precision, Norm norm,
                                 distributed::Decomposition decomposition, std::vector<int> grid = {}) {
  distributed::Problem problem;
  problem.kind = kind, problem.shape = std::move(shape), problem.precision = precision, problem.norm = norm;
  problem.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  problem.decomposition = decomposition, problem.grid = std::move(grid);
  return problem;
}

inline distributed::Problem inverse(distributed::Problem problem) {
  problem.direction = Direction::Inverse;
  return problem;
}

// Runs `problem` and checks it (every rank reaches the same verdict).
inline void expect_matches_fftw(const distributed::Problem& problem, const PlanOptions& options) {
  const Errors errors = problem.precision == Precision::Single ? run_against_fftw<float>(problem, options)
                                                               : run_against_fftw<double>(problem, options);
  const double limit = problem.precision == Precision::Single ? 5e-7 : 2e-15;
  EXPECT_TRUE(errors.finite) << problem.token() << " on " << mpi_size() << " ranks left points unwritten";
  EXPECT_LE(errors.relative_l2, limit) << problem.token() << " on " << mpi_size() << " ranks";
  if (mpi_rank() == 0)
    std::printf("[ errors   ] %s np=%d: relative L2 %.2e, max %.2e\n", problem.token().c_str(), mpi_size(),
                errors.relative_l2, errors.relative_max);
}

// gtest's name for a case: its token, '-' made '_'.
inline std::string case_name(const ::testing::TestParamInfo<distributed::Problem>& info) {
  std::string text = info.param.token();
  for (char& ch : text)
    if (ch == '-') ch = '_';
  return text;
}

}  // namespace bfly::test

namespace bfly::distributed {
// gtest names a failing case by its token, not its bytes.
inline void PrintTo(const Problem& problem, std::ostream* out) { *out << problem.token(); }
}  // namespace bfly::distributed
