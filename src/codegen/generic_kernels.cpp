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

// The f32 kernel of 8 slots at 10 groups a multiprocessor: 48 registers
// and no spills under NVRTC for sm_90 (12 spilled 48 bytes); the others at
// what the compiler picks alone (69-126 registers).
int generic_row_groups(Precision precision, int max_radix) {
  return max_radix <= 8 && precision == Precision::Single ? 10 : 1;
}

namespace {

// The first point of transform t = (o, a, q) at the strides given, and its
// a: in 32 bits where t and mid * inner fit (64-bit division costs several
// times more on GPUs), without division for plain rows.
std::string first_point_function(const Dialect& d) {
  const std::string u = d.u64, w = d.u32;
  std::string s = std::string(d.function) + " " + u + " first_point(" + u + " t, " + u + " mid, " + u + " inner, " + u +
                  " s_outer, " + u + " s_mid, " + u + " s_inner, " + u + "* a_out) {\n";
  s += "  " + u + " o = t, a = 0, q = 0;\n";
  s += "  if (mid != 1 || inner != 1) {\n";
  s += "    if ((t >> 32) == 0 && ((mid * inner) >> 32) == 0) {\n";
  s += "      const " + w + " t32 = (" + w + ")t, in32 = (" + w + ")inner, r = t32 / in32;\n";
  s += "      q = t32 - r * in32;\n";
  s += "      a = r % (" + w + ")mid;\n";
  s += "      o = r / (" + w + ")mid;\n";
  s += "    } else {\n";
  s += "      q = t % inner;\n";
  s += "      a = (t / inner) % mid;\n";
  s += "      o = t / (inner * mid);\n";
  s += "    }\n";
  s += "  }\n";
  s += "  *a_out = a;\n";
  s += "  return o * s_outer + a * s_mid + q * s_inner;\n";
  s += "}\n";
  return s;
}

// Loads issued together a thread: enough bytes in flight to cover memory
// latency at the tier's occupancy (one load a thread at a time measured
// 0.4x the specialised kernels on an H200).
constexpr int kLoadsInFlight = 8;

// The group's visit of its points for the loads (`load`: kLoadsInFlight
// reads a thread issued before their local writes) or the stores, in the
// shape the launch's order and length want, with each transform's first
// point found once a transform where a thread keeps to it:
//   across, per_group <= G (a power of two): a thread keeps transform
//     lid mod per_group, its points G / per_group apart;
//   across, per_group > G: a thread takes transforms G apart, each whole;
//   along, n >= G: the transforms one after another, a thread's points G apart;
//   along, n < G: G / n transforms a sweep, a thread keeps point lid mod n.
std::string visit_points(const Dialect& d, bool load) {
  const std::string u = d.u64, w = d.u32, G = std::to_string(kGenericGroupSize);
  const std::string F = load ? std::to_string(kLoadsInFlight) : "1";
  const int unroll = load ? kLoadsInFlight : 1;
  const std::string side = load ? "in" : "out";
  const std::string strides = side + "_outer, " + side + "_mid, " + side + "_inner";
  const std::string transform = "const " + u + " t = first + tr;\n" + "const bool valid = t < count;\n" + u +
                                " a = 0;\n" + "const " + u + " at = valid ? first_point(t, mid, inner, " + strides +
                                ", &a) : 0;\n";
  auto indent = [](const std::string& text, int spaces) {
    std::string out, pad(static_cast<std::size_t>(spaces), ' ');
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) out += pad + line + "\n";
    return out;
  };
  // One point: `tr` and `i` its transform and point, `cond` whether it is
  // one of the group's; `per_point` finds the transform's first point too.
  auto points = [&](const std::string& tr, const std::string& i, const std::string& cond, bool per_point) {
    std::string body;
    for (int k = 0; k < unroll; ++k) {
      const std::string K = std::to_string(k);
      const std::string where = "(" + tr + ") * ns32 + (" + i + ")";
      std::string one;
      if (per_point) one += "const " + w + " tr = " + tr + ";\n" + transform;
      one += "const " + w + " i = " + i + ";\n";
      if (load) {
        one += "slot" + K + " = (" + (per_point ? std::string("tr") : tr) + ") * ns32 + i;\n";
        one += "if (valid) v" + K + " = in[at + (" + u + ")i * in_point];\n";
        body += "cpx v" + K + " = cmake(0, 0);\n" + w + " slot" + K + " = area;\n";
      } else {
        one += "if (valid) {\n";
        one += "  cpx v = buf[from + " + where + "];\n";
        one += "  if (big_n > 0) {\n";
        one += "    const " + u + " e = a * i;\n";
        one += "    v = cmul(v, cmul(fine[e & ((((" + u + ")1) << big_bits) - 1)], coarse[e >> big_bits]));\n";
        one += "  }\n";
        one += "  out[at + (" + u + ")i * out_point] = cmake(v.x * scale, v.y * sign * scale);\n";
        one += "}\n";
      }
      body += "if (" + cond + ") {\n" + indent(one, 2) + "}\n";
      // Substitute the unrolled copy's index k.
      std::string::size_type at;
      while ((at = body.find("@K")) != std::string::npos) body.replace(at, 2, K);
    }
    if (load)
      for (int k = 0; k < unroll; ++k) {
        const std::string K = std::to_string(k);
        body += "if (slot" + K + " < area) buf[slot" + K + "] = cmake(v" + K + ".x, v" + K + ".y * sign);\n";
      }
    return body;
  };
  const std::string across = load ? "across_in" : "across_out";
  std::string s;
  s += "if (" + across + " && pg <= " + G + ") {\n";
  s += "  const " + w + " tr = lid & (pg - 1), step = " + G + " / pg;\n";
  s += indent(transform, 2);
  s += "  for (" + w + " i0 = lid / pg; i0 < n32; i0 += " + F + " * step) {\n";
  s += indent(points("tr", "i0 + @K * step", "i0 + @K * step < n32", false), 4);
  s += "  }\n";
  s += "} else if (" + across + ") {\n";
  s += "  for (" + w + " tr = lid; tr < pg; tr += " + G + ") {\n";
  s += indent(transform, 4);
  s += "    for (" + w + " i0 = 0; i0 < n32; i0 += " + F + ") {\n";
  s += indent(points("tr", "i0 + @K", "i0 + @K < n32", false), 6);
  s += "    }\n";
  s += "  }\n";
  s += "} else if (n32 >= " + G + ") {\n";
  s += "  for (" + w + " tr = 0; tr < pg; ++tr) {\n";
  s += indent(transform, 4);
  s += "    for (" + w + " i0 = lid; i0 < n32; i0 += " + F + " * " + G + ") {\n";
  s += indent(points("tr", "i0 + @K * " + G, "i0 + @K * " + G + " < n32", false), 6);
  s += "    }\n";
  s += "  }\n";
  s += "} else {\n";
  s += "  const " + w + " sweep = " + G + " / n32, tr0 = lid / n32, own = lid - tr0 * n32;\n";
  s += "  if (tr0 < sweep)\n";
  s += "    for (" + w + " t0 = tr0; t0 < pg; t0 += " + F + " * sweep) {\n";
  s += indent(points("t0 + @K * sweep", "own", "t0 + @K * sweep < pg", true), 6);
  s += "    }\n";
  s += "}\n";
  return indent(s, 2);
}

}  // namespace

std::string generate_generic_row(DialectKind kind, Precision precision, std::int64_t capacity, int max_radix) {
  const Dialect& d = dialect(kind);
  const std::string g = d.global, u = d.u64, G = std::to_string(kGenericGroupSize);
  std::string s = preamble(d, precision) + first_point_function(d);
  s += d.kernel_head(generic_row_name(precision, capacity, max_radix), kGenericGroupSize,
                     generic_row_groups(precision, max_radix)) +
       g + "const cpx* in, " + g + "cpx* out, " + g + "const cpx* tw, " + g + "const cpx* fine, " + g +
       "const cpx* coarse, " + u + " n, " + u + " ns, " + u + " radices, " + u + " stages, " + u + " count, " + u +
       " per_group, " + u + " order, " + u + " mid, " + u + " inner, " + u + " in_outer, " + u + " in_mid, " + u +
       " in_inner, " + u + " in_point, " + u + " out_outer, " + u + " out_mid, " + u + " out_inner, " + u +
       " out_point, " + u + " big_n, " + u + " big_bits, real sign, real scale) {\n";
  // Two arrays of the group's points: each stage reads one and writes the
  // other (Stockham). CUDA: dynamic shared memory of the launch's size (a
  // group of short rows takes what it needs, so more groups fit a
  // multiprocessor); OpenCL: `capacity` points each.
  if (kind == DialectKind::Cuda)
    s += "  extern __shared__ cpx buf[];  // 2 per_group ns points\n";
  else
    s += "  " + d.local_array("buf", static_cast<std::size_t>(2 * capacity), precision == Precision::Double ? 16 : 8) +
         "\n";
  // In-group indices in 32 bits (a group holds at most `capacity` points);
  // transform indices and addresses in 64. Transform tr of the group keeps
  // its point i at tr * ns + i (ns = n, or n + 1 where transforms are
  // visited across: consecutive threads then touch different banks).
  const std::string w = d.u32;
  s += "  const " + w + " lid = " + d.local_id + ", n32 = (" + w + ")n, ns32 = (" + w + ")ns, pg = (" + w +
       ")per_group;\n";
  s += "  const " + w + " area = pg * ns32;\n";
  s += "  const " + u + " first = (" + u + ")" + d.group_id + " * per_group;\n";
  // Visiting order of a load or store: along a transform (consecutive
  // threads, consecutive points: rows in unit stride) or across transforms
  // (consecutive threads, consecutive transforms: columns, whose points are
  // strided but whose transforms sit side by side), bit 0 loads, bit 1 stores.
  s += "  const bool across_in = (order & 1) != 0, across_out = (order & 2) != 0;\n";
  // Loads.
  s += visit_points(d, true);
  s += "  " + std::string(d.barrier) + "\n";
  // Stage s (radix r after stages of product p): butterfly i of a transform
  // reads x_q = A[i + q n / r], twiddled by w_(p r)^(q k), k = i mod p, and
  // writes its DFT's y_j to B[(i - k) r + k + j p]; a case a radix, its
  // codelet the specialised kernels' own (codegen/butterfly.hpp, forward:
  // an inverse transform conjugates its points as it loads and stores).
  // Quotients of in-group indices (below 2^16) by a stage's run-time
  // divisors through a float reciprocal nudged up by 2^-20: exact there
  // (the nudge outweighs two roundings and stays below 1/d of the next
  // integer), a quarter of an integer division's instructions. Divisions
  // by the radix are by a constant, in its case.
  s += "  " + w + " p = 1, from = 0, rest = n32;  // rest = n / p\n";
  s += "  for (" + w + " stage = 0; stage < (" + w + ")stages; ++stage) {\n";
  s += "    const " + w + " r = (" + w + ")((radices >> (8 * stage)) & 255), to = area - from;\n";
  s += "    const float over_p = (1.0f / (float)p) * 1.00000095367431640625f;\n";
  s += "    switch (r) {\n";
  for (int radix : generic_row_radices(max_radix)) {
    const std::string rs = std::to_string(radix);
    s += "      case " + rs + ": {\n";
    s += "        const " + w + " m = n32 / " + rs + ", step = rest / " + rs + ", butterflies = pg * m;\n";
    s += "        const float over_m = (1.0f / (float)m) * 1.00000095367431640625f;\n";
    s += "        for (" + w + " idx = lid; idx < butterflies; idx += " + G + ") {\n";
    s += "          const " + w + " tr = pg == 1 ? 0 : (" + w + ")((float)idx * over_m), i = idx - tr * m;\n";
    s += "          const " + w + " k = p == 1 ? 0 : i - (" + w + ")((float)i * over_p) * p;\n";
    s += "          const " + w + " base = from + tr * ns32 + i;\n";
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
    s += "          const " + w + " out_at = to + tr * ns32 + (i - k) * " + rs + " + k;\n";
    for (int j = 0; j < radix; ++j)
      s += "          buf[out_at" + (j ? " + " + std::to_string(j) + " * p" : std::string()) +
           "] = " + y[static_cast<std::size_t>(j)] + ";\n";
    s += "        }\n";
    s += "        rest = step;\n";
    s += "        break;\n";
    s += "      }\n";
  }
  s += "    }\n";
  s += "    " + std::string(d.barrier) + "\n";
  s += "    p *= r;\n";
  s += "    from = to;\n";
  s += "  }\n";
  // Stores, with the four-step twiddle w_big_n^(a i) where asked (a < mid
  // and i < n, so a i < big_n).
  s += visit_points(d, false);
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
  // The index's digits in 32 bits where the array's count fits (64-bit
  // division costs several times more on GPUs).
  const std::string w = d.u32;
  s += "  if ((count >> 32) == 0) {\n";
  s += "    " + w + " r = (" + w + ")id;\n";
  s += "    const " + w + " e4 = (" + w + ")d4, e3 = (" + w + ")d3, e2 = (" + w + ")d2, e1 = (" + w + ")d1;\n";
  s += "    " + w + " next = r / e4;\n    i[4] = r - next * e4;\n    r = next;\n";
  s += "    next = r / e3;\n    i[3] = r - next * e3;\n    r = next;\n";
  s += "    next = r / e2;\n    i[2] = r - next * e2;\n    r = next;\n";
  s += "    next = r / e1;\n    i[1] = r - next * e1;\n    i[0] = next;\n";
  s += "  } else {\n";
  s += "    i[4] = id % d4;\n    " + u + " rest = id / d4;\n";
  s += "    i[3] = rest % d3;\n    rest /= d3;\n";
  s += "    i[2] = rest % d2;\n    rest /= d2;\n";
  s += "    i[1] = rest % d1;\n    i[0] = rest / d1;\n";
  s += "  }\n";
  // The Hermitian mirror, digit by digit in registers (an array indexed
  // by real_axis would live in local memory).
  s += "  const " + u +
       " mine = real_axis == 0 ? i[0] : real_axis == 1 ? i[1] : real_axis == 2 ? i[2] : "
       "real_axis == 3 ? i[3] : i[4];\n";
  s += "  const bool conjugate = mode == 2 && mine >= half_len;\n";
  s += "  " + u + " from[5];\n";
  for (int j = 0; j < 5; ++j) {
    const std::string J = std::to_string(j);
    s += "  from[" + J + "] = conjugate && ((mirror >> " + J + ") & 1) && i[" + J + "] != 0 ? e" + J + " - i[" + J +
         "] : i[" + J + "];\n";
  }
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
