// Half storage (issue 42): fp16 or bf16 values in the caller's buffers,
// fp32 in the registers. The first pass converts as it loads
// (KernelSpec::load_storage), the last as it stores (store_storage), after
// the scale, so the scaling happens in fp32. CUDA's fp16 converts with the
// hardware's cvt instructions; elsewhere the conversions are bit
// operations, no cl_khr_fp16 or cuda_fp16.h: fp16 after
// F. Giesen's float_to_half_fast3_rtne / half_to_float (round to nearest
// even, Inf and NaN kept, subnormals exact; the float add that rounds a
// subnormal is exact in its result, so a compiler's flush-to-zero of the
// input changes nothing: inputs below 2^-126 round to 0 in fp16 anyway);
// bf16 as the top 16 bits of the fp32 with the same rounding (NaN kept
// quiet). Only where the pass's forms let it (plan/ends.cpp): the loads
// PassWriter::emit_read writes and the stores that go through
// PassWriter::product, the same places as the convolution's product.
#include "pieces/storage.hpp"

#include "codegen/pass_writer.hpp"
#include "pieces/piece.hpp"

namespace bfly::pieces {

std::string storage_functions(const codegen::Dialect& d, Storage storage) {
  const std::string u32 = d.u32, f = std::string(d.function) + " ", as_f = d.float_of_bits, as_u = d.bits_of_float;
  std::string s = "#ifndef BFLY_STORAGE_FUNCTIONS\n#define BFLY_STORAGE_FUNCTIONS\n";
  s += "typedef " + std::string(d.u16) + " hreal;\ntypedef " + u32 + " hcpx;\n";
  if (storage == Storage::Half && d.kind == codegen::DialectKind::Cuda) {
    // CUDA: the hardware's conversions, one instruction each way (the bit
    // operations below cost an fp16 transform 1.5-2.9x its fp32 time on an
    // H200, where bf16's ran at fp32's). Round to nearest even, Inf past the
    // range, subnormals exact, as the bit operations; a NaN stays a NaN.
    s += f + "real storage_real(" + u32 + " h) {\n";
    s += "  const unsigned short b = (unsigned short)h;\n  float v;\n";
    s += "  asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(v) : \"h\"(b));\n  return v;\n}\n";
    s += f + u32 + " storage_bits(real v) {\n  unsigned short b;\n";
    s += "  asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(b) : \"f\"(v));\n  return b;\n}\n";
  } else if (storage == Storage::Half) {
    s += f + "real storage_real(" + u32 + " h) {\n";
    s += "  " + u32 + " o = (h & 0x7fffu) << 13;\n";
    s += "  const " + u32 + " e = o & 0x0f800000u;\n";
    s += "  o += 0x38000000u;  // the exponent's bias, 15 to 127\n";
    s += "  if (e == 0x0f800000u) o += 0x38000000u;  // Inf, NaN\n";
    s += "  else if (e == 0u) o = " + as_u + "(" + as_f + "(o + 0x00800000u) - 6.103515625e-05f);  // subnormal\n";
    s += "  return " + as_f + "(o | ((h & 0x8000u) << 16));\n}\n";
    s += f + u32 + " storage_bits(real v) {\n";
    s += "  " + u32 + " x = " + as_u + "(v);\n";
    s += "  const " + u32 + " sign = (x >> 16) & 0x8000u;\n";
    s += "  x &= 0x7fffffffu;\n";
    s += "  " + u32 + " o;\n";
    s += "  if (x >= 0x47800000u) o = x > 0x7f800000u ? 0x7e00u : 0x7c00u;  // past 2^16, Inf, NaN\n";
    s += "  else if (x < 0x38800000u) o = " + as_u + "(" + as_f + "(x) + 0.5f) - 0x3f000000u;  // below 2^-14\n";
    s += "  else o = (x + 0xc8000fffu + ((x >> 13) & 1u)) >> 13;  // rebiased, rounded; 65520 up carries to Inf\n";
    s += "  return o | sign;\n}\n";
  } else {
    s += f + "real storage_real(" + u32 + " h) { return " + as_f + "(h << 16); }\n";
    s += f + u32 + " storage_bits(real v) {\n";
    s += "  const " + u32 + " x = " + as_u + "(v);\n";
    s += "  if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40u;  // NaN, quiet\n";
    s += "  return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;\n}\n";
  }
  s += f + "cpx storage_cpx(hcpx p) { return cmake(storage_real(p & 0xffffu), storage_real(p >> 16)); }\n";
  s += f + "hcpx storage_pack(cpx v) { return storage_bits(v.x) | (storage_bits(v.y) << 16); }\n";
  s += "#endif\n";
  return s;
}

namespace {

using plan::KernelSpec;

const char* word(Storage s) { return to_string(s); }

class StoragePiece final : public Piece {
 public:
  const char* name() const override { return "storage"; }

  bool active(const KernelSpec& s) const override {
    return s.load_storage != Storage::Native || s.store_storage != Storage::Native;
  }

  // (It restricts no launch form: plan/ends.cpp places it.)
  unsigned admits(const KernelSpec&) const override { return ~0u; }

  void describe(const KernelSpec& s, std::ostream& out) const override {
    if (s.load_storage != Storage::Native) out << ", " << word(s.load_storage) << " load";
    if (s.store_storage != Storage::Native) out << ", " << word(s.store_storage) << " store";
  }

  void name_part(const KernelSpec& s, std::ostream& out) const override {
    if (s.load_storage != Storage::Native) out << "_l" << word(s.load_storage);
    if (s.store_storage != Storage::Native) out << "_s" << word(s.store_storage);
  }

  const char* element_type(const KernelSpec& s, bool source) const override {
    if ((source ? s.load_storage : s.store_storage) == Storage::Native) return nullptr;
    return (source ? pieces::reads_reals(s) : pieces::writes_reals(s)) ? "hreal" : "hcpx";
  }

  std::string helpers(const KernelSpec& s, const codegen::Dialect& d) const override {
    return storage_functions(d, s.load_storage != Storage::Native ? s.load_storage : s.store_storage);
  }

  std::string stored(const codegen::PassWriter& w, const std::string& v, const std::string&) const override {
    return w.spec().store_storage != Storage::Native ? "storage_pack(" + v + ")" : v;
  }

  std::string real_stored(const codegen::PassWriter& w, const std::string& v, const std::string&) const override {
    return w.spec().store_storage != Storage::Native ? "(hreal)storage_bits(" + v + ")" : v;
  }

  std::string loaded(const codegen::PassWriter& w, const std::string& element, bool real) const override {
    if (w.spec().load_storage == Storage::Native) return element;
    return (real ? "storage_real(" : "storage_cpx(") + element + ")";
  }
};

}  // namespace

const Piece& storage() {
  static const StoragePiece piece;
  return piece;
}

}  // namespace bfly::pieces
