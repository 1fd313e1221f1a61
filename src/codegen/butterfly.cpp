#include "codegen/butterfly.hpp"

#include <map>

#include "twiddle/oracle.hpp"

namespace bfly::codegen {
namespace {

// Composite radices as (r1, r2): DFT_r1 on each of r2 interleaved subsets,
// constant twiddles, then DFT_r2 (one Cooley-Tukey step inside registers).
const std::map<int, std::pair<int, int>>& compositions() {
  static const std::map<int, std::pair<int, int>> table{
      {8, {2, 4}},
      {16, {4, 4}},
      {9, {3, 3}},
      {6, {2, 3}},
      {10, {2, 5}},
      {12, {4, 3}},
      {14, {2, 7}},
      {15, {3, 5}},
      {25, {5, 5}},
      // Past 16 only where DeviceLimits::composite_radices asks (plan/
      // composite_radices.cpp): a stage fewer for one-pass rows.
      {18, {2, 9}},
      {20, {4, 5}},
      {21, {3, 7}},
      {24, {8, 3}},
      {27, {3, 9}},
      {28, {4, 7}},
      // Only where a tuning table asks for it (plan/factorize.hpp,
      // tunable_radices): 32 points a thread for long powers of two, one
      // exchange fewer (16384 = 32 x 32 x 16).
      {32, {4, 8}},
  };
  return table;
}

std::vector<std::string> radix2(Emitter& e, const std::vector<std::string>& a) {
  return {e.temp("cadd(" + a[0] + ", " + a[1] + ")"), e.temp("csub(" + a[0] + ", " + a[1] + ")")};
}

std::vector<std::string> radix4(Emitter& e, const std::vector<std::string>& a) {
  const std::string s0 = e.temp("cadd(" + a[0] + ", " + a[2] + ")");
  const std::string d0 = e.temp("csub(" + a[0] + ", " + a[2] + ")");
  const std::string s1 = e.temp("cadd(" + a[1] + ", " + a[3] + ")");
  const std::string d1 = e.temp("crot_mi(csub(" + a[1] + ", " + a[3] + "))");  // -i (a1 - a3)
  return {e.temp("cadd(" + s0 + ", " + s1 + ")"), e.temp("cadd(" + d0 + ", " + d1 + ")"),
          e.temp("csub(" + s0 + ", " + s1 + ")"), e.temp("csub(" + d0 + ", " + d1 + ")")};
}

// Odd prime p by the symmetric pairs a_j +- a_{p-j}: X_k = a0 + sum_j
// cos(2 pi jk/p)(a_j + a_{p-j}) - i sum_j sin(2 pi jk/p)(a_j - a_{p-j}),
// and X_{p-k} the same with +i.
std::vector<std::string> odd_prime(Emitter& e, const std::vector<std::string>& a) {
  const int p = static_cast<int>(a.size());
  const int h = (p - 1) / 2;
  std::vector<std::string> sum(h + 1), diff(h + 1);
  for (int j = 1; j <= h; ++j) {
    sum[j] = e.temp("cadd(" + a[j] + ", " + a[p - j] + ")");
    diff[j] = e.temp("csub(" + a[j] + ", " + a[p - j] + ")");
  }
  std::vector<std::string> out(p);
  std::string x0 = a[0];
  for (int j = 1; j <= h; ++j) x0 = "cadd(" + x0 + ", " + sum[j] + ")";
  out[0] = e.temp(x0);
  for (int k = 1; k <= h; ++k) {
    std::string re_x = a[0] + ".x", re_y = a[0] + ".y", im_x, im_y;
    for (int j = 1; j <= h; ++j) {
      const auto w = twiddle::root(static_cast<long long>(j) * k, p);  // cos - i sin
      const std::string c = e.real(w.real()), s = e.real(-w.imag());
      re_x += " + " + c + " * " + sum[j] + ".x";
      re_y += " + " + c + " * " + sum[j] + ".y";
      im_x += (j > 1 ? " + " : "") + s + " * " + diff[j] + ".x";
      im_y += (j > 1 ? " + " : "") + s + " * " + diff[j] + ".y";
    }
    const std::string re = e.temp("cmake(" + re_x + ", " + re_y + ")");
    const std::string im = e.temp("crot_mi(cmake(" + im_x + ", " + im_y + "))");  // -i * im
    out[k] = e.temp("cadd(" + re + ", " + im + ")");
    out[p - k] = e.temp("csub(" + re + ", " + im + ")");
  }
  return out;
}

std::vector<std::string> composite(Emitter& e, const std::vector<std::string>& a, int r1, int r2) {
  const int r = r1 * r2;
  // Input n = r2*n1 + n2, output k = k1 + r1*k2.
  std::vector<std::vector<std::string>> y(r2);  // y[n2][k1]
  for (int n2 = 0; n2 < r2; ++n2) {
    std::vector<std::string> column(r1);
    for (int n1 = 0; n1 < r1; ++n1) column[n1] = a[r2 * n1 + n2];
    y[n2] = emit_dft(e, column);
  }
  std::vector<std::string> out(r);
  for (int k1 = 0; k1 < r1; ++k1) {
    std::vector<std::string> row(r2);
    for (int n2 = 0; n2 < r2; ++n2) row[n2] = emit_constant_twiddle(e, y[n2][k1], static_cast<long long>(n2) * k1, r);
    const std::vector<std::string> z = emit_dft(e, row);
    for (int k2 = 0; k2 < r2; ++k2) out[k1 + r1 * k2] = z[k2];
  }
  return out;
}

}  // namespace

std::string emit_constant_twiddle(Emitter& e, const std::string& v, long long exponent, long long n) {
  exponent %= n;
  if (exponent == 0) return v;
  if ((8 * exponent) % n == 0) {
    const std::string h = e.real(0.707106781186547524400844362104849039L);
    switch ((8 * exponent) / n) {
      case 2:
        return e.temp("crot_mi(" + v + ")");  // -i
      case 4:
        return e.temp("cmake(-" + v + ".x, -" + v + ".y)");  // -1
      case 6:
        return e.temp("cmake(-" + v + ".y, " + v + ".x)");  // +i
      case 1:
        return e.temp("cscale(cmake(" + v + ".x + " + v + ".y, " + v + ".y - " + v + ".x), " + h + ")");
      case 3:
        return e.temp("cscale(cmake(" + v + ".y - " + v + ".x, -" + v + ".x - " + v + ".y), " + h + ")");
      case 5:
        return e.temp("cscale(cmake(-" + v + ".x - " + v + ".y, " + v + ".x - " + v + ".y), " + h + ")");
      case 7:
        return e.temp("cscale(cmake(" + v + ".x - " + v + ".y, " + v + ".x + " + v + ".y), " + h + ")");
    }
  }
  const auto w = twiddle::root(exponent, n);
  return e.temp("cmul(" + v + ", cmake(" + e.real(w.real()) + ", " + e.real(w.imag()) + "))");
}

std::vector<std::string> emit_dft(Emitter& e, const std::vector<std::string>& inputs) {
  const int r = static_cast<int>(inputs.size());
  if (r == 1) return inputs;
  if (r == 2) return radix2(e, inputs);
  if (r == 4) return radix4(e, inputs);
  const auto split = compositions().find(r);
  if (split != compositions().end()) return composite(e, inputs, split->second.first, split->second.second);
  if (r % 2 == 1) return odd_prime(e, inputs);
  throw Error(ErrorCode::Unsupported, "no butterfly for radix " + std::to_string(r));
}

}  // namespace bfly::codegen
