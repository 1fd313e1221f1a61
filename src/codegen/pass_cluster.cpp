// PassWriter: rows past one block across a thread-block cluster.
#include "codegen/pass_writer.hpp"

#include "codegen/butterfly.hpp"

namespace bfly::codegen {

// KernelSpec::cluster (CUDA): this block's columns' FFTs as any column
// pass, their outputs into local memory (emit_cluster_store), then the
// W-point DFTs across the cluster.
void PassWriter::emit_cluster() {
  emit_indexing();
  emit_fft(true, true);
}

// The last stage's outputs of column m at point n go to lds[m * pitch +
// n]. After a cluster barrier, output q_b of every column is in some
// block's local memory: this block takes q_b = rank * share + i, reads
// column n1's (block n1 / M, row n1 % M), multiplies w_N^{n1 q_b}, and
// stores the W-point DFT's output a at X[q_b + L a]: consecutive threads,
// consecutive q_b. The last barrier: no block leaves (or reuses its local
// memory) while the others may still read it.
void PassWriter::emit_cluster_store(int r) {
  const std::int64_t L = s_.length, pitch = s_.cluster_pitch(), W = s_.cluster_width();
  const int C = s_.cluster, M = s_.transforms_per_group;
  const std::int64_t share = (L + C - 1) / C, G = s_.group_size();
  const std::int64_t mask = (std::int64_t{1} << s_.twiddle_fine_bits) - 1;
  for_each_butterfly(L / r, "", [&](int j) {
    for (int t = 0; t < r; ++t)
      e_.line("lds[m * " + str(pitch) + " + b + " + str(t * (L / r)) + "] = " + x(j * r + t) + ";");
  });
  e_.line("__cluster_barrier_arrive();");
  e_.line("__cluster_barrier_wait();");
  e_.open("");
  e_.line("const " + u32() + " rank = " + d_.group_id + " % " + std::to_string(C) + ";");
  for (int c = 0; c < C; ++c)
    e_.line("const cpx* peer" + std::to_string(c) + " = (const cpx*)__cluster_map_shared_rank((void*)lds, " +
            std::to_string(c) + ");");
  emit_offsets("(" + u64() + ")(" + d_.group_id + " / " + std::to_string(C) + ") * " + str(W), "r", false, true, false);
  e_.line(d_.global + out_type() + "* row = out + out_offr;");
  // One q_b at a time: unrolled, W more points would stay live.
  e_.line("#pragma unroll 1");
  e_.open("for (" + u32() + " i = lid; i < " + str(share) + "; i += " + str(G) + ")");
  e_.line("const " + u32() + " qb = rank * " + str(share) + " + i;");
  if (share * C != L) e_.open("if (qb < " + str(L) + ")");
  // Eight points and their twiddles at a time (a compiler fence between
  // groups), so the compiler does not hoist all W points' and 2 W table
  // entries' loads at once. (It spills the same 12 bytes at W = 32 and 128
  // registers with or without; the H100 figures in docs/PERF.md are with.)
  std::vector<std::string> inputs;
  for (std::int64_t n1 = 0; n1 < W; ++n1) {
    const std::string y = "y" + str(n1);
    inputs.push_back(y);
    if (n1 > 0 && n1 % 8 == 0) e_.line("asm volatile(\"\" ::: \"memory\");");
    e_.line("cpx " + y + " = peer" + str(n1 / M) + "[" + str((n1 % M) * pitch) + " + qb];");
    if (n1 == 0) continue;
    e_.open("");
    e_.line("const " + u32() + " e = qb * " + str(n1) + ";");
    e_.line(y + " = cmul(" + y + ", cmul(pass_twiddles[e & " + str(mask) + "], pass_twiddles[" + str(mask + 1) +
            " + (e >> " + std::to_string(s_.twiddle_fine_bits) + ")]));");
    e_.close();
  }
  const std::vector<std::string> outputs = emit_dft(e_, inputs);
  for (std::int64_t a = 0; a < W; ++a) {
    const std::string at = "(" + idx() + ")(qb + " + str(a * L) + ") * " + str(s_.out_point_stride);
    e_.line("row[" + at + "] = " + product(scaled(outputs[static_cast<std::size_t>(a)]), "out_offr + " + at) + ";");
  }
  if (share * C != L) e_.close();
  e_.close();
  e_.close();
  e_.line("__cluster_barrier_arrive();");
  e_.line("__cluster_barrier_wait();");
}

}  // namespace bfly::codegen
