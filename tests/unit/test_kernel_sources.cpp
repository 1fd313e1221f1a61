// The generator pinned: a hash of the generated source of every kernel the
// project plans (tests/support/planned_kernels.hpp: the NVRTC sweep's sizes
// and the bench suites, under CPU, 48 KiB GPU and Hopper limits; every mode),
// in both dialects, and of the chained, product, convolution and copy
// kernels, compared with tests/golden/kernel_sources.txt. A refactor of the
// planner or the generator that means to change no kernel must leave every
// line as it was; one that changes kernels says so, and refreshes the file:
//   BFLY_UPDATE_GOLDEN=1 build/tests/bfly_unit_tests --gtest_filter='KernelSources.*'
//   git diff --stat tests/golden/kernel_sources.txt
// The golden text files beside it (test_golden.cpp) show a few kernels in
// full, for a readable diff.
//
// Every kernel, not a sample: generating one takes well under a millisecond
// (no compiler runs here), and the point is that none moves.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "codegen/box_copy_kernel.hpp"
#include "codegen/chain_kernel.hpp"
#include "codegen/copy_kernel.hpp"
#include "codegen/dialect.hpp"
#include "codegen/direct_convolution_kernel.hpp"
#include "codegen/multiply_kernel.hpp"
#include "codegen/pass_kernel.hpp"
#include "codegen/storage_kernel.hpp"
#include "plan/device_policy.hpp"
#include "plan/r2r.hpp"
#include "plan/ends.hpp"
#include "support/planned_kernels.hpp"

#ifndef BFLY_GOLDEN_DIR
#error "BFLY_GOLDEN_DIR must name tests/golden (set by tests/CMakeLists.txt)"
#endif

namespace {

using bfly::codegen::DialectKind;

const char* const kGoldenFile = BFLY_GOLDEN_DIR "/kernel_sources.txt";

// FNV-1a, 64 bits: stable across compilers and platforms, unlike std::hash.
std::string fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// The source's hash, or of the generator's refusal (a spec one dialect
// cannot express, such as a cluster in OpenCL): a refusal that starts or
// stops is a change too.
template <typename Generate>
std::string hash_of(Generate generate) {
  try {
    return fnv1a(generate());
  } catch (const std::exception& e) {
    return "refused:" + fnv1a(e.what());
  }
}

// Kernel name -> "<dialect>:<hash> ..." for every kernel, in name order.
std::map<std::string, std::string> current_hashes() {
  std::map<std::string, std::string> lines;
  auto both = [&](const std::string& name, const auto& generate) {
    lines[name] = "cl:" + hash_of([&] { return generate(DialectKind::OpenCL); }) +
                  " cu:" + hash_of([&] { return generate(DialectKind::Cuda); });
  };
  std::map<std::string, bfly::test::PlannedKernel> passes = bfly::test::gpu_sweep_kernels();
  for (auto& entry : bfly::test::suite_kernels()) passes.insert(entry);
  for (const auto& [name, kernel] : passes)
    both(name, [&](DialectKind d) { return bfly::codegen::generate(kernel.spec, d); });
  // Chained launches exist in CUDA only.
  for (const bfly::test::PlannedChain& chain : bfly::test::planned_chains())
    lines[bfly::codegen::chain_name(chain.a, chain.b, chain.shape)] =
        "cu:" + hash_of([&] { return bfly::codegen::generate_chain(chain.a, chain.b, chain.shape); });
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double}) {
    both(bfly::codegen::multiply_kernel_name(precision),
         [&](DialectKind d) { return bfly::codegen::generate_multiply(d, precision); });
    both(bfly::codegen::direct_convolution_kernel_name(precision),
         [&](DialectKind d) { return bfly::codegen::generate_direct_convolution(d, precision); });
  }
  for (int bytes : {4, 8, 16})
    both(bfly::codegen::box_copy_kernel_name(bytes),
         [&](DialectKind d) { return bfly::codegen::generate_box_copy(d, bytes); });
  both("bfly_copy", [&](DialectKind d) { return bfly::codegen::generate_copy(d); });
  // Half storage (issue 42): its conversion kernels, and passes that convert
  // (one pass, two passes, a real axis, Bluestein, the DCT) under CPU and
  // Hopper limits.
  for (bfly::Storage s : {bfly::Storage::Half, bfly::Storage::BFloat16})
    for (bool to : {false, true})
      for (bool complex : {false, true})
        both(bfly::codegen::storage_kernel_name(s, to, complex),
             [&](DialectKind d) { return bfly::codegen::generate_storage_kernel(d, s, to, complex); });
  for (const bfly::plan::DeviceLimits& limits :
       {bfly::plan::cpu_limits(), bfly::plan::limits_for(bfly::plan::named_device("hopper"))})
    for (const char* token :
         {"c2c_f16_fwd_1024_b8_oop_none", "c2c_bf16_inv_65536_b2_oop_ortho", "r2c_f16_fwd_1024_b8_oop_none",
          "c2r_bf16_inv_1001_b4_oop_backward", "c2c_f16_fwd_10007_b2_oop_none", "dct2_f16_fwd_100_b2_oop_ortho"}) {
      const bfly::Problem p = bfly::Problem::parse(token);
      const bfly::plan::PlanTree tree = p.kind == bfly::Kind::R2R ? [&] {
        bfly::Problem native = p;
        native.storage = bfly::Storage::Native;
        bfly::plan::PlanTree t = *bfly::plan::fused_r2r_plan(native, limits, bfly::PlanOptions{});
        bfly::plan::fuse_storage(t, p.storage);
        return t;
      }()
                                                                  : bfly::plan::make_plan(p, limits);
      for (const bfly::plan::Pass& pass : tree.passes)
        if (pass.spec.load_storage != bfly::Storage::Native || pass.spec.store_storage != bfly::Storage::Native)
          both(pass.spec.name(), [&](DialectKind d) { return bfly::codegen::generate(pass.spec, d); });
    }
  return lines;
}

std::map<std::string, std::string> read_golden(bool* found) {
  std::map<std::string, std::string> lines;
  std::ifstream in(kGoldenFile);
  *found = static_cast<bool>(in);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    if (space != std::string::npos) lines[line.substr(0, space)] = line.substr(space + 1);
  }
  return lines;
}

void write_golden(const std::map<std::string, std::string>& lines) {
  std::ofstream out(kGoldenFile);
  out << "# The generated source's FNV-1a hash of every kernel bfly plans for the sizes the project names\n"
         "# (tests/unit/test_kernel_sources.cpp), per dialect: cl OpenCL C, cu CUDA C++.\n"
         "# Refresh after an intended change to the kernels:\n"
         "#   BFLY_UPDATE_GOLDEN=1 build/tests/bfly_unit_tests --gtest_filter='KernelSources.*'\n";
  for (const auto& [name, hashes] : lines) out << name << ' ' << hashes << '\n';
  ASSERT_TRUE(out.good()) << "cannot write " << kGoldenFile;
}

TEST(KernelSources, EveryPlannedKernelIsAsPinned) {
  const std::map<std::string, std::string> now = current_hashes();
  ASSERT_GT(now.size(), 1000u) << "the planned kernels shrank: tests/support/planned_kernels.cpp";
  if (std::getenv("BFLY_UPDATE_GOLDEN")) {
    write_golden(now);
    std::printf("[ golden   ] wrote %zu kernels' hashes to %s\n", now.size(), kGoldenFile);
    return;
  }
  bool found = false;
  const std::map<std::string, std::string> pinned = read_golden(&found);
  ASSERT_TRUE(found) << "no " << kGoldenFile << " (BFLY_UPDATE_GOLDEN=1 writes it)";
  std::vector<std::string> changed, added, removed;
  for (const auto& [name, hashes] : now) {
    const auto it = pinned.find(name);
    if (it == pinned.end())
      added.push_back(name);
    else if (it->second != hashes)
      changed.push_back(name + " (" + it->second + " -> " + hashes + ")");
  }
  for (const auto& entry : pinned)
    if (!now.count(entry.first)) removed.push_back(entry.first);
  auto some = [](const std::vector<std::string>& names) {
    std::ostringstream out;
    for (std::size_t i = 0; i < names.size() && i < 12; ++i) out << "\n  " << names[i];
    if (names.size() > 12) out << "\n  ... and " << names.size() - 12 << " more";
    return out.str();
  };
  EXPECT_TRUE(changed.empty()) << changed.size() << " kernels' source changed:" << some(changed);
  EXPECT_TRUE(added.empty()) << added.size() << " kernels are planned that were not:" << some(added);
  EXPECT_TRUE(removed.empty()) << removed.size() << " kernels are no longer planned:" << some(removed);
  if (!changed.empty() || !added.empty() || !removed.empty())
    ADD_FAILURE() << "if the change is meant, refresh: BFLY_UPDATE_GOLDEN=1 build/tests/bfly_unit_tests "
                     "--gtest_filter='KernelSources.*' (and say so in the commit)";
  std::printf("[ info     ] %zu kernels pinned\n", now.size());
}

}  // namespace
