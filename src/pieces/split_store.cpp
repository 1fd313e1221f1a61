// The output's split (Layout::split): the transformed axis stored in
// blocks, point k at (k / c) * B + (k % c) * S, so a distributed FFT's first
// stage writes each peer's block of the axis where the exchange sends it
// from, and nothing is packed (issue 43). Only the stores' address changes:
// the plain direct stores and the stores from local memory by rows or
// columns place point n at PassWriter::out_at(n), which asks this piece.
// The planner (plan/plan.cpp) sets it on a plan's one pass, which must
// transform the axis whole (so its point n is the axis's index k) and
// admit the form (pass_modes.hpp Form::SplitStore: no cluster, plane,
// one-kernel convolution, Bluestein, Rader or real axis, whose stores
// address the output their own way; no block of rows, written as one run).
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::pieces {
namespace {

using plan::KernelSpec;

class SplitStorePiece final : public Piece {
 public:
  const char* name() const override { return "split"; }

  bool active(const KernelSpec& s) const override { return s.out_split_length > 0; }

  // Every form but a block of rows (its stores are one run of the group's rows).
  unsigned admits(const KernelSpec&) const override { return ~static_cast<unsigned>(plan::Form::BlockRows); }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    out << ", output split in blocks of " << s.out_split_length << " at " << s.out_split_stride;
  }

  void name_part(const KernelSpec& s, std::ostream& out) const override {
    out << "_sp" << s.out_split_length << "x" << s.out_split_stride;
  }

  std::string store_offset(const codegen::PassWriter& w, const std::string& n) const override {
    const KernelSpec& s = w.spec();
    const std::string c = std::to_string(s.out_split_length), i = "(" + w.idx() + ")";
    return "(" + i + "((" + n + ") / " + c + ") * " + std::to_string(s.out_split_stride) + " + " + i + "((" + n +
           ") % " + c + ") * " + std::to_string(s.out_point_stride) + ")";
  }
};

}  // namespace

const Piece& split_store() {
  static const SplitStorePiece piece;
  return piece;
}

}  // namespace bfly::pieces
