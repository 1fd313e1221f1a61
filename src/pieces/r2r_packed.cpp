// DCT and DST of types 2, 3 and 4 on an even axis of n reals in one pass of
// a complex FFT of n/2 points (KernelSpec::r2r_packed; plan/solvers/r2r.cpp
// decides where): Makhoul's reordering (pieces/r2r.cpp) composed with the
// packed real FFT (pieces/real.cpp), so each point carries two reals and
// the FFT does half the work of r2r.cpp's n-point one. With H = n/2, u the
// transform's input and g(j) = 2j for j < H, 2n - 1 - 2j above (the even
// elements, then the odd ones reversed):
// - type 2: loads z[p] = u[g(2p)] + i u[g(2p+1)], the packed real FFT's
//   input of v[j] = u[g(j)]; the stores meet Z[k] and Z[H - k] in local
//   memory, split them into V[k] = E[k] + w_n^k O[k] (k = 0..H, times 2 as
//   the halves are left out) and write W = w_4n^k V[k] as y[k] = 2 Re W
//   and, for 0 < k < H, y[n - k] = -2 Im W (V[n - k] = conj V[k]);
// - type 3 (the inverse): V[k] = w_4n^-k (u[k] - i u[n-k]) (u[n] = 0) is a
//   Hermitian spectrum, so v = IFFT_n(V) is real; the loads build the
//   packed inverse's Z[k] from V[k] and V[H - k] (E' + i O', pieces/real.cpp's
//   mirror), conjugated for the forward FFT that runs, w_4n^-(H-k) =
//   e^(i pi/4) w_4n^k; the stores write v[2p] and v[2p+1] (the result's
//   real part and its negated imaginary part) to y[g(2p)] and y[g(2p+1)].
// - type 4: v[p] = (u[2p] + i u[n-1-2p]) w_8n^(4p+1) in the loads, V =
//   FFT_H(v), and c = V[q] w_8n^(4q) in the stores, y[2q] = 2 Re c and
//   y[n-1-2q] = -2 Im c (the DCT-IV's half-length complex form: one point a
//   pair of outputs, no exchange).
// The DSTs' signs and reversals and scipy's orthogonalize are r2r.cpp's
// (pieces/r2r_common.hpp). The tables argument holds w_n^k, k = 0..H, then
// w_4n^k, k = 0..H (types 2 and 3), or w_8n^e, e < 2n (type 4: r2r.cpp's
// table).
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "pieces/r2r_common.hpp"
#include "plan/pass_modes.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::pieces {
namespace {

using codegen::PassWriter;
using plan::KernelSpec;

std::string str(std::int64_t v) { return std::to_string(v); }

// g(j) of the expression j.
std::string gathered(const KernelSpec& s, const std::string& j) {
  const std::int64_t n = s.r2r_points;
  return "(" + j + ") < " + str(n / 2) + " ? 2 * (" + j + ") : " + str(2 * n - 1) + " - 2 * (" + j + ")";
}

template <class Complex>
std::vector<Complex> packed_table(std::vector<Complex> (*table)(std::int64_t, std::int64_t), std::int64_t n) {
  std::vector<Complex> t = table(n, n / 2 + 1), quarter = table(4 * n, n / 2 + 1);
  t.insert(t.end(), quarter.begin(), quarter.end());
  return t;
}

// Type 2's stores: Z into local memory, then each k = 0..H split and
// twiddled. A thread takes k and H - k from the same two reads: with
// 2E = a + conj c and t = w_n^k (-i (a - conj c)), 2V[k] = 2E + t and
// 2V[H - k] = conj(2E - t) (as pieces/real.cpp's split).
void split_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, n = s.r2r_points, step = s.out_point_stride, pairs = R / 2 + 1;
  const int T = s.threads_per_transform;
  w.for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e.line(w.local("m", "b + " + str(t * (R / r))) + " = " + w.x(j * r + t) + ";");
  });
  e.line(w.dialect().barrier);
  // y[k] = Re(w_4n^k V[k]) and, for 0 < k < H, y[n - k] = -Im.
  auto store = [&](const std::string& k, const std::string& v) {
    e.line("const cpx wv = cmul(tables[" + str(R + 1) + " + " + k + "], " + v + ");");
    for (int half = 0; half < 2; ++half) {
      e.open(half ? "if (kk > 0)" : "");
      e.line("const " + w.idx() + " q = " + (half ? str(n) + " - " + k : k) + ";");
      e.line("const " + w.idx() + " at = " + (s.r2r_sine ? str(n - 1) + " - q" : "q") + ";");
      e.line(std::string("real y = ") + (half ? "-wv.y" : "wv.x") + ";");
      emit_y_store(w, "out_off", step);
      e.close();
    }
  };
  for (std::int64_t q = 0; q * T < pairs; ++q) {
    e.open("");
    e.line("const " + w.u32() + " kk = t + " + str(q * T) + ";");
    e.open("if (valid" + std::string((q + 1) * T > pairs ? " && kk < " + str(pairs) : "") + ")");
    e.line("const cpx a = " + w.local("m", "kk") + ";");
    e.line("const cpx c = " + w.local("m", "(kk == 0 ? 0 : " + str(R) + " - kk)") + ";");
    e.line("const cpx e2 = cmake(a.x + c.x, a.y - c.y);");
    e.line("const cpx tw = cmul(tables[kk], cmake(a.y + c.y, c.x - a.x));");
    e.open("");
    store("kk", "cadd(e2, tw)");
    e.close();
    e.open(R % 2 == 0 ? "if (2 * kk != " + str(R) + ")" : "");
    e.line("const " + w.u32() + " k2 = " + str(R) + " - kk;");
    store("k2", "cmake(e2.x - tw.x, tw.y - e2.y)");
    e.close();
    e.close();
    e.close();
  }
}

// Types 3 and 4's stores: two outputs a point. Type 3: point p's v[2p]
// and v[2p+1] to y[g(2p)] and y[g(2p+1)]; type 4: c = V[q] w_8n^(4q) to
// y[2q] = 2 Re c and y[n-1-2q] = -2 Im c.
void pairs_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, step = s.out_point_stride, n = s.r2r_points;
  const bool four = s.r2r_type == 4;
  w.for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      std::string v = w.x(j * r + t);
      const std::string p = "p" + str(t);
      e.open("");
      e.line("const " + w.idx() + " " + p + " = (" + w.idx() + ")(b + " + str(t * (R / r)) + ");");
      if (four) {
        e.line(v + " = cmul(" + v + ", tables[4 * " + p + "]);");
      }
      for (int half = 0; half < 2; ++half) {
        e.open("");
        const std::string at =
            four ? (half ? str(n - 1) + " - 2 * " + p : "2 * " + p) : gathered(s, "2 * " + p + (half ? " + 1" : ""));
        e.line("const " + w.idx() + " at = " + at + ";");
        e.line("real y = " + std::string(half ? "-" : "") + (four ? "2 * " : "") + v + (half ? ".y" : ".x") + ";");
        emit_y_store(w, "out_off", step);
        e.close();
      }
      e.close();
    }
  });
}

class R2RPacked final : public Piece {
 public:
  const char* name() const override { return "r2r_packed"; }
  bool active(const KernelSpec& s) const override { return s.r2r_packed; }

  void name_kind(const KernelSpec&, std::ostream& out) const override { out << "_r2rp"; }
  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", " << (s.r2r_sine ? "dst" : "dct") << s.r2r_type << " of " << s.r2r_points << " packed"
        << (s.r2r_orthogonalize ? " orthogonalized" : "");
  }
  // Half storage only: its loads and stores are emit_u's and emit_y_store's
  // (r2r_common.cpp), through PassWriter::loaded and real_stored.
  unsigned admits(const KernelSpec&) const override {
    return static_cast<unsigned>(plan::Form::StorageLoad) | static_cast<unsigned>(plan::Form::StorageStore);
  }
  bool owns_store(const KernelSpec&) const override { return true; }
  // Two or four reads and two twiddles a point, or a second point and two
  // twiddles a store (as pieces/real.cpp's split and mirror).
  // Type 4's loads are three a point, each a read in flight (the NVRTC
  // sweep saw 15000 points at 64 registers spill 24 bytes with 16 here).
  int extra_registers(const KernelSpec& s) const override { return s.r2r_type == 4 ? 32 : 16; }
  bool reads_reals(const KernelSpec&) const override { return true; }
  bool writes_reals(const KernelSpec&) const override { return true; }
  bool reads_axis_origin(const KernelSpec&) const override { return true; }
  // Type 2's split meets Z[k] and Z[H - k] through local memory.
  bool needs_exchange(const KernelSpec& s) const override { return s.r2r_type == 2; }

  bool has_tables(const KernelSpec&) const override { return true; }
  bool tables(const KernelSpec& s, TableSource& t) const override {
    if (!active(s)) return false;
    const std::int64_t n = s.r2r_points;
    if (s.r2r_type == 4) {
      w8n_table(n, t);
      return true;
    }
    t.kind = "r2r_packed";
    t.size = str(n);
    t.f32 = [n] { return packed_table(&twiddle::table_f32, n); };
    t.f64 = [n] { return packed_table(&twiddle::table_f64, n); };
    return true;
  }

  bool emit_load_point(PassWriter& w, const std::string& v, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::int64_t N = s.r2r_points, H = N / 2;
    e.open("");
    w.emit_axis_index(n);
    if (s.r2r_type == 2) {
      emit_u(w, "a", gathered(s, "2 * j"));
      emit_u(w, "b", gathered(s, "2 * j + 1"));
      e.line(v + " = cmake(a, b);");
      e.close();
      return true;
    }
    if (s.r2r_type == 4) {
      emit_u(w, "a", "2 * j");
      emit_u(w, "b", str(N - 1) + " - 2 * j");
      e.line("const cpx tw = tables[4 * j + 1];");
      e.line(v + " = cmake(a * tw.x - b * tw.y, a * tw.y + b * tw.x);");
      e.close();
      return true;
    }
    // V[j] and V[H - j] from u[j], u[n - j], u[H - j], u[H + j].
    emit_u(w, "ua", "j");
    e.line("real ub = 0;");
    e.open("if (j > 0)");
    emit_u(w, "b", str(N) + " - j");
    e.line("ub = b;");
    e.close();
    emit_u(w, "uc", str(H) + " - j");
    emit_u(w, "ud", str(H) + " + j");
    e.line("const cpx tw = tables[" + str(H + 1) + " + j];");
    e.line("cpx a = cmake(ua * tw.x - ub * tw.y, -(ua * tw.y + ub * tw.x));");
    e.line("const cpx p = cmake(tw.x * uc + tw.y * ud, tw.y * uc - tw.x * ud);");
    e.line("cpx c = cmake((p.x - p.y) * " + e.real(0.7071067811865475244008444L) + ", (p.x + p.y) * " +
           e.real(0.7071067811865475244008444L) + ");");
    e.open("if (j == 0)");
    e.line("a.y = 0; c.y = 0;");
    e.close();
    e.line("const cpx w = tables[j];");
    e.line("const cpx even = cmake(a.x + c.x, a.y - c.y);");
    e.line("const cpx odd = cmul(cmake(a.x - c.x, a.y + c.y), cmake(w.x, -w.y));");
    e.line(v + " = cmake(even.x - odd.y, -(even.y + odd.x));");
    e.close();
    return true;
  }

  bool emit_store(PassWriter& w, int r) const override {
    if (w.spec().r2r_type == 2)
      split_store(w, r);
    else
      pairs_store(w, r);
    return true;
  }
};

}  // namespace

const Piece& r2r_packed() {
  static const R2RPacked piece;
  return piece;
}

}  // namespace bfly::pieces
