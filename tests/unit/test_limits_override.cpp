// The one override of the planner's limits (plan/limits_override.hpp):
// "key=value,..." from PlanOptions::limits, else $BFLY_LIMITS.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bfly/bfly.hpp"
#include "codegen/chain_kernel.hpp"
#include "plan/device_limits.hpp"
#include "plan/device_policy.hpp"
#include "plan/limits_override.hpp"
#include "plan/plan.hpp"

namespace {

using bfly::plan::DeviceLimits;
using bfly::plan::with_override;

// An H100's plans (tuning off) of `n` points, batch 64: the model's, and
// with the override `text`.
std::pair<bfly::plan::PlanTree, bfly::plan::PlanTree> model_and_rule(std::int64_t n, const std::string& text) {
  bfly::PlanOptions off;
  off.tuning = "off";
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  bfly::Problem p;
  p.shape = {n};
  p.batch = 64;
  return {bfly::plan::make_plan(p, hopper, off), bfly::plan::make_plan(p, with_override(hopper, text), off)};
}

std::string refusal(const std::string& text) {
  try {
    with_override(bfly::plan::cpu_limits(), text);
  } catch (const bfly::Error& e) {
    EXPECT_EQ(e.code(), bfly::ErrorCode::InvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "'" << text << "' was accepted";
  return "";
}

TEST(LimitsOverride, SetsTheFieldsItNames) {
  const DeviceLimits base = bfly::plan::cpu_limits();
  EXPECT_EQ(with_override(base, "").min_columns, base.min_columns);
  const DeviceLimits l = with_override(base, "columns=8, group=128,rader=0,block_rows=0,real_block=64");
  EXPECT_EQ(l.min_columns, 8);
  EXPECT_EQ(l.target_group_size, 128);
  EXPECT_FALSE(l.rader);
  EXPECT_EQ(l.block_rows_bytes, 0);
  EXPECT_EQ(l.real_block_bytes, 64);
  // One meaning whatever the order: max_pass_length lowers what single_pass raised.
  const DeviceLimits a = with_override(base, "single_pass=64,max_pass_length=16");
  const DeviceLimits b = with_override(base, "max_pass_length=16,single_pass=64");
  EXPECT_EQ(a.max_single_pass_length, 16);
  EXPECT_EQ(b.max_single_pass_length, 16);
  // The device's local memory and clusters are the most there are.
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  EXPECT_EQ(with_override(hopper, "local_memory=49152").local_memory_bytes, 49152u);
  EXPECT_EQ(with_override(base, "local_memory=1000000000").local_memory_bytes, base.local_memory_bytes);
  EXPECT_EQ(with_override(hopper, "cluster=64").max_cluster, hopper.max_cluster);
  EXPECT_EQ(with_override(hopper, "cluster=1").max_cluster, 1);
}

TEST(LimitsOverride, APlanFollowsIt) {
  bfly::Problem p;
  p.shape = {1024};
  EXPECT_EQ(bfly::plan::make_plan(p, bfly::plan::cpu_limits()).passes.size(), 1u);
  EXPECT_GE(bfly::plan::make_plan(p, with_override(bfly::plan::cpu_limits(), "max_pass_length=16")).passes.size(), 3u);
}

TEST(LimitsOverride, BadTextIsRefusedNamingIt) {
  EXPECT_NE(refusal("colums=8").find("'colums'"), std::string::npos);
  EXPECT_NE(refusal("colums=8").find("columns"), std::string::npos) << "the keys are listed";
  EXPECT_NE(refusal("columns=eight").find("'eight'"), std::string::npos);
  EXPECT_NE(refusal("columns=0").find("'0'"), std::string::npos);
  EXPECT_NE(refusal("columns=").find("columns"), std::string::npos);
  EXPECT_NE(refusal("columns").find("key=value"), std::string::npos);
  EXPECT_NE(refusal("columns=8,columns=4").find("twice"), std::string::npos);
  EXPECT_NE(refusal("max_pass_length=1").find("max_pass_length"), std::string::npos);
  EXPECT_NE(refusal("staged_copy=3").find("1 to 2"), std::string::npos);
}

TEST(LimitsOverride, PlanOptionsBeforeTheEnvironment) {
  bfly::PlanOptions options;
  unsetenv("BFLY_LIMITS");
  EXPECT_EQ(bfly::plan::override_text(options), "");
  setenv("BFLY_LIMITS", "columns=4", 1);
  EXPECT_EQ(bfly::plan::override_text(options), "columns=4");
  options.limits = "columns=2";
  EXPECT_EQ(bfly::plan::override_text(options), "columns=2");
  unsetenv("BFLY_LIMITS");
}

// A chained kernel's occupancy, when asked, is in its name (it changes the
// source): two kernels that differ never share a name.
TEST(LimitsOverride, ChainOccupancyNamesTheChain) {
  bfly::plan::DeviceLimits limits = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  bfly::Problem p;
  p.shape = {262144};  // two passes past a cluster's reach
  p.batch = 64;
  const bfly::plan::PlanTree model = bfly::plan::make_plan(p, limits);
  const bfly::plan::PlanTree asked = bfly::plan::make_plan(p, with_override(limits, "chain_occ=3"));
  ASSERT_GT(model.passes.size(), 1u);
  ASSERT_GT(model.passes[0].chain_elements, 0) << model.print();
  EXPECT_EQ(model.passes[0].chain_groups_per_unit, 0);
  EXPECT_EQ(asked.passes[0].chain_groups_per_unit, 3);
  const bfly::codegen::ChainShape plain{2, 2}, three{2, 2, 3};
  const std::string a = bfly::codegen::chain_name(model.passes[0].spec, model.passes[1].spec, plain);
  const std::string b = bfly::codegen::chain_name(asked.passes[0].spec, asked.passes[1].spec, three);
  EXPECT_NE(a, b);
  EXPECT_EQ(b.substr(b.size() - 3), "_o3");
  EXPECT_NE(bfly::codegen::generate_chain(model.passes[0].spec, model.passes[1].spec, plain),
            bfly::codegen::generate_chain(asked.passes[0].spec, asked.passes[1].spec, three));
}

}  // namespace

// row_values (VkFFT's rule, issue 39; off by default): a one-pass row takes
// N / m threads for a divisor m of N near the target and radices of at most
// 16, so a thread holds about m values where one widest butterfly a thread
// held up to 25 and more (3000 = 25 x 12 x 10 at 120 threads: 195 registers
// in NVRTC, against 55 at 10 x 10 x 10 x 3 over 375).
TEST(LimitsOverride, RowValuesGiveAThreadAboutThatManyValues) {
  for (std::int64_t n : {200, 1536, 3000, 4000, 5184, 10000}) {
    const auto [model, rule] = model_and_rule(n, "row_values=12");
    ASSERT_EQ(rule.passes.size(), 1u) << rule.print();
    const bfly::plan::KernelSpec& s = rule.passes[0].spec;
    for (int r : s.radices) EXPECT_LE(r, 16) << n << ": " << s.name();
    EXPECT_LE(s.points_per_thread(), 16) << n << ": " << s.name();
    EXPECT_EQ(n % s.threads_per_transform, 0) << n << ": " << s.name();
    EXPECT_NE(s.name(), model.passes[0].spec.name()) << n;
  }
}

// convolution_values (issue 39's knob, off by default): a one-kernel
// convolution takes the row rule's m values a thread, counting any up to
// the target as the target, so the fewest stages within it (223's M = 450
// as 10 x 9 x 5 at 50 threads, where the model runs 15 x 6 x 5 at 30 of 18
// points; 557's 1152 in four stages, not 6 x 6 x 2^5).
TEST(LimitsOverride, ConvolutionValuesTakeTheFewestStagesWithinThem) {
  for (std::int64_t n : {223, 557, 1109, 97}) {
    const auto [model, rule] = model_and_rule(n, "convolution_values=10");
    ASSERT_EQ(rule.passes.size(), 1u) << rule.print();
    const bfly::plan::KernelSpec& s = rule.passes[0].spec;
    EXPECT_TRUE(s.convolve) << s.name();
    EXPECT_LE(s.points_per_thread(), 10) << n << ": " << s.name();
    EXPECT_LE(s.radices.size(), 4u) << n << ": " << s.name();
    EXPECT_NE(s.name(), model.passes[0].spec.name()) << n;
    if (n == 223) {
      EXPECT_EQ(s.radices, (std::vector<int>{10, 9, 5}));
      EXPECT_EQ(s.threads_per_transform, 50);
    }
  }
}
