#include "codegen/r2r_kernel.hpp"

namespace bfly::codegen {
namespace {

std::string word(Family family, int type, Precision precision) {
  return std::string(to_string(family)) + std::to_string(type) + "_" + to_string(precision);
}

// The kernel's head, the line's offset and the loop over this group's
// elements: each group takes kR2RItems x kR2RGroupSize consecutive elements
// of one line (`per` a line), so the line, its index over the extents and
// its offset are found once a thread for kR2RItems elements. Found once an
// element they made the kernels bound by their arithmetic (H200, Nsight
// Compute: 80% of the SMs' issue, 0.54 ms for 268 MB each way).
std::string head(const Dialect& d, const std::string& name, const std::string& first_params, const std::string& per,
                 const std::string& last_params) {
  const std::string u = d.u64;
  std::string s = d.kernel_head(name, kR2RGroupSize) + first_params + ", " + u + " count, " + u + " n, " + u + " m, " +
                  u + " d1, " + u + " d2, " + u + " d3, " + u + " s0, " + u + " s1, " + u + " s2, " + u + " s3, " + u +
                  " sa, " + last_params + ") {\n";
  const std::string span = std::to_string(kR2RItems * kR2RGroupSize);
  s += "  const " + u + " per = " + per + ", chunks = (per + " + span + " - 1) / " + span + ";\n";
  // 32-bit quotients where the count fits them (every extent then does):
  // a 64-bit division is a long emulated sequence on a GPU.
  const std::string w = d.u32;
  s += "  const " + u + " g = (" + u + ")" + d.group_id + ";\n";
  s += "  " + u + " line, i0, i1, i2, i3;\n";
  s += "  if (count <= 0xffffffffu) {\n";
  s += "    const " + w + " l = (" + w + ")g / (" + w + ")chunks, e1 = (" + w + ")d1, e2 = (" + w + ")d2, e3 = (" + w +
       ")d3;\n";
  s += "    const " + w + " r3 = l / e3, r2 = r3 / e2;\n";
  s += "    line = l;\n    i3 = l - r3 * e3;\n    i2 = r3 - r2 * e2;\n    i1 = r2 % e1;\n    i0 = r2 / e1;\n";
  s += "  } else {\n";
  s += "    line = g / chunks;\n";
  s += "    i3 = line % d3;\n    i2 = line / d3 % d2;\n    i1 = line / d3 / d2 % d1;\n    i0 = line / d3 / d2 / d1;\n";
  s += "  }\n";
  s += "  if (line * per >= count) return;\n";
  s += "  const " + u + " start = (g - line * chunks) * " + span + " + " + d.local_id + ";\n";
  // Unsigned arithmetic wraps, so a negative stride (its two's complement) works too.
  s += "  const " + u + " base = i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3;\n";
  s += "  for (int item = 0; item < " + std::to_string(kR2RItems) + "; ++item) {\n";
  s += "  const " + u + " at = start + (" + u + ")item * " + std::to_string(kR2RGroupSize) + ";\n";
  s += "  if (at >= per) break;\n";
  s += "  const " + u + " i = line * per + at;\n";
  return s;
}

// Closes the loop over the elements and the kernel.
const char* const kTail = "  }\n}\n";

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
  // Types 1 and 2 write the real FFT's m reals a line, type 3 the half
  // spectrum's m / 2 + 1 points (its C2R's input), type 4 m complex points.
  const bool reals = type == 1 || type == 2;
  s += head(d, r2r_pre_kernel_name(family, type, precision),
            g + (reals ? "real" : "cpx") + "* work, " + g + "const real* src, " + g + "const cpx* tw",
            type == 3 ? "(m / 2 + 1)" : "m", "real first, real last");
  const std::string U = "r2r_u(src, base, sa, n, ";
  const std::string tail = ", first, last)";
  s += "  const " + u + " j = at;\n";
  if (reals) {
    s += "  real v = 0;\n";
    if (type == 2) {  // Makhoul's reorder: the even elements, then the odd ones reversed
      s += "  v = " + U + "j < (n + 1) / 2 ? 2 * j : 2 * (n - 1 - j) + 1" + tail + ";\n";
    } else if (!dst) {
      s += "  v = " + U + "j < n ? j : 2 * n - 2 - j" + tail + ";\n";  // the even extension
    } else {
      // The odd extension: 0, x, 0, -reverse x.
      s += "  if (j >= 1 && j <= n) v = " + U + "j - 1" + tail + ";\n";
      s += "  if (j >= n + 2) v = -" + U + "2 * n + 1 - j" + tail + ";\n";
    }
    s += "  work[i] = v;\n";
    return s + kTail;
  }
  s += "  cpx v;\n  v.x = 0;\n  v.y = 0;\n";
  if (type == 3) {  // V[j] = (x[j] - i x[n - j]) conj(w_4n^j), j <= n / 2: a Hermitian half spectrum
    s += "  const real a = " + U + "j" + tail + ";\n";
    s += "  const real b = j == 0 ? (real)0 : " + U + "n - j" + tail + ";\n";
    s += "  const cpx w = tw[2 * j];\n";
    s += "  v.x = a * w.x - b * w.y;\n  v.y = -(a * w.y + b * w.x);\n";
  } else {
    // Even n (m = n / 2): (x[2j] + i x[n-1-2j]) w_8n^(4j+1); odd n (m = 2n):
    // x[j] w_8n^2j, zero-padded to 2n.
    s += "  if (2 * m == n) {\n";
    s += "    const real a = " + U + "2 * j" + tail + ", b = " + U + "n - 1 - 2 * j" + tail + ";\n";
    s += "    const cpx w = tw[4 * j + 1];\n";
    s += "    v.x = a * w.x - b * w.y;\n    v.y = a * w.y + b * w.x;\n";
    s += "  } else if (j < n) {\n";
    s += "    const real a = " + U + "j" + tail + ";\n";
    s += "    const cpx w = tw[2 * j];\n";
    s += "    v.x = a * w.x;\n    v.y = a * w.y;\n  }\n";
  }
  s += "  work[i] = v;\n";
  return s + kTail;
}

std::string generate_r2r_post(DialectKind kind, Family family, int type, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  const bool dst = family == Family::DST;
  std::string s = d.types(precision);
  // Types 1 and 2 read the real FFT's half spectrum (m / 2 + 1 points a
  // line), type 3 its C2R's m reals, type 4 the complex FFT's m points.
  s += head(d, r2r_post_kernel_name(family, type, precision),
            g + "real* dst, " + g + "const " + (type == 3 ? "real" : "cpx") + "* work, " + g + "const cpx* tw", "n",
            "real scale, real first, real last");
  s += "  const " + u + " k = at, kk = " + (dst && type == 2 ? "n - 1 - k" : "k") + ";\n";
  if (type == 3) {  // Makhoul's de-interleave
    s += "  " + g + "const real* row = work + line * m;\n";
    s += "  real z = row[(kk & 1) ? n - 1 - kk / 2 : kk / 2];\n";
  } else {
    s += "  " + g + "const cpx* row = work + line * " + (type == 4 ? "m" : "(m / 2 + 1)") + ";\n";
    if (type == 1) {
      s += dst ? "  real z = -row[kk + 1].y;\n" : "  real z = row[kk].x;\n";
    } else {
      // Type 2's V[k] above n / 2 is conj V[n - k] (a real FFT's spectrum).
      if (type == 2) {
        s += "  cpx v = row[kk <= n / 2 ? kk : n - kk];\n";
        s += "  if (kk > n / 2) v.y = -v.y;\n";
        s += "  const cpx w = tw[2 * kk];\n";
        s += "  real z = 2 * (w.x * v.x - w.y * v.y);\n";
      } else {
        // Even n: c = V[q] w_8n^(4q), y[2q] = 2 Re c, y[n-1-2q] = -2 Im c.
        s += "  real z;\n";
        s += "  if (2 * m == n) {\n";
        s += "    const " + u + " q = (kk & 1) ? (n - 1 - kk) / 2 : kk / 2;\n";
        s += "    const cpx v = row[q], w = tw[4 * q];\n";
        s += "    z = (kk & 1) ? -2 * (w.x * v.y + w.y * v.x) : 2 * (w.x * v.x - w.y * v.y);\n";
        s += "  } else {\n";
        s += "    const cpx v = row[kk], w = tw[2 * kk + 1];\n";
        s += "    z = 2 * (w.x * v.x - w.y * v.y);\n";
        s += "  }\n";
      }
    }
  }
  if (dst && (type == 3 || type == 4)) s += "  if (k & 1) z = -z;\n";
  s += "  z *= scale;\n  if (k == 0) z *= first;\n  if (k == n - 1) z *= last;\n";
  s += "  dst[base + k * sa] = z;\n";
  return s + kTail;
}

}  // namespace bfly::codegen
