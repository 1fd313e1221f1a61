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

std::string Dialect::kernel_head(const std::string& name, int group_size, int min_groups_per_unit) const {
  const std::string g = std::to_string(group_size);
  if (kind == DialectKind::OpenCL)
    return "__kernel __attribute__((reqd_work_group_size(" + g + ", 1, 1))) void " + name + "(";
  // Always name the blocks per SM: without it ptxas (CUDA 13, sm_90) squeezed
  // some mixed-radix kernels to ~40 registers and spilled.
  return "extern \"C\" __global__ void __launch_bounds__(" + g + ", " + std::to_string(std::max(1, min_groups_per_unit)) +
         ") " + name + "(";
}

std::string Dialect::local_array(const std::string& name, std::size_t elements, std::size_t element_bytes,
                                 const std::string& type) const {
  const std::string n = std::to_string(elements);
  if (kind == DialectKind::OpenCL) return "__local " + type + " " + name + "[" + n + "];";
  if (elements * element_bytes <= static_local_limit) return "__shared__ " + type + " " + name + "[" + n + "];";
  // Dynamic shared memory is one array per kernel: declare it with the
  // widest alignment and view it as `type`.
  if (type == "cpx") return "extern __shared__ cpx " + name + "[];  // " + n + " points, dynamic shared memory";
  return "extern __shared__ cpx " + name + "_raw[];  // dynamic shared memory\n" + type + "* " + name + " = (" + type +
         "*)" + name + "_raw;  // " + n + " values";
}

const Dialect& dialect(DialectKind kind) {
  static const Dialect opencl{DialectKind::OpenCL,
                              "__global ",
                              "inline",
                              "barrier(CLK_LOCAL_MEM_FENCE);",
                              "(uint)get_local_id(0)",
                              "get_group_id(0)",
                              "uint",
                              "ulong",
                              "fma",
                              std::size_t(1) << 40,
                              "return (cpx)(x, y);"};
  static const Dialect cuda{DialectKind::Cuda,
                            "",
                            "__device__ __forceinline__",
                            "__syncthreads();",
                            "threadIdx.x",
                            "blockIdx.x",
                            "unsigned int",
                            "unsigned long long",
                            "fmaf",
                            48 * 1024,
                            "cpx r; r.x = x; r.y = y; return r;"};
  return kind == DialectKind::OpenCL ? opencl : cuda;
}

}  // namespace bfly::codegen
