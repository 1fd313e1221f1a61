#include "codegen/copy_kernel.hpp"

namespace bfly::codegen {

std::string generate_copy(DialectKind kind) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global;
  // 16-byte elements: the widest plain load both dialects have.
  std::string source =
      kind == DialectKind::OpenCL ? "typedef float4 wide;\n" : "struct alignas(16) wide { float x, y, z, w; };\n";
  source += d.kernel_head("bfly_copy", kCopyGroupSize) + g + "const wide* in, " + g + "wide* out, " + d.u64 +
            " count) {\n  const " + d.u64 + " i = (" + d.u64 + ")" + d.group_id + " * " +
            std::to_string(kCopyGroupSize) + " + " + d.local_id + ";\n  if (i < count) out[i] = in[i];\n}\n";
  return source;
}

}  // namespace bfly::codegen
