// Golden kernel text: the generated source for a few representative passes,
// in each dialect, compared line by line with the reviewed files in
// tests/golden/. A change in the generator shows up here as a readable diff.
//
// To accept an intended change, regenerate and review the files:
//   BFLY_UPDATE_GOLDEN=1 bfly_unit_tests --gtest_filter='*Golden*'
//   git diff tests/golden/
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"
#include "codegen/pass_kernel.hpp"
#include "plan/device_limits.hpp"
#include "plan/plan.hpp"

#ifndef BFLY_GOLDEN_DIR
#error "BFLY_GOLDEN_DIR must name tests/golden (set by tests/CMakeLists.txt)"
#endif

namespace bfly::codegen {
// Readable test parameters ("cuda", not "4-byte object <01-00 00-00>").
inline void PrintTo(DialectKind d, std::ostream* out) { *out << to_string(d); }
}  // namespace bfly::codegen

namespace {

using bfly::codegen::DialectKind;
using bfly::plan::KernelSpec;

struct GoldenCase {
  std::string label;  // file name stem: stable even when the spec's name changes
  std::string token;  // the problem whose plan supplies the spec
  bool gpu;           // gpu_limits(49152, 1024), else cpu_limits()
  std::size_t pass;   // which pass of that plan
  std::string what;   // what this case covers
  bfly::Strategy strategy = bfly::Strategy::Auto;
};

const std::vector<GoldenCase>& cases() {
  static const std::vector<GoldenCase> table{
      {"single_8", "c2c_f32_fwd_8_b1_oop_none", true, 0,
       "one radix-8 stage, several transforms per group, the rows as one block through local memory"},
      {"single_16", "c2c_f32_fwd_16_b1_oop_none", true, 0, "radix 16 = 4 x 4 with constant pi/8 twiddles"},
      {"single_60", "c2c_f32_fwd_60_b1_oop_none", true, 0, "radices 4, 3, 5: odd butterflies and stage twiddles"},
      {"multi_65536_pass0", "c2c_f32_fwd_65536_b1_oop_none", false, 0,
       "first of two passes: strided columns read, row stored via local memory"},
      {"multi_65536_pass1", "c2c_f32_fwd_65536_b1_oop_none", false, 1,
       "second of two passes: column-major mapping, two-level pass twiddles"},
      {"axis0_64x48", "c2c_f32_fwd_64x48_b1_oop_none", true, 1,
       "2D: the strided axis 0 in place in the output, 8 adjacent columns per group"},
      {"transpose_64x48", "c2c_f32_fwd_64x48_b1_oop_none", true, 1,
       "row-column strategy: a tiled transpose, written by columns through local memory", bfly::Strategy::Transpose},
      {"rader_37", "c2c_f32_fwd_37_b1_oop_none", true, 0,
       "Rader: a 36-point convolution, gathered and scattered through local memory"},
      {"single_31", "c2c_f32_fwd_31_b1_oop_none", true, 0, "the largest prime codelet, 31 points by symmetric pairs"},
      {"half_60", "c2c_f16_fwd_60_b1_oop_none", true, 0,
       "half storage: fp16 read and written as 16-bit pairs, converted by bit operations (pieces/storage.cpp)"},
  };
  return table;
}

KernelSpec spec_of(const GoldenCase& c) {
  const bfly::plan::DeviceLimits limits = c.gpu ? bfly::plan::gpu_limits(49152, 1024) : bfly::plan::cpu_limits();
  bfly::PlanOptions options;
  options.strategy = c.strategy;
  const bfly::plan::PlanTree tree = bfly::plan::make_plan(bfly::Problem::parse(c.token), limits, options);
  if (c.pass >= tree.passes.size())
    throw std::runtime_error(c.label + ": plan has only " + std::to_string(tree.passes.size()) + " passes:\n" +
                             tree.print());
  return tree.passes[c.pass].spec;
}

std::string extension(DialectKind d) { return d == DialectKind::OpenCL ? ".cl" : ".cu"; }

std::string path_of(const GoldenCase& c, DialectKind d) {
  return std::string(BFLY_GOLDEN_DIR) + "/" + c.label + extension(d);
}

bool updating() {
  const char* v = std::getenv("BFLY_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

bool read_file(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// "" when equal, else where and how the texts first differ.
std::string first_difference(const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  const auto a = lines(expected), b = lines(actual);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string* x = i < a.size() ? &a[i] : nullptr;
    const std::string* y = i < b.size() ? &b[i] : nullptr;
    if (x && y && *x == *y) continue;
    std::ostringstream out;
    // Quoted, so trailing blanks show.
    auto show = [](const std::string* s) { return s ? "\"" + *s + "\"" : std::string("<end of file>"); };
    out << "first difference at line " << i + 1 << "\n  golden:    " << show(x) << "\n  generated: " << show(y);
    return out.str();
  }
  return "the texts differ only in line endings or a final newline";
}

class Golden : public ::testing::TestWithParam<std::tuple<std::size_t, DialectKind>> {};

TEST_P(Golden, GeneratedSourceMatchesTheReviewedFile) {
  const GoldenCase& c = cases()[std::get<0>(GetParam())];
  const DialectKind dialect = std::get<1>(GetParam());
  const KernelSpec spec = spec_of(c);
  const std::string path = path_of(c, dialect);
  SCOPED_TRACE(c.label + " (" + c.what + "), kernel " + spec.name() + ", dialect " + bfly::codegen::to_string(dialect));
  const std::string source = bfly::codegen::generate(spec, dialect);
  ASSERT_FALSE(source.empty());
  // Generation is a pure function of the spec.
  ASSERT_EQ(source, bfly::codegen::generate(spec, dialect)) << "generation is not deterministic";
  ASSERT_NE(source.find(spec.name()), std::string::npos) << "the kernel is not named after its spec";

  if (updating()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(out) << "cannot write " << path;
    out << source;
    out.close();
    ASSERT_TRUE(out) << "writing " << path << " failed";
    std::printf("[ golden   ] BFLY_UPDATE_GOLDEN=1: rewrote %s (%zu lines); review it before committing\n",
                path.c_str(), lines(source).size());
    return;
  }
  std::string golden;
  ASSERT_TRUE(read_file(path, &golden)) << "missing golden file " << path
                                        << "; create it with BFLY_UPDATE_GOLDEN=1 and review it";
  const std::string difference = first_difference(golden, source);
  EXPECT_TRUE(difference.empty()) << path << ": generated source differs from the golden file, " << difference
                                  << "\n(if the change is intended, rerun with BFLY_UPDATE_GOLDEN=1 and review"
                                     " the diff)";
}

TEST(GoldenSpecs, CasesCoverTheIntendedShapes) {
  // The golden files are only meaningful if the planner still produces the
  // shapes they were chosen for; say so plainly if it stops doing that.
  const KernelSpec s8 = spec_of(cases()[0]);
  EXPECT_EQ(s8.radices, std::vector<int>{8}) << s8.name();
  EXPECT_GT(s8.transforms_per_group, 1) << s8.name();
  EXPECT_TRUE(s8.block_rows) << s8.name();
  EXPECT_EQ(spec_of(cases()[1]).radices, std::vector<int>{16});
  EXPECT_EQ(spec_of(cases()[2]).radices, (std::vector<int>{10, 6}));
  const KernelSpec p0 = spec_of(cases()[3]);
  EXPECT_FALSE(p0.has_pass_twiddles()) << p0.name();
  EXPECT_TRUE(p0.store_via_local()) << p0.name();
  EXPECT_EQ(p0.mapping, bfly::plan::Mapping::ColumnMajor) << p0.name();
  const KernelSpec p1 = spec_of(cases()[4]);
  EXPECT_TRUE(p1.has_pass_twiddles()) << p1.name();
  EXPECT_EQ(p1.mapping, bfly::plan::Mapping::ColumnMajor) << p1.name();
  EXPECT_EQ(p1.stride_product, 256) << p1.name();
  const KernelSpec axis0 = spec_of(cases()[5]);
  EXPECT_EQ(axis0.mapping, bfly::plan::Mapping::ColumnMajor) << axis0.name();
  EXPECT_EQ(axis0.in_point_stride, 48) << axis0.name();
  EXPECT_FALSE(axis0.store_via_local()) << axis0.name();
  const KernelSpec transpose = spec_of(cases()[6]);
  EXPECT_TRUE(transpose.identity) << transpose.name();
  EXPECT_TRUE(transpose.store_columns_via_local()) << transpose.name();
  const KernelSpec half = spec_of(cases()[9]);
  EXPECT_EQ(half.load_storage, bfly::Storage::Half) << half.name();
  EXPECT_EQ(half.store_storage, bfly::Storage::Half) << half.name();
}

TEST(GoldenSpecs, DialectsDifferOnlyWhereTheDialectTableSays) {
  // Same spec, two dialects: the bodies share every butterfly line.
  const KernelSpec spec = spec_of(cases()[2]);
  const std::string cl = bfly::codegen::generate(spec, DialectKind::OpenCL);
  const std::string cu = bfly::codegen::generate(spec, DialectKind::Cuda);
  EXPECT_NE(cl, cu);
  EXPECT_NE(cl.find("__kernel"), std::string::npos);
  EXPECT_EQ(cl.find("__global__"), std::string::npos);
  EXPECT_NE(cu.find("extern \"C\" __global__"), std::string::npos);
  EXPECT_EQ(cu.find("barrier(CLK_LOCAL_MEM_FENCE)"), std::string::npos);
  EXPECT_EQ(lines(cl).size(), lines(cu).size()) << "dialects should change lines, not add them";
}

std::string case_name(const ::testing::TestParamInfo<Golden::ParamType>& info) {
  return cases()[std::get<0>(info.param)].label + "_" + bfly::codegen::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Kernels, Golden,
                         ::testing::Combine(::testing::Range<std::size_t>(0, cases().size()),
                                            ::testing::Values(DialectKind::OpenCL, DialectKind::Cuda)),
                         case_name);

}  // namespace
