// PassWriter: a one-kernel convolution's turn between its FFTs (Bluestein's and
// Rader's). Bluestein's loads and stores are a piece: pieces/chirp.cpp.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// Whether the second FFT reads the first's outputs from registers: its
// stages run in reverse order (emit_second_fft), so that its first stage, of
// the first FFT's last radix, takes in each thread the very points that
// stage left in it, slot for slot, and the turn skips a round trip through
// local memory (one of five in a three-stage pair, where such kernels are
// bound by L1 throughput: H100, ncu, fp32 223's at 86% of it). Any order
// of radices is an FFT: a stage's twiddles are powers of the same R-th
// root (emit_butterflies). Not where local memory is exchanged in halves
// (that exchange loads the next stage's registers itself) or where only
// some of the group's threads run the stages (a plane's phases).
bool PassWriter::turns_in_registers() const { return !s_.local_halves && thread_guard_.empty(); }

// Between the two FFTs of a one-kernel convolution: the first FFT's
// outputs times the kernel, conjugated, into local memory in natural
// order, where the second FFT's first stage reads them (or, where
// turns_in_registers, conjugated in the registers its first stage takes). Rader's DC term
// is the sum of x[1..p-1]: X[0] is it plus x[0], and x[0] added to it
// after the kernel multiply reaches every output of the inverse FFT.
void PassWriter::emit_convolve_turn(int r) {
  const std::int64_t R = s_.length;
  const bool registers = turns_in_registers();
  const std::string kernel = s_.rader() ? str(R) : "chirp_n";
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string n = "b + " + str(t * (R / r));
      const std::string v = x(j * r + t);
      const bool dc = s_.rader() && j == 0 && t == 0;  // the only slot that holds point 0
      if (dc) e_.line("const cpx sum = " + v + ";");
      // (Over the second pass's sub-transforms, output n of sub-transform k
      // is e = k + n P.)
      const std::string at = s_.has_pass_twiddles() ? "k + (" + n + ") * " + str(s_.stride_product) : n;
      e_.line(v + " = cmul(" + v + ", tables[" + kernel + " + " + at + "]);");
      if (dc) {
        e_.open("if (b == 0)");
        emit_rader_zero();
        e_.line("const cpx dc = cadd(sum, x_zero);");
        e_.open("if (valid)");
        e_.line("dst[0] = " +
                (s_.real_store == RealStore::Real ? real_stored("dc.x * out_re", "out_off")
                                                  : product(scaled("dc"), "out_off")) +
                ";");
        e_.close();
        e_.line(v + " = cadd(" + v + ", x_zero);");
        e_.close();
      }
      if (registers)
        e_.line(v + " = cmake(" + v + ".x, -" + v + ".y);");
      else
        e_.line(local("m", n) + " = cmake(" + v + ".x, -" + v + ".y);");
    }
  });
  if (registers) {
    e_.line("// the second FFT, its radices reversed, starts from these registers");
    turned_in_registers_ = true;
    return;
  }
  e_.line(d_.barrier);
}

}  // namespace bfly::codegen
