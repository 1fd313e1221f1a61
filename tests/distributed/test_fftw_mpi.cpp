// FFTW-MPI as a second oracle for the slab decompositions (issue 43): the
// distributed transform that `Slabs` (FFTW_MPI_TRANSPOSED_OUT) and
// `SlabsTransposedIn` (FFTW_MPI_TRANSPOSED_IN) follow, run on the same
// global data in the same precision (fftwf_mpi for fp32, fftw_mpi for
// fp64), each rank's bfly output box against it with the accuracy suite's
// limits. Built where CMake finds FFTW-MPI (libfftw3-mpi-dev:
// tests/distributed/CMakeLists.txt).
//
// FFTW-MPI splits an axis of n over P ranks in blocks of ceil(n / P) (10
// over 3: 4, 4, 2), bfly as evenly as it can (4, 3, 3), so the boxes differ
// where P does not divide n: FFTW-MPI takes its own local input from the
// global array, each rank writes its local output into a global array
// (zeros elsewhere), a sum over the ranks assembles it, and each rank
// compares its bfly box with that. Where P divides the split axis the two
// distributions are the same, and the test says so.
#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

#include "distributed/cases.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;

// fftw3-mpi.h's functions of one precision, named once.
template <class T>
struct Fftw;
template <>
struct Fftw<float> {
  using Complex = fftwf_complex;
  using Plan = fftwf_plan;
  static constexpr auto init = fftwf_mpi_init;
  static constexpr auto cleanup = fftwf_mpi_cleanup;
  static constexpr auto local_size = fftwf_mpi_local_size_transposed;
  static constexpr auto plan_dft = fftwf_mpi_plan_dft;
  static constexpr auto plan_r2c = fftwf_mpi_plan_dft_r2c;
  static constexpr auto plan_c2r = fftwf_mpi_plan_dft_c2r;
  static constexpr auto execute = fftwf_execute;
  static constexpr auto destroy = fftwf_destroy_plan;
};
template <>
struct Fftw<double> {
  using Complex = fftw_complex;
  using Plan = fftw_plan;
  static constexpr auto init = fftw_mpi_init;
  static constexpr auto cleanup = fftw_mpi_cleanup;
  static constexpr auto local_size = fftw_mpi_local_size_transposed;
  static constexpr auto plan_dft = fftw_mpi_plan_dft;
  static constexpr auto plan_r2c = fftw_mpi_plan_dft_r2c;
  static constexpr auto plan_c2r = fftw_mpi_plan_dft_c2r;
  static constexpr auto execute = fftw_execute;
  static constexpr auto destroy = fftw_destroy_plan;
};

// fftw_mpi_init after MPI_Init (mpi_main.cpp) and before the first plan;
// cleanup before MPI_Finalize (RUN_ALL_TESTS tears environments down first).
class FftwMpiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { Fftw<float>::init(), Fftw<double>::init(); }
  void TearDown() override { Fftw<float>::cleanup(), Fftw<double>::cleanup(); }
};
::testing::Environment* const fftw_mpi_environment = ::testing::AddGlobalTestEnvironment(new FftwMpiEnvironment);

// One side (input or output) of FFTW-MPI's local array on this rank: the
// planes [start, start + count) of axis `split` (0, or 1 where the side is
// transposed: stored count x n0 x n2..., axes 0 and 1 swapped), the last
// axis stored `stored_last` long (real data: 2 (n/2 + 1), FFTW-MPI pads it
// in and out of place).
struct LocalSide {
  int split = 0;
  std::int64_t start = 0, count = 0, stored_last = 0;
};

// The global row-major index (over `shape`) of every element of the local
// array, in its storage order; -1 for padding.
std::vector<std::int64_t> global_indices(const std::vector<std::int64_t>& shape, const LocalSide& side) {
  const std::size_t rank = shape.size();
  // axis[s]: the global axis stored at position s; length[s]: its stored length.
  std::vector<std::size_t> axis(rank);
  for (std::size_t k = 0; k < rank; ++k) axis[k] = k;
  if (side.split == 1) std::swap(axis[0], axis[1]);
  std::vector<std::int64_t> length(rank);
  for (std::size_t s = 0; s < rank; ++s) {
    const std::size_t a = axis[s];
    length[s] = a == static_cast<std::size_t>(side.split) ? side.count : a == rank - 1 ? side.stored_last : shape[a];
  }
  std::vector<std::int64_t> indices;
  for (std::int64_t n : length)
    if (n == 0) return indices;
  std::vector<std::int64_t> at(rank, 0), global(rank);
  while (true) {
    bool padding = false;
    for (std::size_t s = 0; s < rank; ++s) {
      global[axis[s]] = at[s] + (axis[s] == static_cast<std::size_t>(side.split) ? side.start : 0);
      padding = padding || global[axis[s]] >= shape[axis[s]];
    }
    std::int64_t index = 0;
    for (std::size_t k = 0; k < rank; ++k) index = index * shape[k] + global[k];
    indices.push_back(padding ? -1 : index);
    std::size_t s = rank;
    while (s > 0 && ++at[s - 1] == length[s - 1]) at[s - 1] = 0, --s;
    if (s == 0) return indices;
  }
}

// FFTW-MPI's transform of `global_in` (row-major over the whole input
// shape, the same on every rank), assembled on every rank: the whole
// output, unnormalised. Checks on the way that FFTW-MPI's local outputs
// tile the output array, and that its distribution is bfly's where the
// rank count divides the split axis.
template <class T, class In, class Out>
Expected fftw_mpi_reference(const distributed::Problem& problem, const distributed::Plan& plan,
                            const std::vector<In>& global_in) {
  using F = Fftw<T>;
  const Problem whole = whole_problem(problem);
  const std::vector<std::int64_t> in_shape = whole.input_shape(), out_shape = whole.output_shape();
  const bool transposed_in = problem.decomposition == Decomposition::SlabsTransposedIn;
  // The distribution is the complex array's (FFTW-MPI's r2c and c2r split
  // the half spectrum's planes; the real side takes the same planes of axis 0 or 1).
  const std::vector<std::int64_t>& complex_shape = problem.kind == Kind::R2C ? out_shape : in_shape;
  const std::vector<std::ptrdiff_t> complex_n(complex_shape.begin(), complex_shape.end());
  const std::vector<std::ptrdiff_t> n(problem.shape.begin(), problem.shape.end());  // the logical (real) shape
  std::ptrdiff_t n0 = 0, start0 = 0, n1 = 0, start1 = 0;
  const std::ptrdiff_t alloc =
      F::local_size(static_cast<int>(n.size()), complex_n.data(), MPI_COMM_WORLD, &n0, &start0, &n1, &start1);
  const LocalSide planes0{0, start0, n0, 0}, planes1{1, start1, n1, 0};
  LocalSide in_side = transposed_in ? planes1 : planes0, out_side = transposed_in ? planes0 : planes1;
  in_side.stored_last = std::is_same_v<In, T> ? 2 * (in_shape.back() / 2 + 1) : in_shape.back();
  out_side.stored_last = std::is_same_v<Out, T> ? 2 * (out_shape.back() / 2 + 1) : out_shape.back();

  // Every element of either side fits `alloc` complex points (FFTW-MPI's contract).
  const std::size_t points = static_cast<std::size_t>(std::max<std::ptrdiff_t>(alloc, 1));
  std::vector<In> in(std::is_same_v<In, T> ? 2 * points : points);
  std::vector<Out> out(std::is_same_v<Out, T> ? 2 * points : points);
  const unsigned flags =
      FFTW_ESTIMATE | (transposed_in ? unsigned{FFTW_MPI_TRANSPOSED_IN} : unsigned{FFTW_MPI_TRANSPOSED_OUT});
  const int rank = static_cast<int>(n.size());
  using Complex = typename F::Complex;
  typename F::Plan fftw_plan;
  if constexpr (std::is_same_v<In, T>)
    fftw_plan = F::plan_r2c(rank, n.data(), in.data(), reinterpret_cast<Complex*>(out.data()), MPI_COMM_WORLD, flags);
  else if constexpr (std::is_same_v<Out, T>)
    fftw_plan = F::plan_c2r(rank, n.data(), reinterpret_cast<Complex*>(in.data()), out.data(), MPI_COMM_WORLD, flags);
  else
    fftw_plan =
        F::plan_dft(rank, n.data(), reinterpret_cast<Complex*>(in.data()), reinterpret_cast<Complex*>(out.data()),
                    MPI_COMM_WORLD, problem.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, flags);
  EXPECT_NE(fftw_plan, nullptr) << problem.token() << ": FFTW-MPI made no plan";
  if (!fftw_plan) return {};

  const std::vector<std::int64_t> in_indices = global_indices(in_shape, in_side);
  for (std::size_t i = 0; i < in_indices.size(); ++i)
    in[i] = in_indices[i] < 0 ? In{} : global_in[static_cast<std::size_t>(in_indices[i])];
  F::execute(fftw_plan);
  F::destroy(fftw_plan);

  std::int64_t out_elements = 1;
  for (std::int64_t length : out_shape) out_elements *= length;
  Expected expected;
  expected.values.assign(static_cast<std::size_t>(out_elements), {});
  std::vector<int> writes(expected.values.size(), 0);
  const std::vector<std::int64_t> out_indices = global_indices(out_shape, out_side);
  for (std::size_t i = 0; i < out_indices.size(); ++i) {
    if (out_indices[i] < 0) continue;
    const std::size_t at = static_cast<std::size_t>(out_indices[i]);
    expected.values[at] = std::complex<double>(out[i]);
    ++writes[at];
  }
  // Each point is one rank's value plus zeros: the sum is exact.
  MPI_Allreduce(MPI_IN_PLACE, expected.values.data(), static_cast<int>(expected.values.size()), MPI_C_DOUBLE_COMPLEX,
                MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, writes.data(), static_cast<int>(writes.size()), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(std::count(writes.begin(), writes.end(), 1), out_elements)
      << problem.token() << ": FFTW-MPI's local outputs, as mapped here, do not tile the output";

  // The same planes as FFTW-MPI's where the rank count divides the axis.
  const int ranks = mpi_size();
  int differ = 0;
  const auto same_planes = [&](const distributed::Box& box, const LocalSide& side, std::int64_t length) {
    if (length % ranks != 0) return;
    const std::size_t k = static_cast<std::size_t>(side.split);
    differ += box.lower[k] != side.start || box.upper[k] != side.start + side.count;
  };
  same_planes(plan.input_box(), in_side, in_shape[static_cast<std::size_t>(in_side.split)]);
  same_planes(plan.output_box(), out_side, out_shape[static_cast<std::size_t>(out_side.split)]);
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(differ, 0) << problem.token() << ": bfly's boxes are not FFTW-MPI's where " << ranks
                       << " ranks divide the split axis";
  return expected;
}

// bfly and FFTW-MPI on the same fresh global input; bfly's output boxes
// (poisoned first) against FFTW-MPI's assembled output, errors reduced
// over the ranks.
template <class T, class In, class Out>
Errors against_fftw_mpi(const distributed::Problem& problem) {
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  const Problem whole = whole_problem(problem);
  std::int64_t in_elements = 1;
  for (std::int64_t length : whole.input_shape()) in_elements *= length;
  std::vector<In> global;
  if constexpr (std::is_same_v<In, T>) {
    global = shared_random_real<T>(in_elements);
  } else {
    global = shared_random<T>(in_elements);
    if (problem.kind == Kind::C2R) make_hermitian(whole, global);  // the same on every rank
  }
  const Expected expected = fftw_mpi_reference<T, In, Out>(problem, plan, global);
  if (expected.values.empty()) return Errors{1, 1, false};

  const std::vector<In> in = box_part(global, whole.input_shape(), plan.input_box());
  std::vector<Out> out(static_cast<std::size_t>(plan.output_box().elements()));
  poison(out);
  plan.execute(in.data(), out.data());
  return global_errors(out, plan.output_box(), whole.output_shape(), expected, whole.scale());
}

template <class T>
Errors against_fftw_mpi_of_kind(const distributed::Problem& problem) {
  if (problem.kind == Kind::R2C) return against_fftw_mpi<T, T, std::complex<T>>(problem);
  if (problem.kind == Kind::C2R) return against_fftw_mpi<T, std::complex<T>, T>(problem);
  return against_fftw_mpi<T, std::complex<T>, std::complex<T>>(problem);
}

class FftwMpi : public ::testing::TestWithParam<distributed::Problem> {};

TEST_P(FftwMpi, MatchesFftwMpi) {
  const distributed::Problem& problem = GetParam();
  const bool single = problem.precision == Precision::Single;
  const Errors errors = single ? against_fftw_mpi_of_kind<float>(problem) : against_fftw_mpi_of_kind<double>(problem);
  const double limit = single ? 5e-7 : 2e-15;
  EXPECT_TRUE(errors.finite) << problem.token() << " on " << mpi_size() << " ranks left points unwritten";
  EXPECT_LE(errors.relative_l2, limit) << problem.token() << " on " << mpi_size() << " ranks against FFTW-MPI";
  if (mpi_rank() == 0)
    std::printf("[ errors   ] %s np=%d against FFTW-MPI: relative L2 %.2e, max %.2e\n", problem.token().c_str(),
                mpi_size(), errors.relative_l2, errors.relative_max);
}

constexpr auto f32 = Precision::Single;
constexpr auto f64 = Precision::Double;
constexpr auto slabs = Decomposition::Slabs;
constexpr auto slabs_back = Decomposition::SlabsTransposedIn;

// np 3 splits 10 as 4, 3, 3 (bfly) and 4, 4, 2 (FFTW-MPI); np 4 meets axes
// of 3 (a rank with no planes, either way).
INSTANTIATE_TEST_SUITE_P(
    Distributed, FftwMpi,
    ::testing::Values(make(Kind::C2C, {10, 8}, f32, Norm::None, slabs),  // 2D: inputs split differently at np 3
                      inverse(make(Kind::C2C, {8, 10}, f64, Norm::Backward, slabs)),  // 2D: outputs split differently
                      make(Kind::C2C, {8, 10, 6}, f32, Norm::None, slabs),            // 3D
                      make(Kind::C2C, {10, 3, 4}, f64, Norm::Forward, slabs),         // np 4: an empty output box
                      make(Kind::C2C, {3, 3, 5}, f32, Norm::None, slabs),             // np 4: both empty
                      make(Kind::C2C, {12, 16, 8}, f64, Norm::None, slabs),           // the largest
                      make(Kind::R2C, {6, 10, 8}, f32, Norm::None, slabs),  // 3D R2C: 5 complex points on axis 2
                      make(Kind::R2C, {5, 3, 7}, f64, Norm::Ortho, slabs),  // odd real length, np 4 empty
                      make(Kind::R2C, {8, 10}, f64, Norm::None, slabs),     // 2D R2C: 6 complex columns split
                      inverse(make(Kind::C2C, {6, 10, 4}, f64, Norm::Backward, slabs_back)),  // FFTW_MPI_TRANSPOSED_IN
                      make(Kind::C2R, {5, 6, 7}, f32, Norm::Backward, slabs_back)),           // C2R, transposed in
    case_name);

}  // namespace
}  // namespace bfly::test
