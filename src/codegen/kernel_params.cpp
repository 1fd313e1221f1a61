#include "codegen/kernel_params.hpp"

namespace bfly::codegen {

using RealLoad = plan::KernelSpec::RealLoad;
using RealStore = plan::KernelSpec::RealStore;

std::vector<Param> pass_params(const plan::KernelSpec& spec) {
  std::vector<Param> params{Param::In,         Param::Out,    Param::Twiddles, Param::PassTwiddles,
                            Param::Transforms, Param::InSign, Param::OutRe,    Param::OutIm};
  if (spec.rader_kernel_store) {
    params.insert(params.end(),
                  {Param::Tables, Param::RaderIn, Param::RaderOut, Param::RaderSign, Param::RaderRe, Param::RaderIm});
  } else if (spec.packed() || spec.rader()) {
    params.push_back(Param::Tables);
  } else if (spec.bluestein()) {
    params.insert(params.end(), {Param::Tables, Param::ChirpN, Param::OpenIn, Param::OpenOut});
  }
  if (spec.multiply || spec.multiply_load) params.push_back(Param::Multiplier);
  return params;
}

const char* param_name(Param param) {
  switch (param) {
    case Param::In:
      return "in";
    case Param::Out:
      return "out";
    case Param::Twiddles:
      return "twiddles";
    case Param::PassTwiddles:
      return "pass_twiddles";
    case Param::Transforms:
      return "transforms";
    case Param::InSign:
      return "in_sign";
    case Param::OutRe:
      return "out_re";
    case Param::OutIm:
      return "out_im";
    case Param::Tables:
      return "tables";
    case Param::RaderIn:
      return "rader_in";
    case Param::RaderOut:
      return "rader_out";
    case Param::RaderSign:
      return "rader_sign";
    case Param::RaderRe:
      return "rader_re";
    case Param::RaderIm:
      return "rader_im";
    case Param::ChirpN:
      return "chirp_n";
    case Param::OpenIn:
      return "open_in";
    case Param::OpenOut:
      return "open_out";
    case Param::Multiplier:
      return "mul";
  }
  return "?";
}

std::string param_declaration(Param param, const plan::KernelSpec& spec, const Dialect& d, const std::string& prefix) {
  const std::string name = prefix + param_name(param);
  const std::string global = d.global;
  // Reals on a real transform's real side, complex points elsewhere.
  const bool real_in = spec.real_load == RealLoad::Real || spec.real_load == RealLoad::Pairs;
  const bool real_out = spec.real_store == RealStore::Real || spec.real_store == RealStore::Pairs;
  switch (param) {
    case Param::In:
      return global + "const " + (real_in ? "real" : "cpx") + "* " + name;
    case Param::Out:
      return global + (real_out ? "real" : "cpx") + "* " + name;
    case Param::RaderOut:
      return global + "cpx* " + name;
    case Param::Twiddles:
    case Param::PassTwiddles:
    case Param::Tables:
    case Param::RaderIn:
    case Param::Multiplier:
      return global + "const cpx* " + name;
    case Param::Transforms:
    case Param::ChirpN:
    case Param::OpenIn:
    case Param::OpenOut:
      return std::string(d.u64) + " " + name;
    case Param::InSign:
    case Param::OutRe:
    case Param::OutIm:
    case Param::RaderSign:
    case Param::RaderRe:
    case Param::RaderIm:
      return "real " + name;
  }
  return name;
}

}  // namespace bfly::codegen
