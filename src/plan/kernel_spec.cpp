#include "plan/kernel_spec.hpp"

#include <algorithm>
#include <sstream>

#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::plan {

const char* to_string(Mapping m) { return m == Mapping::TransformMajor ? "tm" : "cm"; }

// Bluestein's and the real axis's stores index the output directly: no
// local detour.
bool KernelSpec::store_rows_via_local() const {
  return !clustered() && !plane() && !pieces_own_store() && !convolve && mapping == Mapping::ColumnMajor &&
         out_point_stride == 1 && transforms_per_group > 1;
}

bool KernelSpec::store_columns_via_local() const {
  // The group's transforms must be consecutive along dims[0] (out stride 1).
  return !plane() && (!pieces_own_store() || pieces_store_from_local()) && !convolve &&
         mapping == Mapping::TransformMajor && out_point_stride != 1 && transforms_per_group > 1 && dims.size() > 1 &&
         dims.front().out_stride == 1 && dims.front().extent % transforms_per_group == 0;
}

bool KernelSpec::pieces_own_store() const {
  for (const pieces::Piece* piece : pieces::of(*this))
    if (piece->owns_store(*this)) return true;
  return false;
}

bool KernelSpec::pieces_store_from_local() const {
  for (const pieces::Piece* piece : pieces::of(*this))
    if (piece->owns_store(*this) && !piece->stores_from_local(*this)) return false;
  return true;
}

bool KernelSpec::store_via_local() const { return block_rows || store_rows_via_local() || store_columns_via_local(); }

// What each mode admits is one row of plan/pass_modes.cpp; these add the
// form's own conditions on the geometry.
bool KernelSpec::chainable() const { return modes_admit(*this, Form::Chain); }

bool KernelSpec::block_rows_allowed() const {
  return modes_admit(*this, Form::BlockRows) && mapping == Mapping::TransformMajor && stride_product == 1 &&
         in_point_stride == 1 && out_point_stride == 1 && transforms_per_group > 1 && dims.size() == 1 &&
         dims[0].in_stride == length && dims[0].out_stride == length;
}

// The store paths that index the output buffer by o (the direct stores,
// the stores from local memory, the half spectrum and the packed splits),
// and the plain loads (not staged, blocked, gathered, chirped or a real
// axis's): the modes' rows say which, block rows are the load's own.
bool KernelSpec::can_fuse_store_ops() const { return modes_admit(*this, Form::CallbackStore); }

bool KernelSpec::can_fuse_load_ops() const { return modes_admit(*this, Form::CallbackLoad) && !block_rows; }

std::string KernelSpec::geometry() const {
  std::ostringstream out;
  out << "points " << in_point_stride << "/" << out_point_stride << ", dims";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    out << ' ';
    if (d + 1 < dims.size())
      out << dims[d].extent;
    else
      out << '*';  // open: the run-time transform count
    // (Bluestein's kernels take the open dim's strides at run time.)
    if (d + 1 == dims.size() && pieces::open_dim(*this))
      out << ":?/?";
    else
      out << ':' << dims[d].in_stride << '/' << dims[d].out_stride;
    if (dims[d].caller_in != 0 || dims[d].caller_out != 0)
      out << '[' << dims[d].caller_in << '/' << dims[d].caller_out << ']';
    if (static_cast<int>(d) == twiddle_dim) out << "(k)";
    if (static_cast<int>(d) == axis_dim) out << "(i)";
  }
  if (wide) out << ", 64-bit";
  for (const pieces::Piece* piece : pieces::of(*this)) piece->describe(*this, out);
  return out.str();
}

bool KernelSpec::halves_allowed() const {
  return modes_admit(*this, Form::Halves) && !store_via_local() && radices.size() > 1;
}

KernelSpec KernelSpec::plane_row_spec() const {
  KernelSpec rows;
  rows.precision = precision;
  rows.length = plane_columns;
  rows.radices = plane_radices;
  rows.threads_per_transform = plane_threads;
  rows.transforms_per_group = static_cast<int>(planes_per_group() * length);
  rows.mapping = Mapping::TransformMajor;
  rows.local_padding = local_padding;
  rows.wide = wide;
  rows.store_storage = store_storage;  // (the rows' phase stores the pass's outputs)
  rows.in_point_stride = 1;
  rows.out_point_stride = 1;
  // Row r of a plane at r times the output's row pitch; the planes as the
  // first phase's dims past its columns.
  rows.dims.push_back({length, 0, out_point_stride});
  for (std::size_t d = 1; d < dims.size(); ++d) rows.dims.push_back(dims[d]);
  return rows;
}

int KernelSpec::group_size() const {
  const int first = threads_per_transform * transforms_per_group;
  if (!plane()) return first;
  return std::max<int>(first, plane_threads * static_cast<int>(planes_per_group() * length));
}

std::size_t KernelSpec::local_bytes() const { return staged ? stage_offset_bytes() + stage_bytes() : exchange_bytes(); }

// The stage starts after the exchange array, aligned for a point (cp.async
// writes 8 or 16 bytes at once).
std::size_t KernelSpec::stage_offset_bytes() const { return (exchange_bytes() + 15) / 16 * 16; }

std::size_t KernelSpec::exchange_bytes() const {
  const std::size_t point = (precision == Precision::Single ? 8 : 16) / (local_halves ? 2 : 1);
  // A length-1 or single-stage transform with direct store needs no exchange.
  // (A cluster's blocks leave their outputs there for the others.)
  if (clustered())
    return point * static_cast<std::size_t>(std::max(local_row(), cluster_pitch())) * transforms_per_group;
  // A plane's rows, as the second phase lays them out.
  if (plane()) return point * static_cast<std::size_t>(plane_row_spec().local_row() * planes_per_group() * length);
  const bool exchanges =
      (!identity && radices.size() > 1) || store_via_local() || convolve || pieces::need_exchange(*this);
  return exchanges ? point * static_cast<std::size_t>(local_row()) * transforms_per_group : 0;
}

std::size_t KernelSpec::stage_bytes() const {
  // (and 16 bytes for the bulk copy's mbarrier)
  return staged ? (precision == Precision::Single ? 8 : 16) * static_cast<std::size_t>(length) + 16 : 0;
}

bool KernelSpec::staged_allowed() const {
  return modes_admit(*this, Form::Staging) && !store_via_local() && !has_pass_twiddles() && transforms_per_group == 1 &&
         in_point_stride == 1 && !dims.empty();
}

std::int64_t KernelSpec::local_row() const {
  const bool padded = local_padding && mapping == Mapping::TransformMajor;
  std::int64_t row = padded ? length + length / 16 : length;
  // Writing columns reads the array across rows: an odd row length puts
  // adjacent rows in different banks.
  // So does reading block rows a thread a row.
  if ((store_columns_via_local() || block_rows) && row % 2 == 0) ++row;
  return row;
}

int KernelSpec::points_per_thread() const {
  if (plane()) {
    KernelSpec columns = *this;
    columns.plane_columns = 0;
    return std::max(columns.points_per_thread(), plane_row_spec().points_per_thread());
  }
  if (identity) return static_cast<int>((length + threads_per_transform - 1) / threads_per_transform);
  int widest = 1;
  for (int r : radices) {
    const std::int64_t butterflies = length / r;
    const std::int64_t per_thread = (butterflies + threads_per_transform - 1) / threads_per_transform;
    widest = std::max<int>(widest, static_cast<int>(per_thread * r));
  }
  return widest;
}

std::string KernelSpec::name() const {
  std::ostringstream out;
  out << "bfly_" << (precision == Precision::Single ? "f32" : "f64") << "_n" << length << "_r";
  for (std::size_t i = 0; i < radices.size(); ++i) out << (i ? "x" : "") << radices[i];
  if (identity) out << "_copy";
  for (const pieces::Piece* piece : pieces::of(*this)) piece->name_kind(*this, out);
  // The geometry as a short hash: the full text is in the source's comment.
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : geometry()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  out << "_g" << std::hex << (h & 0xffffffffffull) << std::dec << "_p" << stride_product << "_T"
      << threads_per_transform << "_M" << transforms_per_group << '_' << to_string(mapping);
  if (reads_pass_twiddles()) out << "_tw" << (pass_sincos ? "sc" : std::to_string(twiddle_fine_bits));
  if (stage_twiddle_bits > 0) out << "_st" << stage_twiddle_bits;
  if (stage_twiddle_powers) out << "_pw";
  if (local_padding) out << "_pad";
  if (local_halves) out << "_half";
  if (min_groups_per_unit > 0) out << "_occ" << min_groups_per_unit;
  if (staged) out << "_stg" << staged;
  if (clustered()) out << "_cl" << cluster;
  if (block_rows) out << "_blk";
  for (const pieces::Piece* piece : pieces::of(*this)) piece->name_part(*this, out);
  if (plane()) {
    out << "_pl" << plane_columns << "r";
    for (std::size_t i = 0; i < plane_radices.size(); ++i) out << (i ? "x" : "") << plane_radices[i];
    out << "T" << plane_threads << (plane_block_store ? "b" : "");
  }
  return out.str();
}

bool KernelSpec::operator==(const KernelSpec& o) const { return name() == o.name(); }

}  // namespace bfly::plan
