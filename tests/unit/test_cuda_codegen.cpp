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
#include "plan/plan.hpp"
#include "runtime/tuning_files.hpp"
#include "problem/text.hpp"
#include "size_lists.hpp"
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
// Planes (solvers/plane.cpp) within this many bytes a thread are listed.
const int kPlaneSpillLimit = 64;
const int kFusedSpillLimit = 64;  // runtime/plan_impl.cpp PlanImpl::kFusedSpillLimit
// bfly::PlanImpl::kStagedSpillLimit: a staged kernel spilling more runs unstaged.
const int kStagedSpillLimit = 128;

bool long_row(const KernelSpec& spec) {
  const bfly::plan::DeviceLimits hopper = bfly::plan::for_precision(bfly::plan::gpu_limits(232448, 1024), spec.precision);
  return spec.mapping == bfly::plan::Mapping::TransformMajor && spec.stride_product == 1 &&
         spec.length > hopper.max_single_pass_length && spec.length <= hopper.max_row_length;
}

std::vector<std::int64_t> sweep_lengths() {
  std::vector<std::int64_t> out;
  for (std::int64_t a = 1; a <= 4096; a *= 2)
    for (std::int64_t b = a; b <= 4096; b *= 3)
      for (std::int64_t c = b; c <= 4096; c *= 5)
        for (std::int64_t d = c; d <= 4096; d *= 7) out.push_back(d);
  for (std::int64_t n : {8192, 16384, 65536, 1 << 20, 531441 /* 3^12 */, 390625 /* 5^8 */, 823543 /* 7^7 */, 1000,
                         3000, 248832 /* 2^10 3^5 */, 1 << 24, 11, 13, 121, 169, 143, 1331, 2197, 11 * 13 * 16,
                         11 * 256, 13 * 256, 14641, 28561, 161051, 371293})
    out.push_back(n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct Job {
  KernelSpec spec;
  std::string origin;  // the first plan that asked for it
  // Planned from a tuning table's own entry: bfly tune timed it on the
  // device, spills and all, and it won (cuFFT's 32768 kernel spills too).
  bool measured = false;
  // The staged kernel this unstaged one replaces where that spills more than
  // the runtime allows (runtime/plan_impl.cpp); empty for others.
  std::string fallback_of;
};

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
  struct Limits {
    const char* name;
    bfly::plan::DeviceLimits limits;
  };
  // 48 KiB: OpenCL on NVIDIA; 227 KiB: the CUDA backend on Hopper (opt-in
  // shared memory, dynamic above 48 KiB).
  const std::vector<Limits> all{{"gpu_limits(49152, 1024)", bfly::plan::gpu_limits(49152, 1024)},
                                {"gpu_limits(232448, 1024)", bfly::plan::gpu_limits(232448, 1024)}};
  std::map<std::string, Job> by_name;
  // Every pass of the problem's plan under `l`, described by its problem.
  auto add_plan = [&](const bfly::Problem& problem, const Limits& l) {
    const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, l.limits);
    for (std::size_t i = 0; i < tree.passes.size(); ++i) {
      const KernelSpec& spec = tree.passes[i].spec;
      by_name.emplace(spec.name(), Job{spec, problem.token() + " pass " + std::to_string(i) + (spec.plane() ? " (plane)" : "") +
                                                 " under " + l.name});
    }
  };
  for (const Limits& l : all)
    for (std::int64_t n : sweep_lengths()) {
      bfly::Problem problem;
      problem.shape = {n};
      const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, l.limits);
      for (std::size_t i = 0; i < tree.passes.size(); ++i) {
        const KernelSpec& spec = tree.passes[i].spec;
        by_name.emplace(spec.name(),
                        Job{spec, "n=" + std::to_string(n) + " pass " + std::to_string(i) + " under " + l.name});
      }
    }
  // The multi-dimensional cases of the bench, in both strategies (strided
  // axes; rows between tiled transposes), and one past 2^31 elements (64-bit offsets).
  const std::vector<std::vector<std::int64_t>> shapes{
      {120, 120},   {512, 512},    {1000, 1000},    {2048, 2048}, {3000, 3000},    {4096, 4096},
      {480, 640},   {7, 4096},     {4096, 7},       {64, 64, 64}, {100, 100, 100}, {96, 128, 80},
      {7, 5, 3},    {128, 128, 128}, {256, 256, 256}, {65536, 32768}};
  for (const Limits& l : all)
    for (const auto& shape : shapes)
      for (bfly::Strategy strategy : {bfly::Strategy::Auto, bfly::Strategy::Transpose}) {
        bfly::Problem problem;
        problem.shape = shape;
        bfly::PlanOptions options;
        options.strategy = strategy;
        const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, l.limits, options);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(spec.name(), Job{spec, problem.token() + " " + bfly::to_string(strategy) + " pass " +
                                                     std::to_string(i) + " under " + l.name});
        }
      }
  // Planes in one pass (solvers/plane.cpp): square, flat and tall planes,
  // odd and the largest codelets, in 2D and inside 3D, both precisions.
  for (const Limits& l : all)
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
               {2, 2},    {7, 5},     {16, 16},  {23, 23},   {17, 19},  {60, 60},   {64, 64},     {90, 90},
               {100, 81}, {128, 64},  {64, 128}, {128, 128}, {120, 120}, {32, 256},  {256, 32}, {2, 2048},  {2048, 2},    {8, 1024},
               {12, 120},  {120, 12}, {25, 300},  {7, 5, 3}, {32, 32, 32}, {16, 128, 64}, {64, 64, 64}}) {
        bfly::Problem problem;
        problem.shape = shape;
        problem.precision = precision;
        add_plan(problem, l);
      }
  // Double precision: the same generator, twice the registers per point.
  for (const Limits& l : all)
    for (std::int64_t n : {64, 1000, 1024, 2187, 4096, 8192, 11 * 13 * 16, 65536, 1 << 20, 1 << 22}) {
      bfly::Problem problem;
      problem.shape = {n};
      problem.precision = bfly::Precision::Double;
      add_plan(problem, l);
    }
  // Radices 17 to 31, and Bluestein: one fused kernel per padded size (1D and strided axes), and
  // the chirp passes of the multi-pass form, in both precisions.
  for (const Limits& l : all)
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (const std::vector<std::int64_t>& shape :
           std::vector<std::vector<std::int64_t>>{{17}, {19}, {23}, {17 * 19 * 8}, {23 * 23 * 4}, {31}, {61}, {127}, {257},
                                                  {509}, {1021}, {2039}, {4093}, {8191}, {65537}, {1000003}, {17, 19, 23},
                                                  {641}, {1667}, {1871}, {2003}, {2029}, {2053}, {2593}, {3889}, {4051},
                                                  {29, 31, 37},
                                                  {1009, 1013}, {4093, 64}, {23, 4096}, {4096, 17}, {7681}, {12289}, {786433}, {8, 7681},
                                                  // Radices 29 and 31 (plan/factorize.hpp wide_codelet)
                                                  {29}, {29 * 64}, {961}, {1364}, {3100}, {4092}, {29000}, {62000}, {31 * 8192},
                                                  {3100, 6}, {31, 31}, {29, 4096},
                                                  // Rader on a prime factor (solvers/rader.cpp rader_factor_steps)
                                                  {3700}, {4097}, {74000}, {37 * 8192}, {3700, 6}}) {
        bfly::Problem problem;
        problem.shape = shape;
        problem.precision = precision;
        add_plan(problem, l);
      }
  // Real transforms, both kinds and precisions: packed even axes (one pass
  // up to twice the longest single pass), odd and long axes as complex with
  // real loads and stores, Bluestein's real loads and stores, multi-dim and
  // in place.
  for (const Limits& l : all)
    for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
      for (bfly::Kind kind : {bfly::Kind::R2C, bfly::Kind::C2R})
        for (const std::vector<std::int64_t>& shape :
             std::vector<std::vector<std::int64_t>>{{2}, {16}, {1000}, {1024}, {4096}, {8192}, {16384}, {32768}, {65536},
                                                    {1 << 20}, {1 << 24}, {1001}, {4097}, {127}, {8191}, {1000003},
                                                    {1021}, {2053}, {3889}, {97, 29},
                                                    {1024, 1024}, {1000, 1000}, {513, 511}, {4096, 4096}, {64, 64, 63},
                                                    {256, 256, 256}})
          for (bfly::Placement placement : {bfly::Placement::OutOfPlace, bfly::Placement::InPlace}) {
            bfly::Problem problem;
            problem.kind = kind;
            problem.direction = kind == bfly::Kind::R2C ? bfly::Direction::Forward : bfly::Direction::Inverse;
            problem.shape = shape;
            problem.precision = precision;
            problem.placement = placement;
            add_plan(problem, l);
          }
  // Long contiguous rows (one pass up to the model's row limit), the lengths
  // the shipped tuning tables hold and the smooth sizes they leave out for
  // their neighbours, each under the model, under every shipped table, and
  // exchanged in halves (a one-entry table asks for it), in both precisions.
  std::vector<std::pair<std::string, std::shared_ptr<const bfly::plan::TuningTable>>> tables{{"model", nullptr}};
  for (const bfly::plan::TuningTable& t : bfly::detail::shipped_tuning_tables())
    tables.push_back({t.source, std::make_shared<bfly::plan::TuningTable>(t)});
  std::vector<std::int64_t> rows = bfly::cli::tune_suite();
  for (std::int64_t n : bfly::cli::smooth_suite_lengths()) rows.push_back(n);
  for (std::int64_t n : {12288, 20480, 24000, 28672}) rows.push_back(n);
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (std::int64_t n : rows) {
      bfly::Problem problem;
      problem.shape = {n};
      problem.precision = precision;
      auto halves = std::make_shared<bfly::plan::TuningTable>();
      bfly::plan::TuningEntry entry;
      entry.precision = precision;
      entry.length = n;
      entry.launch.halves = 1;
      halves->entries.push_back(entry);
      auto all_tables = tables;
      // Halves on the powers of two the model runs in one pass (bfly tune
      // keeps only launches that compile without spills; here the
      // generator's halves text must compile).
      const bool one_pass = n <= (precision == bfly::Precision::Single ? 16384 : 8192) && (n & (n - 1)) == 0;
      if (one_pass) all_tables.push_back({"halves", halves});
      for (const auto& [table_name, table] : all_tables) {
        bfly::plan::DeviceLimits limits = bfly::plan::gpu_limits(232448, 1024);
        limits.tuning = table;
        const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, limits);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(spec.name(), Job{spec, problem.token() + " pass " + std::to_string(i) + " under hopper, " + table_name,
                                           tree.passes[i].launch_from == "table"});
        }
      }
    }
  // Rows past one block in thread-block clusters (Hopper), both precisions,
  // out of place and in place.
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (std::int64_t n : {16384, 32768, 36864, 40000, 49152, 65536, 100000, 131072, 1 << 18})
      for (bfly::Placement placement : {bfly::Placement::OutOfPlace, bfly::Placement::InPlace}) {
        bfly::Problem problem;
        problem.shape = {n};
        problem.precision = precision;
        problem.placement = placement;
        bfly::plan::DeviceLimits limits = bfly::plan::gpu_limits(232448, 1024);
        limits.max_cluster = 8;
        const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, limits);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(spec.name(), Job{spec, problem.token() + " pass " + std::to_string(i) + " under hopper, clusters"});
        }
      }
  // The convolutions' forward transforms with the product fused into their
  // last pass (KernelSpec::multiply; ops/convolver.cpp): padded images, 1D
  // signals, overlap-save blocks and volumes, real and complex.
  for (bfly::Precision precision : {bfly::Precision::Single, bfly::Precision::Double})
    for (bfly::Kind kind : {bfly::Kind::R2C, bfly::Kind::C2C})
      for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
               {4374, 4374}, {4116, 4116}, {1050, 1050}, {270, 270}, {1032}, {131250}, {64, 1024}, {70, 70, 70}}) {
        bfly::Problem problem;
        problem.kind = kind;
        problem.shape = shape;
        problem.precision = precision;
        if (shape == std::vector<std::int64_t>{64, 1024}) problem.axes = {1};  // blocks
        const std::int64_t period = shape.size() == 2 && shape[0] == 64 ? 513 : 0;
        const bfly::plan::PlanTree tree = bfly::plan::make_plan(problem, bfly::plan::gpu_limits(232448, 1024));
        KernelSpec spec = tree.passes.back().spec;
        if (spec.can_fuse_multiply()) {
          spec.multiply = true;
          spec.multiply_period = period;
          by_name.emplace(spec.name(), Job{spec, problem.token() + " last pass with the product fused, under hopper"});
        }
        // The inverse's first pass, reading the product.
        problem.kind = kind == bfly::Kind::R2C ? bfly::Kind::C2R : bfly::Kind::C2C;
        problem.direction = bfly::Direction::Inverse;
        const bfly::plan::PlanTree inverse = bfly::plan::make_plan(problem, bfly::plan::gpu_limits(232448, 1024));
        spec = inverse.passes.front().spec;
        if (spec.can_fuse_multiply_load()) {
          spec.multiply_load = true;
          spec.multiply_period = period;
          by_name.emplace(spec.name(), Job{spec, problem.token() + " first pass with the product fused, under hopper"});
        }
      }
  // A staged kernel that spills falls back to the unstaged one at run time
  // (runtime/plan_impl.cpp): that one must compile clean.
  std::vector<Job> fallbacks;
  for (const auto& entry : by_name)
    if (entry.second.spec.staged) {
      Job unstaged = entry.second;
      unstaged.spec.staged = 0;
      unstaged.origin += ", unstaged (the fallback)";
      unstaged.fallback_of = entry.second.spec.name();
      fallbacks.push_back(unstaged);
    }
  for (const Job& job : fallbacks) by_name.emplace(job.spec.name(), job);
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

  // Each staged kernel's spill stores, for its fallback's check.
  std::map<std::string, int> staged_spill;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].spec.staged && outcomes[i].compiled && outcomes[i].kernels.size() == 1)
      staged_spill[jobs[i].spec.name()] = outcomes[i].kernels[0].spill_store_bytes;
  int max_registers = 0, failures = 0, measured_spills = 0, staged_spills = 0, long_row_spills = 0, cluster_spills = 0,
      plane_spills = 0, fused_spills = 0;
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
      ADD_FAILURE() << "expected exactly the kernel " << name << " (" << jobs[i].origin << "), found:" << (found.empty() ? " none" : found);
      ++failures;
      continue;
    }
    const KernelResources& k = o.kernels[0];
    std::vector<std::string> problems;
    auto check = [&](bool ok, const std::string& problem) {
      if (!ok) problems.push_back(problem);
    };
    if (!jobs[i].fallback_of.empty() && staged_spill.count(jobs[i].fallback_of) &&
        staged_spill.at(jobs[i].fallback_of) <= kStagedSpillLimit) {
      // Its staged kernel runs (within the runtime's spill limit): this one
      // never does; it need only compile.
    } else if (spec.staged && (k.spill_store_bytes > 0 || k.stack_bytes > 0)) {
      ++staged_spills;
      std::printf("[ fallback ] %s (%s): %d registers, spills %d/%d bytes; runs unstaged\n", name.c_str(),
                  jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if (long_row(spec) && k.spill_store_bytes <= kLongRowSpillLimit && k.spill_load_bytes <= kLongRowSpillLimit) {
      ++long_row_spills;
      std::printf("[ long row ] %s (%s): %d registers, spills %d/%d bytes, one pass past the single-pass length\n",
                  name.c_str(), jobs[i].origin.c_str(), k.registers, k.spill_store_bytes, k.spill_load_bytes);
    } else if (spec.clustered() && k.spill_store_bytes <= kLongRowSpillLimit && k.spill_load_bytes <= kLongRowSpillLimit) {
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
    } else if ((spec.multiply || spec.multiply_load) && k.spill_store_bytes <= kFusedSpillLimit &&
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
    check(near(k.static_shared_bytes) || reserved,
          "static shared memory " + std::to_string(k.static_shared_bytes) + " bytes, expected " +
              std::to_string(expected_static) + " for a " + std::to_string(local) + "-byte exchange");
    check(spec.group_size() <= kMaxBlockThreads,
          "group size " + std::to_string(spec.group_size()) + " exceeds CUDA's 1024 threads per block");
    check(k.max_threads == 0 || k.max_threads == spec.group_size(),
          "launch bounds " + std::to_string(k.max_threads) + " threads, group size " +
              std::to_string(spec.group_size()));
    if (std::getenv("BFLY_NVRTC_ONLY"))
      std::printf("[ kernel   ] %s (%s): %d registers, spills %d/%d\n", name.c_str(), jobs[i].origin.c_str(), k.registers,
                  static_cast<int>(k.spill_store_bytes), static_cast<int>(k.spill_load_bytes));
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
  std::printf("[ info     ] NVRTC %s, %s: %zu distinct kernels compiled in %.1f s with %u threads, %d failed, %d "
              "measured by bfly tune spill, %d staged spill (they run unstaged), %d long rows, %d clusters, %d planes and %d fused "
              "products spill a little\n",
              nvrtc.version().c_str(), kArch, jobs.size(), elapsed, threads, failures, measured_spills, staged_spills,
              long_row_spills, cluster_spills, plane_spills, fused_spills);
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
        const bfly::codegen::ChainShape chain{a.groups() / a.chain_elements, b.groups() / a.chain_elements};
        const std::string name = bfly::codegen::chain_name(a.spec, b.spec, chain);
        const bfly::cuda::CompileResult result = nvrtc.compile(bfly::codegen::generate_chain(a.spec, b.spec, chain), name, kArch);
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
