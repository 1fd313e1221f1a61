// PassWriter: Rader in one kernel (its loads, its x[0] and its stores). Rader
// past one kernel is a piece: pieces/rader_pass.cpp.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// Rader's x[0], read where the DC term needs it (no thread of the group
// has written its row yet: the stores come after the second FFT), so no
// register holds it through the first FFT.
void PassWriter::emit_rader_zero() {
  e_.line("cpx x_zero = cmake(0, 0);");
  e_.open("if (valid)");
  emit_rader_index("0");
  emit_read("x_zero", "jp");
  e_.line("x_zero.y *= in_sign;");
  e_.close();
}

// jp, the point of the p-point transform a Rader load reads, and j, its
// index along the axis: jp itself, or (a C2R's first pass on a prime
// factor, whose half spectrum is extended by X[n - j]) the sub-transform's
// point ci + jp * m.
void PassWriter::emit_rader_index(const std::string& point) {
  e_.line("const " + idx() + " jp = " + point + ";");
  if (s_.real_load == RealLoad::Hermitian && s_.axis_dim >= 0)
    emit_axis_index("jp");
  else
    e_.line("const " + idx() + " j = jp;");
  e_.line("(void)j;");
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
    emit_rader_index("(" + idx() + ")i + 1");
    e_.line("cpx v;");
    emit_read("v", "jp");
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
    const std::string offset = "(" + idx() + ")(i + 1) * " + str(S);
    const std::string at = "dst[" + offset + "]";
    if (s_.real_store == RealStore::Real)
      e_.line(at + " = " + real_stored(local("m", "i") + ".x * out_re", "out_off + " + offset) + ";");
    else
      e_.line(at + " = " + product(scaled(local("m", "i")), "out_off + " + offset) + ";");
    e_.close();
    e_.close();
  }
}

}  // namespace bfly::codegen
