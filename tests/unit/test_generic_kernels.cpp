// The generic tier's fixed kernels (codegen/generic_kernels.hpp, issue 40)
// compile under NVRTC for sm_90 in both precisions, each a single kernel of
// the expected name, without spills (the row kernel's radix loop is
// unrolled over fixed slots, so its points stay in registers). Where NVRTC
// does not load, skipped; the OpenCL side runs in the accuracy suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/cuda/shipped_kernels.hpp"
#include "codegen/generic_kernels.hpp"
#include "codegen/multiply_kernel.hpp"
#include "plan/device_policy.hpp"
#include "plan/plan.hpp"
#include "runtime/tier_choice.hpp"

namespace {

using bfly::Precision;
using bfly::codegen::DialectKind;

TEST(GenericKernels, CompileUnderNvrtcWithoutSpills) {
  std::string why;
  if (!bfly::cuda::Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const bfly::cuda::Nvrtc& nvrtc = bfly::cuda::Nvrtc::instance();
  for (Precision precision : {Precision::Single, Precision::Double}) {
    const std::int64_t capacity = precision == Precision::Single ? 3072 : 1536;
    const std::pair<std::string, std::string> kernels[] = {
        {bfly::codegen::generic_row_name(precision, capacity, 8),
         bfly::codegen::generate_generic_row(DialectKind::Cuda, precision, capacity, 8)},
        {bfly::codegen::generic_row_name(precision, capacity, 16),
         bfly::codegen::generate_generic_row(DialectKind::Cuda, precision, capacity, 16)},
        {bfly::codegen::generic_reshape_name(precision),
         bfly::codegen::generate_generic_reshape(DialectKind::Cuda, precision)},
        {bfly::codegen::generic_chirp_name(precision),
         bfly::codegen::generate_generic_chirp(DialectKind::Cuda, precision)},
    };
    for (const auto& [name, source] : kernels) {
      const auto result = nvrtc.compile(source, name, "sm_90");
      ASSERT_EQ(result.kernels.size(), 1u) << name;
      EXPECT_EQ(result.kernels[0].name, name);
      EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name << ": " << result.kernels[0].registers << " registers";
      std::printf("[ generic  ] %s: %d registers, spills %d bytes, stack %d bytes\n", name.c_str(),
                  result.kernels[0].registers, result.kernels[0].spill_store_bytes, result.kernels[0].stack_bytes);
    }
  }
}

// The cubins compiled into the library (tools/ship_kernels.cpp) are of
// exactly the sources the generator writes now, one for every kernel the
// tier may launch on each shipped architecture, each an ELF. A build
// without NVRTC (or with BFLY_SHIP_KERNELS off) ships none: skipped.
TEST(GenericKernels, ShippedCubinsMatchTheGenerator) {
  const auto& shipped = bfly::cuda::shipped_kernels();
  if (shipped.empty()) GTEST_SKIP() << "this build ships no kernels (no NVRTC at build time, or BFLY_SHIP_KERNELS=OFF)";
  std::vector<std::string> archs;
  for (const auto& k : shipped)
    if (std::find(archs.begin(), archs.end(), k.arch) == archs.end()) archs.push_back(k.arch);
  const auto sources = bfly::codegen::generic_kernel_sources(DialectKind::Cuda, 48 * 1024);
  // (BFLY_SHIP_SPECIALISED adds common sizes' specialised kernels for sm_90.)
  std::size_t generic = 0;
  for (const auto& k : shipped)
    generic += std::any_of(sources.begin(), sources.end(), [&](const auto& s) { return s.first == k.name; }) ? 1 : 0;
  EXPECT_EQ(generic, sources.size() * archs.size());
  for (const std::string& arch : archs)
    for (const auto& [name, source] : sources) {
      const bfly::cuda::ShippedKernel* k = bfly::cuda::find_shipped(name, arch, source);
      ASSERT_NE(k, nullptr) << name << " for " << arch << " is not shipped, or is of an older source";
      ASSERT_GT(k->bytes, 4u);
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(k->cubin), 4), std::string("\x7f"
                                                                                     "ELF",
                                                                                     4))
          << name;
    }
  // A source that differs by a byte finds nothing.
  EXPECT_EQ(bfly::cuda::find_shipped(sources[0].first, archs[0], sources[0].second + " "), nullptr);
}

// BFLY_SHIP_SPECIALISED builds: the kernels a Hopper device's plans ask for
// at common sizes (here 1024 and 2^20, complex fp32 and real fp64, with no
// tuning table) are in the library, of exactly their sources. Skipped in
// builds that ship none.
TEST(GenericKernels, ShippedSpecialisedKernelsMatchHopperPlans) {
  const auto& shipped = bfly::cuda::shipped_kernels();
  if (std::none_of(shipped.begin(), shipped.end(), [](const auto& k) {
        return std::string(k.name).rfind("bfly_generic", 0) != 0 && std::string(k.name).rfind("bfly_multiply", 0) != 0;
      }))
    GTEST_SKIP() << "this build ships no specialised kernels (BFLY_SHIP_SPECIALISED=OFF)";
  const bfly::plan::DeviceLimits limits = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  for (const auto& [n, kind, precision] : {std::tuple{std::int64_t{1024}, bfly::Kind::C2C, Precision::Single},
                                           std::tuple{std::int64_t{1} << 20, bfly::Kind::R2C, Precision::Double}}) {
    bfly::Problem p;
    p.shape = {n};
    p.kind = kind;
    p.precision = precision;
    bfly::detail::for_each_kernel(bfly::plan::make_plan(p, limits), DialectKind::Cuda,
                                  [&](const std::string& name, const std::function<std::string()>& source) {
                                    EXPECT_NE(bfly::cuda::find_shipped(name, "sm_90", source()), nullptr)
                                        << p.token() << ": " << name << " is not shipped";
                                    return true;
                                  });
  }
}

}  // namespace
