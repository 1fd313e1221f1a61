// Launch choices a tuning table can ask for (plan/tuning.hpp, `bfly tune`),
// each against FFTW: threads per transform, transforms per group, the
// exchange in halves, padding, the twiddle table, the stage order, a
// neighbour's choice carried over, and one pass where the model takes two.
#include <string>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

Problem row(std::int64_t n, std::int64_t batch, Precision precision, Direction direction = Direction::Forward,
            Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.shape = {n};
  p.batch = batch;
  p.precision = precision;
  p.direction = direction;
  p.placement = placement;
  return p;
}

// A one-entry table (JSON) for `precision` transforms of `length` points.
std::string table(std::int64_t length, Precision precision, const std::string& fields) {
  return std::string(R"({"format": "bfly-tuning-1", "device": "test", "compute_capability": "", "bfly_version": ")") +
         version() + R"(", "entries": [{"precision": ")" + (precision == Precision::Single ? "single" : "double") +
         R"(", "length": )" + std::to_string(length) + (fields.empty() ? "" : ", " + fields) + "}]}";
}

// One table entry (its JSON fields) over a length.
struct TunedCase {
  std::int64_t length;
  std::string fields;
};

// Each case with its one-entry table, both precisions, forward out of place
// and inverse in place, `batch` rows. The quick tier: each case in one
// precision.
template <class Expect>
void expect_tuned(const std::string& what, Expect expect_accurate, const std::vector<TunedCase>& cases,
                  std::int64_t batch) {
  PrecisionDraw draw(what);
  for (Precision precision : {Precision::Single, Precision::Double})
    for (const TunedCase& c : cases) {
      if (!draw.take(precision)) continue;
      for (Direction d : {Direction::Forward, Direction::Inverse}) {
        PlanOptions options = test_options();
        options.tuning = table(c.length, precision, c.fields);
        const Problem p =
            row(c.length, batch, precision, d, d == Direction::Inverse ? Placement::InPlace : Placement::OutOfPlace);
        SCOPED_TRACE(c.fields);
        expect_accurate(p, options);
      }
    }
}

TEST_P(Accuracy, TunedLaunchChoices) {
  const std::vector<TunedCase> cases{
      {1024, R"("halves": 1)"},
      {1024, R"("halves": 1, "threads": 32, "group_threads": 128)"},
      {4096, R"("halves": 1, "padding": 1)"},
      {4096, R"("threads": 128, "two_level": 0)"},
      {2048, R"("threads": 512, "padding": 0, "two_level": 1)"},
      {1000, R"("halves": 1, "radices": [10, 10, 10])"},
      {1000, R"("radices": [8, 125])"},  // not a product of codelets this way: the model's stays
      {3000, R"("halves": 1, "threads": 100)"},
      {120, R"("threads": 4, "group_threads": 256, "halves": 1)"},
      {243, R"("radices": [3, 9, 9], "halves": 1)"},
      {6144, R"("halves": 1, "occupancy": 2, "radices": [8, 8, 8, 12])"},
      {64, R"("threads": 64)"},          // more threads than butterflies: clamped
      {1024, R"("radices": [32, 32])"},  // radix 32: only a table asks for it
      {4096, R"("radices": [16, 32, 8], "halves": 1, "threads": 128)"},
      {96, R"("radices": [3, 32], "threads": 3)"},
      // row_busiest=2's launches: a narrow stage two butterflies a thread,
      // the others one or none (1470 = 15 x 14 x 7 at 105 threads: 98, 105
      // and 210 butterflies; 3675 = 15 x 7 x 7 x 5 at 263, not a divisor).
      {1470, R"("radices": [15, 14, 7], "threads": 105)"},
      {3675, R"("radices": [15, 7, 7, 5], "threads": 263)"},
  };
  expect_tuned(
      "Accuracy.TunedLaunchChoices", [this](const Problem& p, const PlanOptions& o) { expect_accurate(p, o); }, cases,
      3);
}

// Staged kernels (KernelSpec::staged): persistent groups that copy the next
// transform's input to local memory while computing this one, each group
// looping over several transforms (11 rows, a few groups), with one stage
// (no exchange barrier to start the copy after), several, halves, and odd
// lengths; 1 and 2 ask for the per-thread and the bulk copy (one copy on
// OpenCL).
TEST_P(Accuracy, TunedStaged) {
  const std::vector<TunedCase> cases{
      {512, R"("staged": 1)"},
      {512, R"("staged": 2, "halves": 1)"},
      {16, R"("staged": 2, "radices": [16], "threads": 1, "group_threads": 1)"},
      {1000, R"("staged": 2, "threads": 100, "group_threads": 100)"},
      {243, R"("staged": 1, "threads": 27, "group_threads": 27)"},
      {7, R"("staged": 2, "threads": 1, "group_threads": 1)"},
      {720, R"("staged": 2, "halves": 1, "threads": 60, "group_threads": 60)"},
  };
  expect_tuned(
      "Accuracy.TunedStaged", [this](const Problem& p, const PlanOptions& o) { expect_accurate(p, o); }, cases, 11);
}

// Lengths a table does not name take the launch of the nearest tuned one.
TEST_P(Accuracy, TunedNeighbours) {
  for (Precision precision : {Precision::Single, Precision::Double}) {
    PlanOptions options = test_options();
    options.tuning = table(2048, precision, R"("threads": 128, "halves": 1, "occupancy": 2)");
    for (std::int64_t n : {1536, 1600, 2187, 2400, 3000, 4000}) expect_accurate(row(n, 2, precision), options);
  }
}

// A table may put a length in one pass (exchanged in halves where whole
// points do not fit) or choose the passes of the split.
TEST_P(Accuracy, TunedPasses) {
  for (Precision precision : {Precision::Single, Precision::Double}) {
    const bool f32 = precision == Precision::Single;
    // Past the model's one-pass limit of this device (4096 fp32 points on a
    // CPU, 16384 on Hopper): one pass if local memory holds it in halves.
    for (std::int64_t n : {f32 ? std::int64_t{8192} : std::int64_t{4096}, std::int64_t{6144}}) {
      PlanOptions options = test_options();
      options.tuning = table(n, precision, "");
      const Problem p = row(n, 2, precision);
      expect_accurate(p, options);
    }
    PlanOptions split = test_options();
    split.tuning = table(65536, precision, R"("passes": [16, 64, 64])");
    expect_accurate(row(65536, 1, precision), split);
    const Plan plan(device(), row(65536, 1, precision), split);
    EXPECT_EQ(plan.passes(), 3) << plan.describe();
  }
}

}  // namespace
}  // namespace bfly::test
