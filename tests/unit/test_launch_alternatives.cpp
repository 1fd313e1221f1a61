// The launches the runtime tries where a model launch's kernel spills
// (plan/launch_alternatives.hpp, issue 39): other thread counts for the same
// one-pass row, fewest points a thread first, each one the device can hold;
// none for CPUs, strided passes or a spec's own launch. Where NVRTC loads,
// a model launch that spills (9000 = 10 x 10 x 10 x 9 at 500 threads; the
// H100 case that motivated them, 7680, no longer does since the inner
// twiddles became products of a few lookups), and an alternative compiles
// without spills.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"
#include "codegen/pass_kernel.hpp"
#include "plan/launch_alternatives.hpp"
#include "plan/launch_model.hpp"
#include "plan/plan.hpp"

namespace {

using bfly::Precision;
using bfly::plan::KernelSpec;

// The radices-to-16 model these cases were drawn for (composite radices,
// on by default, save some of them a stage: test_factorize.cpp
// CompositeRadices).
bfly::plan::DeviceLimits hopper(Precision precision) {
  bfly::plan::DeviceLimits limits = bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), precision);
  limits.composite_radices = 0;
  return limits;
}

KernelSpec row_spec(std::int64_t n, Precision precision, const bfly::plan::DeviceLimits& limits) {
  bfly::Problem p;
  p.shape = {n};
  p.batch = 64;
  p.precision = precision;
  return bfly::plan::make_plan(p, limits).passes.at(0).spec;
}

TEST(LaunchAlternatives, OtherThreadCountsFewestPointsFirstThatTheDeviceHolds) {
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {2160, 5120, 7680, 11025, 16200}) {
      if (precision == Precision::Double && n == 16200) continue;  // two passes
      const bfly::plan::DeviceLimits limits = hopper(precision);
      const KernelSpec spec = row_spec(n, precision, limits);
      const std::vector<KernelSpec> others = bfly::plan::launch_alternatives(spec, limits);
      // (fp64 11025 has none: every other count either repeats the model's
      // 50 points a thread or leaves fewer registers than its points need.)
      if (precision == Precision::Single) EXPECT_FALSE(others.empty()) << n;
      EXPECT_LE(others.size(), 4u);
      std::set<int> threads;
      int last_points = 0;
      const int words = precision == Precision::Double ? 2 : 1;
      for (const KernelSpec& s : others) {
        EXPECT_EQ(s.length, n);
        EXPECT_EQ(s.radices, spec.radices) << "same stages, other threads";
        EXPECT_NE(s.threads_per_transform, spec.threads_per_transform) << n;
        EXPECT_TRUE(threads.insert(s.threads_per_transform).second) << "one launch a thread count";
        EXPECT_GE(s.points_per_thread(), last_points) << n << ": fewest points first";
        last_points = s.points_per_thread();
        EXPECT_LE(s.group_size(), limits.max_group_size);
        EXPECT_LE(s.local_bytes(), limits.local_memory_bytes);
        const int warps = (s.threads_per_transform + 31) / 32 * 32;
        EXPECT_LE(2 * words * s.points_per_thread() + 40, std::min(255, limits.registers_per_unit / warps)) << n;
        EXPECT_LE(s.points_per_thread(), std::max(36, spec.points_per_thread())) << n;
        EXPECT_NE(s.name(), spec.name());
      }
    }
}

TEST(LaunchAlternatives, NoneForCpusOrColumns) {
  const bfly::plan::DeviceLimits cpu = bfly::plan::cpu_limits();
  EXPECT_TRUE(bfly::plan::launch_alternatives(row_spec(4096, Precision::Single, cpu), cpu).empty());
  bfly::Problem columns;
  columns.shape = {4096, 64};
  columns.axes = {0};
  const bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  for (const bfly::plan::Pass& pass : bfly::plan::make_plan(columns, limits).passes)
    EXPECT_TRUE(bfly::plan::launch_alternatives(pass.spec, limits).empty()) << pass.spec.name();
}

// DeviceLimits::long_row_threads (a measurement knob, 512 by default): past
// 512, a long fp32 row takes the fewest points a thread up to that many
// threads where its points leave the registers room; at 512 the launch is
// the model's as before, and fp64 rows and short rows never change.
TEST(LaunchAlternatives, LongRowThreadsPast512TakeFewerPoints) {
  bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  for (std::int64_t n : {6300, 7056, 9600}) {
    const KernelSpec before = row_spec(n, Precision::Single, limits);
    EXPECT_LE(before.threads_per_transform, 512) << n;
    bfly::plan::DeviceLimits wide = limits;
    wide.long_row_threads = 1024;
    const KernelSpec after = row_spec(n, Precision::Single, wide);
    EXPECT_GT(after.threads_per_transform, 512) << n;
    EXPECT_LT(after.points_per_thread(), before.points_per_thread()) << n;
    const int warps = (after.threads_per_transform + 31) / 32 * 32;
    EXPECT_LE(2 * after.points_per_thread() + 40, std::min(255, limits.registers_per_unit / warps)) << n;
    bfly::plan::DeviceLimits doubles =
        bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), Precision::Double);
    const KernelSpec d = row_spec(n, Precision::Double, doubles);
    doubles.long_row_threads = 1024;
    EXPECT_EQ(row_spec(n, Precision::Double, doubles).threads_per_transform, d.threads_per_transform) << n;
  }
  bfly::plan::DeviceLimits wide = limits;
  wide.long_row_threads = 1024;
  EXPECT_EQ(row_spec(2000, Precision::Single, wide).threads_per_transform,
            row_spec(2000, Precision::Single, limits).threads_per_transform);
}

TEST(LaunchAlternatives, TheH100CaseSpillsAtTheModelsLaunchAndAnAlternativeFits) {
  std::string why;
  if (!bfly::cuda::Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const bfly::cuda::Nvrtc& nvrtc = bfly::cuda::Nvrtc::instance();
  auto spills = [&](const KernelSpec& s) {
    const auto result = nvrtc.compile(bfly::codegen::generate(s, bfly::codegen::DialectKind::Cuda), s.name(), "sm_90");
    return result.kernels.at(0).spill_store_bytes + result.kernels.at(0).stack_bytes;
  };
  const bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  const KernelSpec spec = row_spec(9000, Precision::Single, limits);
  EXPECT_GT(spills(spec), 0) << spec.name() << ": the model's launch no longer spills; pick another case";
  bool fits = false;
  for (const KernelSpec& s : bfly::plan::launch_alternatives(spec, limits))
    if (!fits && spills(s) == 0) fits = true;
  EXPECT_TRUE(fits) << "no alternative of " << spec.name() << " compiles without spills";
}

// row_occupancy (DeviceLimits): a one-pass row asks for the groups its
// points leave registers for, four register banks a multiprocessor
// (2304 = 16 x 12 x 12 at 144 threads, 24 points a thread: 5 warps a group,
// 6 groups leave 64 registers, 2 x 24 + 16); where its kernel spills more
// than 32 bytes a thread (200 at 2-3 groups) the runtime tries one and two
// groups fewer before other thread counts. Without it, nothing is tolerated and the
// alternatives are launch_alternatives'.
TEST(LaunchAlternatives, RowOccupancyRelaunchesAtFewerGroupsFirst) {
  // (The model's launch: row_busiest would take 192 threads of 16.)
  bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  limits.row_busiest = 0;
  const KernelSpec spec = row_spec(2304, Precision::Single, limits);
  ASSERT_EQ(spec.threads_per_transform, 144);
  EXPECT_EQ(spec.min_groups_per_unit, 6);
  EXPECT_TRUE(bfly::plan::row_occupancy_applies(spec, limits));
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(spec, limits), 32u);
  const std::vector<KernelSpec> candidates = bfly::plan::relaunch_candidates(spec, limits);
  ASSERT_GE(candidates.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(candidates[i].threads_per_transform, 144);
    EXPECT_EQ(candidates[i].min_groups_per_unit, 5 - i);
  }
  const std::vector<KernelSpec> others = bfly::plan::launch_alternatives(spec, limits);
  EXPECT_EQ(candidates.size(), 2 + others.size());
  bfly::plan::DeviceLimits estimate = limits;
  estimate.row_occupancy = 0;
  const KernelSpec old = row_spec(2304, Precision::Single, estimate);
  EXPECT_LT(old.min_groups_per_unit, spec.min_groups_per_unit);
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(old, estimate), 0u);
  EXPECT_EQ(bfly::plan::relaunch_candidates(old, estimate).size(),
            bfly::plan::launch_alternatives(old, estimate).size());
  // At 2-3 groups a group fewer loses a third of the warps or more: a row
  // keeps up to tolerated_spill_bytes (200) there (11025 = 25 x 9 x 7 x 7,
  // 441 threads, 2 groups; 3360 = 16 x 15 x 14, 210 threads, 3 groups).
  for (std::int64_t n : {11025, 3360}) {
    const KernelSpec few = row_spec(n, Precision::Single, limits);
    ASSERT_GE(few.min_groups_per_unit, 2) << n;
    ASSERT_LE(few.min_groups_per_unit, 3) << n;
    EXPECT_EQ(bfly::plan::tolerated_spill_bytes(few, limits), 200u) << n;
    bfly::plan::DeviceLimits tighter = limits;
    tighter.tolerated_spill_bytes = 32;
    EXPECT_EQ(bfly::plan::tolerated_spill_bytes(few, tighter), 32u) << n;
  }
  // Several transforms a group keep the estimate's groups.
  const KernelSpec short_rows = row_spec(64, Precision::Single, limits);
  ASSERT_GT(short_rows.transforms_per_group, 1);
  EXPECT_FALSE(bfly::plan::row_occupancy_applies(short_rows, limits));
}

}  // namespace

namespace {

// One-kernel convolutions (issue 39): Bluestein's take a thread a butterfly
// of their busiest stage where that cuts a thread's points by a quarter
// (2304 = 16 x 12 x 12: 192 threads of 16, not 144 of 24; 800 = 10 x 10 x 8:
// 100 of 10, not 80 of 16; 2048 = 16 x 16 x 8 keeps 128 of 16; 1152 = 16 x
// 9 x 8 keeps 72 of 18, where 144 would hold 16), and ask for the groups a
// multiprocessor their points leave registers for (4 a point and 32, as
// the NVRTC sweep fits them: 2304 at 192 threads, 3 groups), relaunched at
// fewer where that spills. CPUs keep the estimate's launch.
KernelSpec convolution_spec(std::int64_t n, const bfly::plan::DeviceLimits& limits) {
  bfly::Problem p;
  p.shape = {n};
  p.batch = 1;
  const KernelSpec spec = bfly::plan::make_plan(p, limits).passes.at(0).spec;
  EXPECT_TRUE(spec.convolve && spec.bluestein()) << n << " is a one-kernel Bluestein convolution";
  return spec;
}

TEST(LaunchAlternatives, BluesteinConvolutionsTakeTheirBusiestStagesThreadsAndTheGroupsTheirPointsLeave) {
  const bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  const KernelSpec k2304 = convolution_spec(1109, limits);
  ASSERT_EQ(k2304.length, 2304);
  EXPECT_EQ(k2304.threads_per_transform, 192);
  EXPECT_EQ(k2304.points_per_thread(), 16);
  EXPECT_EQ(k2304.min_groups_per_unit, 3);
  EXPECT_TRUE(bfly::plan::convolution_occupancy_applies(k2304, limits));
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(k2304, limits), 32u);
  const std::vector<KernelSpec> candidates = bfly::plan::relaunch_candidates(k2304, limits);
  ASSERT_GE(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].min_groups_per_unit, 2);
  EXPECT_EQ(candidates[0].threads_per_transform, 192);

  const KernelSpec k2048 = convolution_spec(997, limits);
  ASSERT_EQ(k2048.length, 2048);
  EXPECT_EQ(k2048.threads_per_transform, 128) << "16 points a thread either way: the fewer threads";
  const KernelSpec k800 = convolution_spec(389, limits);
  ASSERT_EQ(k800.length, 800);
  EXPECT_EQ(k800.threads_per_transform, 100) << "16 -> 10 points";
  const KernelSpec k1152 = convolution_spec(557, limits);
  ASSERT_EQ(k1152.length, 1152);
  EXPECT_EQ(k1152.threads_per_transform, 72) << "18 -> 16 points is less than a quarter";

  // Without row_occupancy the estimate's groups stand; a CPU keeps the
  // widest radix's threads.
  bfly::plan::DeviceLimits estimate = limits;
  estimate.row_occupancy = 0;
  const KernelSpec old = convolution_spec(1109, estimate);
  EXPECT_FALSE(bfly::plan::convolution_occupancy_applies(old, estimate));
  EXPECT_LT(old.min_groups_per_unit, 3);
  const bfly::plan::DeviceLimits cpu = bfly::plan::for_precision(bfly::plan::cpu_limits(), Precision::Single);
  EXPECT_EQ(convolution_spec(1109, cpu).threads_per_transform, 144);
}

// A one-kernel convolution that spills (DeviceLimits::
// convolution_relaunch_values): relaunched by VkFFT's values rule at 14,
// then 10 values a thread, the launches convolution_values plans, those
// with fewer points a thread than the model's; at 1-2 groups before a
// group fewer (1609's M = 3456 = 16 x 6^3 at 216 threads of 18, 2 groups:
// 12 x 12 x 12 x 2 at 288 threads of 12, then 9 x 8 x 8 x 6 at 576 of 9),
// at more after (1109's 2304 at 3 groups).
TEST(LaunchAlternatives, SpillingConvolutionsRelaunchAtFewerValuesAThread) {
  const bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  auto by_rule = [&](std::int64_t n, int values) {
    bfly::plan::DeviceLimits rule = limits;
    rule.convolution_values = values;
    return convolution_spec(n, rule);
  };
  const KernelSpec k3456 = convolution_spec(1609, limits);
  ASSERT_EQ(k3456.length, 3456);
  ASSERT_EQ(k3456.min_groups_per_unit, 2);
  std::vector<KernelSpec> candidates = bfly::plan::relaunch_candidates(k3456, limits);
  ASSERT_GE(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].name(), by_rule(1609, 14).name());
  EXPECT_EQ(candidates[1].name(), by_rule(1609, 10).name());
  EXPECT_EQ(candidates[0].radices, (std::vector<int>{12, 12, 12, 2}));
  EXPECT_EQ(candidates[0].threads_per_transform, 288);
  for (int i = 0; i < 2; ++i) EXPECT_LT(candidates[i].points_per_thread(), k3456.points_per_thread());
  EXPECT_EQ(candidates[2].threads_per_transform, k3456.threads_per_transform);
  EXPECT_EQ(candidates[2].min_groups_per_unit, 1);

  const KernelSpec k2304 = convolution_spec(1109, limits);
  ASSERT_EQ(k2304.min_groups_per_unit, 3);
  candidates = bfly::plan::relaunch_candidates(k2304, limits);
  ASSERT_GE(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].min_groups_per_unit, 2);
  EXPECT_EQ(candidates[1].min_groups_per_unit, 1);
  EXPECT_EQ(candidates[2].name(), by_rule(1109, 14).name());

  bfly::plan::DeviceLimits never = limits;
  never.convolution_relaunch_values = 0;
  candidates = bfly::plan::relaunch_candidates(k3456, never);
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].min_groups_per_unit, 1);
}

}  // namespace

namespace {

// Two rules measured on 2026-11-27 (issue 39): a convolution or chirp
// pass of 2 groups or more keeps a spill of up to convolution_spill_bytes
// in fp32, none in fp64 (where the relaunch ran as fast); a convolution of
// several transforms a group (167's 360 points, 3 x 36 threads of 12) asks
// the groups its points leave registers for (6, where the estimate asks
// 3), convolution_group_occupancy off restoring the estimate.
TEST(LaunchAlternatives, ConvolutionSpillAndGroupOccupancy) {
  bfly::plan::DeviceLimits limits = hopper(Precision::Single);
  const KernelSpec conv = convolution_spec(1109, limits);
  ASSERT_GE(conv.min_groups_per_unit, 2);
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(conv, limits), 32u);
  bfly::plan::DeviceLimits none = limits;
  none.convolution_spill_bytes = 0;
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(conv, none), 0u);
  bfly::Problem p64;
  p64.shape = {1109};
  p64.precision = Precision::Double;
  const bfly::plan::DeviceLimits fp64 = hopper(Precision::Double);
  const KernelSpec conv64 = bfly::plan::make_plan(p64, fp64).passes.at(0).spec;
  ASSERT_TRUE(conv64.bluestein() && conv64.precision == Precision::Double);
  ASSERT_GE(conv64.min_groups_per_unit, 2);
  EXPECT_EQ(bfly::plan::tolerated_spill_bytes(conv64, fp64), 0u);

  const KernelSpec asked = convolution_spec(167, limits);
  ASSERT_EQ(asked.length, 360);
  ASSERT_GT(asked.transforms_per_group, 1);
  EXPECT_TRUE(bfly::plan::convolution_occupancy_applies(asked, limits));
  EXPECT_EQ(asked.min_groups_per_unit, 6);
  bfly::plan::DeviceLimits estimate = limits;
  estimate.convolution_group_occupancy = false;
  const KernelSpec short_conv = convolution_spec(167, estimate);
  EXPECT_FALSE(bfly::plan::convolution_occupancy_applies(short_conv, estimate));
  EXPECT_EQ(asked.transforms_per_group, short_conv.transforms_per_group);
  EXPECT_EQ(short_conv.min_groups_per_unit, 3);
}

}  // namespace

namespace {

// The runtime's and `bfly plan --nvrtc`'s one choice among the candidates:
// the first within the tolerated spill (those after it never compiled),
// else the least, where less than the model's.
TEST(LaunchAlternatives, ChooseRelaunchTakesTheFirstWithinToleranceElseTheLeast) {
  const std::vector<KernelSpec> four(4);
  auto choose = [&](std::vector<std::size_t> spills, std::size_t tolerated, std::size_t* asked) {
    return bfly::plan::choose_relaunch(four, 100, tolerated, [&](std::size_t i) {
      ++*asked;
      return spills[i];
    });
  };
  std::size_t asked = 0;
  EXPECT_EQ(choose({80, 20, 0, 0}, 32, &asked), std::optional<std::size_t>(1));
  EXPECT_EQ(asked, 2u);
  asked = 0;
  EXPECT_EQ(choose({80, 60, 90, 70}, 32, &asked), std::optional<std::size_t>(1));
  EXPECT_EQ(asked, 4u);
  asked = 0;
  EXPECT_EQ(choose({100, 120, 300, 100}, 0, &asked), std::nullopt);
}

}  // namespace
