// PassWriter: staged passes: persistent groups, each transform copied in whole.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// One bulk copy a row (KernelSpec::staged == 2): CUDA, rows of a multiple of 16 bytes.
bool PassWriter::bulk() const {
  const std::int64_t row = s_.length * (s_.precision == Precision::Single ? 8 : 16);
  return s_.staged == 2 && d_.kind == DialectKind::Cuda && row % 16 == 0;
}

// KernelSpec::staged: persistent groups, each looping over transforms g,
// g + groups, ...; transform g's input waits in local memory (`stage`)
// when its turn comes, and the copy of the next starts as soon as every
// thread has its points in registers, so it overlaps this transform's
// stages and stores.
void PassWriter::emit_staged() {
  const std::size_t point = s_.precision == Precision::Single ? 8 : 16;
  const std::size_t offset = s_.stage_offset_bytes() / point;
  const std::string lp = d_.local_pointer;
  e_.line("// " + s_.geometry() + ", staged");
  // (local_bytes() counts 16 bytes for the mbarrier, so the array is
  // static exactly where local_bytes() is within the static limit.)
  e_.line(d_.local_array("lds_block", offset + static_cast<std::size_t>(s_.length), point, "cpx", 16));
  const std::string type = s_.local_halves ? "real" : "cpx";
  e_.line(lp + type + "* lds = (" + lp + type + "*)lds_block;  // the exchange");
  e_.line(lp + "cpx* stage = lds_block + " + std::to_string(offset) + ";  // the next transform's input");
  e_.line("(void)lds;");
  e_.line("const " + u32() + " lid = " + d_.local_id + ";");
  e_.line("const " + u32() + " m = 0, t = lid;  (void)m;");
  e_.line("const " + u64() + " groups = " + d_.group_count + ";");
  e_.line(u64() + " g = " + d_.group_id + ";");
  if (!d_.stage_setup(bulk()).empty()) e_.line(d_.stage_setup(bulk()));
  e_.open("");
  emit_offsets("g", "0", true, false, false);
  e_.line(d_.stage_copy("stage", "in + in_off0", s_.length, s_.group_size(), s_.precision, bulk()));
  e_.close();
  // One transform an iteration: unrolled, the compiler would keep two
  // transforms' values live at once (and spill).
  if (d_.kind == DialectKind::Cuda) e_.line("#pragma unroll 1");
  e_.open("for (; g < transforms; g += groups)");
  e_.line("const bool valid = true;");
  emit_offsets("g", "", false, true, false);
  e_.line(d_.global + out_type() + "* dst = out + out_off;");
  declare_points(s_.points_per_thread());
  e_.line("(void)valid; (void)twiddles; (void)pass_twiddles;");
  e_.line(d_.stage_wait(bulk()));
  e_.line(d_.barrier);
  copy_pending_ = true;
  emit_fft(true, true);
  if (copy_pending_) barrier();  // one stage: no exchange barrier to start it after
  e_.close();
}

}  // namespace bfly::codegen
