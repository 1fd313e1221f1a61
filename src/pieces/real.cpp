// Real transforms (plan/solvers/real_axis.cpp): the real axis's first pass
// reads one side and its last pass writes the other. Loads: the real x[j]
// as x[j] + 0i (RealLoad::Real), the full spectrum from the half, X[j] for
// j <= n/2 and conj X[n - j] above (Hermitian), and the packed forms of an
// even axis, a complex FFT of n/2 points z[j] = x[2j] + i x[2j+1]: two
// reals a point (Pairs), Z[k] from X[k] and X[n/2 - k] (Mirror). Stores:
// the half spectrum (Half), the real parts (Real), the packed forward's
// split X[k] = E[k] + w_n^k O[k] through local memory (Split, and
// SplitPaired in the last of several passes), two reals a point (Pairs).
// The tables argument holds the split's w_n^k (runtime/plan_impl.cpp).
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::pieces {
namespace {

using plan::KernelSpec;
using RealLoad = KernelSpec::RealLoad;
using RealStore = KernelSpec::RealStore;
using codegen::PassWriter;

std::string str(std::int64_t v) { return std::to_string(v); }

// Two reals as one complex access (real_pairs_aligned): the real side's
// type two at a time (half storage's hcpx where it holds 16-bit values).
std::string pair_type(const KernelSpec& s, bool source) {
  return pieces::element_type(s, source) == "hreal" ? "hcpx" : "cpx";
}

// The real axis's length n: Bluestein's kernels take it at run time.
std::string real_n(const KernelSpec& s) { return s.bluestein() ? "chirp_n" : str(s.real_length); }

// w_n^e for the split: one lookup, or two and a product.
std::string real_twiddle(const KernelSpec& s, const std::string& e) {
  if (s.real_twiddle_bits == 0) return "tables[" + e + "]";
  const std::int64_t fine = std::int64_t{1} << s.real_twiddle_bits;
  return "cmul(tables[(" + e + ") & " + str(fine - 1) + "], tables[" + str(fine) + " + ((" + e + ") >> " +
         std::to_string(s.real_twiddle_bits) + ")])";
}

// The packed inverse's loads: Z[j] = E' + i O' from X[j] and X[n/2 - j]
// (j the point's index along the axis), conjugated for the forward FFT
// that follows. Memory holds conj X where an earlier pass of this inverse
// wrote it (in_sign 1), X itself on the first pass (in_sign -1). As
// numpy's irfft, the imaginary parts of X[0] and X[n/2] are ignored.
void mirror_read(PassWriter& w, const std::string& v, const std::string& n) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t S = s.in_point_stride, H = s.real_length / 2;
  e.open("");
  e.line("const " + w.idx() + " kk = " + std::string(s.axis_dim >= 0 ? "ci + " : "") + "(" + w.idx() + ")" + n + " * " +
         str(s.axis_stride) + ";");
  const std::string a_at = "(" + w.idx() + ")" + n + " * " + str(S),
                    c_at = "axis_off + (" + str(H) + " - kk) * " + str(S / s.axis_stride);
  e.line("cpx a = " + w.loaded("src[" + a_at + "]", false, "in_off + " + a_at) +
         ", c = " + w.loaded("in[" + c_at + "]", false, c_at) + ";");
  e.line("a.y *= -in_sign; c.y *= -in_sign;");
  e.open("if (kk == 0)");
  e.line("a.y = 0; c.y = 0;");
  e.close();
  e.line("const cpx w = " + real_twiddle(s, "kk") + ";");
  e.line("const cpx even = cmake(a.x + c.x, a.y - c.y);");
  e.line("const cpx odd = cmul(cmake(a.x - c.x, a.y + c.y), cmake(w.x, -w.y));");
  e.line(v + " = cmake(even.x - odd.y, -(even.y + odd.x));");
  e.close();
}

// A real axis's last stores: the half spectrum (output e = k + k' * P of
// the n-point transform, e <= n/2), the real parts, or (packed inverse)
// z[j] as the two reals x[2j], x[2j+1].
void real_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, S = s.out_point_stride;
  const std::string k = s.twiddle_dim >= 0 ? "k + " : "";
  w.for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string point = "(" + w.idx() + ")(b + " + str(t * (R / r)) + ")";
      const std::string v = w.x(j * r + t), at = point + " * " + str(S);
      switch (s.real_store) {
        case RealStore::Half:
          e.line("if (" + k + point + " * " + str(s.stride_product) + " <= " + str(s.real_length / 2) + ") dst[" + at +
                 "] = " + w.product(w.scaled(v), "out_off + " + at) + ";");
          break;
        case RealStore::Real:
          e.line("dst[" + at + "] = " + w.real_stored(v + ".x * out_re", "out_off + " + at) + ";");
          break;
        default:  // Pairs
          if (s.real_pairs_aligned) {
            e.line("((" + std::string(w.dialect().global) + pair_type(s, false) + "*)dst)[" + point +
                   "] = " + w.product(w.scaled(v), "out_off + " + at) + ";");
          } else {
            e.line("dst[" + at + "] = " + w.real_stored(v + ".x * out_re", "out_off + " + at) + ";");
            e.line("dst[" + at + " + " + str(S / 2) +
                   "] = " + w.real_stored(v + ".y * out_im", "out_off + " + at + " + " + str(S / 2)) + ";");
          }
      }
    }
  });
}

// The packed forward's split: Z into local memory in natural order, then
// X[k] = E[k] + w_n^k O[k] for k = 0..n/2 from Z[k] and Z[n/2 - k]. A
// thread takes k and n/2 - k at once: with t = w_n^k O[k], X[k] = E + t and
// X[n/2 - k] = conj(E - t) (E and O of n/2 - k are the conjugates of k's,
// and w_n^(n/2 - k) = -conj w_n^k), so each pair costs two local reads and
// one twiddle where each output cost them before (H200: the one-pass R2C
// ran at 0.7 of the copy, bound by the split's instructions).
void split_pair(PassWriter& w, const std::string& m, const std::string& k, const std::string& first,
                const std::string& second, const std::string& first_at, const std::string& second_at) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length;
  e.line("const cpx a = " + w.local(m, k) + ";");
  e.line("const cpx c = " + w.local(m, "(" + k + " == 0 ? 0 : " + str(R) + " - " + k + ")") + ";");
  e.line("const cpx even = cmake(" + w.half("a.x + c.x") + ", " + w.half("a.y - c.y") + ");");
  e.line("const cpx tw = cmul(" + real_twiddle(s, k) + ", cmake(" + w.half("a.y + c.y") + ", " + w.half("c.x - a.x") +
         "));");
  e.line("const cpx y0 = cadd(even, tw), y1 = cmake(even.x - tw.x, tw.y - even.y);");
  e.line(first + " = " + w.product(w.scaled("y0"), first_at) + ";");
  // (k = n/4 is its own partner where n/2 is even.)
  e.line(std::string(R % 2 == 0 ? "if (2 * " + k + " != " + str(R) + ") " : "") + second + " = " +
         w.product(w.scaled("y1"), second_at) + ";");
}

void split_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t R = s.length, pairs = R / 2 + 1;
  const int T = s.threads_per_transform;
  w.for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e.line(w.local("m", "b + " + str(t * (R / r))) + " = " + w.x(j * r + t) + ";");
  });
  e.line(w.dialect().barrier);
  const int M = s.transforms_per_group;
  if (s.dims.size() == 1 && s.out_point_stride == 1 && s.dims[0].out_stride == R + 1 && M > 1) {
    // The group's rows of n/2 + 1 outputs lie end to end: consecutive
    // threads take consecutive pairs of the whole group, so both of a
    // warp's stores are runs of adjacent points (a row per T threads wrote
    // 8-point pieces across row boundaries that are not aligned).
    const std::int64_t row = R + 1, all = pairs * M, G = s.group_size();
    e.line("const " + w.u64() + " g0 = (" + w.u64() + ")" + w.dialect().group_id + " * " + str(M) + ";");
    e.line(w.dialect().global + w.out_type() + "* block = out + g0 * " + str(row) + ";");
    for (std::int64_t q = 0; q * G < all; ++q) {
      e.open("");
      e.line("const " + w.u32() + " i = lid + " + str(q * G) + ", m2 = i / " + str(pairs) + ", kk = i % " + str(pairs) +
             ", at = m2 * " + str(row) + " + kk;");
      e.open("if (" + std::string((q + 1) * G > all ? "i < " + str(all) + " && " : "") + "g0 + m2 < transforms)");
      split_pair(w, "m2", "kk", "block[at]", "block[at + " + str(R) + " - 2 * kk]", "g0 * " + str(row) + " + at",
                 "g0 * " + str(row) + " + at + " + str(R) + " - 2 * kk");
      e.close();
      e.close();
    }
    return;
  }
  const std::string S = str(s.out_point_stride);
  for (std::int64_t q = 0; q * T < pairs; ++q) {
    e.open("");
    e.line("const " + w.u32() + " kk = t + " + str(q * T) + ";");
    e.open("if (valid" + std::string((q + 1) * T > pairs ? " && kk < " + str(pairs) : "") + ")");
    const std::string at = "(" + w.idx() + ")kk * " + S, mirror = "(" + w.idx() + ")(" + str(R) + " - kk) * " + S;
    split_pair(w, "m", "kk", "dst[" + at + "]", "dst[" + mirror + "]", "out_off + " + at, "out_off + " + mirror);
    e.close();
    e.close();
  }
}

// The forward split in the last of several passes: this transform's
// outputs e = k + k' * P (k = kq) into local memory, then X[e] from Z[e]
// and Z[n/2 - e], which sub-transform P - k holds at k'' = L - 1 - k' (the
// group's transform m -+ M/2; itself where k = P/2), or, for k = 0, this
// one at (L - k') mod L. The k = 0 transform also writes X[n/2].
void split_paired_store(PassWriter& w, int r) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t L = s.length, P = s.stride_product;
  const int T = s.threads_per_transform, M = s.transforms_per_group;
  w.for_each_butterfly(L / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e.line(w.local("m", "b + " + str(t * (L / r))) + " = " + w.x(j * r + t) + ";");
  });
  e.line(w.dialect().barrier);
  e.line("const " + w.u32() + " pm = kq == 0 || 2 * kq == " + str(P) + " ? m : partner ? m - " + str(M / 2) +
         " : m + " + str(M / 2) + ";");
  for (std::int64_t q = 0; q * T < L; ++q) {
    e.open("");
    e.line("const " + w.u32() + " kp = t + " + str(q * T) + ";");
    e.open("if (valid" + std::string((q + 1) * T > L ? " && kp < " + str(L) : "") + ")");
    e.line("const " + w.u32() + " pos = kq == 0 ? (" + str(L) + " - kp) % " + str(L) + " : " + str(L - 1) + " - kp;");
    e.line("const cpx a = " + w.local("m", "kp") + ";");
    e.line("const cpx c = " + w.local("pm", "pos") + ";");
    e.line("const cpx even = cmake(" + w.half("a.x + c.x") + ", " + w.half("a.y - c.y") + ");");
    e.line("const cpx odd = cmake(" + w.half("a.y + c.y") + ", " + w.half("c.x - a.x") + ");");
    e.line("const " + w.idx() + " e = (" + w.idx() + ")kq + (" + w.idx() + ")kp * " + str(P) + ";");
    const std::string at = "(" + w.idx() + ")kp * " + str(s.out_point_stride);
    const std::string last = "(" + w.idx() + ")" + str(L) + " * " + str(s.out_point_stride);
    e.line("dst[" + at + "] = " +
           w.product(w.scaled("cadd(even, cmul(" + real_twiddle(s, "e") + ", odd))"), "out_off + " + at) + ";");
    e.open("if (kq == 0 && kp == 0)");
    e.line("dst[" + last + "] = " + w.product(w.scaled("cmake(even.x - odd.x, even.y - odd.y)"), "out_off + " + last) +
           ";");
    e.close();
    e.close();
    e.close();
  }
}

class Real final : public Piece {
 public:
  const char* name() const override { return "real"; }

  bool active(const KernelSpec& s) const override { return s.real(); }

  void name_kind(const KernelSpec& s, std::ostream& out) const override { out << (s.packed() ? "_packed" : "_real"); }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    static const char* loads[] = {"", "real", "hermitian", "pairs", "mirror"};
    static const char* stores[] = {"", "half", "real", "split", "pairs", "split-paired"};
    out << ", real " << s.real_length;
    if (s.real_load != RealLoad::None) out << " load " << loads[static_cast<int>(s.real_load)];
    if (s.real_store != RealStore::None) out << " store " << stores[static_cast<int>(s.real_store)];
    if (s.real_pairs_aligned) out << " aligned";
    if (s.real_twiddle_bits > 0) out << " tw" << s.real_twiddle_bits;
  }

  bool owns_store(const KernelSpec& s) const override { return s.real_store != RealStore::None; }

  // No launch form but the product's fusion (and half storage's): into stores that index the
  // complex output (the half spectrum, the packed splits), and into the
  // loads of a pass whose loads are plain (a C2R's real stores).
  unsigned admits(const KernelSpec& s) const override {
    using plan::Form;
    // (Every load of it reads through PassWriter::loaded at the element's
    // offset: a real, a pair of reals, a point or its mirror.)
    unsigned bits = static_cast<unsigned>(Form::CallbackStore) | static_cast<unsigned>(Form::CallbackLoad);
    if (s.real_store == RealStore::Real || s.real_store == RealStore::Pairs)
      bits &= static_cast<unsigned>(Form::CallbackLoad);
    // Half storage converts every load and store of it (PassWriter::loaded, real_stored, product).
    return bits | static_cast<unsigned>(Form::StorageLoad) | static_cast<unsigned>(Form::StorageStore);
  }

  // The mirror loads and split stores hold a second point and a twiddle:
  // the NVRTC sweep saw the 512-point split spill at 72 and at 80
  // registers, not at 102.
  int extra_registers(const KernelSpec& s) const override {
    const bool extra = s.real_load == RealLoad::Hermitian || s.real_load == RealLoad::Mirror ||
                       s.real_store == RealStore::Split || s.real_store == RealStore::SplitPaired;
    return extra ? 16 : 0;
  }

  // The packed split's w_n^k, k = 0..n/2 (two-level past one pass).
  bool has_tables(const KernelSpec& s) const override { return s.packed(); }

  bool tables(const KernelSpec& s, TableSource& t) const override {
    if (!s.packed()) return false;
    const std::int64_t n = s.real_length;
    const int bits = s.real_twiddle_bits;
    t.kind = "real";
    t.size = std::to_string(n) + ":" + std::to_string(bits);
    t.f32 = [n, bits] { return bits > 0 ? twiddle::two_level_f32(n, bits) : twiddle::table_f32(n, n / 2 + 1); };
    t.f64 = [n, bits] { return bits > 0 ? twiddle::two_level_f64(n, bits) : twiddle::table_f64(n, n / 2 + 1); };
    return true;
  }

  bool reads_reals(const KernelSpec& s) const override {
    return s.real_load == RealLoad::Real || s.real_load == RealLoad::Pairs;
  }
  bool writes_reals(const KernelSpec& s) const override {
    return s.real_store == RealStore::Real || s.real_store == RealStore::Pairs;
  }

  // The split meets Z[k] and Z[n/2 - k] through local memory.
  bool needs_exchange(const KernelSpec& s) const override {
    return s.real_store == RealStore::Split || s.real_store == RealStore::SplitPaired;
  }

  // The mirror X[n - j] is read from the axis's point 0.
  bool reads_axis_origin(const KernelSpec& s) const override {
    return s.real_load == RealLoad::Hermitian || s.real_load == RealLoad::Mirror;
  }

  bool emit_load_point(PassWriter& w, const std::string& v, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    if (s.real_load == RealLoad::Mirror) {
      mirror_read(w, v, n);
      return true;
    }
    if (s.real_load != RealLoad::Hermitian) return false;
    // emit_read extends the half spectrum by its mirror, which needs j.
    w.out().open("");
    w.emit_axis_index(n);
    w.emit_read(v, n);
    w.out().line(v + ".y *= in_sign;");
    w.out().close();
    return true;
  }

  bool emit_read(PassWriter& w, const std::string& v, const std::string& n, const std::string& at) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::int64_t S = s.in_point_stride;
    switch (s.real_load) {
      case RealLoad::Real:
        e.line(v + " = cmake(" + w.loaded("src[" + at + "]", true, "in_off + " + at) + ", 0);");
        return true;
      case RealLoad::Pairs:
        if (s.real_pairs_aligned) {
          // (Two reals read at once, each then through the load's callback.)
          e.line(
              v + " = " +
              w.converted("((" + std::string(w.dialect().global) + " const " + pair_type(s, true) + "*)src)[" + n + "]",
                          false) +
              ";");
          if (!s.load_ops.empty())
            e.line(v + " = cmake(" + w.load_op(v + ".x", "in_off + " + at) + ", " +
                   w.load_op(v + ".y", "in_off + " + at + " + " + str(S / 2)) + ");");
        } else {
          e.line(v + " = cmake(" + w.loaded("src[" + at + "]", true, "in_off + " + at) + ", " +
                 w.loaded("src[" + at + " + " + str(S / 2) + "]", true, "in_off + " + at + " + " + str(S / 2)) + ");");
        }
        return true;
      case RealLoad::Hermitian:
        // The half spectrum holds j <= n/2; above, X[j] = conj X[n - j].
        e.open("if (j <= " + real_n(s) + " / 2)");
        e.line(v + " = " + w.loaded("src[" + at + "]", false, "in_off + " + at) + ";");
        e.close();
        e.open("else");
        {
          const std::string mirror = "axis_off + (" + real_n(s) + " - j) * " + str(S / s.axis_stride);
          e.line(v + " = " + w.loaded("in[" + mirror + "]", false, mirror) + ";");
        }
        e.line(v + ".y = -" + v + ".y;");
        e.close();
        return true;
      default:
        return false;
    }
  }

  // (A one-kernel convolution's own stores write the real side.)
  bool emit_store(PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    if (s.real_store == RealStore::None || s.convolve) return false;
    if (s.real_store == RealStore::Split)
      split_store(w, r);
    else if (s.real_store == RealStore::SplitPaired)
      split_paired_store(w, r);
    else
      real_store(w, r);
    return true;
  }
};

}  // namespace

const Piece& real() {
  static const Real piece;
  return piece;
}

}  // namespace bfly::pieces
