// The DCT and DST of types 2 and 3 fused into an axis's one Stockham pass
// of n points (KernelSpec::r2r_type; plan/solvers/r2r.cpp decides where):
// the data crosses memory once, read as reals and written as reals.
// Makhoul's method on a complex FFT of the n reals:
// - type 2 loads v[j] = u[2j] for j < (n+1)/2, u[2(n-1-j)+1] above (the
//   even elements, then the odd ones reversed) and stores y[k] = 2 Re(w_4n^k
//   V[k]);
// - type 3 loads conj(V[j]) = (u[j] + i u[n-j]) w_4n^j (u[n] = 0), so the
//   forward FFT gives conj of the inverse one, whose real parts it stores
//   de-interleaved: v[e] to y[2e] for e < (n+1)/2, to y[2(n-1-e)+1] above;
// - the DSTs are these DCTs of u[q] = x[q] (-1)^q (type 2, its outputs
//   reversed) or u[q] = x[n-1-q] (type 3, its outputs times (-1)^k);
// - scipy's orthogonalize: x[0] (DST: x[n-1]) times sqrt 2 on type 3's
//   loads, y[0] (DST: y[n-1]) over sqrt 2 on type 2's stores.
// The loads ignore in_sign and the stores take out_re alone: the kernel runs
// a forward FFT whichever the problem's direction (an inverse of type 2 is
// type 3). The tables argument holds w_4n^k, k < n.
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::pieces {
namespace {

using codegen::PassWriter;
using plan::KernelSpec;

std::string str(std::int64_t v) { return std::to_string(v); }

// sqrt 2 and its inverse as literals of the working precision.
std::string root2(PassWriter& w) { return w.out().real(1.4142135623730950488016887L); }
std::string half_root2(PassWriter& w) { return w.out().real(0.7071067811865475244008444L); }

// Declares `name`, u[q] of the expression q (its source read, sign and factor).
void emit_u(PassWriter& w, const std::string& name, const std::string& q) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t n = s.length;
  const std::string idx = w.idx();
  const std::string at = s.r2r_sine && s.r2r_type == 3 ? str(n - 1) + " - (" + q + ")" : "(" + q + ")";
  e.line("real " + name + " = src[(" + idx + ")(" + at + ") * " + str(s.in_point_stride) + "];");
  if (s.r2r_sine && s.r2r_type == 2) e.line("if ((" + q + ") & 1) " + name + " = -" + name + ";");
  if (s.r2r_orthogonalize && s.r2r_type == 3)
    e.line("if ((" + at + ") == " + str(s.r2r_sine ? n - 1 : 0) + ") " + name + " *= " + root2(w) + ";");
}

class R2R final : public Piece {
 public:
  const char* name() const override { return "r2r"; }
  bool active(const KernelSpec& s) const override { return s.r2r_type != 0; }

  void name_kind(const KernelSpec&, std::ostream& out) const override { out << "_r2r"; }
  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", " << (s.r2r_sine ? "dst" : "dct") << s.r2r_type << (s.r2r_orthogonalize ? " orthogonalized" : "");
  }
  bool owns_store(const KernelSpec&) const override { return true; }
  // Type 3 holds two reads and a twiddle a point, type 2 a twiddle a store.
  int extra_registers(const KernelSpec&) const override { return 8; }
  bool reads_reals(const KernelSpec&) const override { return true; }
  bool writes_reals(const KernelSpec&) const override { return true; }

  bool has_tables(const KernelSpec&) const override { return true; }
  bool tables(const KernelSpec& s, TableSource& t) const override {
    const std::int64_t n = s.length;
    t.kind = "r2r_w4n";  // (the stages keep their w_8n apart: runtime/r2r_plan.cpp)
    t.size = str(n);
    t.f32 = [n] { return twiddle::table_f32(4 * n, n); };
    t.f64 = [n] { return twiddle::table_f64(4 * n, n); };
    return true;
  }

  bool emit_load_point(PassWriter& w, const std::string& v, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::int64_t N = s.length;
    e.open("");
    e.line("const " + w.idx() + " j = " + n + ";");
    if (s.r2r_type == 2) {
      emit_u(w, "a", "j < " + str((N + 1) / 2) + " ? 2 * j : " + str(2 * N - 1) + " - 2 * j");
      e.line(v + " = cmake(a, 0);");
    } else {
      emit_u(w, "a", "j");
      e.line("real b = 0;");
      e.open("if (j > 0)");
      emit_u(w, "c", str(N) + " - j");
      e.line("b = c;");
      e.close();
      e.line("const cpx tw = tables[j];");
      e.line(v + " = cmake(a * tw.x - b * tw.y, a * tw.y + b * tw.x);");
    }
    e.close();
    return true;
  }

  bool emit_store(PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::int64_t R = s.length, N = s.length;
    w.for_each_butterfly(R / r, "valid", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string v = w.x(j * r + t);
        e.open("");
        e.line("const " + w.idx() + " q = (" + w.idx() + ")(b + " + str(t * (R / r)) + ");");
        if (s.r2r_type == 2) {
          e.line("const " + w.idx() + " k = " + (s.r2r_sine ? str(N - 1) + " - q" : "q") + ";");
          e.line("const cpx tw = tables[q];");
          e.line("real y = 2 * (tw.x * " + v + ".x - tw.y * " + v + ".y);");
          if (s.r2r_orthogonalize) e.line("if (k == " + str(s.r2r_sine ? N - 1 : 0) + ") y *= " + half_root2(w) + ";");
        } else {
          e.line("const " + w.idx() + " k = q < " + str((N + 1) / 2) + " ? 2 * q : " + str(2 * N - 1) + " - 2 * q;");
          e.line("real y = " + v + ".x;");
          if (s.r2r_sine) e.line("if (k & 1) y = -y;");
        }
        e.line("dst[k * " + str(s.out_point_stride) + "] = y * out_re;");
        e.close();
      }
    });
    return true;
  }
};

}  // namespace

const Piece& r2r() {
  static const R2R piece;
  return piece;
}

}  // namespace bfly::pieces
