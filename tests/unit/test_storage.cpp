// Half storage without a device (issue 42): tokens, the plan's fusion
// (plan/ends.hpp), the conversion functions' text in both dialects, and
// the host conversions (bfly::to_storage, from_storage: the kernels' bit
// operations) exhaustively against an independent rounding: the nearest of
// the format's values, found by search over all of them, ties to the even
// pattern, past the largest finite value by half its spacing Inf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "bfly/bfly.hpp"
#include "codegen/chain_kernel.hpp"
#include "codegen/pass_kernel.hpp"
#include "codegen/storage_kernel.hpp"
#include "plan/device_limits.hpp"
#include "plan/device_policy.hpp"
#include "plan/plan.hpp"
#include "plan/ends.hpp"

namespace bfly {
namespace {

// The value of 16 bits, from the format's definition (not bit tricks).
double decode(std::uint16_t h, Storage s) {
  const int sign = h >> 15;
  const int exponent_bits = s == Storage::Half ? 5 : 8, mantissa_bits = 15 - exponent_bits;
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const int e = (h >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const int m = h & ((1 << mantissa_bits) - 1);
  double v;
  if (e == (1 << exponent_bits) - 1)
    v = m ? std::nan("") : INFINITY;
  else if (e == 0)
    v = std::ldexp(m, 1 - bias - mantissa_bits);
  else
    v = std::ldexp(m + (1 << mantissa_bits), e - bias - mantissa_bits);
  return sign ? -v : v;
}

// The format's non-negative finite values in increasing order, with their bits.
std::vector<std::pair<double, std::uint16_t>> finite_values(Storage s) {
  std::vector<std::pair<double, std::uint16_t>> out;
  for (std::uint32_t h = 0; h < 0x8000; ++h) {
    const double v = decode(static_cast<std::uint16_t>(h), s);
    if (std::isfinite(v)) out.emplace_back(v, static_cast<std::uint16_t>(h));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Round to nearest, ties to the even pattern, Inf past max + spacing / 2.
std::uint16_t reference_round(float f, Storage s, const std::vector<std::pair<double, std::uint16_t>>& values) {
  if (std::isnan(f)) return 0x7fff;  // (any NaN: compared as NaN)
  const std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  const double largest = values.back().first, spacing = largest - values[values.size() - 2].first;
  if (a >= largest + spacing / 2) return sign | (s == Storage::Half ? 0x7c00 : 0x7f80);
  auto above = std::lower_bound(values.begin(), values.end(), std::make_pair(a, std::uint16_t{0}));
  if (above == values.end()) return sign | values.back().second;
  if (above->first == a || above == values.begin()) return sign | above->second;
  const auto below = above - 1;
  const double up = above->first - a, down = a - below->first;
  if (up < down) return sign | above->second;
  if (down < up) return sign | below->second;
  return sign | ((above->second & 1) ? below->second : above->second);
}

float as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::uint32_t as_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

constexpr Storage kStorages[] = {Storage::Half, Storage::BFloat16};

TEST(Storage, EveryPatternDecodes) {
  for (Storage s : kStorages)
    for (std::uint32_t h = 0; h < 65536; ++h) {
      const double want = decode(static_cast<std::uint16_t>(h), s);
      const float got = from_storage(static_cast<std::uint16_t>(h), s);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got)) << to_string(s) << " " << h;
      } else {
        ASSERT_EQ(static_cast<double>(got), want) << to_string(s) << " " << h;
        ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << to_string(s) << " " << h;
        ASSERT_EQ(to_storage(got, s), h) << to_string(s) << " " << h << " does not round trip";
      }
    }
}

// Every value's neighbours, the midpoints between values (ties) and a float
// either side of each, fp32 subnormals, and a million random floats.
TEST(Storage, RoundingMatchesTheReference) {
  for (Storage s : kStorages) {
    const auto values = finite_values(s);
    std::vector<float> probes{0.0f,     -0.0f,      INFINITY,       -INFINITY,      NAN,
                              65504.0f, 65519.996f, 65520.0f,       65536.0f,       3.4e38f,
                              1e-45f,   -1e-45f,    5.9604645e-08f, 2.9802322e-08f, 2.9802326e-08f};
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      const double mid = (values[i].first + values[i + 1].first) / 2;
      const float m = static_cast<float>(mid);
      probes.insert(probes.end(),
                    {m, std::nextafter(m, 0.0f), std::nextafter(m, INFINITY), static_cast<float>(values[i].first)});
    }
    std::mt19937_64 engine(42);
    for (int i = 0; i < 1000000; ++i) probes.push_back(as_float(static_cast<std::uint32_t>(engine())));
    for (std::uint32_t u = 1; u < 0x00800000u; u += 0x1000u) probes.push_back(as_float(u));
    int wrong = 0;
    for (float f : probes)
      for (float v : {f, -f}) {
        const std::uint16_t got = to_storage(v, s), want = reference_round(v, s, values);
        const bool ok = std::isnan(v) ? std::isnan(from_storage(got, s)) : got == want;
        if (!ok && ++wrong < 5)
          ADD_FAILURE() << to_string(s) << ": " << v << " (bits " << std::hex << as_bits(v) << ") rounds to " << got
                        << ", the reference to " << want;
      }
    EXPECT_EQ(wrong, 0) << to_string(s);
  }
}

TEST(Storage, TokensRoundTripAndRefuseBadValues) {
  for (const char* token :
       {"c2c_f16_fwd_1024_b8_oop_none", "r2c_bf16_fwd_30x40_b1_ip_backward", "c2r_f16_inv_99_b2_oop_ortho",
        "dct2_bf16_fwd_100_b1_oop_ortho_orth", "c2c_bf16_inv_16x12_b3_oop_forward_is1.16_os14.1_od224"}) {
    const Problem p = Problem::parse(token);
    EXPECT_NE(p.storage, Storage::Native) << token;
    EXPECT_EQ(p.precision, Precision::Single) << token;
    EXPECT_EQ(p.token(), token);
    EXPECT_EQ(Problem::parse(p.token()), p);
  }
  const Problem h = Problem::parse("c2c_f16_fwd_8_b1_oop_none");
  EXPECT_EQ(h.element_bytes(), 4u);
  EXPECT_EQ(Problem::parse("r2c_bf16_fwd_8_b1_oop_none").input_element_bytes(), 2u);
  EXPECT_NE(h, Problem::parse("c2c_f32_fwd_8_b1_oop_none"));
  EXPECT_NE(h, Problem::parse("c2c_bf16_fwd_8_b1_oop_none"));
  Problem wide = h;
  wide.precision = Precision::Double;
  try {
    wide.validate();
    ADD_FAILURE() << "f16 storage with double compute was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("f16"), std::string::npos) << e.what();
  }
  EXPECT_THROW(to_storage(1.0f, Storage::Native), Error);
}

plan::DeviceLimits limits() { return plan::cpu_limits(); }

// Plain, real-axis, Bluestein's and Rader's one-kernel passes convert in
// place of their loads and stores; other plans (Rader past one kernel, the
// DCT) convert in kernels of their own.
TEST(Storage, FusedWherePassesTakeIt) {
  const plan::PlanTree one = plan::make_plan(Problem::parse("c2c_f16_fwd_1024_b4_oop_none"), limits());
  EXPECT_TRUE(plan::loads_convert(one));
  EXPECT_TRUE(plan::stores_convert(one));
  EXPECT_NE(one.passes.front().spec.name().find("_lf16_sf16"), std::string::npos) << one.passes.front().spec.name();
  EXPECT_NE(one.print().find("f16 load"), std::string::npos) << one.print();
  EXPECT_EQ(one.problem.storage, Storage::Half);
  const plan::PlanTree two = plan::make_plan(Problem::parse("c2c_bf16_inv_65536_b1_oop_none"), limits());
  ASSERT_GT(two.passes.size(), 1u);
  EXPECT_TRUE(plan::loads_convert(two));
  EXPECT_TRUE(plan::stores_convert(two));
  for (std::size_t i = 1; i + 1 < two.passes.size(); ++i) EXPECT_EQ(two.passes[i].spec.load_storage, Storage::Native);
  // Bluestein (three passes and one kernel) and Rader's one kernel convert;
  // Rader past one kernel (its gather and scatter its own) converts apart.
  for (const char* token :
       {"c2c_f16_fwd_10007_b1_oop_none", "c2c_f16_fwd_1000_b1_oop_none", "c2r_bf16_inv_10007_b1_oop_none",
        "c2c_f16_fwd_1009_b2_oop_none", "r2c_f16_fwd_1009_b2_oop_none"}) {
    const plan::PlanTree t = plan::make_plan(Problem::parse(token), limits());
    EXPECT_TRUE(plan::loads_convert(t) && plan::stores_convert(t)) << t.print();
  }
  const plan::PlanTree rader = plan::make_plan(Problem::parse("c2c_f16_fwd_65537_b1_oop_none"), limits());
  EXPECT_FALSE(plan::loads_convert(rader) || plan::stores_convert(rader)) << rader.print();
  for (const char* token : {"r2c_f16_fwd_1024_b1_oop_none", "c2r_bf16_inv_1024_b3_oop_backward",
                            "r2c_f16_fwd_99_b2_oop_none", "c2r_f16_inv_65536_b1_oop_none"}) {
    const plan::PlanTree real = plan::make_plan(Problem::parse(token), limits());
    EXPECT_TRUE(plan::loads_convert(real) && plan::stores_convert(real)) << real.print();
  }
  // Plans that worked in the caller's buffers between passes (2D out of
  // place, multi-pass in place) work in a workspace buffer instead: the
  // caller's buffers meet the first loads and last stores alone.
  for (const char* token :
       {"r2c_f16_fwd_1000x1000_b1_oop_none", "c2c_f16_fwd_64x64_b10_oop_none", "c2c_f16_fwd_1024_b1_ip_none",
        "c2c_f16_fwd_65536_b1_ip_none", "c2c_bf16_inv_96x96_b2_ip_none", "r2c_f16_fwd_30x40_b1_ip_none",
        "c2r_f16_inv_12x18x20_b1_oop_none"}) {
    const Problem p = Problem::parse(token);
    const plan::PlanTree t = plan::make_plan(p, limits());
    EXPECT_TRUE(plan::loads_convert(t) && plan::stores_convert(t)) << t.print();
    for (std::size_t i = 0; i < t.passes.size(); ++i) {
      const plan::Pass& pass = t.passes[i];
      const bool first = i == 0, last = i + 1 == t.passes.size();
      auto caller = [](plan::Slot s) { return s == plan::Slot::Input || s == plan::Slot::Output; };
      EXPECT_TRUE(!caller(pass.source) || (first && pass.source == plan::Slot::Input)) << t.print();
      EXPECT_TRUE(!caller(pass.destination) || (last && pass.destination == plan::Slot::Output)) << t.print();
    }
    if (t.passes.size() > 1) {
      Problem native = p;
      native.storage = Storage::Native;
      const std::int64_t side =
          std::max(native.input_extent() * static_cast<std::int64_t>(native.input_element_bytes()),
                   native.output_extent() * static_cast<std::int64_t>(native.output_element_bytes()));
      EXPECT_GE(t.workspace_buffers, 1) << token;
      EXPECT_GE(t.workspace_bytes, side / (p.placement == Placement::InPlace ? 1 : 2)) << token;
    }
  }
  // Native plans are untouched.
  const plan::PlanTree f32 = plan::make_plan(Problem::parse("c2c_f32_fwd_1024_b4_oop_none"), limits());
  EXPECT_FALSE(plan::loads_convert(f32) || plan::stores_convert(f32));
}

// The fused kernel's text in both dialects: 16-bit buffers, the functions
// once, no fp16 extension or header.
TEST(Storage, KernelTextInBothDialects) {
  const plan::PlanTree t = plan::make_plan(Problem::parse("c2c_f16_fwd_1024_b4_oop_none"), limits());
  for (codegen::DialectKind d : {codegen::DialectKind::OpenCL, codegen::DialectKind::Cuda}) {
    const std::string source = codegen::generate(t.passes.front().spec, d);
    EXPECT_NE(source.find("const hcpx* in"), std::string::npos) << source;
    EXPECT_NE(source.find("hcpx* out"), std::string::npos) << source;
    EXPECT_NE(source.find("storage_cpx(src["), std::string::npos);
    EXPECT_NE(source.find("storage_pack("), std::string::npos);
    EXPECT_EQ(source.find("cl_khr_fp16"), std::string::npos);
    EXPECT_EQ(source.find("cuda_fp16"), std::string::npos);
    for (Storage s : kStorages)
      for (bool to : {false, true})
        for (bool complex : {false, true}) {
          const std::string k = codegen::generate_storage_kernel(d, s, to, complex);
          EXPECT_NE(k.find(codegen::storage_kernel_name(s, to, complex)), std::string::npos);
        }
  }
}

// NVRTC compiles the conversion kernels without spills, and the fused
// passes (one pass of 1024 and 4096 under a GPU's limits) spill no more
// than the same passes in fp32 (4096 at 5 groups a unit spills in both;
// the runtime relaunches it at 4: PlanImpl::relaunched).
TEST(Storage, CudaKernelsCompileWithoutSpills) {
  std::string why;
  if (!cuda::Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const cuda::Nvrtc& nvrtc = cuda::Nvrtc::instance();
  for (Storage s : kStorages)
    for (bool to : {false, true})
      for (bool complex : {false, true}) {
        const std::string name = codegen::storage_kernel_name(s, to, complex);
        const cuda::CompileResult result =
            nvrtc.compile(codegen::generate_storage_kernel(codegen::DialectKind::Cuda, s, to, complex), name, "sm_90");
        ASSERT_EQ(result.kernels.size(), 1u) << name;
        EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name;
      }
  const plan::DeviceLimits hopper = plan::limits_for(plan::named_device("hopper"));
  // One pass, a cluster (65536), a chained launch (262144 in batches), a
  // plane (64x64), Bluestein and Rader in one kernel.
  for (const char* token :
       {"c2c_f16_fwd_1024_b64_oop_none", "c2c_bf16_inv_4096_b8_oop_ortho", "c2c_f16_fwd_65536_b4_oop_none",
        "c2c_f16_fwd_262144_b128_oop_none", "c2c_f16_fwd_64x64_b100_oop_none", "c2c_bf16_fwd_127_b64_oop_none",
        "c2c_f16_fwd_1000_b64_oop_none", "r2c_f16_fwd_1001_b64_oop_none"}) {
    const plan::PlanTree t = plan::make_plan(Problem::parse(token), hopper);
    EXPECT_TRUE(plan::loads_convert(t) && plan::stores_convert(t)) << t.print();
    for (std::size_t i = 0; i + 1 < t.passes.size(); ++i) {
      if (t.passes[i].chain_elements == 0) continue;
      const codegen::ChainShape shape = codegen::chain_shape(t.passes[i], t.passes[i + 1]);
      const std::string name = codegen::chain_name(t.passes[i].spec, t.passes[i + 1].spec, shape);
      const cuda::CompileResult chain =
          nvrtc.compile(codegen::generate_chain(t.passes[i].spec, t.passes[i + 1].spec, shape), name, "sm_90");
      ASSERT_EQ(chain.kernels.size(), 1u) << name;
      EXPECT_EQ(chain.kernels[0].spill_store_bytes, 0) << name;
    }
    for (const plan::Pass& pass : t.passes) {
      plan::KernelSpec f32 = pass.spec;
      f32.load_storage = f32.store_storage = Storage::Native;
      const cuda::CompileResult result =
          nvrtc.compile(codegen::generate(pass.spec, codegen::DialectKind::Cuda), pass.spec.name(), "sm_90");
      const cuda::CompileResult plain =
          nvrtc.compile(codegen::generate(f32, codegen::DialectKind::Cuda), f32.name(), "sm_90");
      ASSERT_EQ(result.kernels.size(), 1u) << pass.spec.name();
      ASSERT_EQ(plain.kernels.size(), 1u) << f32.name();
      EXPECT_LE(result.kernels[0].spill_store_bytes, plain.kernels[0].spill_store_bytes) << pass.spec.name();
    }
  }
}

}  // namespace
}  // namespace bfly
