// The device-buffer execute and profile() (issue 43: plan once, execute on
// the user's buffers and stream; phase times for `bfly bench
// --distributed`), each rank's output box against FFTW as in the other
// suites, and the transport choice: Auto takes MPI where NCCL cannot serve
// (a device other than CUDA, no NCCL, ranks sharing a GPU), Nccl asked for
// there is one error on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "distributed/mpi_support.hpp"
#include "distributed/recorded_methods.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;

struct Case {
  Kind kind;
  std::vector<std::int64_t> shape;
  Precision precision;
  Decomposition decomposition;
  Execution how;
};

distributed::Problem problem_of(const Case& c) {
  distributed::Problem problem;
  problem.kind = c.kind, problem.shape = c.shape, problem.precision = c.precision;
  problem.direction = c.kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  problem.decomposition = c.decomposition;
  return problem;
}

std::string name(const Case& c) {
  return problem_of(c).token() + (c.how == Execution::Profiled  ? "_profiled"
                                  : c.how == Execution::InPlace ? "_in_place"
                                                                : "_device");
}
void PrintTo(const Case& c, std::ostream* out) { *out << name(c); }

class DeviceBuffers : public ::testing::TestWithParam<Case> {};

TEST_P(DeviceBuffers, MatchesFftw) {
  const Case& c = GetParam();
  const distributed::Problem problem = problem_of(c);
  const Errors errors = c.precision == Precision::Single
                            ? run_against_fftw<float>(problem, distributed_options(), c.how)
                            : run_against_fftw<double>(problem, distributed_options(), c.how);
  EXPECT_TRUE(errors.finite) << name(c) << " on " << mpi_size() << " ranks left points unwritten";
  EXPECT_LE(errors.relative_l2, c.precision == Precision::Single ? 5e-7 : 2e-15) << name(c);
}

constexpr auto f32 = Precision::Single;
constexpr auto f64 = Precision::Double;
constexpr auto device = Execution::DeviceBuffers;
constexpr auto profiled = Execution::Profiled;
constexpr auto in_place = Execution::InPlace;  // one buffer as input and output

INSTANTIATE_TEST_SUITE_P(
    Distributed, DeviceBuffers,
    ::testing::Values(Case{Kind::C2C, {10, 8, 6}, f32, Decomposition::Slabs, device},  // np 3: uneven
                      Case{Kind::C2C, {6, 10, 8}, f64, Decomposition::Pencils, device},
                      Case{Kind::R2C, {8, 6, 10}, f32, Decomposition::Pencils, device},
                      Case{Kind::C2R, {10, 6}, f64, Decomposition::SlabsTransposedIn, device},  // 2D, real out
                      Case{Kind::C2C, {3, 5, 4}, f32, Decomposition::Slabs, profiled},          // np 4: empty boxes
                      Case{Kind::C2C, {8, 6, 4}, f64, Decomposition::Pencils, profiled},
                      Case{Kind::C2C, {10, 8, 6}, f32, Decomposition::Slabs, in_place},
                      Case{Kind::C2C, {8, 12, 10}, f64, Decomposition::Pencils, in_place},
                      Case{Kind::R2C, {8, 6, 10}, f32, Decomposition::Slabs, in_place},  // real in, complex out
                      Case{Kind::C2R, {6, 8, 10}, f64, Decomposition::PencilsTransposedIn, in_place}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string text = name(info.param);
      for (char& ch : text)
        if (ch == '-') ch = '_';
      return text;
    });

TEST(DistributedTransport, AutoResolves) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  // NCCL only where every rank has a CUDA device of its own.
  if (distributed_device().info().backend != "cuda") EXPECT_EQ(plan.transport(), distributed::Transport::Mpi);
  EXPECT_NE(plan.transport(), distributed::Transport::Auto);
  EXPECT_GT(plan.workspace_bytes(), 0u);
}

TEST(DistributedTransport, MpiAskedFor) {
  distributed::Problem problem;
  problem.shape = {6, 10, 4}, problem.transport = distributed::Transport::Mpi;
  EXPECT_EQ(problem.token(), "c2c_f32_fwd_6x10x4_none_slabs_mpi");
  EXPECT_LE(run_against_fftw<float>(problem, distributed_options(), Execution::DeviceBuffers).relative_l2, 5e-7);
}

TEST(DistributedTransport, NcclWithoutCudaIsOneError) {
  if (distributed_device().info().backend == "cuda") GTEST_SKIP() << "a CUDA device: NCCL may serve";
  distributed::Problem problem;
  problem.shape = {8, 8}, problem.transport = distributed::Transport::Nccl;
  std::string message;
  try {
    distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  } catch (const Error& e) {
    message = e.what();
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
  }
  // Where exchanges run (2 ranks or more), the transport is made and refused.
  if (mpi_size() > 1) EXPECT_NE(message.find("needs a CUDA device"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// Every MPI exchange method, on slabs and on pencils (two groups a rank).
TEST(DistributedTransport, ExchangeMethods) {
  for (auto method : {distributed::ExchangeMethod::Alltoall, distributed::ExchangeMethod::PointToPoint,
                      distributed::ExchangeMethod::Auto}) {
    distributed::Problem problem;
    problem.shape = {10, 6, 8}, problem.transport = distributed::Transport::Mpi, problem.exchange = method;
    problem.precision = Precision::Double;
    for (auto decomposition : {Decomposition::Slabs, Decomposition::Pencils}) {
      problem.decomposition = decomposition;
      const Errors errors = run_against_fftw<double>(problem, distributed_options(), Execution::Host);
      EXPECT_TRUE(errors.finite) << problem.token();
      EXPECT_LE(errors.relative_l2, 2e-15) << problem.token();
    }
  }
  distributed::Problem problem;
  problem.shape = {4, 4}, problem.exchange = distributed::ExchangeMethod::PointToPoint;
  EXPECT_EQ(problem.token(), "c2c_f32_fwd_4x4_none_slabs_p2p");
}

// A 3D C2C first stage whose exchange splits an axis evenly writes the
// send buffer's blocks itself (fused_stage.hpp): slabs as two plans,
// pencils as one whose output splits the axis (a grid of one row: the
// first exchange over every rank): no pack, the same numbers, by every
// execution path, both ways.
TEST(DistributedFusedStage, StoresTheSendBlocks) {
  for (auto decomposition : {Decomposition::Slabs, Decomposition::SlabsTransposedIn, Decomposition::Pencils,
                             Decomposition::PencilsTransposedIn}) {
    const bool pencils = decomposition == Decomposition::Pencils || decomposition == Decomposition::PencilsTransposedIn;
    distributed::Problem problem;
    problem.shape = {12, 12, pencils ? 12 : 6}, problem.precision = Precision::Double;
    problem.transport = distributed::Transport::Mpi;
    problem.decomposition = decomposition, problem.norm = Norm::Ortho;
    // (The grid whose first exchange is over every rank.)
    if (pencils)
      problem.grid =
          decomposition == Decomposition::Pencils ? std::vector<int>{1, mpi_size()} : std::vector<int>{mpi_size(), 1};
    const std::string text =
        distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options()).describe();
    if (mpi_size() > 1) EXPECT_NE(text.find("stored by stage 1, none packed"), std::string::npos) << text;
    for (Execution how : {Execution::Host, Execution::DeviceBuffers, Execution::Profiled}) {
      const Errors errors = run_against_fftw<double>(problem, distributed_options(), how);
      EXPECT_TRUE(errors.finite) << problem.token();
      EXPECT_LE(errors.relative_l2, 2e-15) << problem.token();
    }
  }
}

// R2C slabs whose exchange splits axis 1 evenly: the real axis, then axis
// 1 into the send blocks; none packed.
TEST(DistributedFusedStage, RealSlabsStoreTheSendBlocks) {
  distributed::Problem problem;
  problem.kind = Kind::R2C, problem.shape = {12, 12, 10}, problem.precision = Precision::Double;
  problem.transport = distributed::Transport::Mpi, problem.decomposition = Decomposition::Slabs;
  const std::string text =
      distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options()).describe();
  if (mpi_size() > 1) EXPECT_NE(text.find("stored by stage 1, none packed"), std::string::npos) << text;
  for (Execution how : {Execution::Host, Execution::DeviceBuffers}) {
    const Errors errors = run_against_fftw<double>(problem, distributed_options(), how);
    EXPECT_TRUE(errors.finite) << problem.token();
    EXPECT_LE(errors.relative_l2, 2e-15) << problem.token();
  }
}

// Pencils on a 2 x 2 grid (4 ranks): both exchanges send what the stage
// before stored, none packed.
TEST(DistributedFusedStage, PencilsStoreBothExchangesBlocks) {
  if (mpi_size() != 4) GTEST_SKIP() << "a 2 x 2 grid takes 4 ranks";
  distributed::Problem problem;
  problem.shape = {8, 12, 10}, problem.transport = distributed::Transport::Mpi;
  problem.decomposition = Decomposition::Pencils, problem.grid = {2, 2};
  const std::string text =
      distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options()).describe();
  EXPECT_NE(text.find("stored by stage 1, none packed"), std::string::npos) << text;
  EXPECT_NE(text.find("stored by stage 2, none packed"), std::string::npos) << text;
  const Errors errors = run_against_fftw<float>(problem, distributed_options(), Execution::DeviceBuffers);
  EXPECT_TRUE(errors.finite) << problem.token();
  EXPECT_LE(errors.relative_l2, 5e-7) << problem.token();
}

// Auto times the three methods on the plan's own exchanges and names the
// one it kept; a second plan of the same problem takes the remembered one.
TEST(DistributedTransport, AutoMethodTimedAndNamed) {
  if (mpi_size() < 2) GTEST_SKIP() << "no exchange on one rank";
  distributed::Problem problem;
  problem.shape = {12, 10, 8}, problem.transport = distributed::Transport::Mpi;
  problem.exchange = distributed::ExchangeMethod::Auto;
  for (int round = 0; round < 2; ++round) {
    const distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
    const std::string text = plan.describe();
    // (Or recorded: an earlier process may have timed it; the next test.)
    EXPECT_TRUE(text.find("host-staged, timed fastest,") != std::string::npos ||
                text.find("host-staged, recorded fastest,") != std::string::npos)
        << text;
  }
  EXPECT_EQ(problem.token(), "c2c_f32_fwd_12x10x8_none_slabs_mpi_auto");
}

// Auto's winners outlive the process (recorded_methods.hpp): rank 0 keeps
// a line a problem beside the user's tuning table, and a plan on as many
// ranks and nodes takes it untimed ("recorded"). A line naming the wrong
// number of methods is timed over and replaced. (Shapes no other test
// plans with Auto, so this process has not remembered them.)
TEST(DistributedTransport, AutoMethodRecordedForTheNextProcess) {
  if (mpi_size() < 2) GTEST_SKIP() << "no exchange on one rank";
  const std::string file = distributed::detail::exchanges_file(distributed_device());
  if (file.empty()) GTEST_SKIP() << "the cache directory is off";
  const int nodes = distributed::detail::node_count(MPI_COMM_WORLD);
  distributed::Problem problem;
  problem.transport = distributed::Transport::Mpi, problem.exchange = distributed::ExchangeMethod::Auto;
  using distributed::ExchangeMethod;
  // Point-to-point written by hand: taken as it stands.
  problem.shape = {14, 6, 4};
  distributed::detail::record(MPI_COMM_WORLD, file, distributed::detail::record_key(problem, mpi_size(), nodes),
                              {ExchangeMethod::PointToPoint});
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string taken =
      distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options()).describe();
  EXPECT_NE(taken.find("MPI point-to-point, host-staged, recorded fastest,"), std::string::npos) << taken;
  // Three methods for one exchange: timed again, the line replaced by one.
  problem.shape = {10, 6, 6};
  const std::string key = distributed::detail::record_key(problem, mpi_size(), nodes);
  distributed::detail::record(MPI_COMM_WORLD, file, key,
                              {ExchangeMethod::Alltoall, ExchangeMethod::Alltoall, ExchangeMethod::Alltoall});
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string timed =
      distributed::Plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options()).describe();
  EXPECT_NE(timed.find("timed fastest,"), std::string::npos) << timed;
  EXPECT_EQ(distributed::detail::read_recorded(MPI_COMM_WORLD, file, key, 1).size(), 1u);
  EXPECT_TRUE(distributed::detail::read_recorded(MPI_COMM_WORLD, file, key, 3).empty());
}

// Auto: slabs where every rank holds planes on both sides, else pencils;
// the transposed-in way back for inverses (so the pair round trips).
TEST(DistributedDecomposition, AutoResolves) {
  for (const std::vector<std::int64_t>& shape :
       {std::vector<std::int64_t>{6, 5, 4}, std::vector<std::int64_t>{2, 6, 4}, std::vector<std::int64_t>{6, 4}}) {
    distributed::Problem forward;
    forward.shape = shape, forward.precision = Precision::Double, forward.norm = Norm::Backward;
    forward.decomposition = Decomposition::Auto;
    distributed::Problem inverse = forward;
    inverse.direction = Direction::Inverse;
    distributed::Plan there(MPI_COMM_WORLD, distributed_device(), forward, distributed_options());
    distributed::Plan back(MPI_COMM_WORLD, distributed_device(), inverse, distributed_options());
    const bool slabs = shape.size() == 2 || (mpi_size() <= shape[0] && mpi_size() <= shape[1]);
    EXPECT_EQ(there.problem().decomposition, slabs ? Decomposition::Slabs : Decomposition::Pencils);
    EXPECT_EQ(back.problem().decomposition,
              slabs ? Decomposition::SlabsTransposedIn : Decomposition::PencilsTransposedIn);
    EXPECT_LE(round_trip_errors(there, back).relative_l2, 2e-15) << forward.token();
    // Pencils on a grid that leaves nobody empty: 2 x 6 x 4 on 3 ranks is 1 x 3, not 3 x 1.
    if (!slabs && shape == std::vector<std::int64_t>{2, 6, 4}) {
      for (const auto& box : there.input_boxes()) EXPECT_FALSE(box.empty()) << forward.token();
      for (const auto& box : there.output_boxes()) EXPECT_FALSE(box.empty()) << forward.token();
    }
  }
}

TEST(DistributedTransport, PipelineChunks) {
  distributed::Problem problem;
  problem.shape = {12, 10, 4}, problem.pipeline = 3;
  EXPECT_EQ(problem.token(), "c2c_f32_fwd_12x10x4_none_slabs_chunks3");
  // Chunks run where NCCL carries the blocks; elsewhere the same numbers unchunked.
  EXPECT_LE(run_against_fftw<float>(problem, distributed_options(), Execution::DeviceBuffers).relative_l2, 5e-7);
  problem.decomposition = Decomposition::Pencils, problem.pipeline = 5;
  EXPECT_LE(run_against_fftw<float>(problem, distributed_options(), Execution::DeviceBuffers).relative_l2, 5e-7);
  problem.pipeline = -1;
  try {
    distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
    ADD_FAILURE() << "pipeline -1 taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("pipeline -1 is not a chunk count"), std::string::npos) << e.what();
  }
}

// The caller's workspace: used as given (the plan makes none), refused by
// name where it does not fit.
TEST(DistributedWorkspace, Supplied) {
  distributed::Problem problem;
  problem.shape = {10, 6, 8}, problem.decomposition = Decomposition::Pencils, problem.precision = Precision::Double;
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  const std::vector<std::size_t> parts = plan.workspace_parts();
  ASSERT_EQ(parts.size(), 4u);
  std::vector<Buffer> workspace;
  for (std::size_t bytes : parts) workspace.emplace_back(distributed_device(), std::max<std::size_t>(bytes, 16));
  std::vector<Buffer> short_one = workspace;
  short_one[0] = Buffer(distributed_device(), 8);
  if (parts[0] > 8) {
    try {
      plan.set_workspace(short_one);
      ADD_FAILURE() << "a box buffer of 8 bytes taken for " << parts[0];
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("buffer 0 of 8 bytes"), std::string::npos) << e.what();
    }
  }
  plan.set_workspace(workspace);
  // NaN in every part: the parts the execution writes (the box buffers,
  // and the send buffer, which the stages store into where they pack
  // nothing) must not all stay NaN.
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::vector<double> nan(parts[k] / sizeof(double), std::nan(""));
    workspace[k].write(nan.data(), nan.size() * sizeof(double));
  }
  const Problem whole = whole_problem(problem);
  std::int64_t count = 1;
  for (std::int64_t n : problem.shape) count *= n;
  const std::vector<std::complex<double>> global = shared_random<double>(count);
  const Expected expected = fftw_reference(whole, global);
  const std::vector<std::complex<double>> in = box_part(global, problem.shape, plan.input_box());
  std::vector<std::complex<double>> out(static_cast<std::size_t>(plan.output_box().elements()));
  poison(out);
  plan.execute(in.data(), out.data());
  EXPECT_LE(global_errors(out, plan.output_box(), problem.shape, expected, whole.scale()).relative_l2, 2e-15);
  bool used = false;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::vector<double> written(parts[k] / sizeof(double));
    workspace[k].read(written.data(), written.size() * sizeof(double));
    used = used || !std::all_of(written.begin(), written.end(), [](double v) { return std::isnan(v); });
  }
  EXPECT_TRUE(used) << "the plan did not use the workspace it was given";
}

TEST(DistributedTransport, SmallBufferIsOneError) {
  distributed::Problem problem;
  problem.shape = {8, 8};
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, distributed_options());
  Buffer small(distributed_device(), 8);
  Buffer out(distributed_device(), 8 * 64);
  try {
    plan.execute(small, out);
    ADD_FAILURE() << "a buffer of 8 bytes taken for an input box of " << plan.input_box().elements() << " points";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("8 and 512 bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bfly::test
