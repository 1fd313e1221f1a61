#include "runtime/pass_tables.hpp"

#include <string>

#include "pieces/piece.hpp"
#include "runtime/table_cache.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::detail {

PassTables pass_tables(DeviceImpl& device, const plan::KernelSpec& spec) {
  PassTables out;
  const std::int64_t length = spec.identity ? 1 : spec.length;  // a copy needs no twiddles
  const int split = spec.stage_twiddle_bits;
  const bool f64 = spec.precision == Precision::Double;
  const std::string kind = f64 ? "f64:" : "f32:";
  out.twiddles =
      device.memo<BufferImpl>("twiddles:" + kind + std::to_string(length) + ":" + std::to_string(split), [&] {
        if (f64)
          return upload(device, split > 0 ? twiddle::two_level_f64(length, split) : twiddle::table_f64(length, length));
        return upload(device, split > 0 ? twiddle::two_level_f32(length, split) : twiddle::table_f32(length, length));
      });
  if (spec.reads_pass_twiddles() && !spec.pass_sincos) {  // (computed ones need no table)
    const std::int64_t n = spec.pass_twiddle_points();
    out.pass_twiddles = device.memo<BufferImpl>(
        "pass_twiddles:" + kind + std::to_string(n) + ":" + std::to_string(spec.twiddle_fine_bits), [&] {
          if (f64) return upload(device, twiddle::two_level_f64(n, spec.twiddle_fine_bits));
          return upload(device, twiddle::two_level_f32(n, spec.twiddle_fine_bits));
        });
  } else if (spec.plane()) {
    // The rows' inner twiddles w_C (a direct table: plane.cpp).
    const std::int64_t c = spec.plane_columns;
    out.pass_twiddles = device.memo<BufferImpl>("twiddles:" + kind + std::to_string(c) + ":0", [&] {
      if (f64) return upload(device, twiddle::table_f64(c, c));
      return upload(device, twiddle::table_f32(c, c));
    });
  } else {
    out.pass_twiddles = out.twiddles;  // unused by the kernel
  }
  pieces::TableSource table;
  if (pieces::host_table(spec, table)) {
    out.tables = device.memo<BufferImpl>(table.kind + ":" + kind + table.size, [&] {
      const std::string name = table.kind + "_" + (f64 ? "f64_" : "f32_") + table.size;
      if (!table.on_disk) return f64 ? upload(device, table.f64()) : upload(device, table.f32());
      if (f64) return upload(device, cached_table<double>(name, table.format, table.f64));
      return upload(device, cached_table<float>(name, table.format, table.f32));
    });
  } else {
    out.tables = out.twiddles;  // unused by the kernel
  }
  return out;
}

}  // namespace bfly::detail
