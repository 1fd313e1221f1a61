// A convolution's pointwise product fused into a transform
// (ops/convolver.cpp, runtime/fused_plan.hpp): on a forward transform's
// last stores, output element o (its index in the output buffer) is stored
// times mul[o % period] (KernelSpec::multiply; the kernel's spectrum;
// period 0: as long as the output); on an inverse transform's first loads,
// input element o is read as in[o] * mul[o % period] (multiply_load). Only
// where the pass's forms let it (plan/pass_modes.cpp: MultiplyStore,
// MultiplyLoad): the stores and loads that know o.
#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::pieces {
namespace {

using codegen::Param;
using plan::KernelSpec;

const Param kMultiplier{"mul", Param::Type::Table};

// mul[o], o the element's index in its buffer.
std::string factor(const codegen::PassWriter& w, const std::string& at) {
  const KernelSpec& s = w.spec();
  const std::string o = "(" + w.idx() + ")(" + at + ")";
  return "mul[" + (s.multiply_period > 0 ? o + " % " + std::to_string(s.multiply_period) : o) + "]";
}

class Product final : public Piece {
 public:
  const char* name() const override { return "product"; }

  bool active(const KernelSpec& s) const override { return s.multiply || s.multiply_load; }

  // (The product restricts no launch form: the forms restrict it.)
  unsigned admits(const KernelSpec&) const override { return ~0u; }

  void name_part(const KernelSpec& s, std::ostream& out) const override {
    if (s.multiply) out << "_mul" << s.multiply_period;
    if (s.multiply_load) out << "_lmul" << s.multiply_period;
  }

  void add_params(const KernelSpec&, std::vector<Param>& params) const override { params.push_back(kMultiplier); }

  std::string stored(const codegen::PassWriter& w, const std::string& v, const std::string& at) const override {
    return w.spec().multiply ? "cmul(" + v + ", " + factor(w, at) + ")" : v;
  }

  bool emit_read(codegen::PassWriter& w, const std::string& v, const std::string&,
                 const std::string& at) const override {
    if (!w.spec().multiply_load) return false;
    w.out().line(v + " = cmul(src[" + at + "], " + factor(w, "in_off + " + at) + ");");
    return true;
  }

  detail::KernelArg bind(const Param& param, const LaunchFacts& f) const override {
    if (param == kMultiplier && f.multiplier != nullptr) return detail::KernelArg::of(*f.multiplier);
    return Piece::bind(param, f);
  }
};

}  // namespace

const Piece& product() {
  static const Product piece;
  return piece;
}

}  // namespace bfly::pieces
