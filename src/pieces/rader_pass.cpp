// Rader past one kernel (plan/solvers/rader.cpp): a prime N's (N - 1)-point
// convolution in Stockham passes over workspace rows, in Bluestein's roles.
// Its pieces: the first pass gathers a[j] = x[g^j] (KernelSpec::rader_gather);
// the forward FFT's last pass stores conj(A[e] K[e]) and, for e = 0, adds x[0]
// (read from the original input, at the row's offset by the dims' caller
// strides) to the DC term, so the inverse FFT adds it to every output, and
// writes X[0] = A[0] + x[0] to the final output (rader_kernel_store); the
// inverse FFT's last pass writes conj(y[e]) to X[g^-e] (rader_scatter). The
// tables argument holds the permutations (g^m, g^-m as the reals of L
// points: exact below 2^24) then the kernel FFT_L(b) / L (twiddle/rader.hpp).
#include <cstring>

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::pieces {
namespace {

using codegen::Param;

// Where the kernel store reads x[0] and writes X[0], and their sign and
// scale (between passes the data of an inverse is conjugated and unscaled).
const Param kIn{"rader_in", Param::Type::Table};
const Param kOut{"rader_out", Param::Type::Buffer};
const Param kSign{"rader_sign", Param::Type::Real};
const Param kRe{"rader_re", Param::Type::Real};
const Param kIm{"rader_im", Param::Type::Real};

std::string str(std::int64_t v) { return std::to_string(v); }

class RaderPass final : public Piece {
 public:
  const char* name() const override { return "rader-pass"; }

  bool active(const plan::KernelSpec& s) const override {
    return s.rader_gather || s.rader_kernel_store || s.rader_scatter;
  }

  void describe(const plan::KernelSpec& s, std::ostream& out) const override {
    if (s.rader_gather) out << " gather/" << s.axis_stride;
    if (s.rader_kernel_store) out << " kernel-store";
    if (s.rader_scatter) out << " scatter";
  }

  bool owns_store(const plan::KernelSpec& s) const override { return s.rader_kernel_store || s.rader_scatter; }

  void add_params(const plan::KernelSpec& s, std::vector<Param>& params) const override {
    if (s.rader_kernel_store) params.insert(params.end(), {kIn, kOut, kSign, kRe, kIm});
  }

  bool reads_axis_origin(const plan::KernelSpec& s) const override { return s.rader_gather; }

  // x[0] and X[0] of this sub-transform's row in the caller's buffers.
  void emit_offsets(codegen::PassWriter& w, const std::vector<std::string>& index) const override {
    const plan::KernelSpec& s = w.spec();
    if (!s.rader_kernel_store) return;
    std::string in, out;
    for (std::size_t d = 0; d < s.dims.size(); ++d) {
      if (s.dims[d].caller_in) in += (in.empty() ? "" : " + ") + index[d] + " * " + str(s.dims[d].caller_in);
      if (s.dims[d].caller_out) out += (out.empty() ? "" : " + ") + index[d] + " * " + str(s.dims[d].caller_out);
    }
    w.out().line("const " + w.idx() + " rader_in_off = " + (in.empty() ? "0" : in) +
                 ", rader_out_off = " + (out.empty() ? "0" : out) + ";");
  }

  // a[j] = x[g^j], the row's point g^j.
  bool emit_load_point(codegen::PassWriter& w, const std::string& v, const std::string& n) const override {
    const plan::KernelSpec& s = w.spec();
    if (!s.rader_gather) return false;
    codegen::Emitter& e = w.out();
    e.open("");
    w.emit_axis_index(n);
    e.line(v + " = in[axis_off + (" + w.idx() + ")tables[j].x * " + str(s.in_point_stride / s.axis_stride) + "];");
    e.line(v + ".y *= in_sign;");
    e.close();
    return true;
  }

  // Output e = k + k' * P of the (p - 1)-point FFT.
  bool emit_store(codegen::PassWriter& w, int r) const override {
    const plan::KernelSpec& s = w.spec();
    if (!s.rader_kernel_store && !s.rader_scatter) return false;
    codegen::Emitter& e = w.out();
    const std::int64_t R = s.length, P = s.stride_product, L = s.rader_prime - 1;
    const std::int64_t A = s.out_point_stride / P;  // the axis's stride in the output
    const std::string k = s.twiddle_dim >= 0 ? "k + " : "";
    const std::string idx = w.idx();
    w.for_each_butterfly(R / r, "valid", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string point = "(" + idx + ")(b + " + str(t * (R / r)) + ")";
        const std::string v = w.x(j * r + t);
        e.open("");
        e.line("const " + idx + " e = " + k + point + " * " + str(P) + ";");
        if (s.rader_kernel_store) {
          if (j == 0 && t == 0) {  // the only slot that holds point 0
            e.open("if (e == 0)");
            e.line("cpx x_zero = rader_in[rader_in_off];");
            e.line("x_zero.y *= rader_sign;");
            e.line("const cpx dc = cadd(" + v + ", x_zero);");
            e.line("rader_out[rader_out_off] = cmake(dc.x * rader_re, dc.y * rader_im);");
            e.line(v + " = cadd(cmul(" + v + ", tables[" + str(L) + "]), x_zero);");
            e.close();
            e.open("else");
            e.line(v + " = cmul(" + v + ", tables[" + str(L) + " + e]);");
            e.close();
          } else {
            e.line(v + " = cmul(" + v + ", tables[" + str(L) + " + e]);");
          }
          e.line("dst[" + point + " * " + str(s.out_point_stride) +
                 "] = " + w.scaled("cmake(" + v + ".x, -" + v + ".y)") + ";");
        } else {
          e.line("const " + idx + " at = (" + idx + ")tables[e].y;");
          e.line("out[out_off" + std::string(P > 1 ? " - k * " + str(A) : "") + " + at * " + str(A) +
                 "] = " + w.scaled("cmake(" + v + ".x, -" + v + ".y)") + ";");
        }
        e.close();
      }
    });
    return true;
  }

  // x[0] and X[0]: where the convolution's first pass read and its last
  // pass writes (Pass::caller_source, caller_destination).
  detail::KernelArg bind(const Param& param, const LaunchFacts& f) const override {
    if (param == kIn) return f.buffer(f.pass.caller_source);
    if (param == kOut) return f.buffer(f.pass.caller_destination);
    if (param == kSign) return f.real(f.inverse && f.pass.caller_first ? -1.0 : 1.0);
    if (param == kRe) return f.real(f.pass.caller_last ? f.scale : 1.0);
    if (param == kIm) return f.real(!f.pass.caller_last ? 1.0 : f.inverse ? -f.scale : f.scale);
    return Piece::bind(param, f);
  }
};

}  // namespace

const Piece& rader_pass() {
  static const RaderPass piece;
  return piece;
}

}  // namespace bfly::pieces
