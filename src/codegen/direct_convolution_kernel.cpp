#include "codegen/direct_convolution_kernel.hpp"

namespace bfly::codegen {

std::string direct_convolution_kernel_name(Precision precision) {
  return precision == Precision::Double ? "bfly_direct_conv2d_f64" : "bfly_direct_conv2d_f32";
}

std::string generate_direct_convolution(DialectKind kind, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64, q = std::to_string(kDirectOutputs);
  std::string s = d.types(precision);
  s += d.kernel_head(direct_convolution_kernel_name(precision), kDirectGroupSize) + g + "real* out, " + g +
       "const real* image, " + g + "const real* weights, " + u + " h, " + u + " w, " + u + " kh, " + u + " kw) {\n";
  s += "  const " + u + " i = (" + u + ")" + d.group_id + " * " + std::to_string(kDirectGroupSize) + " + " +
       d.local_id + ";\n";
  s += "  const " + u + " quads = (w + " + q + " - 1) / " + q + ";\n";
  s += "  if (i >= h * quads) return;\n";
  s += "  const long y = (long)(i / quads), x0 = (long)(i % quads) * " + q + ";\n";
  s += "  const long oy = (long)(kh - 1) / 2, ox = (long)(kw - 1) / 2, W = (long)w;\n";
  std::string acc, window;
  for (int c = 0; c < kDirectOutputs; ++c) {
    acc += std::string(c ? ", " : "") + "acc" + std::to_string(c) + " = 0";
    window += std::string(c ? ", " : "") + "a" + std::to_string(c);
  }
  s += "  real " + acc + ";\n";
  s += "  for (long r = 0; r < (long)kh; ++r) {\n";
  s += "    const long sy = y + oy - r;\n";
  s += "    if (sy < 0 || sy >= (long)h) continue;\n";
  s += "    " + g + "const real* row = image + sy * W;\n";
  s += "    " + g + "const real* krow = weights + r * (long)kw;\n";
  s += "    const long base = x0 + ox;  // image column of output x0 + c at kernel column 0: base + c\n";
  s += "    real " + window + ";\n";
  for (int c = 0; c < kDirectOutputs; ++c) {
    const std::string at = "base + " + std::to_string(c);
    s += "    a" + std::to_string(c) + " = " + at + " >= 0 && " + at + " < W ? row[" + at + "] : (real)0;\n";
  }
  s += "    for (long j = 0; j < (long)kw; ++j) {\n";
  s += "      const real kv = krow[j];\n";
  for (int c = 0; c < kDirectOutputs; ++c)
    s += "      acc" + std::to_string(c) + " += kv * a" + std::to_string(c) + ";\n";
  s += "      // kernel column j + 1 reads one image column further left\n";
  for (int c = kDirectOutputs - 1; c > 0; --c)
    s += "      a" + std::to_string(c) + " = a" + std::to_string(c - 1) + ";\n";
  s += "      const long next = base - j - 1;\n";
  s += "      a0 = next >= 0 && next < W ? row[next] : (real)0;\n";
  s += "    }\n";
  s += "  }\n";
  for (int c = 0; c < kDirectOutputs; ++c)
    s += "  if (x0 + " + std::to_string(c) + " < W) out[y * W + x0 + " + std::to_string(c) + "] = acc" +
         std::to_string(c) + ";\n";
  s += "}\n";
  return s;
}

}  // namespace bfly::codegen
