// PassWriter: the twiddles between passes computed in the kernel.
#include "codegen/pass_writer.hpp"

#include <cmath>
#include <cstdio>

namespace bfly::codegen {

// v *= w_N^e, e = n k < N, computed: the angle -2 pi e / N as pi times a
// ratio in [-1, 1) (e folded past N/2) through sincospi, where the fold
// below does not apply: N below 8 or past 2^32 (the planner computes them
// only at powers of two and, DeviceLimits::pass_sincos = 2, multiples of 8).
void PassWriter::emit_pass_sincos(const std::string& v, const std::string& n) {
  const std::int64_t N = s_.pass_twiddle_points();
  const bool f64 = s_.precision == Precision::Double;
  if (N >= 8 && N % 8 == 0 && N <= (std::int64_t{1} << 32)) {
    emit_pass_sincos_folded(v, n, N);
    return;
  }
  e_.open("");
  const std::string i64 = d_.kind == DialectKind::Cuda ? "long long" : "long";
  e_.line("const " + i64 + " e = (" + i64 + ")" + n + " * (" + i64 + ")k;");
  e_.line("const " + i64 + " f = e >= " + str(N / 2 + N % 2) + " ? e - " + str(N) + " : e;");
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.17g", 2.0 / static_cast<double>(N));
  e_.line("const real a = (real)(-f) * (real)" + std::string(scale) + ";");
  e_.line("real sn, cs;");
  if (d_.kind == DialectKind::Cuda)
    e_.line(std::string(f64 ? "sincospi" : "sincospif") + "(a, &sn, &cs);");
  else
    e_.line("sn = sinpi(a); cs = cospi(a);");
  e_.line(v + " = cmul(" + v + ", cmake(cs, sn));");
  e_.close();
}

// Pass twiddle w_N^e, N a multiple of 8, without sincospi's general range
// reduction (about 42 SASS instructions a twiddle in fp32 and 61 in fp64,
// the second pass's largest cost beside the butterflies): the quadrant
// and the octant fold are integers (bits of e where N is a power of two,
// else a quotient by the constant N / 4, a multiply-high), the angle in
// [0, pi/4] is exact for a power of two and within half an ulp of a
// product else, and two polynomials in x^2 give its sine and cosine;
// selects put them in the quadrant. fp32: least-maximum-error fits (bench/experiments/fit_sincospi.py, about
// 1.5 ulp); fp64: Taylor series to x^17 and x^16, whose next terms are
// below 1e-19 at pi/4.
void PassWriter::emit_pass_sincos_folded(const std::string& v, const std::string& n, std::int64_t N) {
  const bool f64 = s_.precision == Precision::Double;
  const std::string quarter = str(N / 4), eighth = str(N / 8);
  const bool power_of_two = (N & (N - 1)) == 0;
  int bits = 0;
  while ((std::int64_t{1} << bits) < N) ++bits;
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.17g", 2.0 / static_cast<double>(N));
  e_.open("");
  // e = n k < N: the pass's twiddle exponents are below its point count.
  const std::string word =
      N <= (std::int64_t{1} << 31) ? "unsigned int" : (d_.kind == DialectKind::Cuda ? "unsigned long long" : "ulong");
  e_.line("const " + word + " e = (" + word + ")" + n + " * (" + word + ")k;");
  if (power_of_two) {
    e_.line("const unsigned int q = (unsigned int)(e >> " + str(bits - 2) + ");");
    e_.line("const " + word + " r = e & (" + quarter + " - 1);");
  } else {
    e_.line("const unsigned int q = (unsigned int)(e / " + quarter + ");");
    e_.line("const " + word + " r = e - (" + word + ")q * " + quarter + ";");
  }
  e_.line("const int fold = r > " + eighth + ";");
  e_.line("const real x = (real)(fold ? " + quarter + " - r : r) * (real)" + std::string(scale) + ";");
  e_.line("const real u = x * x;");
  if (f64) {
    e_.line("const real s0 = x * " + horner(taylor_sinpi_cospi(1, 9)) + ";");
    e_.line("const real c0 = " + horner(taylor_sinpi_cospi(0, 9)) + ";");
  } else {
    e_.line(
        "const real s0 = x * (((-5.881837606e-01f * u + 2.549676657e+00f) * u - 5.167705536e+00f) * u + "
        "3.141592741e+00f);");
    e_.line(
        "const real c0 = (((2.311453223e-01f * u - 1.335022926e+00f) * u + 4.058706760e+00f) * u - 4.934802055e+00f) * "
        "u + 1.0f;");
  }
  // The angle is q pi/2 + t, t in [0, pi/2) (the fold swapped sine and
  // cosine past pi/4): odd quadrants swap them again, the signs follow q.
  e_.line("const int odd = fold ^ (int)(q & 1);");
  e_.line("const real ca = odd ? s0 : c0, sa = odd ? c0 : s0;");
  e_.line("const real cs = ((q + 1) & 2) ? -ca : ca, sn = (q & 2) ? -sa : sa;");
  e_.line(v + " = cmul(" + v + ", cmake(cs, -sn));");
  e_.close();
}

// The Taylor coefficients of sinpi(x) / x (odd = 1) or cospi(x) (odd = 0)
// in u = x^2, `terms` of them: (-1)^k pi^(2k+odd) / (2k+odd)!.
std::vector<long double> PassWriter::taylor_sinpi_cospi(int odd, int terms) {
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<long double> c;
  long double term = odd ? pi : 1.0L;  // pi^(2k+odd) / (2k+odd)!
  for (int k = 0; k < terms; ++k) {
    c.push_back(k % 2 ? -term : term);
    const int m = 2 * k + odd;
    term *= pi * pi / static_cast<long double>((m + 1) * (m + 2));
  }
  return c;
}

// c[0] + u (c[1] + u (c[2] + ...)), the coefficients as double literals.
std::string PassWriter::horner(const std::vector<long double>& c) {
  std::string text;
  for (std::size_t i = c.size(); i-- > 0;) {
    char literal[40];
    std::snprintf(literal, sizeof literal, "%.17g", static_cast<double>(c[i]));
    text = i + 1 == c.size() ? std::string(literal) : "(" + text + ") * u + " + literal;
  }
  return "(" + text + ")";
}

}  // namespace bfly::codegen
