// PassWriter: planes in one pass (two axes in one group).
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

// KernelSpec::plane: the columns' FFTs (this spec, column-major: work-item
// m of a group is column m % C of its plane m / C), their outputs into
// local memory as the rows' phase lays them out, then the rows' FFTs.
void PassWriter::emit_plane() {
  const plan::KernelSpec rows = s_.plane_row_spec();
  const std::int64_t C = s_.plane_columns, R = s_.length, planes = s_.planes_per_group();
  emit_indexing();
  if (s_.threads_per_transform * s_.transforms_per_group < s_.group_size())
    thread_guard_ = "t < " + std::to_string(s_.threads_per_transform);
  e_.line("// the plane's columns: " + str(R) + "-point FFTs of " + str(C) + " columns");
  emit_fft(true, false);
  thread_guard_.clear();
  e_.line("// its rows: " + str(C) + "-point FFTs of " + str(R) + " rows");
  e_.open("");
  const int T2 = rows.threads_per_transform;
  e_.line("const " + u32() + " m = lid / " + std::to_string(T2) + ", t = lid % " + std::to_string(T2) + ";");
  e_.line("const " + u64() + " g = (" + u64() + ")" + d_.group_id + " * " + str(planes * R) + " + m;");
  // (The launch's transforms count the first phase's columns.)
  e_.line("const bool valid = (" + u64() + ")" + d_.group_id + " * " + str(planes) + " + m / " + str(R) +
          " < transforms / " + str(C) + " && m < " + str(planes * R) + ";");
  PassWriter second(rows, d_, e_);
  second.twiddle_table_ = "pass_twiddles";
  second.plane_block_store_ = s_.plane_block_store;
  second.plane_count_ = "transforms / " + str(C);
  second.group_threads_ = s_.group_size();
  if (T2 * planes * R < s_.group_size()) second.thread_guard_ = "m < " + str(planes * R);
  second.emit_offsets("g", "", false, true, false);
  e_.line(d_.global + second.out_type() + "* dst = out + out_off;");
  declare_points(rows.points_per_thread());
  e_.line("(void)valid;");
  second.emit_fft(false, true);
  e_.close();
}

// KernelSpec::plane, the rows' last stage through local memory: the
// outputs in natural order, then the group's rows out with consecutive
// threads on consecutive points (this writer's spec: the rows' pass).
void PassWriter::emit_plane_block_store(int r) {
  const std::int64_t C = s_.length, rows = s_.transforms_per_group, G = group_threads_;
  for_each_butterfly(C / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e_.line(local("m", "b + " + str(t * (C / r))) + " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
  const std::int64_t block = rows * C;
  for (std::int64_t q = 0; q * G < block; ++q) {
    e_.open("");
    e_.line("const " + u32() + " i = lid + " + str(q * G) + ", m2 = i / " + str(C) + ", n2 = i % " + str(C) + ";");
    e_.line("const " + u64() + " g2 = (" + u64() + ")" + d_.group_id + " * " + str(rows) + " + m2;");
    const std::int64_t R = s_.dims.front().extent;  // a plane's rows
    e_.open("if (" + std::string((q + 1) * G > block ? "i < " + str(block) + " && " : "") + "g2 / " + str(R) + " < " +
            plane_count_ + ")");
    emit_offsets("g2", "2", false, true, false);
    e_.line("out[out_off2 + n2] = " + product(scaled(local("m2", "n2")), "out_off2 + n2") + ";");
    e_.close();
    e_.close();
  }
}

// The columns' last stage: output k of column m (plane m / C, column
// m % C) is point m % C of row k of that plane, where the rows' phase
// reads it.
void PassWriter::emit_plane_turn(int r) {
  const plan::KernelSpec rows = s_.plane_row_spec();
  const PassWriter second(rows, d_, e_);
  const std::int64_t C = s_.plane_columns, R = s_.length;
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t)
      e_.line(second.local("((m / " + str(C) + ") * " + str(R) + " + b + " + str(t * (R / r)) + ")", "m % " + str(C)) +
              " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
}

}  // namespace bfly::codegen
