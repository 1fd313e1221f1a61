// Short real rows as one block (KernelSpec::real_block; the launch model
// sets it, plan/launch_model.cpp set_real_block): where a thread or a few
// own a row, each would read its own row, rows apart, and write its own
// outputs the same way. Here the group's rows, end to end in both buffers,
// come into local memory as one block, consecutive threads on consecutive
// elements (reals for an R2C, the half spectra for a C2R); each transform
// reads its points from there, and its outputs leave the same way. The
// block rows of complex rows (KernelSpec::block_rows) for real ones.
// Comes before the real piece (pieces.cpp): its loads and stores take
// over that piece's.
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::pieces {
namespace {

using codegen::PassWriter;
using plan::KernelSpec;
using RealLoad = KernelSpec::RealLoad;

std::string str(std::int64_t v) { return std::to_string(v); }

bool forward(const KernelSpec& s) { return s.real_load == RealLoad::Real; }

// Elements of a row on the real side (n reals) and the complex side
// (n/2 + 1 points).
std::int64_t real_row(const KernelSpec& s) { return s.length; }
std::int64_t half_row(const KernelSpec& s) { return s.length / 2 + 1; }

// Moves the group's rows of `row` elements between `block` (the group's
// first row in memory) and `view` (local memory from its start), as
// `move(memory, local)` says: element i by thread i mod G.
template <class Move>
void for_each_element(PassWriter& w, std::int64_t row, const std::string& block, Move move) {
  const KernelSpec& s = w.spec();
  codegen::Emitter& e = w.out();
  const std::int64_t M = s.transforms_per_group, G = s.group_size(), count = row * M;
  e.open("");
  e.line("const " + w.u64() + " g0 = (" + w.u64() + ")" + w.dialect().group_id + " * " + str(M) + ";");
  e.line("const " + w.u64() + " end = (transforms - g0) * " + str(row) + ";  // elements of valid rows");
  e.line(block);
  for (std::int64_t q = 0; q * G < count; ++q) {
    e.open("");
    e.line("const " + w.u32() + " i = lid + " + str(q * G) + ";");
    e.line("if (" + std::string((q + 1) * G > count ? "i < " + str(count) + " && " : "") + "i < end) " +
           move("block[i]", "i") + ";");
    e.close();
  }
  e.close();
}

class RealBlock final : public Piece {
 public:
  const char* name() const override { return "real-block"; }

  bool active(const KernelSpec& s) const override { return s.real_block; }

  void describe(const KernelSpec&, std::ostream& out) const override { out << ", real block"; }

  void name_part(const KernelSpec&, std::ostream& out) const override { out << "_rblock"; }

  bool owns_store(const KernelSpec&) const override { return true; }

  // Half storage converts its block's reads and writes (PassWriter::loaded,
  // product, real_stored).
  unsigned admits(const KernelSpec&) const override {
    return static_cast<unsigned>(plan::Form::StorageLoad) | static_cast<unsigned>(plan::Form::StorageStore);
  }

  bool needs_exchange(const KernelSpec&) const override { return true; }

  bool loads_from_local(const KernelSpec&) const override { return true; }

  // The block in: reals through a real view of the exchange array (R2C),
  // or the half spectra as points (C2R).
  void emit_prologue(PassWriter& w) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::string lp = w.dialect().local_pointer, global = w.dialect().global;
    e.line(lp + "real* lr = (" + lp + "real*)lds;  (void)lr;  // the exchange array as reals");
    const std::string in_type = pieces::element_type(s, true);
    if (forward(s)) {
      for_each_element(w, real_row(s), global + "const " + in_type + "* block = in + g0 * " + str(real_row(s)) + ";",
                       [&](const std::string& memory, const std::string& i) {
                         return "lr[" + i + "] = " + w.loaded(memory, true, "g0 * " + str(real_row(s)) + " + " + i);
                       });
    } else {
      for_each_element(w, half_row(s), global + "const " + in_type + "* block = in + g0 * " + str(half_row(s)) + ";",
                       [&](const std::string& memory, const std::string& i) {
                         return "lds[" + i + "] = " + w.loaded(memory, false, "g0 * " + str(half_row(s)) + " + " + i);
                       });
    }
    e.line(w.dialect().barrier);
  }

  // Point n of transform m from the block: x[n] (R2C), or X[n] for n <=
  // N/2 and conj X[N - n] above (C2R), conjugated on an inverse as loaded.
  bool emit_load_point(PassWriter& w, const std::string& v, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    if (forward(s)) {
      e.line(v + " = cmake(lr[m * " + str(real_row(s)) + " + " + n + "], 0);");
      return true;
    }
    const std::string N = str(s.length), h = str(half_row(s));
    e.open("");
    e.line("const " + w.u32() + " j = " + n + ";");
    e.open("if (j <= " + N + " / 2)");
    e.line(v + " = lds[m * " + h + " + j];");
    e.close();
    e.open("else");
    e.line(v + " = lds[m * " + h + " + " + N + " - j];");
    e.line(v + ".y = -" + v + ".y;");
    e.close();
    e.line(v + ".y *= in_sign;");
    e.close();
    return true;
  }

  // The outputs into local memory as the rows lie in the output (the half
  // spectrum, or the real parts), then out as one block.
  bool emit_store(PassWriter& w, int r) const override {
    const KernelSpec& s = w.spec();
    codegen::Emitter& e = w.out();
    const std::int64_t R = s.length;
    const bool fwd = forward(s);
    w.for_each_butterfly(R / r, "", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string point = "b + " + str(t * (R / r)), v = w.x(j * r + t);
        if (fwd)
          e.line("if (" + point + " <= " + str(R / 2) + ") lds[m * " + str(half_row(s)) + " + " + point +
                 "] = " + w.scaled(v) + ";");
        else
          e.line("lr[m * " + str(real_row(s)) + " + " + point + "] = " + v + ".x * out_re;");
      }
    });
    e.line(w.dialect().barrier);
    const std::string global = w.dialect().global;
    if (fwd)
      for_each_element(w, half_row(s), global + w.out_type() + "* block = out + g0 * " + str(half_row(s)) + ";",
                       [&](const std::string& memory, const std::string& i) {
                         return memory + " = " + w.product("lds[" + i + "]", "g0 * " + str(half_row(s)) + " + i");
                       });
    else
      for_each_element(w, real_row(s), global + w.out_type() + "* block = out + g0 * " + str(real_row(s)) + ";",
                       [&](const std::string& memory, const std::string& i) {
                         return memory + " = " + w.real_stored("lr[" + i + "]", "g0 * " + str(real_row(s)) + " + " + i);
                       });
    return true;
  }
};

}  // namespace

const Piece& real_block() {
  static const RealBlock piece;
  return piece;
}

}  // namespace bfly::pieces
