// PassWriter: real transforms' loads and stores (packed halves, mirrored reads, real rows).
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// The packed inverse's loads: Z[j] = E' + i O' from X[j] and X[n/2 - j]
// (real_axis.cpp; j the point's index along the axis), conjugated for the
// forward FFT that follows. Memory holds conj X where an earlier pass of
// this inverse wrote it (in_sign 1), X itself on the first pass (in_sign
// -1). As numpy's irfft, the imaginary parts of X[0] and X[n/2] are ignored.
// C2R's first pass (KernelSpec::RealLoad::Hermitian): emit_read extends
// the half spectrum by its mirror, which needs j.
void PassWriter::emit_hermitian_point(const std::string& v, const std::string& n) {
  e_.open("");
  emit_axis_index(n);
  emit_read(v, n);
  e_.line(v + ".y *= in_sign;");
  e_.close();
}

void PassWriter::emit_mirror_read(const std::string& v, const std::string& n) {
  const std::int64_t S = s_.in_point_stride, H = s_.real_length / 2;
  e_.open("");
  e_.line("const " + idx() + " kk = " + std::string(s_.axis_dim >= 0 ? "ci + " : "") + "(" + idx() + ")" + n + " * " +
          str(s_.axis_stride) + ";");
  e_.line("cpx a = src[(" + idx() + ")" + n + " * " + str(S) + "], c = in[axis_off + (" + str(H) + " - kk) * " +
          str(S / s_.axis_stride) + "];");
  e_.line("a.y *= -in_sign; c.y *= -in_sign;");
  e_.open("if (kk == 0)");
  e_.line("a.y = 0; c.y = 0;");
  e_.close();
  e_.line("const cpx w = " + real_twiddle("kk") + ";");
  e_.line("const cpx even = cmake(a.x + c.x, a.y - c.y);");
  e_.line("const cpx odd = cmul(cmake(a.x - c.x, a.y + c.y), cmake(w.x, -w.y));");
  e_.line(v + " = cmake(even.x - odd.y, -(even.y + odd.x));");
  e_.close();
}

// w_n^e for the split: one lookup, or two and a product.
std::string PassWriter::real_twiddle(const std::string& e) const {
  if (s_.real_twiddle_bits == 0) return "tables[" + e + "]";
  const std::int64_t fine = std::int64_t{1} << s_.real_twiddle_bits;
  return "cmul(tables[(" + e + ") & " + str(fine - 1) + "], tables[" + str(fine) + " + ((" + e + ") >> " +
         std::to_string(s_.real_twiddle_bits) + ")])";
}

// A real axis's last stores: the half spectrum (output e = k + k' * P of
// the n-point transform, e <= n/2), the real parts, or (packed inverse)
// z[j] as the two reals x[2j], x[2j+1].
void PassWriter::emit_real_store(int r) {
  const std::int64_t R = s_.length, S = s_.out_point_stride;
  const std::string k = s_.twiddle_dim >= 0 ? "k + " : "";
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "(" + idx() + ")(b + " + str(t * (R / r)) + ")";
      const std::string v = x(j * r + t), at = point + " * " + str(S);
      switch (s_.real_store) {
        case RealStore::Half:
          e_.line("if (" + k + point + " * " + str(s_.stride_product) + " <= " + str(s_.real_length / 2) + ") dst[" +
                  at + "] = " + product(scaled(v), "out_off + " + at) + ";");
          break;
        case RealStore::Real:
          e_.line("dst[" + at + "] = " + v + ".x * out_re;");
          break;
        default:  // Pairs
          if (s_.real_pairs_aligned) {
            e_.line("((" + std::string(d_.global) + "cpx*)dst)[" + point + "] = " + scaled(v) + ";");
          } else {
            e_.line("dst[" + at + "] = " + v + ".x * out_re;");
            e_.line("dst[" + at + " + " + str(S / 2) + "] = " + v + ".y * out_im;");
          }
      }
    }
  });
}

// The packed forward's split (real_axis.cpp): Z into local memory in
// natural order, then X[k] = E[k] + w_n^k O[k] for k = 0..n/2, each from
// Z[k] and Z[n/2 - k].
void PassWriter::emit_split_store(int r) {
  const std::int64_t R = s_.length;
  const int T = s_.threads_per_transform;
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e_.line(local("m", "b + " + str(t * (R / r))) + " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
  const int M = s_.transforms_per_group;
  if (s_.dims.size() == 1 && s_.out_point_stride == 1 && s_.dims[0].out_stride == R + 1 && M > 1) {
    // The group's rows of n/2 + 1 outputs lie end to end: write them as one
    // block, consecutive threads consecutive points (a row per T threads
    // wrote 8-point pieces across row boundaries that are not aligned).
    const std::int64_t row = R + 1, block = row * M, G = s_.group_size();
    e_.line("const " + u64() + " g0 = (" + u64() + ")" + d_.group_id + " * " + str(M) + ";");
    e_.line(d_.global + out_type() + "* block = out + g0 * " + str(row) + ";");
    for (std::int64_t q = 0; q * G < block; ++q) {
      e_.open("");
      e_.line("const " + u32() + " i = lid + " + str(q * G) + ", m2 = i / " + str(row) + ", kk = i % " + str(row) +
              ";");
      e_.open("if (" + std::string((q + 1) * G > block ? "i < " + str(block) + " && " : "") + "g0 + m2 < transforms)");
      e_.line("const cpx a = " + local("m2", "(kk == " + str(R) + " ? 0 : kk)") + ";");
      e_.line("const cpx c = " + local("m2", "(kk == 0 ? 0 : " + str(R) + " - kk)") + ";");
      e_.line("const cpx even = cmake(" + half("a.x + c.x") + ", " + half("a.y - c.y") + ");");
      e_.line("const cpx odd = cmake(" + half("a.y + c.y") + ", " + half("c.x - a.x") + ");");
      e_.line("block[i] = " + product(scaled("cadd(even, cmul(tables[kk], odd))"), "g0 * " + str(row) + " + i") + ";");
      e_.close();
      e_.close();
    }
    return;
  }
  for (std::int64_t q = 0; q * T <= R; ++q) {
    e_.open("");
    e_.line("const " + u32() + " kk = t + " + str(q * T) + ";");
    e_.open("if (valid && kk <= " + str(R) + ")");
    e_.line("const cpx a = " + local("m", "(kk == " + str(R) + " ? 0 : kk)") + ";");
    e_.line("const cpx c = " + local("m", "(kk == 0 ? 0 : " + str(R) + " - kk)") + ";");
    e_.line("const cpx even = cmake(" + half("a.x + c.x") + ", " + half("a.y - c.y") + ");");
    e_.line("const cpx odd = cmake(" + half("a.y + c.y") + ", " + half("c.x - a.x") + ");");
    e_.line("const cpx y = cadd(even, cmul(tables[kk], odd));");
    const std::string at = "(" + idx() + ")kk * " + str(s_.out_point_stride);
    e_.line("dst[" + at + "] = " + product(scaled("y"), "out_off + " + at) + ";");
    e_.close();
    e_.close();
  }
}

// The forward split in the last of several passes: this transform's
// outputs e = k + k' * P (k = kq) into local memory, then X[e] from Z[e]
// and Z[n/2 - e], which sub-transform P - k holds at k'' = L - 1 - k' (the
// group's transform m -+ M/2; itself where k = P/2), or, for k = 0, this
// one at (L - k') mod L. The k = 0 transform also writes X[n/2].
void PassWriter::emit_split_paired_store(int r) {
  const std::int64_t L = s_.length, P = s_.stride_product;
  const int T = s_.threads_per_transform, M = s_.transforms_per_group;
  for_each_butterfly(L / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e_.line(local("m", "b + " + str(t * (L / r))) + " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
  e_.line("const " + u32() + " pm = kq == 0 || 2 * kq == " + str(P) + " ? m : partner ? m - " + str(M / 2) + " : m + " +
          str(M / 2) + ";");
  for (std::int64_t q = 0; q * T < L; ++q) {
    e_.open("");
    e_.line("const " + u32() + " kp = t + " + str(q * T) + ";");
    e_.open("if (valid" + std::string((q + 1) * T > L ? " && kp < " + str(L) : "") + ")");
    e_.line("const " + u32() + " pos = kq == 0 ? (" + str(L) + " - kp) % " + str(L) + " : " + str(L - 1) + " - kp;");
    e_.line("const cpx a = " + local("m", "kp") + ";");
    e_.line("const cpx c = " + local("pm", "pos") + ";");
    e_.line("const cpx even = cmake(" + half("a.x + c.x") + ", " + half("a.y - c.y") + ");");
    e_.line("const cpx odd = cmake(" + half("a.y + c.y") + ", " + half("c.x - a.x") + ");");
    e_.line("const " + idx() + " e = (" + idx() + ")kq + (" + idx() + ")kp * " + str(P) + ";");
    const std::string at = "(" + idx() + ")kp * " + str(s_.out_point_stride);
    const std::string last = "(" + idx() + ")" + str(L) + " * " + str(s_.out_point_stride);
    e_.line("dst[" + at +
            "] = " + product(scaled("cadd(even, cmul(" + real_twiddle("e") + ", odd))"), "out_off + " + at) + ";");
    e_.open("if (kq == 0 && kp == 0)");
    e_.line("dst[" + last + "] = " + product(scaled("cmake(even.x - odd.x, even.y - odd.y)"), "out_off + " + last) +
            ";");
    e_.close();
    e_.close();
    e_.close();
  }
}

}  // namespace bfly::codegen
