#include "codegen/block_copy_kernel.hpp"

#include "bfly/bfly.hpp"
#include "codegen/box_copy_kernel.hpp"

namespace bfly::codegen {

std::string block_copy_kernel_name(int bytes) { return "bfly_block_copy_" + std::to_string(bytes); }

std::string generate_block_copy(DialectKind kind, int bytes) {
  std::string s = opaque_element(kind, bytes, "block copy");
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
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
