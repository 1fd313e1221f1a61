// The DCT and DST fused into an axis's Stockham passes, a complex FFT of m
// points of the axis's n reals (KernelSpec::r2r_type, r2r_points;
// plan/solvers/r2r.cpp decides where): the first pass's loads read the
// reals (r2r_load), the last pass's stores write them (r2r_store); one pass
// has both, and the data crosses memory once. The loads index the line
// from the axis's point 0 (axis_off; point n of a first pass's
// sub-transform is j = ci + n S along the axis), the stores from output e =
// k + k' P of a last pass. With u the DCT's input (below):
// - type 2 (Makhoul), m = n: loads v[j] = u[2j] for j < (n+1)/2, u[2(n-1-j)+1]
//   above (the even elements, then the odd ones reversed), stores y[k] =
//   2 Re(w_4n^k V[k]);
// - type 3, m = n: loads conj(V[j]) = (u[j] + i u[n-j]) w_4n^j (u[n] = 0),
//   so the forward FFT gives the conjugate of the inverse one, whose real
//   parts it stores de-interleaved: v[e] to y[2e] for e < (n+1)/2, to
//   y[2(n-1-e)+1] above;
// - type 4, m = 2n: loads u[j] w_8n^2j (0 for j >= n), stores y[k] =
//   2 Re(w_8n^(2k+1) Z[k]) for k < n;
// - DCT-I, m = 2(n-1): loads the even extension u[j], u[2n-2-j], stores
//   Re Z[k], k < n; DST-I, m = 2(n+1): loads the odd extension 0, u, 0,
//   -reverse u, stores y[k] = -Im Z[k+1];
// - the DSTs of types 2 to 4 are these DCTs of u[q] = x[q] (-1)^q (type 2,
//   its outputs reversed) or u[q] = x[n-1-q] (types 3 and 4, their outputs
//   times (-1)^k); DST-I's u is x;
// - scipy's orthogonalize: x[0] and x[n-1] (DCT-I), x[0] (DCT-III), x[n-1]
//   (DST-III) times sqrt 2 on the loads; y[0] and y[n-1] (DCT-I), y[0]
//   (DCT-II), y[n-1] (DST-II) over sqrt 2 on the stores.
// The loads ignore in_sign and the stores take out_re alone: the kernel runs
// a forward FFT whichever the problem's direction (an inverse of type 2 is
// type 3). The tables argument holds w_4n^k, k < n (types 2 and 3), or
// w_8n^e, e < 2n (type 4).
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

class R2R final : public Piece {
 public:
  const char* name() const override { return "r2r"; }
  bool active(const KernelSpec& s) const override { return s.r2r_load || s.r2r_store; }

  void name_kind(const KernelSpec&, std::ostream& out) const override { out << "_r2r"; }
  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", " << (s.r2r_sine ? "dst" : "dct") << s.r2r_type << " of " << s.r2r_points
        << (s.r2r_orthogonalize ? " orthogonalized" : "") << (s.r2r_load ? " load" : "")
        << (s.r2r_store ? " store" : "");
  }
  // Half storage only: its loads and stores are emit_u's and emit_y_store's
  // (r2r_common.cpp), through PassWriter::loaded and real_stored.
  unsigned admits(const KernelSpec&) const override {
    return static_cast<unsigned>(plan::Form::StorageLoad) | static_cast<unsigned>(plan::Form::StorageStore);
  }
  bool owns_store(const KernelSpec& s) const override { return s.r2r_store; }
  // Type 3 holds two reads and a twiddle a point, the others a twiddle a store.
  int extra_registers(const KernelSpec&) const override { return 8; }
  bool reads_reals(const KernelSpec& s) const override { return s.r2r_load; }
  bool writes_reals(const KernelSpec& s) const override { return s.r2r_store; }
  bool reads_axis_origin(const KernelSpec& s) const override { return s.r2r_load; }

  // Twiddles: type 2's stores, type 3's loads, type 4's both.
  bool has_tables(const KernelSpec& s) const override {
    return s.r2r_type == 4 || (s.r2r_type == 2 && s.r2r_store) || (s.r2r_type == 3 && s.r2r_load);
  }
  bool tables(const KernelSpec& s, TableSource& t) const override {
    if (!active(s) || !has_tables(s)) return false;
    const std::int64_t n = s.r2r_points;
    // (The stages keep their tables apart: runtime/r2r_plan.cpp.)
    if (s.r2r_type == 4) {
      w8n_table(n, t);
      return true;
    }
    t.kind = "r2r_w4n";
    t.size = str(n);
    t.f32 = [n] { return twiddle::table_f32(4 * n, n); };
    t.f64 = [n] { return twiddle::table_f64(4 * n, n); };
    return true;
  }

  bool emit_load_point(PassWriter& w, const std::string& v, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    if (!s.r2r_load) return false;
    codegen::Emitter& e = w.out();
    const std::int64_t N = s.r2r_points;
    e.open("");
    w.emit_axis_index(n);
    switch (s.r2r_type) {
      case 1:
        e.line(v + " = cmake(0, 0);");
        if (!s.r2r_sine) {
          emit_u(w, "a", "j < " + str(N) + " ? j : " + str(2 * N - 2) + " - j");
          e.line(v + ".x = a;");
        } else {
          e.open("if (j >= 1 && j <= " + str(N) + ")");
          emit_u(w, "a", "j - 1");
          e.line(v + ".x = a;");
          e.close();
          e.open("if (j >= " + str(N + 2) + ")");
          emit_u(w, "a", str(2 * N + 1) + " - j");
          e.line(v + ".x = -a;");
          e.close();
        }
        break;
      case 2:
        emit_u(w, "a", "j < " + str((N + 1) / 2) + " ? 2 * j : " + str(2 * N - 1) + " - 2 * j");
        e.line(v + " = cmake(a, 0);");
        break;
      case 3:
        emit_u(w, "a", "j");
        e.line("real b = 0;");
        e.open("if (j > 0)");
        emit_u(w, "c", str(N) + " - j");
        e.line("b = c;");
        e.close();
        e.line("const cpx tw = tables[j];");
        e.line(v + " = cmake(a * tw.x - b * tw.y, a * tw.y + b * tw.x);");
        break;
      default:
        e.line(v + " = cmake(0, 0);");
        e.open("if (j < " + str(N) + ")");
        emit_u(w, "a", "j");
        e.line("const cpx tw = tables[2 * j];");
        e.line(v + " = cmake(a * tw.x, a * tw.y);");
        e.close();
    }
    e.close();
    return true;
  }

  bool emit_store(PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    if (!s.r2r_store) return false;
    codegen::Emitter& e = w.out();
    const std::int64_t R = s.length, N = s.r2r_points, P = s.stride_product;
    const std::string idx = w.idx();
    // Output e = k + k' P of sub-transform k, its point k'; consecutive
    // outputs along the axis lie out_point_stride / P apart, from the line's
    // first at out_off - k of them.
    const std::int64_t step = s.out_point_stride / P;
    const bool k = s.twiddle_dim >= 0;
    e.line("const " + idx + " out_axis = out_off" + (k ? " - k * " + str(step) : std::string()) + ";");
    w.for_each_butterfly(R / r, "valid", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string v = w.x(j * r + t);
        e.open("");
        e.line("const " + idx + " q = " + (k ? "k + " : std::string()) + "(" + idx + ")(b + " + str(t * (R / r)) + ")" +
               (P > 1 ? " * " + str(P) : std::string()) + ";");
        switch (s.r2r_type) {
          case 1:  // DST-I: Z[k + 1] is output k (at)
            e.line("const " + idx + " at = q" + (s.r2r_sine ? " - 1" : "") + ";");
            e.open(s.r2r_sine ? "if (q >= 1 && q <= " + str(N) + ")" : "if (q < " + str(N) + ")");
            e.line("real y = " + std::string(s.r2r_sine ? "-" + v + ".y" : v + ".x") + ";");
            break;
          case 2:
            e.line("const " + idx + " at = " + (s.r2r_sine ? str(N - 1) + " - q" : "q") + ";");
            e.open("");
            e.line("const cpx tw = tables[q];");
            e.line("real y = 2 * (tw.x * " + v + ".x - tw.y * " + v + ".y);");
            break;
          case 3:
            e.line("const " + idx + " at = q < " + str((N + 1) / 2) + " ? 2 * q : " + str(2 * N - 1) + " - 2 * q;");
            e.open("");
            e.line("real y = " + v + ".x;");
            break;
          default:
            e.line("const " + idx + " at = q;");
            e.open("if (q < " + str(N) + ")");
            e.line("const cpx tw = tables[2 * q + 1];");
            e.line("real y = 2 * (tw.x * " + v + ".x - tw.y * " + v + ".y);");
        }
        emit_y_store(w, "out_axis", step);
        e.close();
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
