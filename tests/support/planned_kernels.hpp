// The kernels the planner asks for across the sizes the project names: the
// NVRTC sweep's lengths and shapes (every mode: Stockham, Rader, Bluestein,
// real, planes, clusters, staged, tuned launches, fused products), the bench
// suites' cases, under the limits of a CPU, a 48 KiB GPU and Hopper. Shared
// by the NVRTC sweep (tests/unit/test_cuda_codegen.cpp, which compiles a
// covering sample of them) and the source hashes that pin the generator
// (tests/unit/test_kernel_sources.cpp, which generates all of them).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/chain_kernel.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::test {

struct PlannedKernel {
  plan::KernelSpec spec;
  std::string origin;  // the first plan that asked for it
  // Planned from a tuning table's own entry: bfly tune timed it on the
  // device, spills and all, and it won (cuFFT's 32768 kernel spills too).
  bool measured = false;
  // The staged kernel this unstaged one replaces where that spills more than
  // the runtime allows (runtime/plan_impl.cpp); empty for others.
  std::string fallback_of;
};

// Distinct specs (by name) of every plan in the NVRTC sweep, under GPU
// limits (the CUDA dialect only targets GPUs), with the unstaged fallback of
// every staged kernel.
std::map<std::string, PlannedKernel> gpu_sweep_kernels();

// Distinct specs of the bench suites' cases (bench_runner.cpp `suite`, at its
// default 2^22 points a case), in both precisions, complex and real (the real
// suite both ways), under CPU, 48 KiB GPU and Hopper limits (clusters and L2
// chains on), that the sweep above lacks.
std::map<std::string, PlannedKernel> suite_kernels();

// The chained launches (Pass::chain_elements) Hopper's planner makes for the
// batched lengths that chain, and the bench suites' ones.
struct PlannedChain {
  plan::KernelSpec a, b;
  codegen::ChainShape shape;
  std::string origin;
};
std::vector<PlannedChain> planned_chains();

}  // namespace bfly::test
