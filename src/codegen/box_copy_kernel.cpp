#include "codegen/box_copy_kernel.hpp"

#include "bfly/bfly.hpp"

namespace bfly::codegen {

std::string box_copy_kernel_name(int bytes) { return "bfly_box_copy_" + std::to_string(bytes); }

std::string opaque_element(DialectKind kind, int bytes, const std::string& what) {
  if (bytes != 4 && bytes != 8 && bytes != 16)
    throw Error(ErrorCode::InvalidArgument, what + ": elements of " + std::to_string(bytes) + " bytes (4, 8 or 16)");
  const bool cl = kind == DialectKind::OpenCL;
  return bytes == 4   ? "typedef unsigned int elem;\n"
         : bytes == 8 ? std::string("typedef ") + dialect(kind).u64 + " elem;\n"
         : cl         ? "typedef uint4 elem;\n"
                      : "struct alignas(16) elem { unsigned int x, y, z, w; };\n";
}

std::string generate_box_copy(DialectKind kind, int bytes) {
  std::string s = opaque_element(kind, bytes, "box copy");
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  const bool cl = kind == DialectKind::OpenCL;
  const std::string zero = bytes == 16 ? (cl ? "(uint4)(0)" : "elem{0, 0, 0, 0}") : "0";
  s += d.kernel_head(box_copy_kernel_name(bytes), kBoxCopyGroupSize) + g + "elem* dst, " + g + "const elem* src, " + u +
       " count, " + u + " d1, " + u + " d2, " + u + " d3, " + u + " n0, " + u + " n1, " + u + " n2, " + u + " n3, " +
       u + " o0, " + u + " o1, " + u + " o2, " + u + " o3, " + u + " s0, " + u + " s1, " + u + " s2, " + u + " s3) {\n";
  s += "  const " + u + " i = (" + u + ")" + d.group_id + " * " + std::to_string(kBoxCopyGroupSize) + " + " +
       d.local_id + ";\n";
  s += "  if (i >= count) return;\n";
  s += "  const " + u + " i3 = i % d3, r3 = i / d3, i2 = r3 % d2, r2 = r3 / d2, i1 = r2 % d1, i0 = r2 / d1;\n";
  // Unsigned wrap-around turns a negative j into a huge one: one compare a side.
  s += "  const " + u + " j0 = i0 + o0, j1 = i1 + o1, j2 = i2 + o2, j3 = i3 + o3;\n";
  s += "  dst[i] = j0 < n0 && j1 < n1 && j2 < n2 && j3 < n3 ? src[j0 * s0 + j1 * s1 + j2 * s2 + j3 * s3] : " + zero +
       ";\n}\n";
  return s;
}

}  // namespace bfly::codegen
