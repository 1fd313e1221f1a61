#include "pieces/r2r_common.hpp"

#include "twiddle/oracle.hpp"

namespace bfly::pieces {
namespace {

using codegen::PassWriter;
using plan::KernelSpec;

std::string str(std::int64_t v) { return std::to_string(v); }

// sqrt 2 and its inverse as literals of the working precision.
std::string root2(PassWriter& w) { return w.out().real(1.4142135623730950488016887L); }
std::string half_root2(PassWriter& w) { return w.out().real(0.7071067811865475244008444L); }

// Whether orthogonalize scales the input's element `first` (else the last)
// of this type, and the output's.
bool scales_input(const KernelSpec& s, bool first) {
  if (!s.r2r_orthogonalize) return false;
  if (!s.r2r_sine) return s.r2r_type == 1 || (s.r2r_type == 3 && first);
  return s.r2r_type == 3 && !first;
}
bool scales_output(const KernelSpec& s, bool first) {
  if (!s.r2r_orthogonalize) return false;
  if (!s.r2r_sine) return s.r2r_type == 1 || (s.r2r_type == 2 && first);
  return s.r2r_type == 2 && !first;
}

}  // namespace

void emit_u(PassWriter& w, const std::string& name, const std::string& q) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t n = s.r2r_points;
  const bool reversed = s.r2r_sine && (s.r2r_type == 3 || s.r2r_type == 4);
  const std::string at = reversed ? str(n - 1) + " - (" + q + ")" : "(" + q + ")";
  // Along the axis, consecutive points lie in_point_stride / axis_stride apart.
  const std::string offset = "axis_off + (" + w.idx() + ")(" + at + ") * " + str(s.in_point_stride / s.axis_stride);
  e.line("real " + name + " = " + w.loaded("in[" + offset + "]", true, offset) + ";");
  if (s.r2r_sine && s.r2r_type == 2) e.line("if ((" + q + ") & 1) " + name + " = -" + name + ";");
  for (bool first : {true, false})
    if (scales_input(s, first) && !(first && n == 1 && scales_input(s, false)))
      e.line("if ((" + at + ") == " + str(first ? 0 : n - 1) + ") " + name + " *= " + root2(w) + ";");
}

void emit_y_store(PassWriter& w, const std::string& base, std::int64_t step) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t N = s.r2r_points;
  if (s.r2r_sine && (s.r2r_type == 3 || s.r2r_type == 4)) e.line("if (at & 1) y = -y;");
  for (bool first : {true, false})
    if (scales_output(s, first) && !(first && N == 1 && scales_output(s, false)))
      e.line("if (at == " + str(first ? 0 : N - 1) + ") y *= " + half_root2(w) + ";");
  const std::string offset = base + " + at * " + str(step);
  e.line("out[" + offset + "] = " + w.real_stored("y * out_re", offset) + ";");
}

void w8n_table(std::int64_t n, TableSource& t) {
  t.kind = "r2r_w8n";
  t.size = str(n);
  t.f32 = [n] { return twiddle::table_f32(8 * n, 2 * n); };
  t.f64 = [n] { return twiddle::table_f64(8 * n, 2 * n); };
}

}  // namespace bfly::pieces
