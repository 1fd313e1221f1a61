// PassWriter: Bluestein's chirp: its stores and the convolution's turn in one kernel.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// Bluestein's first pass (KernelSpec::chirp_load): x[j] * c[j], zero past
// the N input points.
void PassWriter::emit_chirp_point(const std::string& v, const std::string& n) {
  e_.open("");
  emit_axis_index(n);
  e_.open("if (j < chirp_n)");
  emit_read(v, n);
  e_.line(v + ".y *= in_sign;");
  e_.line(v + " = cmul(" + v + ", tables[j]);");
  e_.close();
  e_.close();
}

// Bluestein's stores: output e = k + k' * P of the M-point transform
// becomes conj(y[e] * K[e]) (the kernel multiply; the conjugation makes
// the inverse FFT that follows a forward one), or, after that FFT,
// conj(y[e]) * c[e] for e < N (the chirp multiply and the truncation).
void PassWriter::emit_chirp_store(int r) {
  const std::int64_t R = s_.length;
  const bool kernel = s_.chirp_store == KernelSpec::ChirpStore::Kernel;
  const std::string k = s_.twiddle_dim >= 0 ? "k + " : "";
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "(" + idx() + ")(b + " + str(t * (R / r)) + ")";
      const std::string v = x(j * r + t);
      e_.open("");
      e_.line("const " + idx() + " e = " + k + point + " * " + str(s_.stride_product) + ";");
      if (kernel) {
        e_.line(v + " = cmul(" + v + ", tables[chirp_n + e]);");
        e_.line("dst[" + point + " * " + str(s_.out_point_stride) +
                "] = " + scaled("cmake(" + v + ".x, -" + v + ".y)") + ";");
      } else {
        // A real axis: the half spectrum e <= N/2, or the real parts.
        const bool half = s_.real_store == RealStore::Half;
        e_.open("if (e < chirp_n" + std::string(half ? " && e <= chirp_n / 2" : "") + ")");
        e_.line(v + " = cmul(cmake(" + v + ".x, -" + v + ".y), tables[e]);");
        if (s_.real_store == RealStore::Real)
          e_.line("dst[" + point + " * " + str(s_.out_point_stride) + "] = " + v + ".x * out_re;");
        else
          e_.line("dst[" + point + " * " + str(s_.out_point_stride) + "] = " + scaled(v) + ";");
        e_.close();
      }
      e_.close();
    }
  });
}

// Between the two FFTs of a one-kernel convolution: the first FFT's
// outputs times the kernel, conjugated, into local memory in natural
// order, where the second FFT's first stage reads them. Rader's DC term
// is the sum of x[1..p-1]: X[0] is it plus x[0], and x[0] added to it
// after the kernel multiply reaches every output of the inverse FFT.
void PassWriter::emit_convolve_turn(int r) {
  const std::int64_t R = s_.length;
  const std::string kernel = s_.rader() ? str(R) : "chirp_n";
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string n = "b + " + str(t * (R / r));
      const std::string v = x(j * r + t);
      const bool dc = s_.rader() && j == 0 && t == 0;  // the only slot that holds point 0
      if (dc) e_.line("const cpx sum = " + v + ";");
      e_.line(v + " = cmul(" + v + ", tables[" + kernel + " + " + n + "]);");
      if (dc) {
        e_.open("if (b == 0)");
        emit_rader_zero();
        e_.line("const cpx dc = cadd(sum, x_zero);");
        e_.open("if (valid)");
        e_.line(s_.real_store == RealStore::Real ? "dst[0] = dc.x * out_re;" : "dst[0] = " + scaled("dc") + ";");
        e_.close();
        e_.line(v + " = cadd(" + v + ", x_zero);");
        e_.close();
      }
      e_.line(local("m", n) + " = cmake(" + v + ".x, -" + v + ".y);");
    }
  });
  e_.line(d_.barrier);
}

}  // namespace bfly::codegen
