// Two real rows in one complex transform (KernelSpec::pair_dim; the real
// axis's solver, plan/solvers/real_axis.cpp, pairs rows where the axis is
// not packed: odd lengths). For reals x_a, x_b the transform of z = x_a +
// i x_b is Z = X_a + i X_b, and as X_a and X_b are Hermitian,
//   X_a[k] = (Z[k] + conj Z[n - k]) / 2,  X_b[k] = (Z[k] - conj Z[n - k]) / 2i,
// so one n-point complex FFT does the work of two real ones (VkFFT does the
// same for odd R2C). The inverse builds Z = X_a + i X_b from both half
// spectra, and the real and imaginary parts of its transform are the rows.
// This piece comes first (pieces.cpp): its reads and stores take over the
// real piece's where the pass reads or writes the rows, and the last
// stores of Bluestein's chirp (pieces/chirp.cpp), whose loads read through
// these reads.
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::pieces {
namespace {

using codegen::Param;
using codegen::PassWriter;
using plan::KernelSpec;
using RealLoad = KernelSpec::RealLoad;
using RealStore = KernelSpec::RealStore;

const Param kRows{"pair_rows", Param::Type::Count};

std::string str(std::int64_t v) { return std::to_string(v); }

// Bluestein's last FFT (its one kernel, or its inverse's last pass) holds
// y[e] of the M-point convolution: output e < N is conj(y[e]) c[e]
// (pieces/chirp.cpp), which this piece's stores take on.
std::string chirped(const std::string& v) { return "cmul(cmake(" + v + ".x, -" + v + ".y), tables[e])"; }

// X_a[e] = (a + conj c) / 2 to row a at `at`, X_b[e] = (a - conj c) / 2i to
// row b pair_out past it, from a = Z[e] and c = Z[N - e].
void store_split(PassWriter& w, const std::string& at) {
  codegen::Emitter& e = w.out();
  const std::string b = at + " + " + str(w.spec().pair_out);
  e.line("dst[" + at + "] = " +
         w.product(w.scaled("cmake(" + w.half("a.x + c.x") + ", " + w.half("a.y - c.y") + ")"), "out_off + " + at) +
         ";");
  e.open("if (pair_ok)");
  e.line("dst[" + b + "] = " +
         w.product(w.scaled("cmake(" + w.half("a.y + c.y") + ", " + w.half("c.x - a.x") + ")"), "out_off + " + b) +
         ";");
  e.close();
}

// The forward split: Z into local memory in natural order, then X_a[k] and
// X_b[k] for k = 0..n/2 from Z[k] and Z[n - k], each thread a run of k.
// One pass (P = 1): output e of the transform is point e.
void split_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, S = s.out_point_stride;
  const bool chirp = s.bluestein();
  const int T = s.threads_per_transform;
  w.for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "b + " + str(t * (R / r)), v = w.x(j * r + t);
      if (chirp)
        e.line("{ const " + w.u32() + " e = " + point + "; if (e < chirp_n) " + w.local("m", "e") + " = " + chirped(v) +
               "; }");
      else
        e.line(w.local("m", point) + " = " + v + ";");
    }
  });
  e.line(w.dialect().barrier);
  // k runs to n/2; Bluestein's N (at run time) has N/2 <= (M + 1) / 4.
  const std::string n = chirp ? "chirp_n" : str(R);
  const std::int64_t last = chirp ? (R + 1) / 4 : R / 2;
  for (std::int64_t q = 0; q * T <= last; ++q) {
    e.open("");
    e.line("const " + w.u32() + " kk = t + " + str(q * T) + ";");
    const bool bound = chirp || (q + 1) * T > last + 1;
    e.open("if (valid" + std::string(bound ? " && kk <= " + n + " / 2" : "") + ")");
    e.line("const cpx a = " + w.local("m", "kk") + ";");
    e.line("const cpx c = " + w.local("m", "(kk == 0 ? 0 : " + n + " - kk)") + ";");
    const std::string at = "(" + w.idx() + ")kk * " + str(S);
    store_split(w, at);
    e.close();
    e.close();
  }
}

// The forward split past one pass (Bluestein's inverse FFT in passes, P >
// 1): this sub-transform kq holds outputs e = kq + k' P; Z[N - e] lies in
// sub-transform ks (codegen/pass_kernel.cpp pairs them in one group, as the
// group's transforms m and m -+ M/2, or m alone where ks == kq) at k'' =
// (N - e - ks) / P, and Z[N] is Z[0].
void split_paired_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t L = s.length, P = s.chirp_store_period(), S = s.out_point_stride;
  const int T = s.threads_per_transform, M = s.transforms_per_group;
  const std::string idx = w.idx();
  w.for_each_butterfly(L / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "b + " + str(t * (L / r)), v = w.x(j * r + t);
      e.line("{ const " + idx + " e = kq + (" + idx + ")(" + point + ") * " + str(P) + "; " + w.local("m", point) +
             " = e < chirp_n ? " + chirped(v) + " : cmake(0, 0); }");
    }
  });
  e.line(w.dialect().barrier);
  e.line("const " + w.u32() + " pm = ks == kq ? m : partner ? m - " + str(M / 2) + " : m + " + str(M / 2) + ";");
  for (std::int64_t q = 0; q * T < L; ++q) {
    e.open("");
    e.line("const " + w.u32() + " kk = t + " + str(q * T) + ";");
    e.line("const " + idx + " e = kq + (" + idx + ")kk * " + str(P) + ";");
    e.open("if (valid" + std::string((q + 1) * T > L ? " && kk < " + str(L) : "") + " && 2 * e <= chirp_n)");
    e.line("const cpx a = " + w.local("m", "kk") + ";");
    e.line("const cpx c = e == 0 ? a : " + w.local("pm", "(chirp_n - e - ks) / " + str(P)) + ";");
    const std::string at = "(" + idx + ")kk * " + str(S);
    store_split(w, at);
    e.close();
    e.close();
  }
}

// The inverse's last stores: the real parts to row a, the imaginary parts
// (conjugated back by out_im) to row b.
void rows_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, S = s.out_point_stride;
  const bool chirp = s.bluestein();
  w.for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "(" + w.idx() + ")(b + " + str(t * (R / r)) + ")";
      const std::string at = point + " * " + str(S);
      const std::string v = w.x(j * r + t);
      e.open("");
      if (chirp) {
        const std::string k = s.twiddle_dim >= 0 ? "k + " : s.chirp_store_along_axis() ? "ci + " : "";
        e.line("const " + w.idx() + " e = " + k + point + " * " + str(s.chirp_store_period()) + ";");
        e.open("if (e < chirp_n)");
        e.line(v + " = " + chirped(v) + ";");
      }
      e.line("dst[" + at + "] = " + w.real_stored(v + ".x * out_re", "out_off + " + at) + ";");
      e.line("if (pair_ok) dst[" + at + " + " + str(s.pair_out) +
             "] = " + w.real_stored(v + ".y * out_im", "out_off + " + at + " + " + str(s.pair_out)) + ";");
      if (chirp) e.close();
      e.close();
    }
  });
}

class RowPairs final : public Piece {
 public:
  const char* name() const override { return "row-pairs"; }

  bool active(const KernelSpec& s) const override { return s.row_pairs(); }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", row pairs " << s.pair_in << "/" << s.pair_out;
    if (s.pair_dim >= 0) out << " odd";
  }

  void name_part(const KernelSpec&, std::ostream& out) const override { out << "_rows2"; }

  // The product knows o in the split's stores, and the forms that read a
  // real axis's loads plainly stay as the real piece allows them; half
  // storage converts its reads and stores (PassWriter::loaded, product,
  // real_stored).
  unsigned admits(const KernelSpec&) const override {
    using plan::Form;
    return static_cast<unsigned>(Form::CallbackStore) | static_cast<unsigned>(Form::CallbackLoad) |
           static_cast<unsigned>(Form::StorageLoad) | static_cast<unsigned>(Form::StorageStore);
  }

  // The second row's point and the split's partner.
  int extra_registers(const KernelSpec&) const override { return 16; }

  bool owns_store(const KernelSpec& s) const override { return s.pair_out != 0; }

  bool needs_exchange(const KernelSpec& s) const override {
    return s.pair_out != 0 && (s.real_store == RealStore::Half || s.real_store == RealStore::SplitPaired);
  }

  // An odd count of rows (the dim's extent, at run time where it is the
  // batch) leaves the last pair without row b; an even count has no test
  // (plan/launch_model.cpp's normalise_dims keeps the dim apart only then).
  void add_params(const KernelSpec& s, std::vector<Param>& params) const override {
    if (s.pair_dim >= 0) params.push_back(kRows);
  }

  void emit_offsets(PassWriter& w, const std::vector<std::string>& index) const override {
    const KernelSpec& s = w.spec();
    if (s.pair_dim < 0) {
      w.out().line("const bool pair_ok = true;  (void)pair_ok;");
      return;
    }
    w.out().line("const bool pair_ok = 2 * (" + w.u64() + ")" + index[static_cast<std::size_t>(s.pair_dim)] +
                 " + 1 < pair_rows;  (void)pair_ok;");
  }

  bool emit_read(PassWriter& w, const std::string& v, const std::string&, const std::string& at) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::string b = str(s.pair_in);
    if (s.pair_in == 0) return false;
    if (s.real_load == RealLoad::Real) {
      e.line(v + " = cmake(" + w.loaded("src[" + at + "]", true, "in_off + " + at) + ", pair_ok ? " +
             w.loaded("src[" + at + " + " + b + "]", true, "in_off + " + at + " + " + b) + " : (real)0);");
      return true;
    }
    if (s.real_load != RealLoad::Hermitian) return false;
    // Both half spectra extended by their mirrors (j from the real piece's
    // load); the imaginary parts of X[0] and X[n/2] are ignored, as numpy's
    // irfft does (a single row drops them with the imaginary part, here
    // they would reach row b).
    const std::string n = s.bluestein() ? "chirp_n" : str(s.real_length),
                      mirror = str(s.in_point_stride / s.axis_stride);
    e.line("cpx ra = cmake(0, 0), rb = cmake(0, 0);");
    e.open("if (j <= " + n + " / 2)");
    e.line("ra = " + w.loaded("src[" + at + "]", false, "in_off + " + at) + ";");
    e.line("if (pair_ok) rb = " + w.loaded("src[" + at + " + " + b + "]", false, "in_off + " + at + " + " + b) + ";");
    e.line("if (j == 0 || 2 * j == " + n + ") { ra.y = 0; rb.y = 0; }");
    e.close();
    e.open("else");
    const std::string ra_at = "axis_off + (" + n + " - j) * " + mirror,
                      rb_at = "axis_off + " + b + " + (" + n + " - j) * " + mirror;
    e.line("ra = " + w.loaded("in[" + ra_at + "]", false, ra_at) + ";");
    e.line("if (pair_ok) rb = " + w.loaded("in[" + rb_at + "]", false, rb_at) + ";");
    e.line("ra.y = -ra.y; rb.y = -rb.y;");
    e.close();
    // Z = X_a + i X_b, to be conjugated by the load (in_sign -1). Where an
    // earlier pass of the inverse left conj X in memory (in_sign 1), Z's
    // conjugate is ra - i rb.
    e.line(v + " = cmake(ra.x + in_sign * rb.y, ra.y - in_sign * rb.x);");
    return true;
  }

  bool emit_store(PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    if (s.pair_out == 0) return false;
    if (s.real_store == RealStore::SplitPaired)
      split_paired_store(w, r);
    else if (s.real_store == RealStore::Half)
      split_store(w, r);
    else
      rows_store(w, r);
    return true;
  }

  detail::KernelArg bind(const Param& param, const LaunchFacts& f) const override {
    if (param == kRows) return detail::KernelArg::of_u64(static_cast<std::uint64_t>(f.pass.spec.pair_rows));
    return Piece::bind(param, f);
  }
};

}  // namespace

const Piece& row_pairs() {
  static const RowPairs piece;
  return piece;
}

}  // namespace bfly::pieces
