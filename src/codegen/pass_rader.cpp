// PassWriter: Rader's gather, scatter and kernel store.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// Rader past one kernel, its first pass (KernelSpec::rader_gather): a[j] =
// x[g^j], the row's point g^j.
void PassWriter::emit_gather_point(const std::string& v, const std::string& n) {
  e_.open("");
  emit_axis_index(n);
  e_.line(v + " = in[axis_off + (" + idx() + ")tables[j].x * " + str(s_.in_point_stride / s_.axis_stride) + "];");
  e_.line(v + ".y *= in_sign;");
  e_.close();
}

// Rader past one kernel (KernelSpec::rader_kernel_store, rader_scatter):
// output e = k + k' * P of the (p - 1)-point FFT. The forward FFT's last
// pass stores conj(A[e] K[e]); for e = 0 it also adds x[0] (from the
// original input, conjugated as the first pass conjugated) to the DC term,
// so the inverse FFT adds it to every output, and writes X[0] = A[0] +
// x[0] to the output row (at the dims' caller strides). The inverse FFT's
// last pass writes conj(y[e]) to X[g^-e].
void PassWriter::emit_rader_pass_store(int r) {
  const std::int64_t R = s_.length, P = s_.stride_product, L = s_.rader_prime - 1;
  const std::int64_t A = s_.out_point_stride / P;  // the axis's stride in the output
  const std::string k = s_.twiddle_dim >= 0 ? "k + " : "";
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "(" + idx() + ")(b + " + str(t * (R / r)) + ")";
      const std::string v = x(j * r + t);
      e_.open("");
      e_.line("const " + idx() + " e = " + k + point + " * " + str(P) + ";");
      if (s_.rader_kernel_store) {
        if (j == 0 && t == 0) {  // the only slot that holds point 0
          e_.open("if (e == 0)");
          e_.line("cpx x_zero = rader_in[rader_in_off];");
          e_.line("x_zero.y *= rader_sign;");
          e_.line("const cpx dc = cadd(" + v + ", x_zero);");
          e_.line("rader_out[rader_out_off] = cmake(dc.x * rader_re, dc.y * rader_im);");
          e_.line(v + " = cadd(cmul(" + v + ", tables[" + str(L) + "]), x_zero);");
          e_.close();
          e_.open("else");
          e_.line(v + " = cmul(" + v + ", tables[" + str(L) + " + e]);");
          e_.close();
        } else {
          e_.line(v + " = cmul(" + v + ", tables[" + str(L) + " + e]);");
        }
        e_.line("dst[" + point + " * " + str(s_.out_point_stride) +
                "] = " + scaled("cmake(" + v + ".x, -" + v + ".y)") + ";");
      } else {
        e_.line("const " + idx() + " at = (" + idx() + ")tables[e].y;");
        e_.line("out[out_off" + std::string(P > 1 ? " - k * " + str(A) : "") + " + at * " + str(A) +
                "] = " + scaled("cmake(" + v + ".x, -" + v + ".y)") + ";");
      }
      e_.close();
    }
  });
}

// Rader's x[0], read where the DC term needs it (no thread of the group
// has written its row yet: the stores come after the second FFT), so no
// register holds it through the first FFT.
void PassWriter::emit_rader_zero() {
  e_.line("cpx x_zero = cmake(0, 0);");
  e_.open("if (valid)");
  e_.line("const " + idx() + " j = 0;  (void)j;");
  emit_read("x_zero", "j");
  e_.line("x_zero.y *= in_sign;");
  e_.close();
}

// Rader's loads: x[1..p-1] into local memory as they lie
// (consecutive threads, consecutive points), where the first FFT's first
// stage gathers them in the generator's order.
void PassWriter::emit_rader_load() {
  const std::int64_t L = s_.length;
  const int T = s_.threads_per_transform;
  for (std::int64_t q = 0; q * T < L; ++q) {
    e_.open("");
    e_.line("const " + u32() + " i = t + " + str(q * T) + ";");
    e_.open("if (valid" + std::string((q + 1) * T > L ? " && i < " + str(L) : "") + ")");
    e_.line("const " + idx() + " j = (" + idx() + ")i + 1;");
    e_.line("cpx v;");
    emit_read("v", "j");
    e_.line("v.y *= in_sign;");
    e_.line(local("m", "i") + " = v;");
    e_.close();
    e_.close();
  }
  e_.line(d_.barrier);
}

// Rader's stores: the conjugate of the second FFT's output q is x[0] +
// c[q] = X[g^-q]: into local point g^-q - 1, then out in natural order
// (X[0] went out with the DC term).
void PassWriter::emit_rader_store(int r) {
  const std::int64_t L = s_.length, p = s_.rader_prime, S = s_.out_point_stride;
  const int T = s_.threads_per_transform;
  for_each_butterfly(L / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string v = x(j * r + t);
      e_.open("");
      e_.line("const " + u32() + " at = (" + u32() + ")tables[b + " + str(t * (L / r)) + "].y - 1;");
      e_.line(local("m", "at") + " = cmake(" + v + ".x, -" + v + ".y);");
      e_.close();
    }
  });
  e_.line(d_.barrier);
  for (std::int64_t q = 0; q * T < L; ++q) {
    e_.open("");
    e_.line("const " + u32() + " i = t + " + str(q * T) + ";");
    std::string guard = "valid";
    if ((q + 1) * T > L) guard += " && i < " + str(L);
    // R2C: the half spectrum, X[j] for j <= p/2.
    if (s_.real_store == RealStore::Half) guard += " && i < " + str(p / 2);
    e_.open("if (" + guard + ")");
    const std::string at = "dst[(" + idx() + ")(i + 1) * " + str(S) + "]";
    if (s_.real_store == RealStore::Real)
      e_.line(at + " = " + local("m", "i") + ".x * out_re;");
    else
      e_.line(at + " = " + scaled(local("m", "i")) + ";");
    e_.close();
    e_.close();
  }
}

}  // namespace bfly::codegen
