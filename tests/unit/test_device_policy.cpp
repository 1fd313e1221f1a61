// One device policy (plan/device_policy.hpp): the backends and `bfly plan
// --limits` plan under the same limits for the same device.
#include <gtest/gtest.h>

#include <string>

#include "bfly/bfly.hpp"
#include "plan/device_policy.hpp"
#include "plan/plan.hpp"

namespace {

using bfly::plan::limits_for;
using bfly::plan::named_device;

// The drift the architecture review found (2026-11-25): `bfly plan --limits
// gpu` printed staged bulk-copy kernels that the OpenCL backend never runs
// on a GPU. A device-free plan for an OpenCL GPU now stages nothing, as its
// backend plans; the CUDA one for Hopper still may.
TEST(DevicePolicy, AnOpenClGpuPlanStagesNothingAsItsBackendRuns) {
  for (const char* token : {"c2c_f32_fwd_2048_b8_oop_none", "c2c_f32_fwd_2187_b8_oop_none",
                            "c2c_f32_fwd_3000_b8_oop_none", "c2c_f64_fwd_2048_b8_oop_none"}) {
    const bfly::plan::PlanTree tree =
        bfly::plan::make_plan(bfly::Problem::parse(token), limits_for(named_device("gpu")));
    for (const bfly::plan::Pass& pass : tree.passes)
      EXPECT_EQ(pass.spec.staged, 0) << token << ": " << pass.spec.name();
  }
  const bfly::plan::DeviceLimits hopper = limits_for(named_device("hopper"));
  EXPECT_GT(hopper.staged_min_length, 0);
  EXPECT_EQ(hopper.max_cluster, 8);
  EXPECT_GT(hopper.l2_chain_bytes, 0);
}

// Hopper's clusters take fp32 rows only: fp64's run two passes (0.82x the
// time on an H200, 0.92x on an H100); cluster_double=1 restores them.
TEST(DevicePolicy, HopperClustersTakeSinglePrecisionRowsOnly) {
  const bfly::plan::DeviceLimits hopper = limits_for(named_device("hopper"));
  EXPECT_FALSE(hopper.cluster_double);
  const auto clustered = [](const char* token, const bfly::plan::DeviceLimits& limits) {
    const bfly::plan::PlanTree tree = bfly::plan::make_plan(bfly::Problem::parse(token), limits);
    return tree.passes.size() == 1 && tree.passes[0].spec.cluster > 1;
  };
  EXPECT_TRUE(clustered("c2c_f32_fwd_36864_b4_oop_none", hopper));
  EXPECT_FALSE(clustered("c2c_f64_fwd_20736_b4_oop_none", hopper));
  bfly::plan::DeviceLimits both = hopper;
  both.cluster_double = true;
  EXPECT_TRUE(clustered("c2c_f64_fwd_20736_b4_oop_none", both));
}

TEST(DevicePolicy, FollowsTheDevicesFacts) {
  bfly::DeviceInfo cuda = named_device("hopper");
  cuda.compute_capability = "8.0";  // no clusters before Hopper
  EXPECT_EQ(limits_for(cuda).max_cluster, 1);
  EXPECT_EQ(limits_for(cuda).l2_chain_bytes, 0);
  bfly::DeviceInfo cpu = named_device("cpu");
  cpu.local_memory_bytes = 16384;
  cpu.max_group_size = 256;
  EXPECT_EQ(limits_for(cpu).local_memory_bytes, 16384u);
  EXPECT_EQ(limits_for(cpu).max_group_size, 256);
  EXPECT_EQ(limits_for(named_device("cpu")).local_memory_bytes, bfly::plan::cpu_limits().local_memory_bytes);
}

TEST(DevicePolicy, AnUnknownNameIsRefusedByName) {
  try {
    named_device("tpu");
    FAIL() << "no error";
  } catch (const bfly::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'tpu'"), std::string::npos) << e.what();
  }
}

}  // namespace
