// Planner (src/plan/): decomposition choice, pass chaining through buffer
// slots, launch shapes within the device limits, and the printed plan.
#include <gtest/gtest.h>

#include <functional>

#include "support/reference.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"
#include "plan/row_threads.hpp"
#include "plan/factorize.hpp"
#include "plan/device_policy.hpp"
#include "plan/plan.hpp"
#include "plan/solvers/solver.hpp"

namespace {

using bfly::Error;
using bfly::ErrorCode;
using bfly::Placement;
using bfly::Precision;
using bfly::Problem;
using bfly::plan::DeviceLimits;
using bfly::plan::KernelSpec;
using bfly::plan::make_plan;
using bfly::plan::Mapping;
using bfly::plan::Pass;
using bfly::plan::PlanTree;
using bfly::plan::Slot;

using bfly::test::smooth_lengths;

Problem problem(std::int64_t n, std::int64_t batch = 1, Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.shape = {n};
  p.batch = batch;
  p.placement = placement;
  return p;
}

struct NamedLimits {
  const char* name;
  DeviceLimits limits;
};

std::vector<NamedLimits> all_limits() {
  return {{"cpu_limits()", bfly::plan::cpu_limits()}, {"gpu_limits(49152, 1024)", bfly::plan::gpu_limits(49152, 1024)}};
}

bool is_work(Slot s) { return s == Slot::Work0 || s == Slot::Work1; }

// Every structural property a plan must have, whatever the decomposition.
void check_plan(const PlanTree& tree, const DeviceLimits& limits, const std::string& where) {
  const Problem& p = tree.problem;
  const std::int64_t n = p.length();
  const std::string plan_text = tree.print();
  SCOPED_TRACE(where + "\n" + plan_text);
  ASSERT_FALSE(tree.passes.empty());
  EXPECT_EQ(tree.passes.front().source, Slot::Input);
  EXPECT_EQ(tree.passes.back().destination, Slot::Output);
  std::int64_t stride_product = 1;
  int highest_work = -1;
  for (std::size_t i = 0; i < tree.passes.size(); ++i) {
    const Pass& pass = tree.passes[i];
    const KernelSpec& s = pass.spec;
    const std::string at = "pass " + std::to_string(i) + " (" + s.name() + ")";
    // Data flow: each pass reads what the previous one wrote.
    if (i > 0) EXPECT_EQ(pass.source, tree.passes[i - 1].destination) << at;
    EXPECT_NE(pass.source, pass.destination) << at << " reads and writes the same slot";
    if (p.placement == Placement::OutOfPlace) {
      EXPECT_NE(pass.destination, Slot::Input) << at << " writes the caller's input";
    } else {
      // In place, Input and Output are one buffer: only the last pass may write
      // it, the others go through workspace.
      if (i + 1 < tree.passes.size()) EXPECT_TRUE(is_work(pass.destination)) << at;
      EXPECT_NE(pass.source, Slot::Output) << at;
    }
    for (Slot slot : {pass.source, pass.destination}) {
      if (slot == Slot::Work0) highest_work = std::max(highest_work, 0);
      if (slot == Slot::Work1) highest_work = std::max(highest_work, 1);
    }
    // The Stockham decomposition.
    EXPECT_EQ(s.precision, p.precision) << at;
    EXPECT_EQ(s.stride_product, stride_product) << at;
    EXPECT_EQ(n % s.length, 0) << at;
    EXPECT_EQ(pass.transforms, p.batch * (n / s.length)) << at;
    std::int64_t radix_product = 1;
    for (int r : s.radices) radix_product *= r;
    EXPECT_EQ(radix_product, s.length) << at;
    EXPECT_EQ(s.has_pass_twiddles(), i > 0) << at;
    if (s.has_pass_twiddles()) {
      // Two-level table: fine * coarse entries must cover every exponent < p*L.
      EXPECT_GT(s.twiddle_fine_bits, 0) << at;
      const std::int64_t fine = std::int64_t{1} << s.twiddle_fine_bits;
      EXPECT_GE(fine * fine, s.stride_product * s.length) << at;
    }
    EXPECT_EQ(s.mapping, s.in_point_stride != 1 || s.length == 1 ? Mapping::ColumnMajor : Mapping::TransformMajor)
        << at;
    // Launch shape within the device.
    EXPECT_GE(s.threads_per_transform, 1) << at;
    EXPECT_GE(s.transforms_per_group, 1) << at;
    EXPECT_LE(s.group_size(), limits.max_group_size) << at;
    EXPECT_LE(s.local_bytes(), limits.local_memory_bytes) << at;
    EXPECT_LE(s.length, limits.max_single_pass_length) << at;
    EXPECT_GE(pass.groups() * s.transforms_per_group, pass.transforms) << at;
    EXPECT_LT((pass.groups() - 1) * s.transforms_per_group, pass.transforms) << at << ": an idle group";
    // Every kernel name in the printed plan.
    EXPECT_NE(plan_text.find(s.name()), std::string::npos) << at << " missing from print()";
    stride_product *= s.length;
  }
  EXPECT_EQ(stride_product, n) << "pass lengths do not multiply to the length";
  EXPECT_GE(tree.workspace_buffers, highest_work + 1) << "a pass uses workspace the plan does not allocate";
  EXPECT_NE(plan_text.find(p.token()), std::string::npos);
  EXPECT_NE(plan_text.find(tree.solver), std::string::npos);
}

TEST(Plan, EverySmoothLengthUpTo2To24PlansConsistently) {
  int plans = 0, three_pass = 0;
  for (const NamedLimits& l : all_limits())
    for (std::int64_t n : smooth_lengths(std::int64_t{1} << 24))
      for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
        const Problem p = problem(n, 3, placement);
        const std::string where = std::string(l.name) + " " + p.token();
        PlanTree tree;
        ASSERT_NO_THROW(tree = make_plan(p, l.limits)) << where;
        ASSERT_EQ(tree.problem, p) << where;
        check_plan(tree, l.limits, where);
        if (n <= l.limits.max_single_pass_length) {
          EXPECT_EQ(tree.passes.size(), 1u) << where;
          EXPECT_EQ(tree.solver, "single-pass") << where;
        } else {
          EXPECT_GE(tree.passes.size(), 2u) << where;
          EXPECT_EQ(tree.solver, "multi-pass") << where;
        }
        // Sub-transforms of up to 4096 points: three passes reach 2^36.
        EXPECT_LE(tree.passes.size(), 3u) << where;
        if (tree.passes.size() > 2) ++three_pass;
        ++plans;
      }
  EXPECT_GT(plans, 4000);
  std::printf("[ info     ] %d plans checked, %d of them with three passes\n", plans, three_pass);
}

TEST(Plan, SinglePassUpToTheLimitThenMultiPass) {
  for (const NamedLimits& l : all_limits()) {
    const std::int64_t max = l.limits.max_single_pass_length;
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{8}, std::int64_t{60}, max / 2, max}) {
      const PlanTree tree = make_plan(problem(n), l.limits);
      EXPECT_EQ(tree.passes.size(), 1u) << l.name << " n=" << n << "\n" << tree.print();
      EXPECT_EQ(tree.passes[0].spec.length, n) << l.name;
      EXPECT_EQ(tree.workspace_buffers, 0) << l.name << " n=" << n << ": a single pass needs no workspace";
    }
    for (std::int64_t n : {max * 2, max * 3, max * 4}) {
      const PlanTree tree = make_plan(problem(n), l.limits);
      EXPECT_EQ(tree.passes.size(), 2u) << l.name << " n=" << n << "\n" << tree.print();
    }
  }
}

TEST(Plan, LimitsHaveTheDocumentedSinglePassLengths) {
  EXPECT_EQ(bfly::plan::cpu_limits().max_single_pass_length, 4096);
  EXPECT_EQ(bfly::plan::cpu_limits().preferred_pass_length, 256);
  EXPECT_EQ(bfly::plan::gpu_limits(49152, 1024).max_single_pass_length, 4096);
  EXPECT_EQ(bfly::plan::gpu_limits(49152, 1024).max_group_size, 1024);
  EXPECT_EQ(bfly::plan::gpu_limits(65536, 2048).max_group_size, 1024);
}

TEST(Plan, LargePowersOfTwoOnCpuLimits) {
  const DeviceLimits cpu = bfly::plan::cpu_limits();
  // Two passes while both fit the preferred 256 points, then three.
  EXPECT_EQ(make_plan(problem(std::int64_t{1} << 20), cpu).passes.size(), 3u);
  EXPECT_EQ(make_plan(problem(std::int64_t{1} << 24), cpu).passes.size(), 3u);
  for (int log2n : {13, 15, 16}) {
    const std::int64_t n = std::int64_t{1} << log2n;
    const PlanTree tree = make_plan(problem(n), cpu);
    ASSERT_EQ(tree.passes.size(), 2u) << "n=2^" << log2n << "\n" << tree.print();
    EXPECT_EQ(tree.solver, "multi-pass");
    // Balanced halves (the largest sub-transform bounds the registers needed).
    const std::int64_t a = tree.passes[0].spec.length, b = tree.passes[1].spec.length;
    EXPECT_LE(std::max(a, b), 2 * std::min(a, b)) << "n=2^" << log2n << "\n" << tree.print();
    EXPECT_EQ(tree.passes[1].spec.stride_product, tree.passes[0].spec.length) << "n=2^" << log2n;
  }
}

TEST(Plan, BeyondTwoPassesOnGpuLimits) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  // Sub-transforms of at most 1024 points on GPUs: two passes up to 2^20.
  EXPECT_EQ(make_plan(problem(std::int64_t{1} << 20), gpu).passes.size(), 2u);
  EXPECT_EQ(make_plan(problem(std::int64_t{1} << 24), gpu).passes.size(), 3u);
  for (std::int64_t n : {std::int64_t{1} << 25, std::int64_t{40353607} /* 7^9 */, std::int64_t{1} << 30}) {
    for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
      const Problem p = problem(n, 1, placement);
      const PlanTree tree = make_plan(p, gpu);
      EXPECT_EQ(tree.passes.size(), 3u) << p.token() << "\n" << tree.print();
      check_plan(tree, gpu, p.token());
    }
  }
}

TEST(Plan, OutOfPlaceAndInPlaceSlots) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  {
    const PlanTree tree = make_plan(problem(65536), gpu);
    ASSERT_EQ(tree.passes.size(), 2u);
    EXPECT_EQ(tree.passes[0].source, Slot::Input);
    EXPECT_EQ(tree.passes[0].destination, Slot::Work0) << tree.print();
    EXPECT_EQ(tree.passes[1].source, Slot::Work0);
    EXPECT_EQ(tree.passes[1].destination, Slot::Output);
    EXPECT_EQ(tree.workspace_buffers, 1);
  }
  {
    const PlanTree tree = make_plan(problem(65536, 1, Placement::InPlace), gpu);
    ASSERT_EQ(tree.passes.size(), 2u);
    EXPECT_TRUE(is_work(tree.passes[0].destination)) << tree.print();
    EXPECT_GE(tree.workspace_buffers, 1) << "in place must use workspace";
  }
  {
    // Three passes in place: input -> work -> other work -> output.
    const PlanTree tree = make_plan(problem(std::int64_t{1} << 25, 1, Placement::InPlace), gpu);
    ASSERT_EQ(tree.passes.size(), 3u);
    EXPECT_TRUE(is_work(tree.passes[0].destination)) << tree.print();
    EXPECT_TRUE(is_work(tree.passes[1].destination)) << tree.print();
    EXPECT_NE(tree.passes[0].destination, tree.passes[1].destination) << tree.print();
    EXPECT_EQ(tree.workspace_buffers, 2) << tree.print();
  }
}

TEST(Plan, BatchOnlyScalesTheTransformCount) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  for (std::int64_t n : {std::int64_t{64}, std::int64_t{1000}, std::int64_t{65536}}) {
    const PlanTree one = make_plan(problem(n, 1), gpu);
    const PlanTree many = make_plan(problem(n, 37), gpu);
    ASSERT_EQ(one.passes.size(), many.passes.size()) << "n=" << n;
    for (std::size_t i = 0; i < one.passes.size(); ++i) {
      EXPECT_EQ(one.passes[i].spec, many.passes[i].spec) << "n=" << n << " pass " << i;
      EXPECT_EQ(many.passes[i].transforms, 37 * one.passes[i].transforms) << "n=" << n << " pass " << i;
    }
  }
}

TEST(Plan, DirectionAndNormShareKernels) {
  // Forward and inverse, scaled or not, run the same generated kernels.
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  Problem forward = problem(1 << 18);
  Problem inverse = forward;
  inverse.direction = bfly::Direction::Inverse;
  inverse.norm = bfly::Norm::Ortho;
  const PlanTree a = make_plan(forward, gpu), b = make_plan(inverse, gpu);
  ASSERT_EQ(a.passes.size(), b.passes.size());
  for (std::size_t i = 0; i < a.passes.size(); ++i)
    EXPECT_EQ(a.passes[i].spec.name(), b.passes[i].spec.name()) << "pass " << i;
}

TEST(Plan, KernelNamesDistinguishSpecs) {
  // Different specs must have different names: the name keys the kernel cache.
  std::set<std::string> names;
  std::vector<KernelSpec> specs;
  for (const NamedLimits& l : all_limits())
    for (std::int64_t n : smooth_lengths(1 << 16))
      for (const Pass& pass : make_plan(problem(n), l.limits).passes) specs.push_back(pass.spec);
  for (const KernelSpec& a : specs) names.insert(a.name());
  // Pairwise over a sample: equal names only for field-by-field equal specs.
  for (std::size_t i = 0; i < specs.size(); i += 7)
    for (std::size_t j = i + 1; j < specs.size(); j += 5) {
      const KernelSpec &a = specs[i], &b = specs[j];
      const bool same_fields =
          a.precision == b.precision && a.length == b.length && a.radices == b.radices &&
          a.geometry() == b.geometry() && a.identity == b.identity && a.stride_product == b.stride_product &&
          a.threads_per_transform == b.threads_per_transform && a.transforms_per_group == b.transforms_per_group &&
          a.mapping == b.mapping && a.twiddle_fine_bits == b.twiddle_fine_bits && a.local_padding == b.local_padding &&
          a.min_groups_per_unit == b.min_groups_per_unit && a.stage_twiddle_bits == b.stage_twiddle_bits;
      ASSERT_EQ(a.name() == b.name(), same_fields) << a.name() << " vs " << b.name();
    }
  EXPECT_GT(names.size(), 500u);
}

// Expects make_plan to throw `code` with a message containing `needle`.
void expect_plan_error(const Problem& p, const DeviceLimits& limits, ErrorCode code, const std::string& needle) {
  try {
    make_plan(p, limits);
    ADD_FAILURE() << p.token() << ": make_plan did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << p.token() << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << p.token() << ": message does not mention '" << needle << "': " << e.what();
  }
}

// Bluestein: a length with a prime factor above 13 is a convolution of the
// power of two M >= 2N - 1: one fused pass where M fits a group, else the
// passes of two M-point FFTs through workspace, with the chirp load in the
// first, the kernel multiply in the forward FFT's last and the chirp store
// in the last; the middle passes are plain FFT passes (the GPUs' three
// passes off: Bluestein.ThreePasses checks those).
TEST(Plan, BluesteinLengthsConvolveASmoothLength) {
  for (NamedLimits l : all_limits()) {
    l.limits.bluestein_three = 0;
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (std::int64_t n : {83, 83 * 3, 1019, 83 * 32, 2039, 2027, 2 * 2039, 65539, 1000003}) {
        Problem p = problem(n, 3);
        p.precision = precision;
        const PlanTree tree = make_plan(p, l.limits);
        SCOPED_TRACE(std::string(l.name) + "\n" + tree.print());
        const std::int64_t m = bfly::plan::bluestein_length(n);
        EXPECT_GE(m, 2 * n - 1);
        // c * 2^k, c odd, 5-smooth, below 256 and not 125: at most 1.112x
        // (81 x 2 to 45 x 4).
        EXPECT_LE(m, (2 * n - 1) * 1112 / 1000 + 1);
        std::int64_t odd = m;
        while (odd % 2 == 0) odd /= 2;
        EXPECT_LT(odd, 256);
        EXPECT_NE(odd, 125);
        for (std::int64_t p : {3, 5})
          while (odd % p == 0) odd /= p;
        EXPECT_EQ(odd, 1) << m;
        const DeviceLimits limits = bfly::plan::for_precision(l.limits, precision);
        ASSERT_FALSE(tree.passes.empty());
        for (const Pass& pass : tree.passes) {
          EXPECT_LE(pass.spec.local_bytes(), limits.local_memory_bytes);
          EXPECT_LE(pass.spec.group_size(), limits.max_group_size);
        }
        // One fused kernel where M fits a group (on a GPU, also its registers).
        if (!limits.is_gpu && m <= limits.max_single_pass_length) EXPECT_EQ(tree.passes.size(), 1u);
        if (tree.passes.size() == 1) {
          EXPECT_LE(m, limits.max_single_pass_length);
          const KernelSpec& s = tree.passes[0].spec;
          EXPECT_TRUE(s.convolve && s.chirp_load);
          EXPECT_EQ(s.length, m);
          EXPECT_EQ(s.chirp_length, n);
          EXPECT_EQ(tree.passes[0].transforms, 3);
          EXPECT_EQ(tree.workspace_buffers, 0);
          continue;
        }
        const std::size_t k = tree.passes.size() / 2;
        ASSERT_EQ(tree.passes.size() % 2, 0u);
        ASSERT_GE(k, 1u);  // one pass each: M fits a group, the fused kernel not
        std::int64_t product = 1;
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const Pass& pass = tree.passes[i];
          const KernelSpec& s = pass.spec;
          const std::size_t j = i % k;  // pass within its FFT
          if (j == 0) product = 1;
          EXPECT_EQ(s.stride_product, product) << "pass " << i;
          product *= s.length;
          EXPECT_EQ(pass.transforms * s.length, 3 * m) << "pass " << i;
          EXPECT_FALSE(s.convolve);
          EXPECT_EQ(s.chirp_load, i == 0) << "pass " << i;
          if (i == 0) EXPECT_EQ(s.axis_stride * s.length, m);
          const KernelSpec::ChirpStore store = i == k - 1                    ? KernelSpec::ChirpStore::Kernel
                                               : i == tree.passes.size() - 1 ? KernelSpec::ChirpStore::Chirp
                                                                             : KernelSpec::ChirpStore::None;
          EXPECT_EQ(s.chirp_store, store) << "pass " << i;
          EXPECT_EQ(s.bluestein(), i == 0 || store != KernelSpec::ChirpStore::None) << "pass " << i;
          if (i + 1 < tree.passes.size()) EXPECT_TRUE(is_work(pass.destination)) << "pass " << i;
          if (j + 1 == k) EXPECT_EQ(product, m);
        }
        EXPECT_EQ(tree.workspace_bytes, 3 * m * static_cast<std::int64_t>(p.element_bytes()));
      }
  }
}

// Bluestein in three passes on a GPU: the last reads each transform's row
// and writes its points a row apart, so it stores by columns through local
// memory, at least a 32-byte sector of adjacent transforms a group (its
// 8-byte stores were scattered a row apart: H200, nine lengths 16411-2097143,
// fp32 1.09x with them in sectors). (The Stockham order's: bluestein_rows
// 0; BluesteinRowsPastShortColumns has the rows'.)
TEST(Plan, BluesteinsLastOfThreePassesStoresSectorsByColumns) {
  DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  DeviceLimits small = bfly::plan::gpu_limits(49152, 1024);
  hopper.bluestein_rows = small.bluestein_rows = 0;
  const std::vector<std::pair<DeviceLimits, bool>> gpus = {{hopper, true},  // (every n in three passes)
                                                           {small, false}};
  for (const auto& [gpu, three] : gpus)
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (std::int64_t n : {30011, 100003, 300007, 1000003}) {
        Problem p = problem(n, 4);
        p.precision = precision;
        const PlanTree tree = make_plan(p, gpu);
        SCOPED_TRACE(tree.print());
        // (48 KiB of local memory: the longer M take the two FFTs' passes.)
        if (!three && tree.passes.size() != 3) continue;
        ASSERT_EQ(tree.passes.size(), 3u);
        const KernelSpec& last = tree.passes.back().spec;
        ASSERT_TRUE(last.chirp_store_along_axis());
        EXPECT_TRUE(last.store_columns_via_local());
        EXPECT_GE(last.transforms_per_group, 2);
      }
}

// Bluestein's three passes along rows on a GPU (bluestein_rows 2, the
// default): the middle pass's rows as long as one kernel goes (4096 fp32
// points, 1024 fp64) and contiguous, where that leaves columns of 64
// points or more; shorter columns keep the Stockham order (fp32 25703's
// 16-point columns ran 1.57x the time as rows, H200).
TEST(Plan, BluesteinRowsPastShortColumns) {
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  ASSERT_EQ(hopper.bluestein_rows, 2);
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (std::int64_t n : {25703, 30011, 100003, 300007, 1000003}) {
      Problem p = problem(n, 4);
      p.precision = precision;
      const PlanTree tree = make_plan(p, hopper);
      SCOPED_TRACE(tree.print());
      ASSERT_EQ(tree.passes.size(), 3u);
      const KernelSpec& first = tree.passes[0].spec;
      const KernelSpec& middle = tree.passes[1].spec;
      const std::int64_t rows = precision == bfly::Precision::Single ? 4096 : 1024;
      const std::int64_t m = first.length * middle.length;
      if (m / rows >= 64) {
        // (fp64 1000003's M = 2^21 as 2048 x 1024 keeps the longer rows.)
        EXPECT_GE(middle.length, rows);
        EXPECT_GE(middle.length, first.length);
        EXPECT_EQ(middle.in_point_stride, 1);
        EXPECT_EQ(first.in_point_stride, middle.length);
      } else {
        EXPECT_NE(middle.in_point_stride, 1);
      }
      // (Which n take which: fp32 from 300007 on, fp64 from 100003.)
      EXPECT_EQ(middle.in_point_stride == 1, n >= (precision == bfly::Precision::Single ? 300007 : 100003));
    }
  DeviceLimits any = hopper;
  any.bluestein_rows = 3;
  EXPECT_EQ(make_plan(problem(25703, 4), any).passes[1].spec.length, 3456);  // (55296 = 16 x 3456)
}

// Bluestein's middle pass of three asks the groups convolution_pass_groups
// names, as its threads and local memory let it (fp32 1004779's 4096-point
// rows at 256 threads: 174 registers at the estimate's one group, 128 at
// two, NVRTC sm_90; GPUs ask two); the passes around it and the one-kernel
// convolutions keep theirs.
TEST(Plan, BluesteinMiddlePassGroupsKnob) {
  DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  EXPECT_EQ(hopper.convolution_pass_groups, 2);
  EXPECT_EQ(make_plan(problem(1004779, 2), hopper).passes[1].spec.min_groups_per_unit, 2);
  hopper.convolution_pass_groups = 0;
  const PlanTree before = make_plan(problem(1004779, 2), hopper);
  ASSERT_EQ(before.passes.size(), 3u);
  ASSERT_TRUE(before.passes[1].spec.convolve);
  EXPECT_EQ(before.passes[1].spec.min_groups_per_unit, 1);
  for (int groups : {2, 3, 64}) {
    hopper.convolution_pass_groups = groups;
    const PlanTree after = make_plan(problem(1004779, 2), hopper);
    ASSERT_EQ(after.passes.size(), 3u);
    // (256 threads of 34816 bytes: 6 groups' local memory, 8 groups' threads.)
    EXPECT_EQ(after.passes[1].spec.min_groups_per_unit, std::min(groups, 6));
    EXPECT_EQ(after.passes[0].spec.min_groups_per_unit, before.passes[0].spec.min_groups_per_unit);
    EXPECT_EQ(after.passes[2].spec.min_groups_per_unit, before.passes[2].spec.min_groups_per_unit);
    const PlanTree one = make_plan(problem(2777, 2), hopper);
    ASSERT_EQ(one.passes.size(), 1u);
    EXPECT_EQ(one.passes[0].spec.min_groups_per_unit, 1) << one.print();
  }
}

// Primes whose N - 1 factors over the codelets take Rader: in one pass (an
// (N - 1)-point convolution) where it fits the one-kernel convolution, else
// (a 1D complex transform) its two FFTs in passes over workspace; those
// whose N - 1 has a prime factor above 31, Bluestein.
TEST(Plan, PrimesWithSmoothPredecessorsTakeRader) {
  for (const NamedLimits& l : all_limits())
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (std::int64_t n :
           {37, 43, 97, 257, 641, 1009, 1013, 1021, 1667, 2053, 3889, 4093, 7681, 8191, 65537, 1019, 2027, 8219}) {
        Problem p = problem(n, 3);
        p.precision = precision;
        const PlanTree tree = make_plan(p, l.limits);
        SCOPED_TRACE(std::string(l.name) + "\n" + tree.print());
        const DeviceLimits limits = bfly::plan::for_precision(l.limits, precision);
        std::int64_t fused = limits.max_single_pass_length;
        if (limits.is_gpu) fused = std::min<std::int64_t>(fused, precision == bfly::Precision::Double ? 2048 : 4096);
        const bool smooth = bfly::plan::is_supported_length(n - 1);
        ASSERT_FALSE(tree.passes.empty());
        EXPECT_EQ(tree.passes[0].spec.rader(), smooth);
        if (!smooth) {
          for (const Pass& pass : tree.passes) EXPECT_FALSE(pass.spec.rader());
          continue;
        }
        for (const Pass& pass : tree.passes) {
          EXPECT_FALSE(pass.spec.bluestein());
          EXPECT_LE(pass.spec.local_bytes(), limits.local_memory_bytes);
          EXPECT_LE(pass.spec.group_size(), limits.max_group_size);
        }
        if (n - 1 > fused) {
          // Two FFTs of N - 1 points in passes: the first gathers, the
          // forward FFT's last stores the kernel product (and X[0]), the
          // last scatters; the middle passes are plain.
          const std::size_t passes = tree.passes.size(), k = passes / 2;
          ASSERT_EQ(passes % 2, 0u);
          for (std::size_t i = 0; i < passes; ++i) {
            const KernelSpec& s = tree.passes[i].spec;
            EXPECT_FALSE(s.convolve) << i;
            EXPECT_EQ(s.rader_gather, i == 0) << i;
            EXPECT_EQ(s.rader_kernel_store, i == k - 1) << i;
            EXPECT_EQ(s.rader_scatter, i == passes - 1) << i;
            EXPECT_EQ(s.rader(), i == 0 || i == k - 1 || i == passes - 1) << i;
            EXPECT_EQ(tree.passes[i].transforms * s.length, 3 * (n - 1)) << i;
            if (i + 1 < passes) EXPECT_TRUE(is_work(tree.passes[i].destination)) << i;
          }
          EXPECT_EQ(tree.workspace_bytes,
                    3 * n * static_cast<std::int64_t>(p.element_bytes()));  // (the array itself is larger)
          continue;
        }
        ASSERT_EQ(tree.passes.size(), 1u);
        const KernelSpec& s = tree.passes[0].spec;
        EXPECT_EQ(s.rader_prime, n);
        EXPECT_EQ(s.length, n - 1);
        EXPECT_TRUE(s.convolve);
        EXPECT_FALSE(s.staged || s.local_halves);
        EXPECT_EQ(tree.passes[0].transforms, 3);
        EXPECT_EQ(tree.workspace_buffers, 0);
      }
  // Past one kernel, a prime axis of an array too: the kernel store reaches
  // each row's x[0] and X[0] through the caller's strides.
  Problem array = problem(7681, 1);
  array.shape = {3, 7681};
  array.axes = {1};
  const PlanTree rows = make_plan(array, bfly::plan::cpu_limits());
  ASSERT_EQ(rows.passes.size() % 2, 0u);
  const KernelSpec& store = rows.passes[rows.passes.size() / 2 - 1].spec;
  EXPECT_TRUE(store.rader_kernel_store);
  bool caller = false;
  for (const bfly::plan::IndexDim& d : store.dims) caller = caller || d.caller_in == 7681 || d.caller_out == 7681;
  EXPECT_TRUE(caller) << rows.print();
  // Real transforms past one kernel: Bluestein.
  Problem real = problem(7681, 1);
  real.kind = bfly::Kind::R2C;
  for (const Pass& pass : make_plan(real, bfly::plan::cpu_limits()).passes) EXPECT_FALSE(pass.spec.rader());
}

// Bluestein past 4096 points on a GPU in fp32 C2C: one kernel up to 8192
// where M's widest radix is at most 12 (3229 at 6912 = 12 x 9 x 8 x 8,
// 3533 at 7200), two passes where it is wider (3931 at 8192 = 16 x 8^3);
// in fp64 one kernel from 3072 points to 8192 at any radices (3229, 3931),
// two passes between 1024 and 3072 (557 at 1152); under
// BFLY_LIMITS=convolution=L just as that says.
TEST(Plan, BluesteinOneKernelPastItsLimitWhereItsRadicesAreNarrow) {
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  auto passes = [&](std::int64_t n, bfly::Precision precision, const DeviceLimits& limits) {
    Problem p = problem(n, 1);
    p.precision = precision;
    const PlanTree tree = make_plan(p, limits);
    for (const Pass& pass : tree.passes) EXPECT_TRUE(pass.spec.bluestein()) << tree.print();
    return tree.passes.size();
  };
  EXPECT_EQ(passes(3229, bfly::Precision::Single, hopper), 1u);
  EXPECT_EQ(passes(3533, bfly::Precision::Single, hopper), 1u);
  EXPECT_EQ(passes(3931, bfly::Precision::Single, hopper), 2u);
  EXPECT_EQ(passes(3229, bfly::Precision::Double, hopper), 1u);
  EXPECT_EQ(passes(3931, bfly::Precision::Double, hopper), 1u);
  EXPECT_EQ(passes(557, bfly::Precision::Double, hopper), 2u);
  DeviceLimits forced = hopper;
  forced.convolution_length = 4096;
  EXPECT_EQ(passes(3229, bfly::Precision::Single, forced), 2u);
  forced.convolution_length = 1024;
  EXPECT_EQ(passes(3229, bfly::Precision::Double, forced), 2u);
}

// One Bluestein kernel serves every N of one M: N and the batch strides are
// run-time arguments.
TEST(Plan, BluesteinKernelsAreSharedAcrossLengths) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  std::set<std::string> names;
  for (std::int64_t n : {1031, 1033, 1049}) names.insert(make_plan(problem(n, 2), gpu).passes[0].spec.name());
  EXPECT_EQ(names.size(), 1u);
}

TEST(Plan, OtherUnsupportedAndInvalidProblems) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  Problem five_d = problem(64);
  five_d.shape = {2, 2, 2, 2, 2};
  expect_plan_error(five_d, gpu, ErrorCode::InvalidArgument, "rank 5");
  Problem four_axes = problem(64);
  four_axes.shape = {2, 2, 2, 2};
  expect_plan_error(four_axes, gpu, ErrorCode::InvalidArgument, "4 axes");
  Problem repeated = problem(64);
  repeated.shape = {4, 4};
  repeated.axes = {1, -1};
  expect_plan_error(repeated, gpu, ErrorCode::InvalidArgument, "axis -1 is repeated");
  Problem out_of_range = repeated;
  out_of_range.axes = {2};
  expect_plan_error(out_of_range, gpu, ErrorCode::InvalidArgument, "axis 2 is out of range");
  Problem overlap = problem(64);
  overlap.shape = {8, 8};
  overlap.output.strides = {4, 1};
  expect_plan_error(overlap, gpu, ErrorCode::InvalidArgument, "overlaps itself");
  expect_plan_error(problem(0), gpu, ErrorCode::InvalidArgument, "length 0");
  expect_plan_error(problem(64, 0), gpu, ErrorCode::InvalidArgument, "batch 0");
  // Smooth but too long for four passes of the longest sub-transform.
  DeviceLimits tiny = gpu;
  tiny.max_single_pass_length = tiny.max_pass_length = tiny.preferred_pass_length = 16;
  expect_plan_error(problem(std::int64_t{1} << 17), tiny, ErrorCode::Unsupported, "131072");
}

TEST(Plan, PrintShowsEveryPass) {
  const PlanTree tree = make_plan(problem(1 << 16, 4), bfly::plan::cpu_limits());
  const std::string text = tree.print();
  ASSERT_EQ(tree.passes.size(), 2u);
  for (const char* word :
       {"multi-pass", "2 passes", "pass 0", "pass 1", "pass twiddles", "input -> work0", "work0 -> output"})
    EXPECT_NE(text.find(word), std::string::npos) << "print() lacks '" << word << "':\n" << text;
  for (const Pass& pass : tree.passes) EXPECT_NE(text.find("kernel " + pass.spec.name()), std::string::npos) << text;
}

namespace multidim {

using bfly::Strategy;

Problem array(std::vector<std::int64_t> shape, std::vector<int> axes = {},
              Placement placement = Placement::OutOfPlace) {
  Problem p;
  p.shape = std::move(shape);
  p.axes = std::move(axes);
  p.placement = placement;
  return p;
}

// Data flow and buffer rules of any plan: each pass reads what the previous
// wrote, the input of an out-of-place problem is never written, a pass writes
// the buffer it reads only where a group owns whole transforms of the axis
// (one pass for it), and the launch shapes fit the device.
void check_flow(const PlanTree& tree, const DeviceLimits& limits) {
  const Problem& p = tree.problem;
  const std::string text = tree.print();
  SCOPED_TRACE(text);
  ASSERT_FALSE(tree.passes.empty());
  EXPECT_EQ(tree.passes.front().source, Slot::Input);
  EXPECT_EQ(tree.passes.back().destination, Slot::Output);
  for (std::size_t i = 0; i < tree.passes.size(); ++i) {
    const Pass& pass = tree.passes[i];
    const KernelSpec& s = pass.spec;
    if (i > 0) EXPECT_EQ(pass.source, tree.passes[i - 1].destination) << "pass " << i;
    if (p.placement == Placement::OutOfPlace) EXPECT_NE(pass.destination, Slot::Input) << "pass " << i;
    const bool same =
        pass.source == pass.destination ||
        (p.placement == Placement::InPlace && pass.source == Slot::Input && pass.destination == Slot::Output);
    // A pass that rewrites its source must hold each transform whole: no
    // Stockham split (the sub-transform index has no twiddle dim) and no copy.
    if (same) {
      EXPECT_FALSE(s.identity) << "pass " << i;
      EXPECT_FALSE(s.has_pass_twiddles()) << "pass " << i;
    }
    // (Rader's transforms of length p - 1 each cover p points.)
    EXPECT_GE(pass.transforms * (s.rader() ? s.rader_prime : s.length), p.elements()) << "pass " << i;
    EXPECT_LE(s.group_size(), limits.max_group_size) << "pass " << i;
    EXPECT_LE(s.local_bytes(), limits.local_memory_bytes) << "pass " << i;
    EXPECT_NE(text.find(s.name()), std::string::npos);
  }
}

TEST(MultiDimPlan, OnePassPerAxisWithoutWorkspace) {
  for (const NamedLimits& l : all_limits()) {
    const PlanTree two = make_plan(array({1000, 1000}), l.limits);
    check_flow(two, l.limits);
    EXPECT_EQ(two.passes.size(), 2u) << two.print();
    EXPECT_EQ(two.workspace_buffers, 0) << two.print();
    EXPECT_EQ(two.solver, "axes");
    // The strided axis reads adjacent columns.
    EXPECT_EQ(two.passes[1].spec.mapping, Mapping::ColumnMajor) << two.print();
    EXPECT_EQ(two.passes[1].spec.dims.front().in_stride, 1) << two.print();
    const PlanTree three = make_plan(array({64, 64, 64}, {}, Placement::InPlace), l.limits);
    check_flow(three, l.limits);
    EXPECT_EQ(three.passes.size(), 3u) << three.print();
    EXPECT_EQ(three.workspace_buffers, 0) << three.print();
    // Length-1 axes cost nothing; all of them still copy once.
    EXPECT_EQ(make_plan(array({1, 1, 4096}), l.limits).passes.size(), 1u);
    EXPECT_EQ(make_plan(array({1, 1, 1}), l.limits).passes.size(), 1u);
  }
}

TEST(MultiDimPlan, RowColumnTakesTransposes) {
  bfly::PlanOptions transpose;
  transpose.strategy = Strategy::Transpose;
  const DeviceLimits gpu = bfly::plan::gpu_limits(49152, 1024);
  const PlanTree two = make_plan(array({512, 512}), gpu, transpose);
  check_flow(two, gpu);
  ASSERT_EQ(two.passes.size(), 4u) << two.print();
  EXPECT_EQ(two.solver, "row-column");
  EXPECT_FALSE(two.passes[0].spec.identity);
  EXPECT_TRUE(two.passes[1].spec.identity);
  EXPECT_FALSE(two.passes[2].spec.identity);
  EXPECT_TRUE(two.passes[3].spec.identity);
  // Every FFT pass reads contiguous rows.
  for (const Pass& pass : two.passes)
    if (!pass.spec.identity) EXPECT_EQ(pass.spec.in_point_stride, 1) << two.print();
  // The tiles are written by columns through local memory.
  EXPECT_TRUE(two.passes[1].spec.store_via_local()) << two.print();
  const PlanTree three = make_plan(array({64, 64, 64}), gpu, transpose);
  check_flow(three, gpu);
  EXPECT_EQ(three.passes.size(), 6u) << three.print();
}

TEST(MultiDimPlan, EveryAxisSubsetAndStrategyFlows) {
  int plans = 0;
  for (const NamedLimits& l : all_limits())
    for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{12, 10, 16},
                                                   {6, 5, 8, 9},
                                                   {7, 4096},
                                                   {4096, 7},
                                                   {96, 128, 80},
                                                   {3000, 3000},
                                                   {17, 19, 23},
                                                   {29, 31, 37},
                                                   {1009, 1013},
                                                   {4093, 6},
                                                   {5, 29, 8}})
      for (int mask = 1; mask < (1 << shape.size()); ++mask)
        for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
          for (Strategy strategy : {Strategy::Auto, Strategy::Transpose}) {
            std::vector<int> axes;
            for (int a = 0; a < static_cast<int>(shape.size()); ++a)
              if (mask & (1 << a)) axes.push_back(a);
            if (axes.size() > 3) continue;
            bfly::PlanOptions options;
            options.strategy = strategy;
            const Problem p = array(shape, axes, placement);
            SCOPED_TRACE(std::string(l.name) + " " + p.token() + " " + bfly::to_string(strategy));
            check_flow(make_plan(p, l.limits, options), l.limits);
            ++plans;
          }
  EXPECT_GT(plans, 200);
}

TEST(MultiDimPlan, WideIndexingPast2To31Elements) {
  const DeviceLimits gpu = bfly::plan::gpu_limits(232448, 1024);
  Problem big = array({std::int64_t{1} << 16, std::int64_t{1} << 16});
  for (const Pass& pass : make_plan(big, gpu).passes) EXPECT_TRUE(pass.spec.wide) << pass.spec.name();
  for (const Pass& pass : make_plan(array({4096, 4096}), gpu).passes) EXPECT_FALSE(pass.spec.wide);
}

TEST(MultiDimPlan, TokensRoundTripAxesAndLayouts) {
  Problem p = array({6, 5, 8, 9}, {0, -2});
  p.batch = 3;
  p.input.strides = {1000, 100, 10, 1};
  p.input.distance = 7000;
  p.output.strides = {360, 72, 9, 1};
  const Problem q = Problem::parse(p.token());
  EXPECT_EQ(p, q) << p.token();
  EXPECT_EQ(q.token(), "c2c_f32_fwd_6x5x8x9_b3_oop_none_ax0.-2_is1000.100.10.1_id7000_os360.72.9.1");
  EXPECT_EQ(q.length(), 6 * 8);
  EXPECT_EQ(q.input_extent(), 2 * 7000 + 5 * 1000 + 4 * 100 + 7 * 10 + 8 + 1);
}

}  // namespace multidim

TEST(Plan, DoublePrecisionHalvesTheLocalMemoryBoundLengths) {
  const DeviceLimits cpu = bfly::plan::cpu_limits();
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  EXPECT_EQ(bfly::plan::for_precision(cpu, bfly::Precision::Double).max_single_pass_length, 2048);
  EXPECT_EQ(bfly::plan::for_precision(hopper, bfly::Precision::Double).max_single_pass_length, 8192);
  EXPECT_EQ(bfly::plan::for_precision(hopper, bfly::Precision::Single).max_single_pass_length, 16384);
  for (const NamedLimits& l : all_limits())
    for (std::int64_t n : {std::int64_t{64}, std::int64_t{4096}, std::int64_t{65536}, std::int64_t{1} << 22}) {
      Problem p = problem(n, 3);
      p.precision = bfly::Precision::Double;
      const PlanTree tree = make_plan(p, l.limits);
      for (const Pass& pass : tree.passes) {
        EXPECT_EQ(pass.spec.precision, bfly::Precision::Double);
        EXPECT_LE(pass.spec.local_bytes(), l.limits.local_memory_bytes) << tree.print();
        EXPECT_NE(pass.spec.name().find("f64"), std::string::npos);
      }
    }
}

}  // namespace

namespace {

// Planes in one pass (solvers/plane.cpp): where the GPU model takes them,
// what the kernel holds, and where it does not apply.
TEST(Plan, PlanesTakeOnePassWhereAGroupHoldsThem) {
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  auto plan = [&](std::vector<std::int64_t> shape, bfly::Precision precision = bfly::Precision::Single) {
    Problem p;
    p.shape = std::move(shape);
    p.precision = precision;
    return make_plan(p, hopper);
  };
  for (const auto& shape :
       std::vector<std::vector<std::int64_t>>{{16, 16}, {64, 64}, {120, 120}, {128, 128}, {12, 120}, {23, 17}}) {
    const auto tree = plan(shape);
    ASSERT_EQ(tree.passes.size(), 1u) << tree.print();
    const KernelSpec& s = tree.passes[0].spec;
    EXPECT_TRUE(s.plane());
    EXPECT_EQ(s.length, shape[0]);
    EXPECT_EQ(s.plane_columns, shape[1]);
    EXPECT_EQ(s.transforms_per_group % shape[1], 0);
    EXPECT_LE(s.group_size(), 1024);
    EXPECT_LE(s.local_bytes(), hopper.local_memory_bytes);
    EXPECT_EQ(tree.passes[0].transforms, shape[1]);  // the columns of every plane
  }
  // Rows of few threads store through local memory (a row a thread at 16 x 16).
  EXPECT_TRUE(plan({16, 16}).passes[0].spec.plane_block_store);
  EXPECT_FALSE(plan({64, 64}).passes[0].spec.plane_block_store);
  // 3D: the inner plane, then the outer axis.
  const auto volume = plan({64, 64, 64});
  ASSERT_EQ(volume.passes.size(), 2u);
  EXPECT_TRUE(volume.passes[0].spec.plane());
  EXPECT_FALSE(volume.passes[1].spec.plane());
  // Too many points, a long axis, doubles past their half, a real
  // transform, strided rows, planes not innermost: a pass an axis.
  EXPECT_EQ(plan({256, 256}).passes.size(), 2u);
  EXPECT_EQ(plan({4, 4096}).passes.size(), 2u);
  // An axis of more points than a group has threads (a thread a column,
  // then a row): a pass an axis. (Planning one never ended before.)
  for (const auto& shape : std::vector<std::vector<std::int64_t>>{{6, 1500}, {1500, 6}, {2, 2688}, {3, 2500}}) {
    const auto tree = plan(shape);
    EXPECT_EQ(tree.passes.size(), 2u) << tree.print();
    for (const Pass& pass : tree.passes) EXPECT_FALSE(pass.spec.plane());
  }
  EXPECT_EQ(plan({128, 128}, bfly::Precision::Double).passes.size(), 2u);
  EXPECT_EQ(plan({64, 64}, bfly::Precision::Double).passes.size(), 1u);
  Problem real;
  real.kind = bfly::Kind::R2C;
  real.shape = {64, 64};
  for (const Pass& pass : make_plan(real, hopper).passes) EXPECT_FALSE(pass.spec.plane());
  Problem strided;
  strided.shape = {32, 24};
  strided.input.strides = {48, 2};
  EXPECT_EQ(make_plan(strided, hopper).passes.size(), 2u);
  Problem outer;
  outer.shape = {16, 16, 8};
  outer.axes = {0, 1};
  EXPECT_EQ(make_plan(outer, hopper).passes.size(), 2u);
  // The CPU model takes a pass an axis (the override's plane key asks for planes there).
  Problem small;
  small.shape = {64, 64};
  EXPECT_EQ(make_plan(small, bfly::plan::cpu_limits()).passes.size(), 2u);
}

}  // namespace

// GPUs compute the pass twiddles where a pass's twiddle count is a
// multiple of 8 (the table elsewhere, at pass_sincos=1 where it is not a
// power of two, and on CPUs), and long power-of-two strided passes keep
// their columns at 32 fp32 points a thread (plan.cpp).
TEST(Plan, GpuPassesComputeTheirTwiddlesAtMultiplesOfEight) {
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  auto plan = [](std::int64_t n, const DeviceLimits& limits) {
    Problem p;
    p.shape = {n};
    return make_plan(p, limits);
  };
  const auto large = plan(std::int64_t{1} << 22, hopper);
  ASSERT_EQ(large.passes.size(), 2u) << large.print();
  EXPECT_FALSE(large.passes[0].spec.pass_sincos);  // the first pass has no twiddles
  EXPECT_TRUE(large.passes[1].spec.pass_sincos);
  for (const auto& pass : large.passes) {
    EXPECT_EQ(pass.spec.points_per_thread(), 32) << large.print();
    EXPECT_EQ(pass.spec.transforms_per_group, 8) << large.print();
  }
  ASSERT_EQ(hopper.pass_sincos, 2);
  const auto mixed = plan(100000, hopper);
  ASSERT_EQ(mixed.passes.size(), 2u) << mixed.print();
  EXPECT_TRUE(mixed.passes[1].spec.pass_sincos) << mixed.print();
  DeviceLimits powers = hopper;
  powers.pass_sincos = 1;
  for (const auto& pass : plan(100000, powers).passes) EXPECT_FALSE(pass.spec.pass_sincos);
  const auto odd = plan(531441, hopper);  // 3^12: 531441 twiddles
  ASSERT_GE(odd.passes.size(), 2u) << odd.print();
  for (const auto& pass : odd.passes) EXPECT_FALSE(pass.spec.pass_sincos) << odd.print();
  const auto cpu = plan(std::int64_t{1} << 22, bfly::plan::cpu_limits());
  for (const auto& pass : cpu.passes) EXPECT_FALSE(pass.spec.pass_sincos) << cpu.print();
}

// Long strided fp64 passes keep 4 columns (64 bytes a row, as 8 fp32 columns
// do) at 16 points a thread, whatever the register estimate says; columns
// that local memory cannot hold go before points a thread do.
TEST(Plan, GpuLongStridedPassesKeepTheirColumns) {
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  // Two passes, each of `points` a thread in groups of `columns`.
  auto expect_passes = [](std::int64_t n, bfly::Precision precision, const DeviceLimits& limits, int points,
                          int columns) {
    Problem p;
    p.shape = {n};
    p.precision = precision;
    const auto tree = make_plan(p, limits);
    ASSERT_EQ(tree.passes.size(), 2u) << tree.print();
    for (const auto& pass : tree.passes) {
      EXPECT_EQ(pass.spec.points_per_thread(), points) << tree.print();
      EXPECT_EQ(pass.spec.transforms_per_group, columns) << tree.print();
    }
  };
  expect_passes(std::int64_t{1} << 22, bfly::Precision::Double, hopper, 16, 4);
  // fp32 4096-point columns at 16 points a thread: 4 columns of 256
  // threads (256 KiB of 8 columns does not fit), not 4 of 128 at 32.
  DeviceLimits sixteen = hopper;
  sixteen.strided_points_per_thread = 16;
  expect_passes(std::int64_t{1} << 24, bfly::Precision::Single, sixteen, 16, 4);
}

// Long fp32 columns whose group's threads would leave too few registers
// for their points take 32 points a thread in fewer threads, the columns
// kept (2222640 = 1470 x 1512: 28-30 points, 53-95 threads of 8 columns
// leave 80 registers at 95); where the points fit they stay (1572864's
// 1536-point columns, 24 points at 96 threads in 80 registers).
TEST(Plan, GpuLongColumnsFitTheirGroupsRegisters) {
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  ASSERT_GT(hopper.registers_per_unit, 0);
  auto passes = [&](std::int64_t n) {
    Problem p;
    p.shape = {n};
    return make_plan(p, hopper);
  };
  for (std::int64_t n : {2222640, 1680000, 2074464}) {
    const auto tree = passes(n);
    ASSERT_EQ(tree.passes.size(), 2u) << tree.print();
    for (const auto& pass : tree.passes) {
      EXPECT_EQ(pass.spec.transforms_per_group, 8) << tree.print();
      if (pass.spec.points_per_thread() >= 28)
        EXPECT_LE(pass.spec.threads_per_transform * pass.spec.transforms_per_group, 512) << tree.print();
      EXPECT_TRUE(bfly::plan::column_points_fit_registers(pass.spec, hopper.registers_per_unit)) << tree.print();
    }
  }
  // (The widest butterfly a thread: column_busiest takes 128 of 16.)
  DeviceLimits widest = hopper;
  widest.column_busiest = 0;
  Problem p1572864;
  p1572864.shape = {1572864};
  const auto kept = make_plan(p1572864, widest);
  ASSERT_EQ(kept.passes.size(), 2u) << kept.print();
  EXPECT_EQ(kept.passes[1].spec.length, 1536) << kept.print();
  EXPECT_EQ(kept.passes[1].spec.threads_per_transform, 96) << kept.print();
  // wide_fit (the default; 0 off): the wide launch's 4 columns of 60
  // points a thread become 4 of 30 in twice the threads, where those fit.
  // (Without column_halving, which takes the busiest launch's 15 at those
  // 4 columns: Plan.ColumnHalvingKeepsTheWidestColumns.)
  for (const int knob : {0, 1}) {
    DeviceLimits limits = hopper;
    limits.wide_fit = knob;
    limits.column_halving = 0;
    Problem p;
    p.shape = {7290000};
    const auto tree = make_plan(p, limits);
    for (const auto& pass : tree.passes) {
      EXPECT_EQ(pass.spec.transforms_per_group, 4) << tree.print();
      EXPECT_EQ(pass.spec.points_per_thread(), knob ? 30 : 60) << tree.print();
    }
  }
  // The limits override's strided_mixed still decides where it is given.
  DeviceLimits wide = hopper;
  wide.strided_points_mixed = 64;
  for (const auto& pass : make_plan(
                              [] {
                                Problem p;
                                p.shape = {2222640};
                                return p;
                              }(),
                              wide)
                              .passes)
    EXPECT_GE(pass.spec.points_per_thread(), 40) << pass.spec.name();
}

// Pass `pass`'s threads and points a thread of an H100's plan (no tuning
// table) of `n` points, batch `batch`, with `knob` setting the limits;
// `passes` the passes the plan must take.
std::pair<int, int> launch_of(std::int64_t n, std::int64_t batch, Precision precision, std::size_t passes,
                              const std::function<void(DeviceLimits&)>& knob, std::size_t pass = 0) {
  DeviceLimits limits = bfly::plan::gpu_limits(232448, 1024);
  limits.tuning = nullptr;
  knob(limits);
  Problem p;
  p.shape = {n};
  p.batch = batch;
  p.precision = precision;
  const auto tree = make_plan(p, limits);
  EXPECT_EQ(tree.passes.size(), passes) << tree.print();
  const auto& spec = tree.passes.at(pass).spec;
  return std::make_pair(spec.threads_per_transform, spec.points_per_thread());
}

// row_busiest (the default; 0 off): a one-pass row whose model launch
// leaves threads two slots of a stage takes a thread a butterfly of its
// busiest stage (3360 = 16 x 15 x 14: 240 threads of 16 points, not 210 of
// 30), where the model's threads hold 20 points or more, that cuts them by
// a quarter and at most doubles the threads (3675 would take 735 for 245,
// 3888 = 12 x 9 x 6 x 6 648 of 12 for 324 of 18: both kept). At 2 (the
// default), where the busiest stage's butterflies pass twice the model's
// threads, the fewest threads up to that at which the busiest thread holds
// the fewest points: 1470 = 15 x 14 x 7 at 105 of 15 (two radix-7
// butterflies a thread), not the model's 98 of 28; 10976 = 14 x 14 x 8 x 7
// at 784 of 16 for 392 of 32; 3675 at 263 of 15 for 245 of 21; not where
// those points leave too few registers (8775 = 15 x 13 x 9 x 5 at 975 of
// 15), nor where they cost groups a multiprocessor below the model's (or
// 4): 9555 = 15 x 13 x 7 x 7 keeps 368 of 30 at two groups, not 735 of 15
// at one; 6860 = 14 x 14 x 7 x 5 490 of 20, not 1's 980 of 14; 5280 = 11 x
// 10 x 8 x 6 takes 660 of 12 at two, not 1's 880 of 11 at one. Where the
// busiest stage's threads are within twice and keep the groups, as at 1.
// (Over radices to 16: composite radices save some of these a stage.)
TEST(Plan, RowBusiestStageThreadsKnob) {
  auto launch = [](std::int64_t n, int on) {
    return launch_of(n, 1000, Precision::Single, 1, [on](DeviceLimits& l) {
      l.row_busiest = on;
      l.composite_radices = 0;
    });
  };
  EXPECT_EQ(launch(3360, 0), std::make_pair(210, 30));
  EXPECT_EQ(launch(3360, 1), std::make_pair(240, 16));
  EXPECT_EQ(launch(2100, 1).second, 15);
  EXPECT_EQ(launch(3675, 1), launch(3675, 0));
  EXPECT_EQ(launch(3888, 1), std::make_pair(324, 18));
  EXPECT_EQ(launch(2940, 1), std::make_pair(210, 15));
  EXPECT_EQ(launch(1470, 1), launch(1470, 0));
  EXPECT_EQ(launch(1470, 2), std::make_pair(105, 15));
  EXPECT_EQ(launch(10976, 2), std::make_pair(784, 16)) << "one group a multiprocessor either way";
  EXPECT_EQ(launch(9555, 2), launch(9555, 1)) << "735 threads of 15: one group a multiprocessor for two";
  EXPECT_EQ(launch(5280, 1), std::make_pair(880, 11));
  EXPECT_EQ(launch(5280, 2), std::make_pair(660, 12)) << "880 threads: one group for two; 660 keep two";
  EXPECT_EQ(launch(8775, 2), launch(8775, 1)) << "975 threads of 15 leave too few registers";
  EXPECT_EQ(launch(3675, 2), std::make_pair(263, 15));
  for (std::int64_t n : {3360, 2100, 3888, 2940, 1792}) EXPECT_EQ(launch(n, 2), launch(n, 1)) << n;
  EXPECT_EQ(launch(6860, 1), std::make_pair(980, 14));
  EXPECT_EQ(launch(6860, 2), std::make_pair(490, 20)) << "980 threads: one group a multiprocessor for two";
}

// column_busiest (1, the default: where it pays; 2 always; 0 never): long
// mixed column passes look for their threads up to a thread a butterfly of
// the busiest stage (fp64 885735's 1215 = 15 x 9 x 9 columns: 135 threads
// of 15 points, not 76 of 30), unless those leave their group too few
// registers (fp64 3111696's 1764-point columns keep 111 threads of 28,
// without column_halving); at 1 only where that cuts the points by a
// quarter or the widest launch's values pass 64 registers (fp32 1960000's
// 1400-point columns: 8 x 70 of 28 at 2, 8 x 50 of 30 at 1; fp32
// 1524096's second pass 98 of 14).
TEST(Plan, ColumnBusiestStageThreadsKnob) {
  auto first_pass = [](std::int64_t n, int on, Precision precision = Precision::Double, std::size_t pass = 0) {
    return launch_of(
        n, 1, precision, 2,
        [on](DeviceLimits& l) {
          l.column_busiest = on;
          l.column_halving = 0;
        },
        pass);
  };
  EXPECT_EQ(first_pass(885735, 0), std::make_pair(76, 30));
  EXPECT_EQ(first_pass(885735, 1), std::make_pair(135, 15));
  EXPECT_EQ(first_pass(3111696, 1), first_pass(3111696, 0));
  EXPECT_EQ(first_pass(1960000, 2, Precision::Single), std::make_pair(70, 28));
  EXPECT_EQ(first_pass(1960000, 1, Precision::Single), std::make_pair(50, 30));
  EXPECT_EQ(first_pass(1524096, 1, Precision::Single, 1), std::make_pair(98, 14));
}

// column_halving (1; 0 off): where the busiest launch leaves
// too few registers at the model's columns, it takes half of them (and
// half again, down to a 32-byte sector a row) if its threads then hold
// their points and the widest launch would keep no more columns: fp64
// 2916000's 1620-point columns 2 x 180 of 15, not 2 x 102 of 30; 2288x24's
// 2 x 208 of 16, not 1 x 143 of 26; 3111696's 1764-point ones 196 of 14.
// 3483648's 1944-point columns keep the widest launch's 4 (the busiest
// fits only at 2), and an fp32 pass never goes below 4 columns.
TEST(Plan, ColumnHalvingKeepsTheWidestColumns) {
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  ASSERT_EQ(hopper.column_halving, 2);
  auto column_pass = [&](std::vector<std::int64_t> shape, Precision precision, int halving, std::size_t pass) {
    DeviceLimits limits = hopper;
    limits.column_halving = halving;
    Problem p;
    p.shape = shape;
    p.precision = precision;
    const PlanTree tree = make_plan(p, limits);
    const auto& spec = tree.passes.at(pass).spec;
    EXPECT_EQ(spec.mapping, bfly::plan::Mapping::ColumnMajor) << tree.print();
    return std::make_tuple(spec.transforms_per_group, spec.threads_per_transform, spec.points_per_thread());
  };
  const Precision d = Precision::Double;
  EXPECT_EQ(column_pass({2916000}, d, 1, 0), std::make_tuple(2, 180, 15));
  EXPECT_EQ(column_pass({2916000}, d, 0, 0), std::make_tuple(2, 102, 30));
  EXPECT_EQ(column_pass({2288, 24}, d, 1, 1), std::make_tuple(2, 208, 16));
  EXPECT_EQ(column_pass({2288, 24}, d, 0, 1), std::make_tuple(1, 143, 26));
  EXPECT_EQ(std::get<1>(column_pass({3111696}, d, 1, 0)), 196);
  EXPECT_EQ(std::get<0>(column_pass({3483648}, d, 1, 1)), 4);
  EXPECT_EQ(column_pass({3483648}, d, 1, 1), column_pass({3483648}, d, 0, 1));
  // At 2 (the default) also where the widest launch's points need more
  // than 4/3 of the registers it leaves: fp64 3375x9's 3375-point columns
  // (94 for 64) take 2 of 225 threads, not 4; 2058x768's (88 for 80) keep
  // 4, and fp32 2625x1080's 2625-point ones (94 for 72) 8.
  EXPECT_EQ(column_pass({3375, 9}, d, 1, 1), std::make_tuple(4, 225, 15));
  EXPECT_EQ(column_pass({3375, 9}, d, 2, 1), std::make_tuple(2, 225, 15));
  EXPECT_EQ(std::get<0>(column_pass({2058, 768}, d, 2, 1)), 4);
  EXPECT_EQ(std::get<0>(column_pass({3375, 336}, Precision::Single, 2, 1)), 4);
  EXPECT_EQ(column_pass({2625, 1080}, Precision::Single, 2, 1), column_pass({2625, 1080}, Precision::Single, 1, 1));
  EXPECT_EQ(std::get<0>(column_pass({2625, 1080}, Precision::Single, 2, 1)), 8);
  for (std::int64_t n : {2593080, 4665600, 7290000, 10804500, 13171200})
    for (std::size_t pass : {0, 1}) EXPECT_GE(std::get<0>(column_pass({n}, Precision::Single, 1, pass)), 4) << n;
}

// A real axis with one large prime factor whose p - 1 factors over the
// codelets takes Rader on that factor past the paired rows' Bluestein
// kernel (8749 = 13 x 673 on a GPU: M = 17496 > 16384, where Bluestein's
// passes took three of M points), one row a transform; within it the rows
// stay paired (2321 = 11 x 211, M = 4800) at real_rader_factor=1, and take
// Rader where a C2C does at 2 (the default); 0 restores Bluestein everywhere.
TEST(Plan, RealAxesTakeRaderOnAPrimeFactorPastTheirBluesteinKernel) {
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  auto plan_of = [&](std::int64_t n, bfly::Kind kind, int rule) {
    DeviceLimits limits = hopper;
    limits.real_rader_factor = rule;
    Problem p = problem(n, 8);
    p.kind = kind;
    if (kind == bfly::Kind::C2R) p.direction = bfly::Direction::Inverse;
    return make_plan(p, limits);
  };
  auto rader = [](const bfly::plan::PlanTree& tree) {
    return tree.passes.size() == 2 && tree.passes[0].spec.rader_prime > 0 && !tree.passes[0].spec.row_pairs();
  };
  auto paired = [](const bfly::plan::PlanTree& tree) {
    return tree.passes.size() == 1 && tree.passes[0].spec.bluestein() && tree.passes[0].spec.row_pairs();
  };
  for (bfly::Kind kind : {bfly::Kind::R2C, bfly::Kind::C2R}) {
    EXPECT_TRUE(rader(plan_of(8749, kind, 1))) << plan_of(8749, kind, 1).print();
    EXPECT_EQ(plan_of(8749, kind, 1).passes[0].spec.rader_prime, 673);
    EXPECT_FALSE(rader(plan_of(8749, kind, 0))) << plan_of(8749, kind, 0).print();
    EXPECT_TRUE(paired(plan_of(2321, kind, 1))) << plan_of(2321, kind, 1).print();
    EXPECT_TRUE(rader(plan_of(2321, kind, 2))) << plan_of(2321, kind, 2).print();
    EXPECT_EQ(plan_of(2321, kind, 2).passes[0].spec.rader_prime, 211);
    EXPECT_TRUE(paired(plan_of(2321, kind, 0)));
    EXPECT_TRUE(paired(plan_of(1159, kind, 2))) << "M = 2400: a C2C's Bluestein kernel takes it too";
  }
}

// Radices 29 and 31: codelets of their own in fp32 (one pass, no Rader);
// in fp64 on a GPU no block rows or planes, the pass that holds them first
// (no pass twiddles beside their 31 points), and a prime axis of 29 or 31
// points by Rader's kernel; a prime factor longer than a pass (a forced
// max_pass_length) goes to Rader rather than failing to split.
TEST(Plan, Radices29And31) {
  const DeviceLimits hopper = bfly::plan::gpu_limits(232448, 1024);
  auto plan_of = [&](std::vector<std::int64_t> shape, bfly::Precision precision, const DeviceLimits& limits) {
    Problem p = problem(1, 2);
    p.shape = std::move(shape);
    p.precision = precision;
    return make_plan(p, limits);
  };
  for (std::int64_t n : {29, 31, 961, 3100, 4092}) {
    const PlanTree tree = plan_of({n}, bfly::Precision::Single, hopper);
    ASSERT_EQ(tree.passes.size(), 1u) << tree.print();
    EXPECT_FALSE(tree.passes[0].spec.rader()) << tree.print();
    EXPECT_FALSE(tree.passes[0].spec.bluestein()) << tree.print();
  }
  for (std::int64_t n : {29, 31}) {
    const PlanTree tree = plan_of({n}, bfly::Precision::Double, hopper);
    EXPECT_EQ(tree.passes[0].spec.rader_prime, n) << tree.print();
  }
  const PlanTree split = plan_of({62000}, bfly::Precision::Double, hopper);
  ASSERT_EQ(split.passes.size(), 2u) << split.print();
  EXPECT_EQ(split.passes[0].spec.length % 31, 0) << split.print();
  EXPECT_FALSE(plan_of({62}, bfly::Precision::Double, hopper).passes[0].spec.block_rows);
  EXPECT_TRUE(plan_of({62}, bfly::Precision::Single, hopper).passes[0].spec.block_rows);
  for (const Pass& pass : plan_of({58, 62}, bfly::Precision::Double, hopper).passes) EXPECT_FALSE(pass.spec.plane());
  DeviceLimits short_passes = bfly::plan::cpu_limits();
  short_passes.max_single_pass_length = short_passes.max_pass_length = short_passes.preferred_pass_length = 16;
  const PlanTree forced = plan_of({29}, bfly::Precision::Single, short_passes);
  ASSERT_FALSE(forced.passes.empty());
  EXPECT_TRUE(forced.passes[0].spec.rader()) << forced.print();
}

// A composite length with one prime factor above 31 whose p - 1 is smooth:
// Rader's kernel on the first pass's p-point sub-transforms (point j of
// sub-transform i at i + j m, output k at i p + k), then m's passes; two
// large factors stay Bluestein's.
TEST(Plan, RaderOnAPrimeFactorIsTheFirstPass) {
  for (const NamedLimits& l : all_limits()) {
    const PlanTree tree = make_plan(problem(3700, 3), l.limits);
    SCOPED_TRACE(std::string(l.name) + "\n" + tree.print());
    ASSERT_EQ(tree.passes.size(), 2u);
    const KernelSpec& rader = tree.passes[0].spec;
    EXPECT_EQ(rader.rader_prime, 37);
    EXPECT_EQ(rader.length, 36);
    EXPECT_EQ(rader.in_point_stride, 100);
    EXPECT_EQ(rader.out_point_stride, 1);
    EXPECT_EQ(tree.passes[0].transforms, 300);
    EXPECT_EQ(tree.passes[1].spec.length, 100);
    EXPECT_EQ(tree.passes[1].spec.stride_product, 37);
    EXPECT_FALSE(tree.passes[1].spec.rader());
    const PlanTree two = make_plan(problem(101 * 103, 1), l.limits);
    for (const Pass& pass : two.passes) EXPECT_FALSE(pass.spec.rader()) << two.print();
  }
}
