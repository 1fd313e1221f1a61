#include "codegen/chain_kernel.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "bfly/bfly.hpp"
#include "codegen/kernel_params.hpp"
#include "codegen/pass_kernel.hpp"

namespace bfly::codegen {

ChainShape chain_shape(const plan::Pass& a, const plan::Pass& b) {
  return {a.groups() / a.chain_elements, b.groups() / a.chain_elements, a.chain_groups_per_unit};
}

std::string chain_name(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of both names and the shape
  const std::string text =
      a.name() + "|" + b.name() + "|" + std::to_string(shape.groups_a) + "|" + std::to_string(shape.groups_b);
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  const char* p = a.precision == Precision::Single ? "f32" : "f64";
  return std::string("bfly_") + p + "_chain_n" + std::to_string(a.length) + "x" + std::to_string(b.length) + "_h" +
         [&] {
           char buf[17];
           std::snprintf(buf, sizeof buf, "%010llx", static_cast<unsigned long long>(h & 0xffffffffffull));
           return std::string(buf);
         }() +
         (shape.groups_per_unit > 0 ? "_o" + std::to_string(shape.groups_per_unit) : std::string());
}

int chain_group_size(const plan::KernelSpec& a, const plan::KernelSpec& b) {
  return std::max(a.group_size(), b.group_size());
}

std::string generate_chain(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape) {
  if (!a.chainable() || !b.chainable() || a.precision != b.precision)
    throw Error(ErrorCode::Unsupported, "cannot chain " + a.name() + " and " + b.name());
  const std::string name = chain_name(a, b, shape);
  const int threads = chain_group_size(a, b);
  std::string src = generate_pass_function(a, true, threads) + "\n" +
                    (a.name() == b.name() ? "" : generate_pass_function(b, false, threads) + "\n");
  // A body of fewer threads than the launch runs on its first threads.
  auto guard = [&](const plan::KernelSpec& s) {
    return s.group_size() < threads ? "if (threadIdx.x < " + std::to_string(s.group_size()) + ") " : std::string();
  };
  const std::string ga = std::to_string(shape.groups_a), gb = std::to_string(shape.groups_b);
  // Ask for the groups per multiprocessor that registers allow the passes'
  // own kernels: unasked, ptxas gave the merged kernel more registers than
  // either body (NVRTC 13, sm_90: 2^20 as 1024 x 1024, 168 against 128,
  // one group a multiprocessor instead of two; 512 x 512 72 against 48).
  // A body holds its points (2 words each, 4 in fp64) and about 32 more;
  // the cap is that rounded up to a power of two.
  const int words = a.precision == Precision::Single ? 2 : 4;
  const int need = std::max(a.points_per_thread(), b.points_per_thread()) * words + 32;
  int cap = 32;
  while (cap < need && cap < 256) cap *= 2;
  // (A pass's own ask counts its groups, of its own size.)
  const int asked = std::max(a.min_groups_per_unit * a.group_size(), b.min_groups_per_unit * b.group_size()) / threads;
  int occupancy = std::max({1, asked, 65536 / (threads * std::min(cap, 255))});
  if (shape.groups_per_unit > 0) occupancy = shape.groups_per_unit;  // an override's, to measure
  src += "// " + a.name() + " then " + b.name() + ", chained through L2 (codegen/chain_kernel.hpp)\n";
  src += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads) + ", " +
         std::to_string(occupancy) + ") " + name + "(";
  // Each pass's parameters (chainable passes take the eight every pass does).
  const Dialect cuda = dialect(DialectKind::Cuda);
  for (const auto& [spec, prefix] : {std::pair{&a, "a_"}, std::pair{&b, "b_"}})
    for (Param p : pass_params(*spec)) src += param_declaration(p, *spec, cuda, prefix) + ", ";
  src += "unsigned int* counters, unsigned long long elements, unsigned long long lookahead) {\n";
  src +=
      "  const unsigned long long PA = " + ga + ", PB = " + gb +
      ", D = lookahead, E = elements;\n"
      "  unsigned long long* ticket_counter = (unsigned long long*)counters;\n"
      "  unsigned int* done = counters + 4;\n"
      "  const unsigned long long total = E * (PA + PB);\n"
      "  __shared__ unsigned long long ticket_s;\n"
      "  for (;;) {\n"
      "    if (threadIdx.x == 0) ticket_s = atomicAdd(ticket_counter, 1ull);\n"
      "    __syncthreads();\n"
      "    unsigned long long ticket = ticket_s;\n"
      "    __syncthreads();\n"
      "    if (ticket >= total) break;\n"
      // Rounds 0..D-1 hold first-pass items only, D..E-1 both, E..E+D-1
      // second-pass items only.
      "    bool first;\n"
      "    unsigned long long element, group;\n"
      "    if (ticket < D * PA) {\n"
      "      first = true, element = ticket / PA, group = ticket % PA;\n"
      "    } else if ((ticket -= D * PA) < (E - D) * (PA + PB)) {\n"
      "      const unsigned long long round = ticket / (PA + PB), r = ticket % (PA + PB);\n"
      "      first = r < PA;\n"
      "      element = first ? round + D : round;\n"
      "      group = first ? r : r - PA;\n"
      "    } else {\n"
      "      ticket -= (E - D) * (PA + PB);\n"
      "      first = false, element = E - D + ticket / PB, group = ticket % PB;\n"
      "    }\n"
      "    if (first) {\n"
      "      " +
      guard(a) + a.name() +
      "(element * PA + group, a_in, a_out, a_twiddles, a_pass_twiddles, a_transforms, a_in_sign, a_out_re, a_out_im);\n"
      "      __threadfence();\n"
      "      __syncthreads();\n"
      "      if (threadIdx.x == 0) atomicAdd(done + element, 1u);\n"
      "    } else {\n"
      "      if (threadIdx.x == 0) {\n"
      "        unsigned int seen;\n"
      "        for (;;) {\n"
      "          asm volatile(\"ld.acquire.gpu.global.u32 %0, [%1];\" : \"=r\"(seen) : \"l\"(done + element) : "
      "\"memory\");\n"
      "          if (seen >= PA) break;\n"
      "          __nanosleep(100);\n"
      "        }\n"
      "      }\n"
      "      __syncthreads();\n"
      "      " +
      guard(b) + b.name() +
      "(element * PB + group, b_in, b_out, b_twiddles, b_pass_twiddles, b_transforms, b_in_sign, b_out_re, b_out_im);\n"
      "      __syncthreads();  // (the next item reuses shared memory)\n"
      "    }\n"
      "  }\n"
      // Every other group has left, so every item is done: reset for the
      // next launch.
      "  __shared__ bool last;\n"
      "  if (threadIdx.x == 0) last = atomicAdd(counters + 2, 1u) == gridDim.x - 1;\n"
      "  __syncthreads();\n"
      "  if (!last) return;\n"
      "  for (unsigned long long e = threadIdx.x; e < E; e += blockDim.x) done[e] = 0;\n"
      "  if (threadIdx.x == 0) *ticket_counter = 0, counters[2] = 0;\n"
      "}\n";
  return src;
}

}  // namespace bfly::codegen
