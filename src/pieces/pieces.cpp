#include "pieces/piece.hpp"

#include "bfly/bfly.hpp"

namespace bfly::pieces {

const Piece& chirp();
const Piece& rader_pass();
const Piece& product();

const std::vector<const Piece*>& all() {
  static const std::vector<const Piece*> pieces{&chirp(), &rader_pass(), &product()};
  return pieces;
}

std::vector<const Piece*> of(const plan::KernelSpec& spec) {
  std::vector<const Piece*> out;
  for (const Piece* piece : all())
    if (piece->active(spec)) out.push_back(piece);
  return out;
}

bool open_dim(const plan::KernelSpec& spec) {
  for (const Piece* piece : of(spec))
    if (piece->open_dim(spec)) return true;
  return false;
}

detail::KernelArg Piece::bind(const codegen::Param& param, const LaunchFacts&) const {
  throw Error(ErrorCode::Device,
              std::string("bfly internal error: piece ") + name() + " has no value for parameter " + param.name);
}

}  // namespace bfly::pieces
