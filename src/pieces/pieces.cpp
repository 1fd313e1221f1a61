#include "pieces/piece.hpp"

#include <algorithm>

#include "bfly/bfly.hpp"
#include "codegen/kernel_params.hpp"

namespace bfly::pieces {

const Piece& chirp();
const Piece& rader();
const Piece& rader_pass();
const Piece& row_pairs();
const Piece& real_block();
const Piece& real();
const Piece& callback();
const Piece& r2r();
const Piece& r2r_packed();
const Piece& storage();
const Piece& split_store();

const std::vector<const Piece*>& all() {
  // (storage last: its conversion wraps what the others store.)
  static const std::vector<const Piece*> pieces{&row_pairs(),  &real_block(), &chirp(),      &rader(),
                                                &rader_pass(), &real(),       &callback(),   &r2r(),
                                                &r2r_packed(), &storage(),    &split_store()};
  return pieces;
}

std::vector<const Piece*> of(const plan::KernelSpec& spec) {
  std::vector<const Piece*> out;
  for (const Piece* piece : all())
    if (piece->active(spec)) out.push_back(piece);
  return out;
}

namespace {

template <class Ask>
bool any(const plan::KernelSpec& spec, Ask ask) {
  for (const Piece* piece : of(spec))
    if (ask(*piece)) return true;
  return false;
}

}  // namespace

bool open_dim(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.open_dim(spec); });
}
bool reads_reals(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.reads_reals(spec); });
}
bool writes_reals(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.writes_reals(spec); });
}
bool need_exchange(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.needs_exchange(spec); });
}
bool loads_from_local(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.loads_from_local(spec); });
}
std::string element_type(const plan::KernelSpec& spec, bool source) {
  for (const Piece* piece : of(spec))
    if (const char* type = piece->element_type(spec, source)) return type;
  return (source ? reads_reals(spec) : writes_reals(spec)) ? "real" : "cpx";
}
bool has_tables(const plan::KernelSpec& spec) {
  return any(spec, [&](const Piece& p) { return p.has_tables(spec); });
}
bool host_table(const plan::KernelSpec& spec, TableSource& table) {
  return any(spec, [&](const Piece& p) { return p.tables(spec, table); });
}

// A pass kernel's parameters (codegen::pass_params), each with the first of
// the pass's pieces that names it among its own (nullptr: the runtime's).
std::vector<std::pair<codegen::Param, const Piece*>> bound_params(const plan::KernelSpec& spec) {
  const std::vector<const Piece*> own = of(spec);
  std::vector<std::pair<codegen::Param, const Piece*>> out;
  for (const codegen::Param& param : codegen::pass_params(spec)) {
    const Piece* by = nullptr;
    for (const Piece* piece : own) {
      std::vector<codegen::Param> its;
      piece->add_params(spec, its);
      if (std::find(its.begin(), its.end(), param) != its.end()) {
        by = piece;
        break;
      }
    }
    out.emplace_back(param, by);
  }
  return out;
}

detail::KernelArg Piece::bind(const codegen::Param& param, const LaunchFacts&) const {
  throw Error(ErrorCode::Device,
              std::string("bfly internal error: piece ") + name() + " has no value for parameter " + param.name);
}

}  // namespace bfly::pieces
