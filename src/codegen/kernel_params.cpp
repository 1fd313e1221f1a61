#include "codegen/kernel_params.hpp"

#include <cstring>

#include "pieces/piece.hpp"

namespace bfly::codegen {

using RealLoad = plan::KernelSpec::RealLoad;
using RealStore = plan::KernelSpec::RealStore;

bool Param::operator==(const Param& o) const { return type == o.type && std::strcmp(name, o.name) == 0; }

std::vector<Param> pass_params(const plan::KernelSpec& spec) {
  std::vector<Param> list{params::In,         params::Out,    params::Twiddles, params::PassTwiddles,
                          params::Transforms, params::InSign, params::OutRe,    params::OutIm};
  if (pieces::has_tables(spec)) list.push_back(params::Tables);
  for (const pieces::Piece* piece : pieces::of(spec)) piece->add_params(spec, list);
  return list;
}

std::string param_declaration(const Param& param, const plan::KernelSpec& spec, const Dialect& d,
                              const std::string& prefix) {
  const std::string name = prefix + param.name;
  const std::string global = d.global;
  // Reals on a real transform's real side, complex points elsewhere (or a piece's own: pieces::element_type).
  switch (param.type) {
    case Param::Type::Source:
      return global + "const " + pieces::element_type(spec, true) + "* " + name;
    case Param::Type::Destination:
      return global + pieces::element_type(spec, false) + "* " + name;
    case Param::Type::Table:
      return global + "const cpx* " + name;
    case Param::Type::Reals:
      return global + "const real* " + name;
    case Param::Type::Buffer:
      return global + "cpx* " + name;
    case Param::Type::Count:
      return std::string(d.u64) + " " + name;
    case Param::Type::Real:
      return "real " + name;
  }
  return name;
}

}  // namespace bfly::codegen
