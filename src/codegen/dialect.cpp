#include "codegen/dialect.hpp"

#include <algorithm>

namespace bfly::codegen {

const char* to_string(DialectKind d) { return d == DialectKind::OpenCL ? "opencl" : "cuda"; }

DialectKind parse_dialect(const std::string& text) {
  if (text == "opencl") return DialectKind::OpenCL;
  if (text == "cuda") return DialectKind::Cuda;
  throw Error(ErrorCode::InvalidArgument, "unknown dialect '" + text + "' (expected opencl or cuda)");
}

std::string Dialect::types(Precision precision) const {
  const bool single = precision == Precision::Single;
  if (kind == DialectKind::OpenCL)
    return single ? "typedef float real;\ntypedef float2 cpx;\n"
                  : "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef double real;\ntypedef double2 cpx;\n";
  return single ? "typedef float real;\nstruct alignas(8) cpx { real x, y; };\n"
                : "typedef double real;\nstruct alignas(16) cpx { real x, y; };\n";
}

std::string Dialect::kernel_head(const std::string& name, int group_size, int min_groups_per_unit, int cluster) const {
  const std::string g = std::to_string(group_size);
  if (kind == DialectKind::OpenCL) {
    if (cluster > 1) throw Error(ErrorCode::Unsupported, name + ": OpenCL has no thread-block clusters");
    return "__kernel __attribute__((reqd_work_group_size(" + g + ", 1, 1))) void " + name + "(";
  }
  if (device_function) {
    if (cluster > 1) throw Error(ErrorCode::Unsupported, name + ": a chained pass cannot be clustered");
    return "__device__ __forceinline__ void " + name + "(unsigned long long bfly_group, ";
  }
  if (cluster > 1)
    return "extern \"C\" __global__ void __cluster_dims__(" + std::to_string(cluster) + ", 1, 1) __launch_bounds__(" +
           g + ", " + std::to_string(std::max(1, min_groups_per_unit)) + ") " + name + "(";
  // Always name the blocks per SM: without it ptxas (CUDA 13, sm_90) squeezed
  // some mixed-radix kernels to ~40 registers and spilled.
  return "extern \"C\" __global__ void __launch_bounds__(" + g + ", " +
         std::to_string(std::max(1, min_groups_per_unit)) + ") " + name + "(";
}

std::string Dialect::local_array(const std::string& name, std::size_t elements, std::size_t element_bytes,
                                 const std::string& type, std::size_t beside) const {
  const std::string n = std::to_string(elements);
  if (kind == DialectKind::OpenCL) return "__local " + type + " " + name + "[" + n + "];";
  // (16-byte aligned: a bulk copy's destination must be.)
  if (elements * element_bytes + beside <= static_local_limit)
    return "__shared__ __align__(16) " + type + " " + name + "[" + n + "];";
  // Dynamic shared memory is one array per kernel: declare it with the
  // widest alignment and view it as `type`.
  if (type == "cpx") return "extern __shared__ cpx " + name + "[];  // " + n + " points, dynamic shared memory";
  return "extern __shared__ cpx " + name + "_raw[];  // dynamic shared memory\n" + type + "* " + name + " = (" + type +
         "*)" + name + "_raw;  // " + n + " values";
}

std::string Dialect::stage_setup(bool bulk) const {
  if (kind == DialectKind::OpenCL) return "event_t stage_event;";
  if (!bulk) return "";
  // The mbarrier the bulk copy completes on; its phase flips with each copy.
  return "__shared__ __align__(8) unsigned long long stage_barrier;\n"
         "const unsigned stage_bar = (unsigned)__cvta_generic_to_shared(&stage_barrier);\n"
         "unsigned stage_phase = 0;\n"
         "const bool stage_bulk = ((unsigned long long)in & 15) == 0;\n"
         "if (threadIdx.x == 0) {\n"
         "  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], 1;\" :: \"r\"(stage_bar) : \"memory\");\n"
         "  asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n"
         "}\n"
         "__syncthreads();";
}

std::string Dialect::stage_copy(const std::string& to, const std::string& from, std::int64_t count, int group_size,
                                Precision precision, bool bulk) const {
  if (kind == DialectKind::OpenCL)
    return "stage_event = async_work_group_copy(" + to + ", " + from + ", " + std::to_string(count) + ", 0);";
  // cp.async: each thread copies its points (adjacent threads adjacent
  // points) without waiting for them; .cg (L2 only) takes 16 bytes alone.
  const std::string bytes = precision == Precision::Single ? "8" : "16";
  const std::string op = precision == Precision::Single ? "cp.async.ca.shared.global" : "cp.async.cg.shared.global";
  const std::string threads =
      "{\n"
      "  const unsigned base = (unsigned)__cvta_generic_to_shared(" +
      to +
      ");\n"
      "  #pragma unroll 1\n"
      "  for (unsigned i = threadIdx.x; i < " +
      std::to_string(count) + "u; i += " + std::to_string(group_size) +
      "u)\n"
      "    asm volatile(\"" +
      op + " [%0], [%1], " + bytes + ";\" :: \"r\"(base + i * " + bytes + "u), \"l\"(" + from +
      " + i) : \"memory\");\n"
      "  asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
      "}";
  if (!bulk) return threads;
  // The generic-proxy reads of the stage (every thread's, ordered by the
  // barrier before this) come before the async proxy's writes: the fence.
  const std::string total = std::to_string(count * (precision == Precision::Single ? 8 : 16));
  return "if (stage_bulk) {\n"
         "  if (threadIdx.x == 0) {\n"
         "    asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n"
         "    asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: \"r\"(stage_bar), \"r\"(" +
         total +
         "u) : \"memory\");\n"
         "    asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\" "
         ":: "
         "\"r\"((unsigned)__cvta_generic_to_shared(" +
         to + ")), \"l\"(" + from + "), \"r\"(" + total +
         "u), \"r\"(stage_bar) : \"memory\");\n"
         "  }\n"
         "} else " +
         threads;
}

std::string Dialect::stage_wait(bool bulk) const {
  if (kind == DialectKind::OpenCL) return "wait_group_events(1, &stage_event);";
  const std::string threads = "asm volatile(\"cp.async.wait_all;\" ::: \"memory\");";
  if (!bulk) return threads;
  return "if (stage_bulk) {\n"
         "  unsigned done = 0;\n"
         "  while (!done)\n"
         "    asm volatile(\"{\\n .reg .pred p;\\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\n selp.u32 "
         "%0, 1, 0, p;\\n}\" "
         ": \"=r\"(done) : \"r\"(stage_bar), \"r\"(stage_phase) : \"memory\");\n"
         "  stage_phase ^= 1;\n"
         "} else {\n"
         "  " +
         threads +
         "\n"
         "}";
}

const Dialect& dialect(DialectKind kind) {
  static const Dialect opencl{DialectKind::OpenCL,
                              "__global ",
                              "inline",
                              "barrier(CLK_LOCAL_MEM_FENCE);",
                              "(uint)get_local_id(0)",
                              "get_group_id(0)",
                              "get_num_groups(0)",
                              "__local ",
                              "uint",
                              "ulong",
                              "fma",
                              std::size_t(1) << 40,
                              "return (cpx)(x, y);",
                              false,
                              "ushort",
                              "as_float",
                              "as_uint"};
  static const Dialect cuda{DialectKind::Cuda,
                            "",
                            "__device__ __forceinline__",
                            "__syncthreads();",
                            "threadIdx.x",
                            "blockIdx.x",
                            "gridDim.x",
                            "",
                            "unsigned int",
                            "unsigned long long",
                            "fmaf",
                            48 * 1024,
                            "cpx r; r.x = x; r.y = y; return r;",
                            false,
                            "unsigned short",
                            "__uint_as_float",
                            "__float_as_uint"};
  return kind == DialectKind::OpenCL ? opencl : cuda;
}

}  // namespace bfly::codegen
