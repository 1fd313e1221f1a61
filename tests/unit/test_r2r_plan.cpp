// The DCT's and DST's plans without a device (plan/solvers/r2r.cpp): which
// problems fuse (every type where the axis's FFT is Stockham passes) and
// which take the stages, the pieces'
// words and tables, the stages' geometry, and every R2R kernel compiling for
// sm_90 with NVRTC without spills (skipped where NVRTC cannot be loaded).
#include <gtest/gtest.h>

#include <tuple>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "codegen/pass_kernel.hpp"
#include "codegen/r2r_kernel.hpp"
#include "pieces/piece.hpp"
#include "plan/device_limits.hpp"
#include "plan/r2r.hpp"

namespace {

using bfly::Problem;
using bfly::plan::cpu_limits;
using bfly::plan::fused_r2r_plan;
using bfly::plan::gpu_limits;

TEST(R2RPlan, TypesTwoAndThreeInOnePassAnAxis) {
  // Odd lengths: an FFT of n an axis, the r2r piece on both ends.
  const auto fused = fused_r2r_plan(Problem::parse("dst3_f64_inv_11x9_b2_oop_ortho_orth"), cpu_limits(), {});
  ASSERT_TRUE(fused);
  ASSERT_EQ(fused->passes.size(), 2u);
  for (const auto& pass : fused->passes) {
    EXPECT_EQ(pass.spec.r2r_type, 2);  // the inverse of type 3
    EXPECT_TRUE(pass.spec.r2r_sine);
    EXPECT_TRUE(pass.spec.r2r_orthogonalize);
    EXPECT_FALSE(pass.spec.r2r_packed);
    EXPECT_NE(pass.spec.name().find("_r2r_"), std::string::npos) << pass.spec.name();
    EXPECT_TRUE(bfly::pieces::reads_reals(pass.spec) && bfly::pieces::writes_reals(pass.spec));
    bfly::pieces::TableSource table;
    ASSERT_TRUE(bfly::pieces::host_table(pass.spec, table));
    EXPECT_EQ(table.f64().size(), static_cast<std::size_t>(pass.spec.length));  // w_4n^k, k < n
  }
  EXPECT_EQ(fused->problem.token(), "dst3_f64_inv_11x9_b2_oop_ortho_orth");
}

TEST(R2RPlan, EvenTypesTwoToFourPackedInHalfTheirLength) {
  // Even lengths: an FFT of n / 2 an axis, two reals a point
  // (pieces/r2r_packed.cpp); the tables w_n^k and w_4n^k, k <= n / 2 (types
  // 2 and 3), or w_8n^e, e < 2n (type 4).
  for (const auto& [token, type] :
       {std::make_pair("dst3_f64_inv_12x10_b2_oop_ortho_orth", 2), std::make_pair("dct3_f32_fwd_12x10_b2_oop_none", 3),
        std::make_pair("dst4_f64_fwd_12x10_b2_oop_forward", 4)}) {
    const auto fused = fused_r2r_plan(Problem::parse(token), cpu_limits(), {});
    ASSERT_TRUE(fused) << token;
    ASSERT_EQ(fused->passes.size(), 2u) << token;
    for (const auto& pass : fused->passes) {
      EXPECT_TRUE(pass.spec.r2r_packed && !pass.spec.r2r_load && !pass.spec.r2r_store) << token;
      EXPECT_EQ(pass.spec.r2r_type, type) << token;
      EXPECT_EQ(pass.spec.length * 2, pass.spec.r2r_points) << token;
      EXPECT_NE(pass.spec.name().find("_r2rp_"), std::string::npos) << pass.spec.name();
      EXPECT_TRUE(bfly::pieces::reads_reals(pass.spec) && bfly::pieces::writes_reals(pass.spec));
      bfly::pieces::TableSource table;
      ASSERT_TRUE(bfly::pieces::host_table(pass.spec, table));
      const std::int64_t n = pass.spec.r2r_points;
      EXPECT_EQ(table.f64().size(), static_cast<std::size_t>(type == 4 ? 2 * n : n + 2)) << token;
    }
  }
}

TEST(R2RPlan, TypesOneAndFourInOnePassOfTheirFftsLength) {
  // Type 4 of an odd n: an FFT of 2n; DCT-I of 2(n - 1); DST-I of 2(n + 1).
  for (const auto& [token, n, m] : {std::make_tuple("dct4_f32_fwd_63_b1_oop_none", 63, 126),
                                    std::make_tuple("dct1_f32_fwd_64_b1_oop_none", 64, 126),
                                    std::make_tuple("dst1_f64_fwd_64_b1_oop_ortho_orth", 64, 130)}) {
    const auto fused = fused_r2r_plan(Problem::parse(token), cpu_limits(), {});
    ASSERT_TRUE(fused) << token;
    ASSERT_EQ(fused->passes.size(), 1u);
    EXPECT_EQ(fused->passes[0].spec.length, m) << token;
    EXPECT_EQ(fused->passes[0].spec.r2r_points, n) << token;
  }
}

// Several Stockham passes: the gather on the first's loads (reals in), the
// twiddle on the last's stores (reals out), workspace between them.
TEST(R2RPlan, LongAxesInTheFftsPasses) {
  // (Type 4 of an odd n: the FFT of 2n in two passes; types 1 to 3 past
  // one pass take the stages.)
  EXPECT_FALSE(fused_r2r_plan(Problem::parse("dct2_f32_fwd_65536_b1_oop_none"), cpu_limits(), {}));
  for (const char* token : {"dct4_f32_fwd_4095_b1_oop_none", "dst4_f64_fwd_3003_b1_oop_ortho"}) {
    const auto fused = fused_r2r_plan(Problem::parse(token), cpu_limits(), {});
    ASSERT_TRUE(fused) << token;
    ASSERT_EQ(fused->passes.size(), 2u) << fused->print();
    const auto& first = fused->passes.front();
    const auto& last = fused->passes.back();
    EXPECT_TRUE(first.spec.r2r_load && !first.spec.r2r_store);
    EXPECT_TRUE(last.spec.r2r_store && !last.spec.r2r_load);
    EXPECT_EQ(first.source, bfly::plan::Slot::Input);
    EXPECT_EQ(first.destination, bfly::plan::Slot::Work0);  // complex points fit no real buffer
    EXPECT_EQ(last.destination, bfly::plan::Slot::Output);
    EXPECT_TRUE(bfly::pieces::reads_reals(first.spec) && !bfly::pieces::writes_reals(first.spec));
    EXPECT_TRUE(!bfly::pieces::reads_reals(last.spec) && bfly::pieces::writes_reals(last.spec));
  }
}

TEST(R2RPlan, PrimeAndOnePointAxesTakeTheStages) {
  for (const char* token :
       {"dct2_f32_fwd_4099_b1_oop_none", "dst3_f64_fwd_10007_b1_oop_none", "dct2_f32_fwd_1x64_b1_oop_none"}) {
    const Problem p = Problem::parse(token);
    EXPECT_FALSE(fused_r2r_plan(p, cpu_limits(), {})) << token;
    const std::string text = bfly::plan::print_r2r(p, cpu_limits(), {});
    EXPECT_NE(text.find("gather  bfly_r2r_pre_"), std::string::npos) << text;
  }
  // The stages: type 4 runs an FFT of 2n, DCT-I of 2(n - 1), DST-I of 2(n + 1).
  EXPECT_EQ(bfly::plan::r2r_stages(Problem::parse("dct4_f32_fwd_5x7_b3_oop_none")).back().m, 14);
  EXPECT_EQ(bfly::plan::r2r_stages(Problem::parse("dct1_f32_fwd_5x7_b3_oop_none")).back().m, 12);
  EXPECT_EQ(bfly::plan::r2r_stages(Problem::parse("dst1_f32_fwd_5x7_b3_oop_none")).back().m, 16);
  const auto stages = bfly::plan::r2r_stages(Problem::parse("dst2_f32_inv_5x7_b3_oop_backward_ax0"));
  ASSERT_EQ(stages.size(), 1u);
  EXPECT_EQ(stages[0].type, 3);
  EXPECT_EQ(stages[0].lines, 21);
  EXPECT_DOUBLE_EQ(stages[0].scale, 1.0 / 10);  // backward: the inverse over 2n
}

TEST(R2RPlan, EveryKernelCompilesForCudaWithoutSpills) {
  std::string why;
  if (!bfly::cuda::Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const bfly::cuda::Nvrtc& nvrtc = bfly::cuda::Nvrtc::instance();
  using bfly::codegen::DialectKind;
  for (bfly::Family family : {bfly::Family::DCT, bfly::Family::DST})
    for (int type = 1; type <= 4; ++type)
      for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double}) {
        for (const auto& [name, source] :
             {std::make_pair(bfly::codegen::r2r_pre_kernel_name(family, type, precision),
                             bfly::codegen::generate_r2r_pre(DialectKind::Cuda, family, type, precision)),
              std::make_pair(bfly::codegen::r2r_post_kernel_name(family, type, precision),
                             bfly::codegen::generate_r2r_post(DialectKind::Cuda, family, type, precision))}) {
          const auto result = nvrtc.compile(source, name, "sm_90");
          ASSERT_EQ(result.kernels.size(), 1u) << name;
          EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name;
        }
      }
  // The fused passes, on a Hopper-sized device: short, long, strided rows,
  // and the first and last of several passes.
  for (const char* token :
       {"dct2_f32_fwd_16x100_b1_oop_ortho_ax1_orth", "dst3_f64_inv_4096_b2_oop_none_orth",
        "dct3_f32_fwd_10000_b1_oop_forward", "dst2_f64_fwd_60x7_b1_oop_none_ax0", "dct4_f32_fwd_1000_b1_oop_none",
        "dst1_f64_inv_99x3_b1_oop_ortho_ax0_orth", "dct1_f32_fwd_513_b2_oop_forward", "dct4_f32_fwd_28125_b1_oop_none",
        "dst4_f64_fwd_50625_b1_oop_none", "dct3_f32_fwd_32768_b1_oop_none", "dst4_f64_fwd_8192_b1_oop_none",
        "dct2_f64_fwd_4096_b1_oop_ortho_orth", "dst3_f32_fwd_64x250_b1_oop_none_ax1"}) {
    const auto fused = fused_r2r_plan(Problem::parse(token), gpu_limits(232448, 1024), {});
    ASSERT_TRUE(fused) << token;
    for (const auto& pass : fused->passes) {
      const auto result =
          nvrtc.compile(bfly::codegen::generate(pass.spec, DialectKind::Cuda), pass.spec.name(), "sm_90");
      ASSERT_EQ(result.kernels.size(), 1u) << token;
      EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << token << " " << pass.spec.name();
    }
  }
}

}  // namespace
