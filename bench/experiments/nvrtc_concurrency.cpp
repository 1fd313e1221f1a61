// How much two NVRTC compilations on two threads save over one after the
// other (no GPU needed): the plan's passes build at once (runtime/plan_impl.cpp).
//
//   build/apps/bfly/bfly gen --limits hopper --dialect cuda --shape 1048576 > /tmp/all.cu
//   # split at the second kernel's "// N-point pass" comment, the typedef header on both:
//   awk 'NR<920' /tmp/all.cu > /tmp/k1.cu; (awk 'NR<12' /tmp/all.cu; awk 'NR>=920' /tmp/all.cu) > /tmp/k2.cu
//   g++ -O2 -std=c++17 bench/experiments/nvrtc_concurrency.cpp -I/usr/local/cuda/include -L/usr/local/cuda/lib64
//     -lnvrtc -lpthread -o /tmp/nvrtc_concurrency && /tmp/nvrtc_concurrency /tmp/k1.cu /tmp/k2.cu
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

std::string slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Milliseconds to compile `source` for sm_90; -1 when it does not compile.
double compile(const std::string& source) {
  const auto start = Clock::now();
  nvrtcProgram program;
  nvrtcCreateProgram(&program, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
  const char* options[] = {"--gpu-architecture=sm_90", "-default-device"};
  const bool ok = nvrtcCompileProgram(program, 2, options) == NVRTC_SUCCESS;
  nvrtcDestroyProgram(&program);
  return ok ? ms_since(start) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s KERNEL1.cu KERNEL2.cu\n", argv[0]);
    return 2;
  }
  const std::string a = slurp(argv[1]), b = slurp(argv[2]);
  if (compile(a) < 0 || compile(b) < 0) {
    std::fprintf(stderr, "a kernel does not compile\n");
    return 1;
  }
  for (int round = 0; round < 3; ++round) {
    auto start = Clock::now();
    const double x = compile(a), y = compile(b);
    const double sequential = ms_since(start);
    double u = 0, v = 0;
    start = Clock::now();
    std::thread other([&] { u = compile(a); });
    v = compile(b);
    other.join();
    std::printf("one after the other %.0f ms (%.0f + %.0f), on two threads %.0f ms (%.0f, %.0f)\n", sequential, x, y,
                ms_since(start), u, v);
  }
  return 0;
}
