// One CUDA source compiled by NVRTC several times in one process, each
// time's milliseconds and a hash of the cubin (the same hash: the same
// code). No GPU needed. Shows what NVRTC options cost and change, and, run
// in new processes, whether NVRTC's own cache answered (with a CUDA driver
// installed NVRTC 13 keeps compiles in the CUDA compute cache:
// CUDA_CACHE_PATH, CUDA_CACHE_DISABLE=1; docs/PERF.md "NVRTC's time").
//
//   build/apps/bfly/bfly gen --limits hopper --dialect cuda --shape 3000x3000 > /tmp/k.cu
//   g++ -O2 -std=c++17 bench/experiments/nvrtc_repeat.cpp -I/usr/local/cuda/include -L/usr/local/cuda/lib64 \
//     -lnvrtc -o /tmp/nvrtc_repeat
//   /tmp/nvrtc_repeat /tmp/k.cu 3 --Ofast-compile=min        # options after the count
//   /tmp/nvrtc_repeat /tmp/k.cu 1 -fdevice-time-trace=/tmp/trace.json   # phases, as Chrome trace JSON
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SOURCE.cu [TIMES [NVRTC options...]]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  const int times = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  // bfly's own options (backends/cuda/nvrtc_compiler.cpp), then the caller's.
  std::vector<const char*> options{"-arch=sm_90", "-Xptxas=-v"};
  for (int i = 3; i < argc; ++i) options.push_back(argv[i]);
  for (int round = 0; round < times; ++round) {
    const auto start = std::chrono::steady_clock::now();
    nvrtcProgram program;
    nvrtcCreateProgram(&program, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
    const nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::string cubin;
    std::size_t size = 0;
    if (result == NVRTC_SUCCESS && nvrtcGetCUBINSize(program, &size) == NVRTC_SUCCESS && size > 0) {
      cubin.resize(size);
      nvrtcGetCUBIN(program, &cubin[0]);
    }
    std::printf("%s: %.0f ms, %s, cubin %06zx\n", argv[1], ms, nvrtcGetErrorString(result),
                std::hash<std::string>{}(cubin) & 0xffffff);
    if (result != NVRTC_SUCCESS) {
      std::size_t log_size = 0;
      nvrtcGetProgramLogSize(program, &log_size);
      std::string log(log_size, '\0');
      nvrtcGetProgramLog(program, &log[0]);
      std::fputs(log.c_str(), stderr);
    }
    nvrtcDestroyProgram(&program);
  }
}
