// Bluestein's chirp-z (plan/solvers/bluestein.cpp): any length N through a
// convolution of M >= 2N - 1 points. Its pieces: the first pass (or the one
// kernel) loads point j of the N-point axis as x[j] * c[j], zero for j >= N
// (KernelSpec::chirp_load); the forward FFT's last pass stores conj(y[e] *
// K[e]) (ChirpStore::Kernel: the conjugation makes the inverse FFT that
// follows a forward one), and the inverse's last pass (or the one kernel)
// conj(y[e]) * c[e] for e < N only (ChirpStore::Chirp). N and the open
// dim's strides are run-time arguments, so one kernel serves every N of
// the same M. The tables argument holds the chirp c[j] (N entries) then
// the kernel K = FFT_M(conj c) / M (runtime/plan_impl.cpp).
#include <type_traits>

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"
#include "plan/solvers/solver.hpp"
#include "twiddle/chirp.hpp"

namespace bfly::pieces {
namespace {

using codegen::Param;
using plan::KernelSpec;

const Param kN{"chirp_n", Param::Type::Count};
const Param kOpenIn{"open_in", Param::Type::Count};
const Param kOpenOut{"open_out", Param::Type::Count};

std::string str(std::int64_t v) { return std::to_string(v); }

// The inverse FFT's last stores: conj(y[e]) * c[e], of the value in `v`.
std::string chirped(const std::string& v) { return "cmul(cmake(" + v + ".x, -" + v + ".y), tables[e])"; }

// Bluestein's tables for N points: the chirp c[j] (N entries), then the
// kernel FFT_M(conj c) / M (M entries), rounded once from long double; a
// single-precision plan's kernel comes from an FFT in double (its error,
// about 1e-16 x log2 M, is far below a float's 6e-8), which takes a
// fraction of the long-double FFT's time.
template <class T>
std::vector<std::complex<T>> bluestein_tables(std::int64_t n) {
  const std::int64_t m = plan::bluestein_length(n);
  std::vector<std::complex<T>> out;
  out.reserve(static_cast<std::size_t>(n + m));
  auto append = [&out](const auto& values) {
    for (const auto& v : values) out.emplace_back(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  };
  append(twiddle::chirp(n, n));
  if constexpr (std::is_same<T, float>::value)
    append(twiddle::bluestein_kernel_f64(n, m));
  else
    append(twiddle::bluestein_kernel(n, m));
  return out;
}

class Chirp final : public Piece {
 public:
  const char* name() const override { return "chirp"; }

  bool active(const KernelSpec& s) const override { return s.bluestein(); }

  void name_kind(const KernelSpec& s, std::ostream& out) const override {
    out << (s.convolve ? "_bluestein" : "_chirp");
  }

  bool has_tables(const KernelSpec&) const override { return true; }

  bool tables(const KernelSpec& s, TableSource& t) const override {
    const std::int64_t n = s.chirp_length;
    t.kind = "bluestein";
    t.size = std::to_string(n);
    t.on_disk = true;
    t.format = "chirp[N], FFT_M(conj chirp) / M, M = " + std::to_string(plan::bluestein_length(n));
    t.f32 = [n] { return bluestein_tables<float>(n); };
    t.f64 = [n] { return bluestein_tables<double>(n); };
    return true;
  }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", chirp";  // N is a run-time argument
    if (s.chirp_load) out << " load/" << s.axis_stride;
    if (s.chirp_store == KernelSpec::ChirpStore::Kernel) out << " kernel-store";
    if (s.chirp_store == KernelSpec::ChirpStore::Chirp) out << " chirp-store";
    if (s.chirp_store == KernelSpec::ChirpStore::Twiddle) out << " twiddle-store";
    if (s.convolve) out << " convolve";
  }

  bool owns_store(const KernelSpec& s) const override {
    return s.chirp_store != KernelSpec::ChirpStore::None || s.convolve;
  }

  // The last of three passes reads each transform's points in a row and
  // writes them axis_stride apart: by columns through local memory, a
  // group's adjacent transforms side by side (not 8-byte stores scattered
  // a row apart).
  bool stores_from_local(const KernelSpec& s) const override {
    return s.chirp_store_along_axis() && s.axis_dim == 0 && s.real_store == KernelSpec::RealStore::None && !s.convolve;
  }

  std::string column_store(const codegen::PassWriter& w, const std::string& v, const std::string& column,
                           const std::string& n, const std::string& target) const override {
    const KernelSpec& s = w.spec();
    if (!stores_from_local(s)) return "";
    const std::string idx = w.idx();
    const std::string e = "(" + column + ") + (" + idx + ")(" + n + ") * " + str(s.chirp_store_period());
    return "{ const " + idx + " e = " + e + "; if (e < chirp_n) { cpx y = " + v + "; y = " + chirped("y") + "; " +
           target + " = " + w.product(w.scaled("y"), "e") + "; } }";
  }

  bool open_dim(const KernelSpec&) const override { return true; }

  // Half storage: its loads are the writer's (emit_read) and its stores go
  // through PassWriter::product and real_stored.
  unsigned admits(const KernelSpec&) const override {
    return static_cast<unsigned>(plan::Form::StorageLoad) | static_cast<unsigned>(plan::Form::StorageStore);
  }

  void add_params(const KernelSpec&, std::vector<Param>& params) const override {
    params.insert(params.end(), {kN, kOpenIn, kOpenOut});
  }

  // x[j] * c[j], zero past the N input points.
  bool emit_load_point(codegen::PassWriter& w, const std::string& v, const std::string& n) const override {
    if (!w.spec().chirp_load) return false;
    codegen::Emitter& e = w.out();
    e.open("");
    w.emit_axis_index(n);
    e.open("if (j < chirp_n)");
    w.emit_read(v, n);
    e.line(v + ".y *= in_sign;");
    e.line(v + " = cmul(" + v + ", tables[j]);");
    e.close();
    e.close();
    return true;
  }

  // Output e = k + k' * P of the M-point transform.
  bool emit_store(codegen::PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    if (!owns_store(s) || s.store_via_local()) return false;  // (through local: column_store)
    codegen::Emitter& e = w.out();
    const std::int64_t R = s.length;
    const bool kernel = s.chirp_store == KernelSpec::ChirpStore::Kernel;
    const bool twiddle = s.chirp_store == KernelSpec::ChirpStore::Twiddle;
    // e = k + k' P, or (the last of three passes) ci + k' S along the axis.
    const std::string k = s.twiddle_dim >= 0 ? "k + " : s.chirp_store_along_axis() ? "ci + " : "";
    const std::int64_t step = s.chirp_store_period();
    const std::string idx = w.idx();
    w.for_each_butterfly(R / r, "valid", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string point = "(" + idx + ")(b + " + str(t * (R / r)) + ")";
        const std::string v = w.x(j * r + t);
        e.open("");
        if (!twiddle) e.line("const " + idx + " e = " + k + point + " * " + str(step) + ";");
        const std::string at = point + " * " + str(s.out_point_stride);
        if (twiddle) {
          w.emit_pass_twiddle(v, point);
          e.line("dst[" + at + "] = " + w.product(w.scaled(v), "out_off + " + at) + ";");
        } else if (kernel) {
          e.line(v + " = cmul(" + v + ", tables[chirp_n + e]);");
          e.line("dst[" + at + "] = " + w.product(w.scaled("cmake(" + v + ".x, -" + v + ".y)"), "out_off + " + at) +
                 ";");
        } else {
          // A real axis: the half spectrum e <= N/2, or the real parts.
          const bool half = s.real_store == KernelSpec::RealStore::Half;
          e.open("if (e < chirp_n" + std::string(half ? " && e <= chirp_n / 2" : "") + ")");
          e.line(v + " = " + chirped(v) + ";");
          if (s.real_store == KernelSpec::RealStore::Real)
            e.line("dst[" + at + "] = " + w.real_stored(v + ".x * out_re", "out_off + " + at) + ";");
          else
            e.line("dst[" + at + "] = " + w.product(w.scaled(v), "out_off + " + at) + ";");
          e.close();
        }
        e.close();
      }
    });
    return true;
  }

  detail::KernelArg bind(const Param& param, const LaunchFacts& f) const override {
    const KernelSpec& s = f.pass.spec;
    if (param == kN) return detail::KernelArg::of_u64(static_cast<std::uint64_t>(s.chirp_length));
    if (param == kOpenIn) return detail::KernelArg::of_u64(static_cast<std::uint64_t>(s.dims.back().in_stride));
    if (param == kOpenOut) return detail::KernelArg::of_u64(static_cast<std::uint64_t>(s.dims.back().out_stride));
    return Piece::bind(param, f);
  }
};

}  // namespace

const Piece& chirp() {
  static const Chirp piece;
  return piece;
}

}  // namespace bfly::pieces
