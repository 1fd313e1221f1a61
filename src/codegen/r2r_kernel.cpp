#include "codegen/r2r_kernel.hpp"

namespace bfly::codegen {
namespace {

std::string word(Family family, int type, Precision precision) {
  return std::string(to_string(family)) + std::to_string(type) + "_" + to_string(precision);
}

// The kernel's head and the line's offset: `per` points a line.
std::string head(const Dialect& d, const std::string& name, const std::string& first_params, const std::string& per,
                 const std::string& last_params) {
  const std::string u = d.u64;
  std::string s = d.kernel_head(name, kR2RGroupSize) + first_params + ", " + u + " count, " + u + " n, " + u + " m, " +
                  u + " d1, " + u + " d2, " + u + " d3, " + u + " s0, " + u + " s1, " + u + " s2, " + u + " s3, " + u +
                  " sa, " + last_params + ") {\n";
  s += "  const " + u + " i = (" + u + ")" + d.group_id + " * " + std::to_string(kR2RGroupSize) + " + " + d.local_id +
       ";\n";
  s += "  if (i >= count) return;\n";
  s += "  const " + u + " line = i / " + per + ", at = i % " + per + ";\n";
  s += "  const " + u + " i3 = line % d3, r3 = line / d3, i2 = r3 % d2, r2 = r3 / d2, i1 = r2 % d1, i0 = r2 / d1;\n";
  // Unsigned arithmetic wraps, so a negative stride (its two's complement) works too.
  s += "  const " + u + " base = i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3;\n";
  return s;
}

}  // namespace

std::string r2r_pre_kernel_name(Family family, int type, Precision precision) {
  return "bfly_r2r_pre_" + word(family, type, precision);
}
std::string r2r_post_kernel_name(Family family, int type, Precision precision) {
  return "bfly_r2r_post_" + word(family, type, precision);
}

std::string generate_r2r_pre(DialectKind kind, Family family, int type, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  const bool dst = family == Family::DST;
  std::string s = d.types(precision);
  // u[q]: the DCT's input. The DSTs' of types 2, 3 and 4 are DCTs of the
  // sign-flipped or reversed input (plan/solvers/r2r.cpp).
  s += std::string(d.function) + " real r2r_u(" + g + "const real* src, " + u + " base, " + u + " sa, " + u + " n, " +
       u + " q, real first, real last) {\n";
  s += "  const " + u + " e = " + (dst && (type == 3 || type == 4) ? "n - 1 - q" : "q") + ";\n";
  s += "  real v = src[base + e * sa];\n";
  s += "  if (e == 0) v *= first;\n";
  s += "  if (e == n - 1) v *= last;\n";
  if (dst && type == 2) s += "  if (q & 1) v = -v;\n";
  s += "  return v;\n}\n";
  s += head(d, r2r_pre_kernel_name(family, type, precision),
            g + "cpx* work, " + g + "const real* src, " + g + "const cpx* tw", "m", "real first, real last");
  const std::string U = "r2r_u(src, base, sa, n, ";
  const std::string tail = ", first, last)";
  s += "  const " + u + " j = at;\n";
  s += "  cpx v;\n  v.x = 0;\n  v.y = 0;\n";
  switch (type) {
    case 1:
      if (!dst) {
        s += "  v.x = " + U + "j < n ? j : 2 * n - 2 - j" + tail + ";\n";  // the even extension
      } else {
        // The odd extension: 0, x, 0, -reverse x.
        s += "  if (j >= 1 && j <= n) v.x = " + U + "j - 1" + tail + ";\n";
        s += "  if (j >= n + 2) v.x = -" + U + "2 * n + 1 - j" + tail + ";\n";
      }
      break;
    case 2:  // Makhoul's reorder: the even elements, then the odd ones reversed
      s += "  v.x = " + U + "j < (n + 1) / 2 ? 2 * j : 2 * (n - 1 - j) + 1" + tail + ";\n";
      break;
    case 3:  // (x[j] - i x[n - j]) conj(w_4n^j)
      s += "  const real a = " + U + "j" + tail + ";\n";
      s += "  const real b = j == 0 ? (real)0 : " + U + "n - j" + tail + ";\n";
      s += "  const cpx w = tw[2 * j];\n";
      s += "  v.x = a * w.x - b * w.y;\n  v.y = -(a * w.y + b * w.x);\n";
      break;
    default:  // x[j] w_8n^2j, zero-padded to 2n
      s += "  if (j < n) {\n";
      s += "    const real a = " + U + "j" + tail + ";\n";
      s += "    const cpx w = tw[2 * j];\n";
      s += "    v.x = a * w.x;\n    v.y = a * w.y;\n  }\n";
  }
  s += "  work[i] = v;\n}\n";
  return s;
}

std::string generate_r2r_post(DialectKind kind, Family family, int type, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  const bool dst = family == Family::DST;
  std::string s = d.types(precision);
  s +=
      head(d, r2r_post_kernel_name(family, type, precision),
           g + "real* dst, " + g + "const cpx* work, " + g + "const cpx* tw", "n", "real scale, real first, real last");
  s += "  const " + u + " k = at, kk = " + (dst && type == 2 ? "n - 1 - k" : "k") + ";\n";
  s += "  " + g + "const cpx* row = work + line * m;\n";
  switch (type) {
    case 1:
      s += dst ? "  real z = -row[kk + 1].y;\n" : "  real z = row[kk].x;\n";
      break;
    case 2:
    case 4: {
      s += "  const cpx w = tw[" + std::string(type == 2 ? "2 * kk" : "2 * kk + 1") + "], v = row[kk];\n";
      s += "  real z = 2 * (w.x * v.x - w.y * v.y);\n";
      break;
    }
    default:  // Makhoul's de-interleave
      s += "  real z = row[(kk & 1) ? n - 1 - kk / 2 : kk / 2].x;\n";
  }
  if (dst && (type == 3 || type == 4)) s += "  if (k & 1) z = -z;\n";
  s += "  z *= scale;\n  if (k == 0) z *= first;\n  if (k == n - 1) z *= last;\n";
  s += "  dst[base + k * sa] = z;\n}\n";
  return s;
}

}  // namespace bfly::codegen
