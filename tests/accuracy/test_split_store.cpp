// The output's split (Layout::split; pieces/split_store.cpp): a transformed
// axis stored in blocks, as a distributed FFT's first stage writes its send
// buffer. Against FFTW at the split layout's offsets, the gaps between the
// blocks poisoned (the fixture fails on any element written outside the
// layout); and the plans that cannot split say why.
#include <random>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

class SplitStore : public Accuracy {};

// `shape` with axis `axis` transformed and split into blocks of `length`
// (the last one shorter where it does not divide), each block a box of the
// array stored with the axes in `order` (outermost first), block p at p x
// (the block's points + gap).
Problem split_problem(std::vector<std::int64_t> shape, int axis, std::int64_t length, std::vector<int> order,
                      Precision precision = Precision::Single, Direction direction = Direction::Forward,
                      std::int64_t gap = 0) {
  Problem p;
  p.shape = shape;
  p.axes = {axis};
  p.precision = precision;
  p.direction = direction;
  std::vector<std::int64_t> block = shape;
  block[axis] = std::min(length, shape[axis]);
  p.output.strides.assign(shape.size(), 0);
  std::int64_t step = 1;
  for (std::size_t k = order.size(); k-- > 0;) p.output.strides[order[k]] = step, step *= block[order[k]];
  p.output.split = Split{axis, length, step + gap};
  return p;
}

// A pencil's first stage (the split axis innermost, the receiver's gathered
// axis first), a slab's strided axis, uneven blocks with gaps, rows and
// columns long enough for the stores through local memory, both precisions
// and directions.
TEST_P(SplitStore, MatchesFftwAtTheBlocksOffsets) {
  expect_accurate(split_problem({3, 5, 64}, 2, 16, {1, 0, 2}));
  expect_accurate(split_problem({24, 4, 6}, 0, 8, {1, 2, 0}, Precision::Double, Direction::Inverse));
  expect_accurate(split_problem({2, 100}, 1, 32, {0, 1}, Precision::Single, Direction::Inverse, 6));
  expect_accurate(split_problem({64, 1024}, 1, 256, {0, 1}));
  expect_accurate(split_problem({1024, 64}, 0, 128, {0, 1}, Precision::Double));
  expect_accurate(split_problem({1024, 64}, 0, 128, {1, 0}));
  Problem batched = split_problem({6, 40}, 1, 10, {0, 1}, Precision::Single, Direction::Forward, 3);
  batched.batch = 3;
  batched.output.distance = 4 * batched.output.split.stride;
  batched.norm = Norm::Ortho;
  expect_accurate(batched);
  // Lengths and blocks drawn afresh (the run's seed repeats them; the
  // token names them on a failure).
  std::mt19937_64 rng = engine_for("SplitStore.MatchesFftwAtTheBlocksOffsets");
  for (int i = 0; i < 3; ++i) {
    const std::int64_t n = 2 + static_cast<std::int64_t>(rng() % 3000), rows = 1 + static_cast<std::int64_t>(rng() % 9);
    const std::int64_t length = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    const bool column = rng() % 2;
    const Problem p =
        column ? split_problem({n, rows}, 0, length, {1, 0}) : split_problem({rows, n}, 1, length, {0, 1});
    try {
      if (Plan(device(), p, test_options()).passes() > 1) continue;
    } catch (const Error& e) {
      // Those the planner cannot split say so (below); the rest must run.
      EXPECT_NE(std::string(e.what()).find("needs the axis in one plain pass"), std::string::npos) << e.what();
      continue;
    }
    expect_accurate(p);
  }
}

TEST_P(SplitStore, RoundTripsItsToken) {
  const Problem p = split_problem({3, 5, 64}, 2, 16, {1, 0, 2});
  EXPECT_EQ(Problem::parse(p.token()), p) << p.token();
  EXPECT_NE(p.token().find("_sp2.16.240"), std::string::npos) << p.token();
}

// One line naming the bad value, before anything runs.
TEST_P(SplitStore, RefusesWhatItCannotStore) {
  auto message = [&](const Problem& p, const PlanOptions& options = test_options()) {
    try {
      Plan plan(device(), p, options);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(planned)");
  };
  Problem batch_axis = split_problem({8, 64}, 1, 16, {0, 1});
  batch_axis.axes = {0};
  EXPECT_NE(message(batch_axis).find("is not transformed"), std::string::npos) << message(batch_axis);
  Problem overlap = split_problem({8, 64}, 1, 16, {0, 1});
  overlap.output.split.stride = 100;  // a block is 128 points
  EXPECT_NE(message(overlap).find("overlaps itself"), std::string::npos) << message(overlap);
  Problem real = split_problem({8, 64}, 1, 16, {0, 1});
  real.kind = Kind::R2C;
  real.output.strides = {33, 1};
  real.output.split = Split{1, 11, 8 * 11};
  EXPECT_NE(message(real).find("only a C2C problem"), std::string::npos) << message(real);
  Problem input = split_problem({8, 64}, 1, 16, {0, 1});
  input.input = input.output;
  EXPECT_NE(message(input).find("only the output"), std::string::npos) << message(input);
  // The axis in several passes, and Bluestein's one kernel.
  PlanOptions passes = test_options();
  passes.limits = "max_pass_length=16";
  const std::string several = message(split_problem({4, 256}, 1, 64, {0, 1}), passes);
  EXPECT_NE(several.find("needs the axis in one plain pass: this plan takes"), std::string::npos) << several;
  const std::string chirp = message(split_problem({4, 1009}, 1, 100, {0, 1}));
  EXPECT_NE(chirp.find("needs the axis in one plain pass"), std::string::npos) << chirp;
}

INSTANTIATE_TEST_SUITE_P(Backends, SplitStore, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
