// Plans on the caller's own boxes (Plan's constructor with boxes): any
// tiling of the global array on each side, reshaped to and from the
// decomposition's (src/distributed/reshape.cpp). Each rank's output box
// (poisoned first) against FFTW over the whole array, and the tilings the
// plan refuses. Under mpirun -np 1..4 (tests/distributed/CMakeLists.txt).
#include <gtest/gtest.h>

#include "distributed/boxes.hpp"
#include "distributed/mpi_support.hpp"

namespace bfly::test {
namespace {

using distributed::Box;
using distributed::Decomposition;

std::string error_of(const std::function<void()>& step) {
  try {
    step();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// One transform on the given boxes (the rank's, of tilings split along
// `in_axis` and `out_axis` of each side's shape), or the profiled
// device-buffer execution where `profiled`.
template <class T>
Errors run_on_boxes(const distributed::Problem& problem, int in_axis, int out_axis, bool expect_reshape) {
  const Problem whole = whole_problem(problem);
  const std::vector<std::int64_t> in_shape = whole.input_shape(), out_shape = whole.output_shape();
  const Box in_box = distributed::detail::slab(in_shape, in_axis, mpi_size(), mpi_rank());
  const Box out_box = distributed::detail::slab(out_shape, out_axis, mpi_size(), mpi_rank());
  const distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, in_box, out_box, distributed_options());
  EXPECT_EQ(plan.input_box(), in_box);
  EXPECT_EQ(plan.output_box(), out_box);
  const bool reshapes = plan.describe().find("reshape") != std::string::npos;
  if (mpi_size() > 1) EXPECT_EQ(reshapes, expect_reshape) << plan.describe();
  std::int64_t in_elements = 1;
  for (std::int64_t n : in_shape) in_elements *= n;
  if (problem.kind == Kind::R2C) {
    const std::vector<T> global = shared_random_real<T>(in_elements);
    const Expected expected = fftw_reference(whole, global);
    const std::vector<T> in = box_part(global, in_shape, in_box);
    std::vector<std::complex<T>> out(static_cast<std::size_t>(out_box.elements()));
    poison(out);
    plan.execute(in.data(), out.data());
    return global_errors(out, out_box, out_shape, expected, whole.scale());
  }
  std::vector<std::complex<T>> global = shared_random<T>(in_elements);
  if (problem.kind == Kind::C2R) make_hermitian(whole, global);
  const Expected expected = fftw_reference(whole, global);
  const std::vector<std::complex<T>> in = box_part(global, in_shape, in_box);
  if (problem.kind == Kind::C2R) {
    std::vector<T> out(static_cast<std::size_t>(out_box.elements()));
    poison(out);
    plan.execute(in.data(), out.data());
    return global_errors(out, out_box, out_shape, expected, whole.scale());
  }
  std::vector<std::complex<T>> out(static_cast<std::size_t>(out_box.elements()));
  poison(out);
  plan.execute(in.data(), out.data());
  return global_errors(out, out_box, out_shape, expected, whole.scale());
}

void expect_right(const distributed::Problem& problem, int in_axis, int out_axis, bool expect_reshape) {
  const Errors errors = problem.precision == Precision::Single
                            ? run_on_boxes<float>(problem, in_axis, out_axis, expect_reshape)
                            : run_on_boxes<double>(problem, in_axis, out_axis, expect_reshape);
  const double limit = problem.precision == Precision::Single ? 5e-7 : 2e-15;
  EXPECT_TRUE(errors.finite) << problem.token() << " in along " << in_axis << ", out along " << out_axis;
  EXPECT_LE(errors.relative_l2, limit) << problem.token() << " in along " << in_axis << ", out along " << out_axis;
}

distributed::Problem problem_of(Kind kind, std::vector<std::int64_t> shape, Precision precision, Decomposition d) {
  distributed::Problem p;
  p.kind = kind, p.shape = std::move(shape), p.precision = precision, p.decomposition = d;
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  p.norm = Norm::Ortho;
  return p;
}

TEST(DistributedGivenBoxes, AnyTilingBothWays) {
  // Input and output split along the last axis (neither slabs' nor pencils').
  expect_right(problem_of(Kind::C2C, {6, 8, 10}, Precision::Double, Decomposition::Slabs), 2, 2, true);
  expect_right(problem_of(Kind::C2C, {6, 8, 10}, Precision::Single, Decomposition::Pencils), 2, 1, true);
  expect_right(problem_of(Kind::C2C, {9, 7}, Precision::Double, Decomposition::Slabs), 1, 0, true);
  // Real sides reshaped as reals: the real axis split on the real side.
  expect_right(problem_of(Kind::R2C, {8, 6, 10}, Precision::Single, Decomposition::Slabs), 2, 2, true);
  expect_right(problem_of(Kind::C2R, {8, 6, 10}, Precision::Double, Decomposition::SlabsTransposedIn), 2, 2, true);
  // The decomposition's own boxes: no reshape.
  expect_right(problem_of(Kind::C2C, {6, 8, 10}, Precision::Double, Decomposition::Slabs), 0, 1, false);
}

TEST(DistributedGivenBoxes, TilingsThatDoNotTileAreOneError) {
  const distributed::Problem problem = problem_of(Kind::C2C, {4, 6, 8}, Precision::Single, Decomposition::Slabs);
  const Box all{{0, 0, 0}, {4, 6, 8}}, none{{0, 0, 0}, {0, 0, 0}}, past{{0, 0, 0}, {4, 6, 9}};
  const Box mine = distributed::detail::slab(problem.shape, 0, mpi_size(), mpi_rank());
  auto plan_on = [&](const Box& in, const Box& out) {
    return error_of(
        [&] { distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, in, out, distributed_options()); });
  };
  if (mpi_size() > 1) EXPECT_NE(plan_on(all, mine).find("input boxes of ranks 0 and 1 overlap"), std::string::npos);
  EXPECT_NE(plan_on(mine, none).find("output boxes hold 0 of the global array's 192 points"), std::string::npos);
  EXPECT_NE(plan_on(past, mine).find("is no box of the global array's input side"), std::string::npos);
}

}  // namespace
}  // namespace bfly::test
