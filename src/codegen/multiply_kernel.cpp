#include "codegen/multiply_kernel.hpp"

namespace bfly::codegen {

std::string multiply_kernel_name(Precision precision) {
  return precision == Precision::Double ? "bfly_multiply_f64" : "bfly_multiply_f32";
}

std::string generate_multiply(DialectKind kind, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  std::string s = d.types(precision);
  s += d.kernel_head(multiply_kernel_name(precision), kMultiplyGroupSize) + g + "cpx* out, " + g + "const cpx* a, " +
       g + "const cpx* k, " + u + " count, " + u + " d1, " + u + " d2, " + u + " d3, " + u + " a0, " + u + " a1, " + u +
       " a2, " + u + " a3, " + u + " k0, " + u + " k1, " + u + " k2, " + u + " k3, real scale) {\n";
  s += "  const " + u + " i = (" + u + ")" + d.group_id + " * " + std::to_string(kMultiplyGroupSize) + " + " +
       d.local_id + ";\n";
  s += "  if (i >= count) return;\n";
  s += "  const " + u + " i3 = i % d3, r3 = i / d3, i2 = r3 % d2, r2 = r3 / d2, i1 = r2 % d1, i0 = r2 / d1;\n";
  s += "  const cpx x = a[i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3];\n";
  s += "  const cpx y = k[i0 * k0 + i1 * k1 + i2 * k2 + i3 * k3];\n";
  s += "  cpx z;\n";
  s += "  z.x = (x.x * y.x - x.y * y.y) * scale;\n";
  s += "  z.y = (x.x * y.y + x.y * y.x) * scale;\n";
  s += "  out[i] = z;\n}\n";
  return s;
}

}  // namespace bfly::codegen
