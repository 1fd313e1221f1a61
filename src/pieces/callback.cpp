// Callbacks fused into a pass (issue 42): the first pass's loads read input
// element o as bfly_load(value, o, load_data) (KernelSpec::load_ops), the
// last pass's stores write output element o as bfly_store(value, o,
// store_data) (store_ops), o the element's offset in its buffer; the
// functions are written from the EndOps (plan/end_ops.hpp) by
// callback_function below, the same text the conversion kernels of the
// sides that cannot fuse use (codegen/storage_kernel.hpp). Half storage
// converts outside them: a load converts, then calls; a store calls, then
// converts. The convolution's pointwise product is one of its ops
// (EndOp::Multiply, ops/convolver.cpp). Only where the pass's forms let it
// (plan/pass_modes.cpp: CallbackStore, CallbackLoad): the stores and loads
// that know o.
#include "pieces/callback.hpp"

#include <cstdio>

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::pieces {

namespace {

std::string literal(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return "(real)" + std::string(text);
}

}  // namespace

std::string callback_function(const codegen::Dialect& d, const plan::EndOps& ops, bool load) {
  if (ops.empty()) return "";
  const std::string side = load ? "load" : "store", f = std::string(d.function) + " ", g = d.global;
  const std::string value = ops.complex_values ? "cpx" : "real";
  const std::string result = ops.real_result() ? "real" : value, u64 = d.u64;
  const std::string guard = load ? "BFLY_LOAD_CALLBACK" : "BFLY_STORE_CALLBACK";
  std::string s = "#ifndef " + guard + "\n#define " + guard + "\n";
  if (!ops.code.empty()) {
    // The user's body, its lines numbered from 1 in the compiler's
    // messages ("load callback:3: error: ...").
    s += f + value + " bfly_user_" + side + "(" + value + " v, " + u64 + " o, " + g + "const real* data, " + g +
         "const cpx* cdata) {\n";
    s += "  (void)o; (void)data; (void)cdata;\n";
    s += "#line 1 \"" + side + " callback\"\n" + ops.code + "\n}\n#line 1 \"bfly " + side + " callback\"\n";
  }
  s += f + result + " bfly_" + side + "(" + value + " v, " + u64 + " o, " + g + "const real* data) {\n";
  s += "  (void)o; (void)data;\n";
  // The offset's type for the ops' arithmetic (EndOps::wide).
  const std::string ix = ops.wide ? u64 : d.u32, o = ops.wide ? "o" : "(" + ix + ")o";
  auto times = [&](const std::string& w) {
    return ops.complex_values ? "  v = cmake(v.x * " + w + ", v.y * " + w + ");\n" : "  v = v * " + w + ";\n";
  };
  // Each axis's index i from the offset, the layout's dims outermost first
  // (plan/callbacks.cpp checked they nest), up to the last `used` one, where
  // `body` reads i (windows and pad).
  auto per_axis = [&](bool (*used)(const plan::EndOps::Dim&), const auto& body) {
    std::size_t last = 0;
    for (std::size_t i = 0; i < ops.dims.size(); ++i)
      if (used(ops.dims[i])) last = i;
    std::string lines = "    " + ix + " r = " + o + ";\n";
    for (std::size_t i = 0; i <= last && i < ops.dims.size(); ++i) {
      const std::string stride = std::to_string(ops.dims[i].stride);
      lines += "    { const " + ix + " i = r / " + stride + "; r -= i * " + stride + ";";
      if (used(ops.dims[i])) lines += body(ops.dims[i]);
      lines += " }\n";
    }
    return lines;
  };
  for (const plan::EndStep& step : ops.steps) {
    switch (step.op) {
      case plan::EndOp::Scale:
        s += times(literal(step.value));
        break;
      case plan::EndOp::Window: {
        s += "  {\n    real w = (real)1;\n";
        s += per_axis([](const plan::EndOps::Dim& dim) { return dim.base >= 0; },
                      [&](const plan::EndOps::Dim& dim) -> std::string {
                        if (step.value == 1) return " w *= data[" + std::to_string(dim.base) + " + i];";
                        // cos(2 pi i / n) and the cosine sum (Blackman's second
                        // term by the double angle).
                        const std::string x = "(real)(2 * i) / (real)" + std::to_string(dim.extent);
                        const std::string c = d.kind == codegen::DialectKind::Cuda
                                                  ? "(sizeof(real) == 4 ? (real)cospif((float)(" + x +
                                                        ")) : (real)cospi((double)(" + x + ")))"
                                                  : "cospi(" + x + ")";
                        std::string w = " const real c = " + c + ";";
                        if (step.value == 2) w += " w *= (real)0.5 - (real)0.5 * c;";
                        if (step.value == 3) w += " w *= (real)0.54 - (real)0.46 * c;";
                        if (step.value == 4)
                          w += " w *= (real)0.42 - (real)0.5 * c + (real)0.08 * ((real)2 * c * c - (real)1);";
                        return w;
                      });
        s += "  " + times("w") + "  }\n";
        break;
      }
      case plan::EndOp::Mask:
        s += times("data[" + o + "]");
        break;
      case plan::EndOp::Pad: {
        // Zero past each padded axis's length, as a select: whatever the
        // buffer holds there (NaN too) is not used.
        s += "  {\n    bool keep = true;\n";
        s += per_axis(
            [](const plan::EndOps::Dim& dim) { return dim.pad > 0; },
            [](const plan::EndOps::Dim& dim) { return " keep = keep && i < " + std::to_string(dim.pad) + ";"; });
        s += ops.complex_values ? "    if (!keep) v = cmake((real)0, (real)0);\n  }\n"
                                : "    if (!keep) v = (real)0;\n  }\n";
        break;
      }
      case plan::EndOp::Multiply:
        s += "  v = cmul(v, ((" + g + "const cpx*)data)[" + o +
             (step.period > 0 ? " % " + std::to_string(step.period) : std::string()) + "]);\n";
        break;
      case plan::EndOp::Code:
        s += "  v = bfly_user_" + side + "(v, o, data, (" + g + "const cpx*)data);\n";
        break;
      case plan::EndOp::Magnitude:
        s += "  return sqrt(v.x * v.x + v.y * v.y);\n";
        break;
      case plan::EndOp::Power:
        s += "  return v.x * v.x + v.y * v.y;\n";
        break;
      case plan::EndOp::Decibel:
        s += "  return (real)10 * log10(v.x * v.x + v.y * v.y);\n";
        break;
    }
  }
  if (!ops.real_result()) s += "  return v;\n";
  s += "}\n";
  if (!ops.complex_values && !ops.real_result()) {
    // A real side read or written as complex points (a real transform's
    // pass of half the length): each point's two reals, at 2 o and 2 o + 1.
    s += f + "cpx bfly_" + side + "2(cpx v, " + u64 + " o, " + g + "const real* data) {\n";
    s += "  return cmake(bfly_" + side + "(v.x, 2 * o, data), bfly_" + side + "(v.y, 2 * o + 1, data));\n}\n";
  }
  s += "#endif\n";
  return s;
}

namespace {

using codegen::Param;
using plan::KernelSpec;

const Param kLoadData{"load_data", Param::Type::Reals};
const Param kStoreData{"store_data", Param::Type::Reals};

// `v` a value of the side's type, or (`points`) a complex point of a real
// side (a pair of its reals: bfly_load2, bfly_store2).
std::string call(const plan::EndOps& ops, bool load, const std::string& v, const std::string& at,
                 const codegen::PassWriter& w, bool points = false) {
  if (ops.empty()) return v;
  const bool pairs = points && !ops.complex_values;
  return std::string(load ? "bfly_load" : "bfly_store") + (pairs ? "2(" : "(") + v + ", (" + w.u64() + ")(" + at +
         "), " + (load ? "load_data" : "store_data") + ")";
}

class CallbackPiece final : public Piece {
 public:
  const char* name() const override { return "callback"; }

  bool active(const KernelSpec& s) const override { return !s.load_ops.empty() || !s.store_ops.empty(); }

  // (It restricts no launch form: the forms restrict it, plan/callbacks.)
  unsigned admits(const KernelSpec&) const override { return ~0u; }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    if (!s.load_ops.empty()) out << ", loads " << s.load_ops.text();
    if (!s.store_ops.empty()) out << ", stores " << s.store_ops.text();
  }

  void name_part(const KernelSpec& s, std::ostream& out) const override {
    if (!s.load_ops.empty()) out << "_lcb" << s.load_ops.hash();
    if (!s.store_ops.empty()) out << "_scb" << s.store_ops.hash();
  }

  void add_params(const KernelSpec& s, std::vector<Param>& params) const override {
    if (!s.load_ops.empty()) params.push_back(kLoadData);
    if (!s.store_ops.empty()) params.push_back(kStoreData);
  }

  // A store that ends in a real (magnitude, power, dB) writes reals.
  const char* element_type(const KernelSpec& s, bool source) const override {
    return !source && s.store_ops.real_result() ? "real" : nullptr;
  }

  std::string helpers(const KernelSpec& s, const codegen::Dialect& d) const override {
    return callback_function(d, s.load_ops, true) + callback_function(d, s.store_ops, false);
  }

  // (A complex point stored to a destination of reals' side: a pair.)
  std::string stored(const codegen::PassWriter& w, const std::string& v, const std::string& at) const override {
    return call(w.spec().store_ops, false, v, at, w, !pieces::writes_reals(w.spec()));
  }

  std::string real_stored(const codegen::PassWriter& w, const std::string& v, const std::string& at) const override {
    return call(w.spec().store_ops, false, v, at, w);
  }

  // (A load's value is a real where the pass reads reals, each through
  // PassWriter::loaded; else a complex point, of a real side a pair.)
  std::string load_op(const codegen::PassWriter& w, const std::string& v, const std::string& at) const override {
    return call(w.spec().load_ops, true, v, at, w, !pieces::reads_reals(w.spec()));
  }

  detail::KernelArg bind(const Param& param, const LaunchFacts& f) const override {
    if (param == kLoadData && f.load_data != nullptr) return detail::KernelArg::of(*f.load_data);
    if (param == kStoreData && f.store_data != nullptr) return detail::KernelArg::of(*f.store_data);
    return Piece::bind(param, f);
  }
};

}  // namespace

const Piece& callback() {
  static const CallbackPiece piece;
  return piece;
}

}  // namespace bfly::pieces
