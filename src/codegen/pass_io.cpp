// PassWriter: loading a sub-transform's points and storing its results: the plain form, and which piece takes over.
#include "codegen/pass_writer.hpp"

namespace bfly::codegen {

void PassWriter::emit_load(int r) {
  const std::int64_t R = s_.length;
  const std::int64_t mask = (std::int64_t{1} << s_.twiddle_fine_bits) - 1;
  for_each_butterfly(R / r, "valid", [&](int j) {
    for (int t = 0; t < r; ++t) {
      const std::string n = "(b + " + str(t * (R / r)) + ")";
      const std::string v = x(j * r + t);
      if (s_.rader_gather) {
        // Rader: a[j] = x[g^j], the row's point g^j.
        e_.open("");
        emit_axis_index(n);
        e_.line(v + " = in[axis_off + (" + idx() + ")tables[j].x * " + str(s_.in_point_stride / s_.axis_stride) + "];");
        e_.line(v + ".y *= in_sign;");
        e_.close();
      } else if (s_.chirp_load) {
        // Bluestein: x[j] * c[j], zero past the N input points.
        e_.open("");
        emit_axis_index(n);
        e_.open("if (j < chirp_n)");
        emit_read(v, n);
        e_.line(v + ".y *= in_sign;");
        e_.line(v + " = cmul(" + v + ", tables[j]);");
        e_.close();
        e_.close();
      } else if (s_.block_rows) {
        e_.line(v + " = " + local("m", n) + ";");  // (conjugated as the block came in)
      } else if (s_.real_load == RealLoad::Mirror) {
        emit_mirror_read(v, n);
      } else if (s_.real_load == RealLoad::Hermitian) {
        e_.open("");
        emit_axis_index(n);
        emit_read(v, n);
        e_.line(v + ".y *= in_sign;");
        e_.close();
      } else {
        emit_read(v, n);
        e_.line(v + ".y *= in_sign;");
      }
      if (s_.has_pass_twiddles() && s_.pass_sincos) {
        emit_pass_sincos(v, n);
      } else if (s_.has_pass_twiddles()) {
        e_.open("");
        e_.line("const " + idx() + " e = (" + idx() + ")" + n + " * k;");
        e_.line(v + " = cmul(" + v + ", cmul(pass_twiddles[e & " + str(mask) + "], pass_twiddles[" + str(mask + 1) +
                " + (e >> " + std::to_string(s_.twiddle_fine_bits) + ")]));");
        e_.close();
      }
    }
  });
}

// j, the index along the transformed axis of point `n` of this sub-transform.
void PassWriter::emit_axis_index(const std::string& n) {
  e_.line("const " + idx() + " j = " + std::string(s_.axis_dim >= 0 ? "ci + " : "") + "(" + idx() + ")" + n + " * " +
          str(s_.axis_stride) + ";");
}

// Point `n` of the sub-transform into `v`, as the load mode reads it.
void PassWriter::emit_read(const std::string& v, const std::string& n) {
  const std::int64_t S = s_.in_point_stride;
  const std::string at = "(" + idx() + ")" + n + " * " + str(S);
  switch (s_.real_load) {
    case RealLoad::Real:
      e_.line(v + " = cmake(src[" + at + "], 0);");
      return;
    case RealLoad::Pairs:
      if (s_.real_pairs_aligned)
        e_.line(v + " = ((" + d_.global + " const cpx*)src)[" + n + "];");
      else
        e_.line(v + " = cmake(src[" + at + "], src[" + at + " + " + str(S / 2) + "]);");
      return;
    case RealLoad::Hermitian:
      // The half spectrum holds j <= n/2; above, X[j] = conj X[n - j].
      e_.open("if (j <= " + real_n() + " / 2)");
      e_.line(v + " = src[" + at + "];");
      e_.close();
      e_.open("else");
      e_.line(v + " = in[axis_off + (" + real_n() + " - j) * " + str(S / s_.axis_stride) + "];");
      e_.line(v + ".y = -" + v + ".y;");
      e_.close();
      return;
    default:
      if (s_.staged)
        e_.line(v + " = stage[" + n + "];");
      else if (s_.multiply_load) {
        const std::string o = "(" + idx() + ")(in_off + " + at + ")";
        e_.line(v + " = cmul(src[" + at + "], mul[" +
                (s_.multiply_period > 0 ? o + " % " + str(s_.multiply_period) : o) + "]);");
      } else
        e_.line(v + " = src[" + at + "];");
  }
}

void PassWriter::emit_store(int r) {
  const std::int64_t R = s_.length;
  if (plane_block_store_) {
    emit_plane_block_store(r);
    return;
  }
  if (s_.clustered()) {
    emit_cluster_store(r);
    return;
  }
  if (s_.rader_fused()) {
    emit_rader_store(r);
    return;
  }
  if (s_.rader_kernel_store || s_.rader_scatter) {
    emit_rader_pass_store(r);
    return;
  }
  if (s_.chirp_store != KernelSpec::ChirpStore::None || s_.convolve) {
    emit_chirp_store(r);
    return;
  }
  if (s_.real_store == RealStore::Split) {
    emit_split_store(r);
    return;
  }
  if (s_.real_store == RealStore::SplitPaired) {
    emit_split_paired_store(r);
    return;
  }
  if (s_.real_store != RealStore::None) {
    emit_real_store(r);
    return;
  }
  if (!s_.store_via_local()) {
    for_each_butterfly(R / r, "valid", [&](int j) {
      for (int t = 0; t < r; ++t) {
        const std::string at = "(" + idx() + ")(b + " + str(t * (R / r)) + ") * " + str(s_.out_point_stride);
        e_.line("dst[" + at + "] = " + product(scaled(x(j * r + t)), "out_off + " + at) + ";");
      }
    });
    return;
  }
  for_each_butterfly(R / r, "", [&](int j) {
    for (int t = 0; t < r; ++t) e_.line(local("m", "b + " + str(t * (R / r))) + " = " + x(j * r + t) + ";");
  });
  e_.line(d_.barrier);
  emit_store_from_local();
}

}  // namespace bfly::codegen
