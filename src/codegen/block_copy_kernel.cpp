#include "codegen/block_copy_kernel.hpp"

#include "bfly/bfly.hpp"

namespace bfly::codegen {

std::string block_copy_kernel_name(int bytes) { return "bfly_block_copy_" + std::to_string(bytes); }

std::string generate_block_copy(DialectKind kind, int bytes) {
  if (bytes != 4 && bytes != 8 && bytes != 16)
    throw Error(ErrorCode::InvalidArgument, "block copy: elements of " + std::to_string(bytes) + " bytes (4, 8 or 16)");
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  const bool cl = kind == DialectKind::OpenCL;
  // Opaque elements of the right size: the copy never looks inside them.
  std::string s = bytes == 4   ? "typedef unsigned int elem;\n"
                  : bytes == 8 ? std::string("typedef ") + u + " elem;\n"
                  : cl         ? "typedef uint4 elem;\n"
                               : "struct alignas(16) elem { unsigned int x, y, z, w; };\n";
  s += d.kernel_head(block_copy_kernel_name(bytes), kBlockCopyGroupSize) + g + "elem* dst, " + g + "const elem* src, " +
       u + " count, " + u + " e1, " + u + " e2, " + u + " dst_offset, " + u + " d0, " + u + " d1, " + u + " d2, " + u +
       " src_offset, " + u + " s0, " + u + " s1, " + u + " s2) {\n";
  s += "  const " + u + " i = (" + u + ")" + d.group_id + " * " + std::to_string(kBlockCopyGroupSize) + " + " +
       d.local_id + ";\n";
  s += "  if (i >= count) return;\n";
  s += "  const " + u + " i2 = i % e2, r2 = i / e2, i1 = r2 % e1, i0 = r2 / e1;\n";
  s += "  dst[dst_offset + i0 * d0 + i1 * d1 + i2 * d2] = src[src_offset + i0 * s0 + i1 * s1 + i2 * s2];\n}\n";
  return s;
}

}  // namespace bfly::codegen
