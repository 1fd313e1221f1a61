// The generic tier's fixed kernels (codegen/generic_kernels.hpp, issue 40)
// compile under NVRTC for sm_90 in both precisions, each a single kernel of
// the expected name, without spills (the row kernel's radix loop is
// unrolled over fixed slots, so its points stay in registers). Where NVRTC
// does not load, skipped; the OpenCL side runs in the accuracy suite.
#include <gtest/gtest.h>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "codegen/generic_kernels.hpp"
#include "codegen/multiply_kernel.hpp"

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

}  // namespace
