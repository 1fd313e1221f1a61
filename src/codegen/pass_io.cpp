// PassWriter: loading a sub-transform's points and storing its results: the plain form, and which piece takes over.
#include <algorithm>

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::codegen {

// How a point of a sub-transform is loaded, one row a load piece: the
// first row that applies takes the point (its method lives in the piece's
// file). A new load piece is a new row and its method.
const std::vector<PassWriter::LoadPiece>& PassWriter::load_pieces() {
  static const std::vector<LoadPiece> pieces{
      {"block-rows", [](const PassWriter& w) { return w.s_.block_rows; }, &PassWriter::emit_block_point},
      {"plain", [](const PassWriter&) { return true; }, &PassWriter::emit_plain_point},
  };
  return pieces;
}

// How a sub-transform's results are stored, one row a store piece: the
// first row that applies stores them (its method lives in the piece's file).
const std::vector<PassWriter::StorePiece>& PassWriter::store_pieces() {
  static const std::vector<StorePiece> pieces{
      {"plane-block", [](const PassWriter& w) { return w.plane_block_store_; }, &PassWriter::emit_plane_block_store},
      {"cluster", [](const PassWriter& w) { return w.s_.clustered(); }, &PassWriter::emit_cluster_store},
      {"rader", [](const PassWriter& w) { return w.s_.rader_fused(); }, &PassWriter::emit_rader_store},
      {"direct", [](const PassWriter& w) { return !w.s_.store_via_local(); }, &PassWriter::emit_direct_store},
      {"via-local", [](const PassWriter&) { return true; }, &PassWriter::emit_store_via_local},
  };
  return pieces;
}

void PassWriter::emit_load(int r) {
  const std::int64_t R = s_.length;
  const auto& forms = load_pieces();
  const auto form = std::find_if(forms.begin(), forms.end(), [&](const LoadPiece& row) { return row.applies(*this); });
  const std::vector<const pieces::Piece*> own = pieces::of(s_);
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string n = "(b + " + str(t * (R / r)) + ")";
      const std::string v = x(j * r + t);
      if (std::none_of(own.begin(), own.end(), [&](const pieces::Piece* p) { return p->emit_load_point(*this, v, n); }))
        (this->*(form->emit))(v, n);
      if (s_.has_pass_twiddles()) emit_pass_twiddle(v, n);
    }
  });
}

// v times the pass twiddle of point n, w_{P L}^{n k}: computed, or from the
// two-level table.
void PassWriter::emit_pass_twiddle(const std::string& v, const std::string& n) {
  const std::int64_t mask = (std::int64_t{1} << s_.twiddle_fine_bits) - 1;
  if (s_.pass_sincos) {
    emit_pass_sincos(v, n);
    return;
  }
  e_.open("");
  e_.line("const " + idx() + " e = (" + idx() + ")" + n + " * k;");
  e_.line(v + " = cmul(" + v + ", cmul(pass_twiddles[e & " + str(mask) + "], pass_twiddles[" + str(mask + 1) +
          " + (e >> " + std::to_string(s_.twiddle_fine_bits) + ")]));");
  e_.close();
}

// The plain load: the point as emit_read reads it, conjugated on an inverse.
void PassWriter::emit_plain_point(const std::string& v, const std::string& n) {
  emit_read(v, n);
  e_.line(v + ".y *= in_sign;");
}

// j, the index along the transformed axis of point `n` of this sub-transform.
void PassWriter::emit_axis_index(const std::string& n) {
  e_.line("const " + idx() + " j = " + std::string(s_.axis_dim >= 0 ? "ci + " : "") + "(" + idx() + ")" + n + " * " +
          str(s_.axis_stride) + ";");
}

// Point `n` of the sub-transform into `v`: from the stage, as a piece reads
// it (a real side, a fused product), else as it lies.
void PassWriter::emit_read(const std::string& v, const std::string& n) {
  const std::string at = "(" + idx() + ")" + n + " * " + str(s_.in_point_stride);
  if (s_.staged) {
    e_.line(v + " = stage[" + n + "];");
    return;
  }
  for (const pieces::Piece* piece : pieces::of(s_))
    if (piece->emit_read(*this, v, n, at)) return;
  e_.line(v + " = " + loaded("src[" + at + "]", false, "in_off + " + at) + ";");
}

void PassWriter::emit_store(int r) {
  for (const pieces::Piece* piece : pieces::of(s_))
    if (piece->emit_store(*this, r)) return;
  for (const StorePiece& piece : store_pieces())
    if (piece.applies(*this)) return (this->*(piece.emit))(r);
}

// Straight to the output, each thread its own points.
void PassWriter::emit_direct_store(int r) {
  const std::int64_t R = s_.length;
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string n = "b + " + str(t * (R / r));
      const std::string at = out_at(n, "(" + idx() + ")(" + n + ") * " + str(s_.out_point_stride));
      e_.line("dst[" + at + "] = " + product(scaled(x(j * r + t)), "out_off + " + at) + ";");
    }
  });
}

std::string PassWriter::out_at(const std::string& n, const std::string& plain) const {
  for (const pieces::Piece* piece : pieces::of(s_))
    if (std::string at = piece->store_offset(*this, n); !at.empty()) return at;
  return plain;
}

// Through local memory, where the output's access pattern is not the
// mapping's (KernelSpec::store_via_local).
void PassWriter::emit_store_via_local(int r) {
  const std::int64_t R = s_.length;
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e_.line(local("m", "b + " + str(t * (R / r))) + " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
  emit_store_from_local();
}

}  // namespace bfly::codegen
