#include "codegen/generic_kernels.hpp"

#include <algorithm>
#include <sstream>

#include "codegen/butterfly.hpp"
#include "codegen/emitter.hpp"
#include "codegen/multiply_kernel.hpp"

namespace bfly::codegen {
namespace {

std::string suffix(Precision precision) { return precision == Precision::Double ? "f64" : "f32"; }

// The complex helpers every generic kernel uses.
std::string preamble(const Dialect& d, Precision precision) {
  const std::string f = std::string(d.function) + " cpx ";
  const std::string fma = precision == Precision::Single && d.kind == DialectKind::Cuda ? d.fma_single : "fma";
  std::string s = d.types(precision);
  s += f + "cmake(real x, real y) { " + d.make_body + " }\n";
  s +=
      f + "cmul(cpx a, cpx b) { return cmake(" + fma + "(a.x, b.x, -a.y * b.y), " + fma + "(a.x, b.y, a.y * b.x)); }\n";
  // The codelets' vocabulary (codegen/butterfly.hpp).
  s += f + "cadd(cpx a, cpx b) { return cmake(a.x + b.x, a.y + b.y); }\n";
  s += f + "csub(cpx a, cpx b) { return cmake(a.x - b.x, a.y - b.y); }\n";
  s += f + "cscale(cpx a, real s) { return cmake(a.x * s, a.y * s); }\n";
  s += f + "crot_mi(cpx a) { return cmake(a.y, -a.x); }\n";
  // A table's entry in the transform's direction (sign -1: conjugated).
  s += f + "tw_at(" + d.global + "const cpx* t, " + d.u64 + " e, real sign) { cpx w = t[e]; w.y *= sign; return w; }\n";
  return s;
}

}  // namespace

std::string generic_row_name(Precision precision, std::int64_t capacity, int max_radix) {
  return "bfly_generic_row_" + suffix(precision) + "_c" + std::to_string(capacity) + "_r" + std::to_string(max_radix) +
         "_g" + std::to_string(kGenericGroupSize);
}

std::vector<int> generic_row_radices(int max_radix) {
  if (max_radix <= 8) return {2, 3, 4, 5, 7, 8};
  return {2, 3, 4, 5, 7, 8, 9, 11, 13, 16};
}

int generic_row_groups(Precision precision, int max_radix) {
  return max_radix <= 8 && precision == Precision::Single ? 6 : 1;
}

std::string generate_generic_row(DialectKind kind, Precision precision, std::int64_t capacity, int max_radix) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64, G = std::to_string(kGenericGroupSize);
  std::string s = preamble(d, precision);
  s += d.kernel_head(generic_row_name(precision, capacity, max_radix), kGenericGroupSize,
                     generic_row_groups(precision, max_radix)) +
       g + "const cpx* in, " + g + "cpx* out, " + g + "const cpx* tw, " + g + "const cpx* fine, " + g +
       "const cpx* coarse, " + u + " n, " + u + " radices, " + u + " stages, " + u + " count, " + u + " per_group, " +
       u + " mid, " + u + " inner, " + u + " in_outer, " + u + " in_mid, " + u + " in_inner, " + u + " in_point, " + u +
       " out_outer, " + u + " out_mid, " + u + " out_inner, " + u + " out_point, " + u + " big_n, " + u +
       " big_bits, real sign, real scale) {\n";
  // Two arrays of the group's points: each stage reads one and writes the
  // other (Stockham). CUDA: dynamic shared memory of the launch's size (a
  // group of short rows takes what it needs, so more groups fit a
  // multiprocessor); OpenCL: `capacity` points each.
  if (kind == DialectKind::Cuda)
    s += "  extern __shared__ cpx buf[];  // 2 per_group n points\n";
  else
    s += "  " + d.local_array("buf", static_cast<std::size_t>(2 * capacity), precision == Precision::Double ? 16 : 8) +
         "\n";
  // In-group indices in 32 bits (a group holds at most `capacity` points:
  // 64-bit division is several times slower on GPUs); transform indices
  // and addresses in 64.
  const std::string w = d.u32;
  s += "  const " + w + " lid = " + d.local_id + ", n32 = (" + w + ")n, total = (" + w + ")(per_group * n);\n";
  s += "  const " + u + " first = (" + u + ")" + d.group_id + " * per_group;\n";
  // Transform t's first point: (o, a, q) from t, where rows are plain (mid
  // and inner 1: o = t) without a division.
  s += "  const bool plain = mid == 1 && inner == 1;\n";
  // Loads: the group's transforms end to end in the first array.
  s += "  for (" + w + " idx = lid; idx < total; idx += " + G + ") {\n";
  s += "    const " + w + " tr = idx / n32, i = idx - tr * n32;\n";
  s += "    const " + u + " t = first + tr;\n";
  s += "    cpx v = cmake(0, 0);\n";
  s += "    if (t < count) {\n";
  s += "      const " + u +
       " q = plain ? 0 : t % inner, a = plain ? 0 : (t / inner) % mid, o = plain ? t : t / (inner * mid);\n";
  s += "      v = in[o * in_outer + a * in_mid + q * in_inner + i * in_point];\n";
  s += "      v.y *= sign;\n";
  s += "    }\n";
  s += "    buf[idx] = v;\n";
  s += "  }\n";
  s += "  " + std::string(d.barrier) + "\n";
  // Stage s (radix r after stages of product p): butterfly i of a transform
  // reads x_q = A[i + q n / r], twiddled by w_(p r)^(q k), k = i mod p, and
  // writes its DFT's y_j to B[(i - k) r + k + j p]; a case a radix, its
  // codelet the specialised kernels' own (codegen/butterfly.hpp, forward:
  // an inverse transform conjugates its points as it loads and stores).
  s += "  " + w + " p = 1, from = 0;\n";
  s += "  for (" + w + " stage = 0; stage < (" + w + ")stages; ++stage) {\n";
  s += "    const " + w + " r = (" + w +
       ")((radices >> (8 * stage)) & 255), m = n32 / r, step = n32 / (p * r), to = total - from;\n";
  s += "    const " + w + " butterflies = (" + w + ")per_group * m;\n";
  s += "    switch (r) {\n";
  for (int radix : generic_row_radices(max_radix)) {
    const std::string rs = std::to_string(radix);
    s += "      case " + rs + ":\n";
    s += "        for (" + w + " idx = lid; idx < butterflies; idx += " + G + ") {\n";
    s += "          const " + w + " tr = idx / m, i = idx - tr * m, k = i % p, base = from + tr * n32 + i;\n";
    std::vector<std::string> inputs;
    for (int q = 0; q < radix; ++q) {
      const std::string x = "x" + std::to_string(q);
      inputs.push_back(x);
      s += "          " + std::string(q == 0 ? "const " : "") + "cpx " + x + " = buf[base" +
           (q ? " + " + std::to_string(q) + " * m" : std::string()) + "];\n";
      if (q > 0) s += "          if (k > 0) " + x + " = cmul(" + x + ", tw[" + std::to_string(q) + " * k * step]);\n";
    }
    Emitter e(precision);
    const std::vector<std::string> y = emit_dft(e, inputs);
    std::istringstream body(e.text());
    for (std::string line; std::getline(body, line);) s += "          " + line + "\n";
    s += "          const " + w + " out_at = to + tr * n32 + (i - k) * " + rs + " + k;\n";
    for (int j = 0; j < radix; ++j)
      s += "          buf[out_at" + (j ? " + " + std::to_string(j) + " * p" : std::string()) +
           "] = " + y[static_cast<std::size_t>(j)] + ";\n";
    s += "        }\n";
    s += "        break;\n";
  }
  s += "    }\n";
  s += "    " + std::string(d.barrier) + "\n";
  s += "    p *= r;\n";
  s += "    from = to;\n";
  s += "  }\n";
  // Stores, with the four-step twiddle where asked.
  s += "  for (" + w + " idx = lid; idx < total; idx += " + G + ") {\n";
  s += "    const " + w + " tr = idx / n32, i = idx - tr * n32;\n";
  s += "    const " + u + " t = first + tr;\n";
  s += "    if (t < count) {\n";
  s += "      const " + u +
       " q = plain ? 0 : t % inner, a = plain ? 0 : (t / inner) % mid, o = plain ? t : t / (inner * mid);\n";
  s += "      cpx v = buf[from + idx];\n";
  s += "      if (big_n > 0) {\n";
  s += "        const " + u + " e = (a * i) % big_n;\n";
  s += "        v = cmul(v, cmul(fine[e & ((((" + u + ")1) << big_bits) - 1)], coarse[e >> big_bits]));\n";
  s += "      }\n";
  s += "      out[o * out_outer + a * out_mid + q * out_inner + i * out_point] = cmake(v.x * scale, v.y * sign * "
       "scale);\n";
  s += "    }\n";
  s += "  }\n";
  s += "}\n";
  return s;
}

std::size_t generic_row_local_bytes(Precision precision, std::int64_t points) {
  return static_cast<std::size_t>(2 * points) * (precision == Precision::Double ? 16 : 8);
}

std::string generic_reshape_name(Precision precision) { return "bfly_generic_reshape_" + suffix(precision); }

std::string generate_generic_reshape(DialectKind kind, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  std::string s = preamble(d, precision);
  std::string args =
      g + "const cpx* src, " + g + "cpx* dst, " + u + " count, " + u + " d1, " + u + " d2, " + u + " d3, " + u + " d4";
  for (const char* p : {"s", "t", "e"}) {
    if (*p == 'e') args += ", " + u + " mode, " + u + " real_axis, " + u + " half_len";
    for (int j = 0; j < 5; ++j) args += ", " + u + " " + p + std::to_string(j);
  }
  args += ", " + u + " mirror, real scale) {\n";
  s += d.kernel_head(generic_reshape_name(precision), kGenericGroupSize) + args;
  s += "  const " + u + " id = (" + u + ")" + d.group_id + " * " + std::to_string(kGenericGroupSize) + " + " +
       d.local_id + ";\n";
  s += "  if (id >= count) return;\n";
  s += "  " + u + " i[5];\n";
  s += "  i[4] = id % d4;\n  " + u + " rest = id / d4;\n";
  s += "  i[3] = rest % d3;\n  rest /= d3;\n";
  s += "  i[2] = rest % d2;\n  rest /= d2;\n";
  s += "  i[1] = rest % d1;\n  i[0] = rest / d1;\n";
  s += "  const " + u + " e[5] = {e0, e1, e2, e3, e4};\n";
  s += "  " + u + " from[5] = {i[0], i[1], i[2], i[3], i[4]};\n";
  s += "  bool conjugate = false;\n";
  s += "  if (mode == 2 && i[real_axis] >= half_len) {\n";
  s += "    conjugate = true;\n";
  s += "    for (int j = 0; j < 5; ++j)\n";
  s += "      if ((mirror >> j) & 1) from[j] = from[j] == 0 ? 0 : e[j] - from[j];\n";
  s += "  }\n";
  s += "  const " + u + " at = from[0] * s0 + from[1] * s1 + from[2] * s2 + from[3] * s3 + from[4] * s4;\n";
  s += "  const " + u + " put = i[0] * t0 + i[1] * t1 + i[2] * t2 + i[3] * t3 + i[4] * t4;\n";
  s += "  cpx v;\n";
  s += "  if (mode == 1) v = cmake(((" + g + "const real*)src)[at], 0);\n";
  s += "  else v = src[at];\n";
  s += "  if (conjugate) v.y = -v.y;\n";
  s += "  if (mode == 3) ((" + g + "real*)dst)[put] = v.x * scale;\n";
  s += "  else dst[put] = cmake(v.x * scale, v.y * scale);\n";
  s += "}\n";
  return s;
}

std::string generic_chirp_name(Precision precision) { return "bfly_generic_chirp_" + suffix(precision); }

std::string generate_generic_chirp(DialectKind kind, Precision precision) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64;
  std::string s = preamble(d, precision);
  s += d.kernel_head(generic_chirp_name(precision), kGenericGroupSize) + g + "const cpx* src, " + g + "cpx* dst, " + g +
       "const cpx* chirp, " + u + " n, " + u + " m, " + u + " count, " + u + " inner, " + u + " outer_stride, " + u +
       " inner_stride, " + u + " point, " + u + " mode, real sign, real scale) {\n";
  s += "  const " + u + " id = (" + u + ")" + d.group_id + " * " + std::to_string(kGenericGroupSize) + " + " +
       d.local_id + ";\n";
  // Mode 0 runs over the dense rows (m points each), mode 1 over the n
  // points a row keeps.
  s += "  const " + u + " width = mode == 0 ? m : n;\n";
  s += "  if (id >= count * width) return;\n";
  s += "  const " + u + " t = id / width, k = id - t * width;\n";
  s += "  const " + u + " strided = (t / inner) * outer_stride + (t % inner) * inner_stride + k * point;\n";
  s += "  if (mode == 0) {\n";
  s += "    dst[t * m + k] = k < n ? cmul(src[strided], tw_at(chirp, k, sign)) : cmake(0, 0);\n";
  s += "  } else {\n";
  s += "    const cpx v = cmul(src[t * m + k], tw_at(chirp, k, sign));\n";
  s += "    dst[strided] = cmake(v.x * scale, v.y * scale);\n";
  s += "  }\n";
  s += "}\n";
  return s;
}

std::int64_t generic_capacity(std::size_t local_memory_bytes, Precision precision) {
  const std::size_t local = std::min<std::size_t>(local_memory_bytes, 48 * 1024);
  return static_cast<std::int64_t>(local / (2 * (precision == Precision::Double ? 16 : 8)));
}

std::vector<std::pair<std::string, std::string>> generic_kernel_sources(DialectKind dialect,
                                                                        std::size_t local_memory_bytes) {
  std::vector<std::pair<std::string, std::string>> out;
  for (Precision precision : {Precision::Single, Precision::Double}) {
    const std::int64_t capacity = generic_capacity(local_memory_bytes, precision);
    for (int max_radix : {8, 16})
      out.emplace_back(generic_row_name(precision, capacity, max_radix),
                       generate_generic_row(dialect, precision, capacity, max_radix));
    out.emplace_back(generic_reshape_name(precision), generate_generic_reshape(dialect, precision));
    out.emplace_back(generic_chirp_name(precision), generate_generic_chirp(dialect, precision));
    out.emplace_back(multiply_kernel_name(precision), generate_multiply(dialect, precision));
  }
  return out;
}

}  // namespace bfly::codegen
