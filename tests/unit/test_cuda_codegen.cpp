// Every CUDA kernel the planner asks for compiles with NVRTC for sm_90 into
// a kernel that keeps its points in registers: no spills, no local-memory
// stack, launch bounds equal to the group size, static shared memory within
// the 48 KiB CUDA allows without opt-in. Needs libnvrtc only (no GPU); skipped
// when NVRTC cannot be loaded. The one exception: a kernel a shipped tuning
// table names for its own length was timed on the device and won with its
// spills; it is listed, not failed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/nvrtc_compiler.hpp"
#include "bfly/bfly.hpp"
#include "codegen/chain_kernel.hpp"
#include "codegen/box_copy_kernel.hpp"
#include "codegen/multiply_kernel.hpp"
#include "codegen/dialect.hpp"
#include "codegen/direct_convolution_kernel.hpp"
#include "codegen/pass_kernel.hpp"
#include "plan/device_limits.hpp"
#include "plan/launch_alternatives.hpp"
#include "plan/plan.hpp"
#include "runtime/tuning_files.hpp"
#include "problem/text.hpp"
#include "size_lists.hpp"
#include "support/planned_kernels.hpp"
#include "support/tier.hpp"

namespace {

using bfly::cuda::KernelResources;
using bfly::cuda::Nvrtc;
using bfly::plan::KernelSpec;

const char* const kArch = "sm_90";
// CUDA's limit on statically declared shared memory; more needs the dynamic
// opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize).
const int kStaticSharedLimit = 48 * 1024;
const int kMaxRegisters = 255;
const int kMaxBlockThreads = 1024;

// One-pass rows past the single-pass length (DeviceLimits::max_row_length)
// hold 40-60 points a thread; a little spilling is what they cost, and they
// still beat two passes (bfly tune on an H100: 19440 spilling 56 bytes a
// thread 1.57x, 21600 spilling 160 1.36x). Within this many bytes a thread
// they are listed, not failed; the runtime's limit for staged kernels is the same.
const int kLongRowSpillLimit = 128;
// One-kernel convolutions past 4096 fp32 points (Bluestein's for paired
// real rows, Rader's to 8192: solvers/bluestein.cpp, rader.cpp) spill up to
// ~330 bytes a thread at their model launch and still beat their passes
// (H200: Rader 8190 spilling 292 bytes 1.27x, Bluestein M = 9216 with two
// real rows 1.84x), as do the turn kernels of Bluestein's three passes
// (1000003's 1024 points: 8 bytes, 1.35x the speed of four passes); within
// this many bytes they are listed, not failed.
const int kConvolveSpillLimit = 384;
// Planes (solvers/plane.cpp) within this many bytes a thread are listed.
const int kPlaneSpillLimit = 64;
const int kFusedSpillLimit = 64;  // runtime/plan_impl.cpp PlanImpl::kFusedSpillLimit
// Long strided fp32 columns of a mixed length at 16 points a thread (issue
// 39): a few words spill where eight columns fill the registers, and still
// run faster than at 64 points without spills (H200, 2^26 points:
// 5788125 (28 bytes) 1.33x, 6718464 (40 bytes) 1.23x; docs/PERF.md).
const int kStridedSpillLimit = 64;

// Long strided columns of a length not a power of two (launch_model.cpp's
// long_strided).
bool mixed_columns(const bfly::plan::KernelSpec& spec) {
  return spec.mapping == bfly::plan::Mapping::ColumnMajor && spec.length >= 1000 &&
         (spec.length & (spec.length - 1)) != 0;
}
// bfly::PlanImpl::kStagedSpillLimit: a staged kernel spilling more runs unstaged.
const int kStagedSpillLimit = 128;

bool long_row(const KernelSpec& spec) {
  const bfly::plan::DeviceLimits hopper =
      bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), spec.precision);
  return spec.mapping == bfly::plan::Mapping::TransformMajor && spec.stride_product == 1 &&
         spec.length > hopper.max_single_pass_length && spec.length <= hopper.max_row_length;
}

using Job = bfly::test::PlannedKernel;

struct Outcome {
  bool compiled = false;
  std::string error;  // the exception's message when not compiled
  std::vector<KernelResources> kernels;
  double seconds = 0;
};

// Distinct specs (by name) of every plan in the sweep under GPU limits: the
// CUDA dialect only ever targets GPUs (CPU-limit plans may use groups of up to
// 4096 threads, which OpenCL CPU devices allow and CUDA does not).
std::vector<Job> collect_jobs(std::size_t* distinct) {
  const std::map<std::string, Job> by_name = bfly::test::gpu_sweep_kernels();
  *distinct = by_name.size();
  std::vector<Job> jobs;
  // BFLY_NVRTC_ONLY=text: only the kernels whose description contains it
  // (to look at one plan's kernels).
  const char* only = std::getenv("BFLY_NVRTC_ONLY");
  std::vector<Job> candidates;
  for (auto& entry : by_name)
    if (!only || entry.second.origin.find(only) != std::string::npos)
      if (entry.second.fallback_of.empty()) candidates.push_back(entry.second);
  // The quick tier compiles a sample (support/tier.hpp; NVRTC takes about
  // 0.5 s of CPU a kernel, 4.4 CPU minutes for the whole sweep) that meets
  // every piece a kernel's name shows (the precision, the mapping, staged,
  // padded, chirp, real, clustered, fused, the twiddle form, ...; each
  // token's letters without its value) and the tuned launches, each in some
  // kernel: the pieces, not every combination of them. A staged kernel's
  // fallback goes with it.
  auto pieces = [&](std::size_t i) {
    const Job& job = candidates[i];
    std::vector<std::string> out;
    for (const std::string& token : bfly::text::split(job.spec.name(), '_')) {
      std::size_t letters = 0;
      while (letters < token.size() && std::isalpha(static_cast<unsigned char>(token[letters]))) ++letters;
      out.push_back(token.substr(0, letters) + (token.size() > letters ? "#" : ""));
    }
    out.push_back(std::string(job.spec.name(), 0, 8) + (job.measured ? " tuned" : " model"));  // precision x origin
    return out;
  };
  for (std::size_t i : bfly::test::covering_indices("NVRTC kernels", candidates.size(), 60, pieces)) {
    const Job& job = candidates[i];
    jobs.push_back(job);
    for (const auto& entry : by_name)
      if (entry.second.fallback_of == job.spec.name()) jobs.push_back(entry.second);
  }
  // Longest kernels first so the threads finish together.
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return a.spec.points_per_thread() * a.spec.radices.size() > b.spec.points_per_thread() * b.spec.radices.size();
  });
  return jobs;
}

TEST(CudaCodegen, EveryPlannedKernelCompilesWithoutSpillsOrLocalMemory) {
  std::string why;
  if (!Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const Nvrtc& nvrtc = Nvrtc::instance();

  std::size_t distinct = 0;
  const std::vector<Job> jobs = collect_jobs(&distinct);
  ASSERT_GT(distinct, 250u);
  std::vector<Outcome> outcomes(jobs.size());
  std::atomic<std::size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      const KernelSpec& spec = jobs[i].spec;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        const std::string source = bfly::codegen::generate(spec, bfly::codegen::DialectKind::Cuda);
        const bfly::cuda::CompileResult result = nvrtc.compile(source, spec.name(), kArch);
        outcomes[i].kernels = result.kernels;
        outcomes[i].compiled = true;
      } catch (const std::exception& e) {
        outcomes[i].error = e.what();
      }
      outcomes[i].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  };
  // NVRTC is thread-safe; a few more threads than cores hides its serial parts.
  const unsigned threads = std::max(3u, std::min(8u, std::thread::hardware_concurrency() + 1));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // A model launch that spills more than plan::tolerated_spill_bytes is
  // relaunched at run time: the first of plan::relaunch_candidates that
  // spills no more than that runs (runtime/plan_impl.cpp, issue 39). As
  // there, they compile in turn until one fits; `runs` names it.
  auto hopper_for = [](const KernelSpec& spec) {
    return bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), spec.precision);
  };
  auto relaunch_fits = [&](const KernelSpec& spec, std::string* runs) {
    const bfly::plan::DeviceLimits hopper = hopper_for(spec);
    const int tolerated = static_cast<int>(bfly::plan::tolerated_spill_bytes(spec, hopper));
    for (const KernelSpec& other : bfly::plan::relaunch_candidates(spec, hopper)) {
      const std::string source = bfly::codegen::generate(other, bfly::codegen::DialectKind::Cuda);
      const bfly::cuda::CompileResult result = nvrtc.compile(source, other.name(), kArch);
      if (result.kernels.size() == 1 && result.kernels[0].spill_store_bytes <= tolerated &&
          result.kernels[0].stack_bytes <= tolerated) {
        *runs = other.name() + " (" + std::to_string(result.kernels[0].registers) + " registers)";
        return true;
      }
    }
    return false;
  };
  int relaunched = 0;
  // Each staged kernel's spill stores, for its fallback's check.
  std::map<std::string, int> staged_spill;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].spec.staged && outcomes[i].compiled && outcomes[i].kernels.size() == 1)
      staged_spill[jobs[i].spec.name()] = outcomes[i].kernels[0].spill_store_bytes;
  int max_registers = 0, failures = 0, measured_spills = 0, staged_spills = 0, long_row_spills = 0, cluster_spills = 0,
      plane_spills = 0, fused_spills = 0, convolve_spills = 0, row_occupancy_spills = 0;
  std::string max_registers_kernel, slowest_kernel;
  double slowest = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const KernelSpec& spec = jobs[i].spec;
    const Outcome& o = outcomes[i];
    const std::string name = spec.name();
    if (o.seconds > slowest) {
      slowest = o.seconds;
      slowest_kernel = name;
    }
    if (!o.compiled) {
      ADD_FAILURE() << "NVRTC failed to compile " << name << " (" << jobs[i].origin << "): " << o.error.substr(0, 4000);
      ++failures;
      continue;
    }
    if (o.kernels.size() != 1 || o.kernels[0].name != name) {
      std::string found;
      for (const KernelResources& k : o.kernels) found += " " + k.name;
      ADD_FAILURE() << "expected exactly the kernel " << name << " (" << jobs[i].origin
                    << "), found:" << (found.empty() ? " none" : found);
      ++failures;
      continue;
    }
    const KernelResources& k = o.kernels[0];
    std::vector<std::string> problems;
    auto check = [&](bool ok, const std::string& problem) {
      if (!ok) problems.push_back(problem);
    };
    std::string runs;
    const int tolerated = static_cast<int>(bfly::plan::tolerated_spill_bytes(spec, hopper_for(spec)));
    if (!jobs[i].measured && k.spill_store_bytes > 0 && k.spill_store_bytes <= tolerated &&
        k.spill_load_bytes <= tolerated && k.stack_bytes <= tolerated) {
      ++row_occupancy_spills;
      std::printf("[ row occ  ] %s (%s): %d registers, spills %d/%d bytes, within the %d the runtime keeps\n",
                  name.c_str(), jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes,
                  tolerated);
    } else if (!jobs[i].measured && (k.spill_store_bytes > 0 || k.stack_bytes > 0) && relaunch_fits(spec, &runs)) {
      ++relaunched;
      std::printf("[ relaunch ] %s (%s): %d registers, spills %d/%d bytes; runs as %s\n", name.c_str(),
                  jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes, runs.c_str());
    } else if (!jobs[i].fallback_of.empty() && staged_spill.count(jobs[i].fallback_of) &&
               staged_spill.at(jobs[i].fallback_of) <= kStagedSpillLimit) {
      // Its staged kernel runs (within the runtime's spill limit): this one
      // never does; it need only compile.
    } else if (spec.staged && (k.spill_store_bytes > 0 || k.stack_bytes > 0)) {
      ++staged_spills;
      std::printf("[ fallback ] %s (%s): %d registers, spills %d/%d bytes; runs unstaged\n", name.c_str(),
                  jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if (long_row(spec) && k.spill_store_bytes <= kLongRowSpillLimit &&
               k.spill_load_bytes <= kLongRowSpillLimit) {
      ++long_row_spills;
      std::printf("[ long row ] %s (%s): %d registers, spills %d/%d bytes, one pass past the single-pass length\n",
                  name.c_str(), jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if ((spec.convolve || spec.rader_fused()) && (spec.length > 4096 || spec.has_pass_twiddles()) &&
               k.spill_store_bytes > 0 && k.spill_store_bytes <= kConvolveSpillLimit &&
               k.spill_load_bytes <= kConvolveSpillLimit) {
      ++convolve_spills;
      std::printf("[ convolve ] %s (%s): %d registers, spills %d/%d bytes, a one-kernel convolution past 4096\n",
                  name.c_str(), jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if (mixed_columns(spec) && k.spill_store_bytes > 0 && k.spill_store_bytes <= kStridedSpillLimit &&
               k.spill_load_bytes <= kStridedSpillLimit) {
      ++convolve_spills;
      std::printf("[ columns  ] %s (%s): %d registers, spills %d/%d bytes, mixed columns at 16 points a thread\n",
                  name.c_str(), jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if (spec.clustered() && k.spill_store_bytes <= kLongRowSpillLimit &&
               k.spill_load_bytes <= kLongRowSpillLimit) {
      // A cluster's W-point DFTs at two blocks a multiprocessor (128
      // registers) spill a few bytes; measured so, they run at 58% of the
      // copy kernel where one block of 512 threads ran at 41% (H100, 65536
      // fp32, docs/PERF.md).
      if (k.spill_store_bytes > 0 || k.stack_bytes > 0) {
        ++cluster_spills;
        std::printf("[ cluster  ] %s (%s): %d registers, spills %d/%d bytes\n", name.c_str(), jobs[i].origin.c_str(),
                    k.registers, k.spill_store_bytes, k.spill_load_bytes);
      }
    } else if (spec.plane() && k.spill_store_bytes <= kPlaneSpillLimit && k.spill_load_bytes <= kPlaneSpillLimit) {
      // A plane's group at the registers it leaves a thread: 120 x 120
      // (600 threads of 30 points, 96 registers) spills 8 bytes and runs
      // at 1.28x cuFFT (H100, docs/PERF.md); fp64 17 x 19 x 23's radix-23
      // rows 40.
      if (k.spill_store_bytes > 0 || k.stack_bytes > 0) {
        ++plane_spills;
        std::printf("[ plane    ] %s (%s): %d registers, spills %d/%d bytes\n", name.c_str(), jobs[i].origin.c_str(),
                    k.registers, k.spill_store_bytes, k.spill_load_bytes);
      }
    } else if ((!spec.store_ops.empty() || !spec.load_ops.empty()) && k.spill_store_bytes <= kFusedSpillLimit &&
               k.spill_load_bytes <= kFusedSpillLimit) {
      // The product's loads in a pass at the register limit (4374-point
      // columns, 72 points a thread): a few words spill. More than
      // kFusedSpillLimit and the runtime unfuses (runtime/plan_impl.cpp).
      if (k.spill_store_bytes > 0 || k.stack_bytes > 0) {
        ++fused_spills;
        std::printf("[ fused    ] %s (%s): %d registers, spills %d/%d bytes\n", name.c_str(), jobs[i].origin.c_str(),
                    k.registers, k.spill_store_bytes, k.spill_load_bytes);
      }
    } else if (jobs[i].measured && (k.spill_store_bytes > 0 || k.stack_bytes > 0)) {
      ++measured_spills;
      std::printf("[ measured ] %s (%s): %d registers, spills %d/%d bytes, chosen by bfly tune\n", name.c_str(),
                  jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else {
      check(k.spill_store_bytes == 0, "spill stores: " + std::to_string(k.spill_store_bytes) + " bytes");
      check(k.spill_load_bytes == 0, "spill loads: " + std::to_string(k.spill_load_bytes) + " bytes");
      check(k.stack_bytes == 0, "local-memory stack: " + std::to_string(k.stack_bytes) + " bytes");
    }
    check(k.registers > 0 && k.registers <= kMaxRegisters, "registers: " + std::to_string(k.registers));
    check(k.static_shared_bytes <= kStaticSharedLimit,
          "static shared memory " + std::to_string(k.static_shared_bytes) + " bytes > 48 KiB");
    // Exchanges within the static limit are declared statically (and exactly);
    // larger ones are dynamic and show no static shared memory.
    const std::size_t local = spec.local_bytes();
    const int expected_static = local <= static_cast<std::size_t>(kStaticSharedLimit) ? static_cast<int>(local) : 0;
    // The H100 machines' NVRTC (13.0, libnvrtc.alt) counts the 1 KiB sm_90
    // reserves in every block (seen with and without static shared memory);
    // this one does not.
    // A staged kernel's mbarrier (8 bytes of the 16 local_bytes counts) is
    // static beside a dynamic array.
    const int slack = spec.staged ? 16 : 0;
    auto near = [&](int bytes) { return bytes >= expected_static - slack && bytes <= expected_static + slack; };
    const bool reserved = near(k.static_shared_bytes - 1024);
    check(near(k.static_shared_bytes) || reserved, "static shared memory " + std::to_string(k.static_shared_bytes) +
                                                       " bytes, expected " + std::to_string(expected_static) +
                                                       " for a " + std::to_string(local) + "-byte exchange");
    check(spec.group_size() <= kMaxBlockThreads,
          "group size " + std::to_string(spec.group_size()) + " exceeds CUDA's 1024 threads per block");
    check(
        k.max_threads == 0 || k.max_threads == spec.group_size(),
        "launch bounds " + std::to_string(k.max_threads) + " threads, group size " + std::to_string(spec.group_size()));
    if (std::getenv("BFLY_NVRTC_ONLY"))
      std::printf("[ kernel   ] %s (%s): %d registers, spills %d/%d\n", name.c_str(), jobs[i].origin.c_str(),
                  k.registers, static_cast<int>(k.spill_store_bytes), static_cast<int>(k.spill_load_bytes));
    if (!problems.empty()) {
      std::string all;
      for (const std::string& problem : problems) all += "\n  " + problem;
      ADD_FAILURE() << name << " (" << jobs[i].origin << ", " << k.registers << " registers):" << all;
      ++failures;
    }
    if (k.registers > max_registers) {
      max_registers = k.registers;
      max_registers_kernel = name;
    }
  }
  std::printf(
      "[ info     ] NVRTC %s, %s: %zu distinct kernels compiled in %.1f s with %u threads, %d failed, %d "
      "measured by bfly tune spill, %d relaunched (another launch fits), %d staged spill (they run unstaged), %d "
      "long rows, %d convolutions and mixed columns, %d clusters, %d planes, %d fused products and %d rows at "
      "row_occupancy's groups spill a little\n",
      nvrtc.version().c_str(), kArch, jobs.size(), elapsed, threads, failures, measured_spills, relaunched,
      staged_spills, long_row_spills, convolve_spills, cluster_spills, plane_spills, fused_spills,
      row_occupancy_spills);
  std::printf("[ info     ] max registers %d (%s); slowest compile %.2f s (%s)\n", max_registers,
              max_registers_kernel.c_str(), slowest, slowest_kernel.c_str());
}

// The chained launches Hopper's planner makes (Pass::chain_elements): two
// passes' bodies in one kernel, whose registers the generator asks for
// (codegen/chain_kernel.cpp); none may spill. Both precisions, the batched
// powers of two that chain, and 2D arrays of them.
TEST(CudaCodegen, ChainedKernelsCompileWithoutSpills) {
  std::string why;
  if (!Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const Nvrtc& nvrtc = Nvrtc::instance();
  bfly::plan::DeviceLimits limits = bfly::plan::gpu_limits(232448, 1024);
  limits.max_cluster = 8;
  limits.l2_chain_bytes = bfly::plan::kHopperL2ChainBytes;
  int chained = 0;
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (const std::vector<std::int64_t>& shape :
         std::vector<std::vector<std::int64_t>>{{65536}, {131072}, {262144}, {524288}, {65536, 4}, {8192, 8}}) {
      bfly::Problem problem;
      problem.shape = shape;
      problem.precision = precision;
      problem.batch = 64;
      const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, limits);
      for (std::size_t i = 0; i + 1 < tree.passes.size(); ++i) {
        const bfly::plan::Pass& a = tree.passes[i];
        if (a.chain_elements == 0) continue;
        const bfly::plan::Pass& b = tree.passes[i + 1];
        const bfly::codegen::ChainShape chain = bfly::codegen::chain_shape(a, b);
        const std::string name = bfly::codegen::chain_name(a.spec, b.spec, chain);
        const bfly::cuda::CompileResult result =
            nvrtc.compile(bfly::codegen::generate_chain(a.spec, b.spec, chain), name, kArch);
        ASSERT_EQ(result.kernels.size(), 1u) << name;
        const KernelResources& k = result.kernels[0];
        EXPECT_EQ(k.spill_store_bytes, 0) << problem.token() << ": " << name << " spills";
        EXPECT_EQ(k.stack_bytes, 0) << problem.token() << ": " << name;
        std::printf("[ chained  ] %s: %s, %d registers\n", problem.token().c_str(), name.c_str(), k.registers);
        ++chained;
      }
    }
  EXPECT_GE(chained, 4) << "the planner chained fewer plans than expected";
}

}  // namespace

// The convolution's spectra product (ops/convolver.cpp), both precisions,
// and its padding and cutting copies (4-, 8- and 16-byte elements).
TEST(CudaCodegen, ConvolutionKernelsCompileWithoutSpills) {
  std::string why;
  if (!Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC not available: " << why;
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double}) {
    const std::string name = bfly::codegen::multiply_kernel_name(precision);
    const bfly::cuda::CompileResult result = Nvrtc::instance().compile(
        bfly::codegen::generate_multiply(bfly::codegen::DialectKind::Cuda, precision), name, kArch);
    ASSERT_EQ(result.kernels.size(), 1u) << name;
    EXPECT_EQ(result.kernels[0].name, name);
    EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name;
    EXPECT_EQ(result.kernels[0].stack_bytes, 0) << name;
  }
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double}) {
    const std::string name = bfly::codegen::direct_convolution_kernel_name(precision);
    const bfly::cuda::CompileResult result = Nvrtc::instance().compile(
        bfly::codegen::generate_direct_convolution(bfly::codegen::DialectKind::Cuda, precision), name, kArch);
    ASSERT_EQ(result.kernels.size(), 1u) << name;
    EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name;
    EXPECT_EQ(result.kernels[0].stack_bytes, 0) << name;
  }
  for (int bytes : {4, 8, 16}) {
    const std::string name = bfly::codegen::box_copy_kernel_name(bytes);
    const bfly::cuda::CompileResult result = Nvrtc::instance().compile(
        bfly::codegen::generate_box_copy(bfly::codegen::DialectKind::Cuda, bytes), name, kArch);
    ASSERT_EQ(result.kernels.size(), 1u) << name;
    EXPECT_EQ(result.kernels[0].spill_store_bytes, 0) << name;
    EXPECT_EQ(result.kernels[0].stack_bytes, 0) << name;
  }
}
