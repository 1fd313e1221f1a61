// A pass kernel's parameters: the one list, in order, that the generator
// writes the kernel's signature from (pass_kernel.cpp, chain_kernel.cpp) and
// the runtime binds its arguments by (runtime/plan_impl.cpp). A piece that
// needs an argument defines its parameter in its own file and binds it.
#pragma once

#include <string>
#include <vector>

#include "codegen/dialect.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::codegen {

// One parameter: its name in the source and its type (which says how it is
// declared). A piece's own parameters are defined in the piece's file
// (pieces/) and bound by the piece at launch.
struct Param {
  enum class Type {
    Source,       // the source buffer: complex points, or reals on a real transform's real side
    Destination,  // the destination buffer, likewise
    Table,        // a read-only buffer of complex values
    Reals,        // a read-only buffer of reals (a callback's data: pieces/callback.cpp)
    Buffer,       // a buffer of complex values the kernel writes
    Count,        // an unsigned 64-bit integer
    Real,         // a real of the working precision
  };
  const char* name;
  Type type;
  bool operator==(const Param& o) const;
  bool operator!=(const Param& o) const { return !(*this == o); }
};

namespace params {
// Every pass kernel's eight.
inline const Param In{"in", Param::Type::Source};
inline const Param Out{"out", Param::Type::Destination};
inline const Param Twiddles{"twiddles", Param::Type::Table};           // the sub-transforms' inner twiddles
inline const Param PassTwiddles{"pass_twiddles", Param::Type::Table};  // the twiddles between passes
inline const Param Transforms{"transforms", Param::Type::Count};       // sub-transforms this launch runs
inline const Param InSign{"in_sign", Param::Type::Real};  // -1 conjugates the input (an inverse's first pass), else 1
inline const Param OutRe{"out_re", Param::Type::Real};    // the output's real and imaginary factors: the scale,
inline const Param OutIm{"out_im", Param::Type::Real};    //   and the inverse's conjugation, on the last pass
// Real transforms' and Rader's host tables (w_n^k; Rader's permutations
// and kernel), and Bluestein's chirp table.
inline const Param Tables{"tables", Param::Type::Table};
}  // namespace params

// The kernel's parameters in order.
std::vector<Param> pass_params(const plan::KernelSpec& spec);

// Its declaration in `dialect` ("__global const cpx* twiddles"), the name
// prefixed by `prefix` (a chained kernel's "a_" and "b_").
std::string param_declaration(const Param& param, const plan::KernelSpec& spec, const Dialect& dialect,
                              const std::string& prefix = "");

}  // namespace bfly::codegen
