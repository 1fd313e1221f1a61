// NVRTC compile + resource report (src/backends/cuda/nvrtc_compiler.*).
// Needs libnvrtc only (no GPU, no driver); tests that compile are skipped
// when NVRTC cannot be loaded.
#include "backends/cuda/nvrtc_compiler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bfly/bfly.hpp"

namespace {

using bfly::cuda::CompileResult;
using bfly::cuda::KernelResources;
using bfly::cuda::Nvrtc;

#define REQUIRE_NVRTC()                                                            \
  do {                                                                             \
    std::string why_;                                                              \
    if (!Nvrtc::available(&why_)) GTEST_SKIP() << "NVRTC not available: " << why_; \
  } while (0)

const KernelResources* find(const CompileResult& r, const std::string& name) {
  for (const auto& k : r.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

std::string names(const CompileResult& r) {
  std::string s;
  for (const auto& k : r.kernels) s += k.name + " ";
  return s;
}

const char* kSmall = R"(
extern "C" __global__ void scale(float* a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * b + 1.0f;
}
)";

// Many live values: 32 loads kept live across an all-pairs reduction. Fine
// with its natural register count, spills when capped at 24 registers.
const char* kHeavy = R"(
extern "C" __global__ void heavy(float* a) {
  float t[32];
#pragma unroll
  for (int i = 0; i < 32; i++) t[i] = a[i * blockDim.x + threadIdx.x];
  float s = 0.f;
#pragma unroll
  for (int j = 1; j < 32; j++)
#pragma unroll
    for (int i = 0; i < 32; i++) s = fmaf(t[i], t[(i + j) & 31], s);
#pragma unroll
  for (int i = 0; i < 32; i++) a[i * blockDim.x + threadIdx.x] = t[i] * s;
}
)";

// A per-thread array written at run-time indices must live in local memory.
const char* kLocalArray = R"(
extern "C" __global__ void local_array(float* a, int k) {
  float t[64];
  for (int i = 0; i < 64; i++) t[(i * k) & 63] = a[i * blockDim.x + threadIdx.x];
  a[threadIdx.x] = t[k & 63] + t[(k + 7) & 63];
}
)";

TEST(NvrtcCompiler, LoadsAndReportsVersion) {
  REQUIRE_NVRTC();
  Nvrtc& nv = Nvrtc::instance();
  EXPECT_GE(nv.major(), 11);
  EXPECT_EQ(nv.version(), std::to_string(nv.major()) + "." + std::to_string(nv.minor()));
  EXPECT_FALSE(nv.library_path().empty());
  std::printf("[ info     ] NVRTC %s from %s\n", nv.version().c_str(), nv.library_path().c_str());
}

TEST(NvrtcCompiler, SmallKernelUsesRegistersAndDoesNotSpill) {
  REQUIRE_NVRTC();
  const Nvrtc& nv = Nvrtc::instance();
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  auto t0 = std::chrono::steady_clock::now();
  CompileResult r = nv.compile(kSmall, "small", "sm_90");
  auto t1 = std::chrono::steady_clock::now();
  nv.compile(kSmall, "small", "sm_90");
  auto t2 = std::chrono::steady_clock::now();
  std::printf("[ info     ] NVRTC compile of a small kernel: %.1f ms (first in process), %.1f ms (next)\n", ms(t0, t1),
              ms(t1, t2));
  ASSERT_GE(r.cubin.size(), 4u);
  EXPECT_EQ(std::string(r.cubin.data(), 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(r.nvrtc_major, nv.major());
  ASSERT_EQ(r.kernels.size(), 1u) << names(r) << "\n" << r.log;
  const KernelResources& k = r.kernels[0];
  EXPECT_EQ(k.name, "scale");
  EXPECT_GT(k.registers, 0);
  EXPECT_LE(k.registers, 32);
  EXPECT_EQ(k.spill_store_bytes, 0);
  EXPECT_EQ(k.spill_load_bytes, 0);
  EXPECT_EQ(k.stack_bytes, 0);
  EXPECT_EQ(k.static_shared_bytes, 0);
  EXPECT_EQ(k.max_threads, 0);
  // The report comes from ptxas itself.
  EXPECT_NE(r.log.find("Used " + std::to_string(k.registers) + " registers"), std::string::npos) << r.log;
}

TEST(NvrtcCompiler, RegisterCapForcesSpillsAndTheyAreReported) {
  REQUIRE_NVRTC();
  const Nvrtc& nv = Nvrtc::instance();
  // Uncapped: no spills (so the spill check below is a real difference).
  CompileResult free_r = nv.compile(kHeavy, "heavy", "sm_90");
  const KernelResources* f = find(free_r, "heavy");
  ASSERT_NE(f, nullptr) << names(free_r);
  EXPECT_GT(f->registers, 32);
  EXPECT_EQ(f->spill_store_bytes, 0);
  // Capped at ptxas' minimum for sm_90 (24): spills.
  CompileResult capped = nv.compile(kHeavy, "heavy", "sm_90", {"-maxrregcount=24"});
  const KernelResources* c = find(capped, "heavy");
  ASSERT_NE(c, nullptr) << names(capped);
  EXPECT_LE(c->registers, 24);
  EXPECT_GT(c->spill_store_bytes, 0) << capped.log;
  EXPECT_GT(c->spill_load_bytes, 0) << capped.log;
  EXPECT_GT(c->stack_bytes, 0) << capped.log;
}

TEST(NvrtcCompiler, DynamicallyIndexedArrayIsReportedAsStack) {
  REQUIRE_NVRTC();
  CompileResult r = Nvrtc::instance().compile(kLocalArray, "local_array", "sm_90");
  const KernelResources* k = find(r, "local_array");
  ASSERT_NE(k, nullptr) << names(r);
  EXPECT_GE(k->stack_bytes, 64 * 4) << r.log;
  EXPECT_EQ(k->spill_store_bytes, 0);
}

TEST(NvrtcCompiler, SharedMemoryAndLaunchBounds) {
  REQUIRE_NVRTC();
  const char* src = R"(
extern "C" __global__ void __launch_bounds__(256) reverse(float* a) {
  __shared__ float s[1024];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[1023 - threadIdx.x];
}
)";
  CompileResult r = Nvrtc::instance().compile(src, "reverse", "sm_90");
  const KernelResources* k = find(r, "reverse");
  ASSERT_NE(k, nullptr) << names(r);
  EXPECT_EQ(k->static_shared_bytes, 4096) << r.log;
  EXPECT_EQ(k->max_threads, 256);
}

TEST(NvrtcCompiler, EveryKernelReportedExternCUnmangled) {
  REQUIRE_NVRTC();
  const char* src = R"(
extern "C" __global__ void fft_c2c_fwd_64(float2* x) { x[threadIdx.x].x += 1.f; }
extern "C" __global__ void fft_c2c_inv_64(float2* x) { x[threadIdx.x].y -= 1.f; }
__global__ void cxx_kernel(float* x) { x[threadIdx.x] *= 2.f; }
template <int N> __global__ void tmpl(float* x) { x[threadIdx.x] += N; }
template __global__ void tmpl<3>(float*);
__device__ __noinline__ float helper(float* p, int k) { return p[k] * p[k + 1]; }
extern "C" __global__ void uses_helper(float* p, int k) { p[0] = helper(p, k); }
)";
  CompileResult r = Nvrtc::instance().compile(src, "names", "sm_90");
  EXPECT_EQ(r.kernels.size(), 5u) << names(r);
  EXPECT_NE(find(r, "fft_c2c_fwd_64"), nullptr) << names(r);
  EXPECT_NE(find(r, "fft_c2c_inv_64"), nullptr) << names(r);
  EXPECT_NE(find(r, "uses_helper"), nullptr) << names(r);
  EXPECT_NE(find(r, "_Z10cxx_kernelPf"), nullptr) << names(r);
  EXPECT_NE(find(r, "_Z4tmplILi3EEvPf"), nullptr) << names(r);
  for (const auto& k : r.kernels) {
    EXPECT_GT(k.registers, 0) << k.name;
    EXPECT_TRUE(k.name.find("helper") == std::string::npos || k.name == "uses_helper")
        << "device function reported as a kernel: " << k.name;
  }
}

TEST(NvrtcCompiler, CubinAndPtxasReportAgree) {
  REQUIRE_NVRTC();
  const Nvrtc& nv = Nvrtc::instance();
  for (const char* src : {kSmall, kHeavy, kLocalArray}) {
    for (const char* arch : {"sm_80", "sm_90"}) {
      CompileResult r = nv.compile(src, "agree", arch);
      auto elf = bfly::cuda::parse_cubin_resources(r.cubin);
      auto log = bfly::cuda::parse_ptxas_log(r.log);
      ASSERT_EQ(elf.size(), 1u) << arch;
      ASSERT_EQ(log.size(), 1u) << arch << "\n" << r.log;
      EXPECT_EQ(elf[0].name, log[0].name);
      EXPECT_EQ(elf[0].registers, log[0].registers) << arch << " " << log[0].name;
      EXPECT_EQ(elf[0].stack_bytes, log[0].stack_bytes) << arch << " " << log[0].name;
    }
  }
}

TEST(NvrtcCompiler, SyntaxErrorThrowsBuildWithLog) {
  REQUIRE_NVRTC();
  const char* src = R"(
extern "C" __global__ void broken(float* a) {
  a[threadIdx.x] = undeclared_identifier_xyz + ;
}
)";
  try {
    Nvrtc::instance().compile(src, "broken_prog", "sm_90");
    FAIL() << "expected bfly::Error";
  } catch (const bfly::Error& e) {
    EXPECT_EQ(e.code(), bfly::ErrorCode::Build);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("broken_prog: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("undeclared_identifier_xyz"), std::string::npos) << msg;
    EXPECT_NE(msg.find("error"), std::string::npos) << msg;
  }
}

TEST(NvrtcCompiler, BadArchitectures) {
  REQUIRE_NVRTC();
  const Nvrtc& nv = Nvrtc::instance();
  for (const char* arch : {"", "90", "compute_90", "sm_", "sm_90 -G", "sm_90ab", "sm_9.0"}) {
    try {
      nv.compile(kSmall, "arch", arch);
      ADD_FAILURE() << "accepted arch '" << arch << "'";
    } catch (const bfly::Error& e) {
      EXPECT_EQ(e.code(), bfly::ErrorCode::InvalidArgument) << arch;
    }
  }
  // Well formed but unknown to this NVRTC: the compiler's own message.
  try {
    nv.compile(kSmall, "arch", "sm_1");
    ADD_FAILURE() << "accepted sm_1";
  } catch (const bfly::Error& e) {
    EXPECT_EQ(e.code(), bfly::ErrorCode::Build);
    EXPECT_NE(std::string(e.what()).find("arch"), std::string::npos) << e.what();
  }
}

TEST(NvrtcCompiler, UnknownOptionIsBuildError) {
  REQUIRE_NVRTC();
  try {
    Nvrtc::instance().compile(kSmall, "opt", "sm_90", {"--no-such-option-bfly"});
    FAIL() << "expected bfly::Error";
  } catch (const bfly::Error& e) {
    EXPECT_EQ(e.code(), bfly::ErrorCode::Build);
    EXPECT_NE(std::string(e.what()).find("--no-such-option-bfly"), std::string::npos) << e.what();
  }
}

TEST(NvrtcCompiler, ConcurrentCompiles) {
  REQUIRE_NVRTC();
  const Nvrtc& nv = Nvrtc::instance();
  std::vector<std::thread> threads;
  std::vector<int> regs(4, -1);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        CompileResult r = nv.compile(t % 2 ? kSmall : kLocalArray, "thread" + std::to_string(t), "sm_90");
        regs[t] = r.kernels.size() == 1 ? r.kernels[0].registers : -2;
      } catch (...) {
        regs[t] = -3;
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_GT(regs[t], 0) << "thread " << t;
  EXPECT_EQ(regs[0], regs[2]);
  EXPECT_EQ(regs[1], regs[3]);
}

// The ELF reader must survive truncated or corrupted input.
TEST(NvrtcCompiler, CubinReaderIsRobust) {
  REQUIRE_NVRTC();
  CompileResult r = Nvrtc::instance().compile(kSmall, "robust", "sm_90");
  const std::vector<char>& good = r.cubin;
  for (size_t n = 0; n < good.size(); n += 97) {
    std::vector<char> cut(good.begin(), good.begin() + n);
    bfly::cuda::parse_cubin_resources(cut);
  }
  std::mt19937 rng(1234);
  for (int i = 0; i < 300; ++i) {
    std::vector<char> bad = good;
    for (int j = 0; j < 8; ++j) bad[rng() % bad.size()] = static_cast<char>(rng());
    bfly::cuda::parse_cubin_resources(bad);
  }
  SUCCEED();
}

// Runs only where NVRTC is missing: instance() must say so, as a Device error.
TEST(NvrtcCompiler, AbsentLibraryIsDeviceError) {
  std::string why;
  if (Nvrtc::available(&why)) GTEST_SKIP() << "NVRTC is present; nothing to check";
  EXPECT_NE(why.find("libnvrtc"), std::string::npos) << why;
  try {
    Nvrtc::instance();
    FAIL() << "expected bfly::Error";
  } catch (const bfly::Error& e) {
    EXPECT_EQ(e.code(), bfly::ErrorCode::Device);
    EXPECT_EQ(std::string(e.what()), why);
  }
}

// Needs no NVRTC: the log parser on nvcc's and NVRTC's formats.
TEST(NvrtcCompiler, ParsesPtxasLogFormats) {
  const std::string nvcc_log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z5callsPfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z5callsPfi\n"
      "    128 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers, 160 bytes cumulative stack size\n"
      "ptxas info    : Compile time = 5.078 ms\n"
      "ptxas info    : Function properties for _Z6helperPfi\n"
      "    32 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'heavy' for 'sm_90'\n"
      "ptxas info    : Function properties for heavy\n"
      "    6008 bytes stack frame, 6008 bytes spill stores, 13096 bytes spill loads\n"
      "ptxas info    : Used 24 registers, used 0 barriers, 6008 bytes cumulative stack size\n";
  const std::string nvrtc_log =
      "ptxas info    : Compiling entry function 'reverse' for 'sm_80'\n"
      "ptxas info    : Function properties for reverse\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 9 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]\n";
  auto a = bfly::cuda::parse_ptxas_log(nvcc_log);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].name, "_Z5callsPfi");
  EXPECT_EQ(a[0].registers, 32);
  EXPECT_EQ(a[0].stack_bytes, 160);
  EXPECT_EQ(a[0].spill_store_bytes, 0);  // the helper's spills are not the kernel's
  EXPECT_EQ(a[1].name, "heavy");
  EXPECT_EQ(a[1].registers, 24);
  EXPECT_EQ(a[1].spill_store_bytes, 6008);
  EXPECT_EQ(a[1].spill_load_bytes, 13096);
  EXPECT_EQ(a[1].stack_bytes, 6008);
  auto b = bfly::cuda::parse_ptxas_log(nvrtc_log);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].registers, 9);
  EXPECT_EQ(b[0].static_shared_bytes, 4096);
  EXPECT_TRUE(bfly::cuda::parse_cubin_resources({'n', 'o', 't'}).empty());
}

}  // namespace
