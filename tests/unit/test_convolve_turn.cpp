// A one-kernel convolution's turn between its FFTs (codegen/pass_chirp.cpp):
// the second FFT runs its radices in reverse order and starts from the
// registers the first left, with no round trip through local memory
// between them. Accuracy: the Bluestein and Rader accuracy tests (PoCL).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "codegen/pass_kernel.hpp"
#include "plan/device_limits.hpp"
#include "plan/device_policy.hpp"
#include "plan/plan.hpp"

namespace {

using bfly::plan::DeviceLimits;
using bfly::plan::KernelSpec;
using bfly::plan::PlanTree;

std::vector<int> stage_radices(const std::string& source, std::size_t from, std::size_t to) {
  std::vector<int> radices;
  for (std::size_t at = source.find("// stage ", from); at < to; at = source.find("// stage ", at + 1)) {
    const std::size_t radix = source.find("radix ", at);
    radices.push_back(std::stoi(source.substr(radix + 6)));
  }
  return radices;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

KernelSpec one_kernel(std::int64_t n, bfly::Precision precision) {
  const DeviceLimits hopper = bfly::plan::limits_for(bfly::plan::named_device("hopper"));
  bfly::Problem p;
  p.shape = {n};
  p.batch = 4;
  p.precision = precision;
  const PlanTree plan = bfly::plan::make_plan(p, hopper);
  EXPECT_EQ(plan.passes.size(), 1u) << plan.print();
  EXPECT_TRUE(plan.passes[0].spec.convolve) << plan.print();
  return plan.passes[0].spec;
}

// Bluestein (223: 450 = 15 x 6 x 5) and Rader (37, 101) in both dialects:
// the second FFT's stages are the first's reversed, and between its first
// stage and the turn neither local memory nor a barrier.
TEST(ConvolveTurn, TheSecondFftStartsFromTheFirstsRegisters) {
  int checked = 0;
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (std::int64_t n : {223, 37, 101}) {
      const KernelSpec spec = one_kernel(n, precision);
      if (spec.radices.size() < 2 || spec.local_halves) continue;
      for (auto dialect : {bfly::codegen::DialectKind::Cuda, bfly::codegen::DialectKind::OpenCL}) {
        const std::string source = bfly::codegen::generate(spec, dialect);
        const std::size_t turn = source.find("starts from these registers");
        ASSERT_NE(turn, std::string::npos) << spec.name();
        const std::vector<int> first = stage_radices(source, 0, turn);
        const std::vector<int> second = stage_radices(source, turn, source.size());
        EXPECT_EQ(first, spec.radices) << spec.name();
        EXPECT_EQ(second, std::vector<int>(spec.radices.rbegin(), spec.radices.rend())) << spec.name();
        // Between the first FFT's last butterflies and the second's first,
        // no local memory: the turn conjugates in registers.
        const std::size_t second_start = source.find("// stage 0", turn);
        const std::string between = source.substr(turn, second_start - turn);
        EXPECT_EQ(count(between, "lds["), 0u) << between;
        const std::string barrier = dialect == bfly::codegen::DialectKind::Cuda ? "__syncthreads()" : "barrier(";
        EXPECT_EQ(count(between, barrier), 0u) << between;
        ++checked;
      }
    }
  EXPECT_GE(checked, 8);  // 223 at least, in both precisions and dialects
}

}  // namespace
