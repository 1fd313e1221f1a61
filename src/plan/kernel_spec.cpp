#include "plan/kernel_spec.hpp"

#include <algorithm>
#include <sstream>

namespace bfly::plan {

const char* to_string(Mapping m) { return m == Mapping::TransformMajor ? "tm" : "cm"; }

bool KernelSpec::store_via_local() const {
  // Output rows are contiguous only when p == 1; columns (p > 1) coalesce
  // under the column-major mapping.
  const bool contiguous_output = stride_product == 1;
  return contiguous_output != (mapping == Mapping::TransformMajor);
}

std::size_t KernelSpec::local_bytes() const {
  const std::size_t point = precision == Precision::Single ? 8 : 16;
  // A length-1 or single-stage transform with direct store needs no exchange.
  const bool exchanges = radices.size() > 1 || store_via_local();
  return exchanges ? point * static_cast<std::size_t>(local_row()) * transforms_per_group : 0;
}

std::int64_t KernelSpec::local_row() const {
  const bool padded = local_padding && mapping == Mapping::TransformMajor;
  return padded ? length + length / 16 : length;
}

int KernelSpec::points_per_thread() const {
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
  out << "_t" << total << "_p" << stride_product << "_T" << threads_per_transform << "_M"
      << transforms_per_group << '_' << to_string(mapping);
  if (has_pass_twiddles()) out << "_tw" << twiddle_fine_bits;
  if (stage_twiddle_bits > 0) out << "_st" << stage_twiddle_bits;
  if (local_padding) out << "_pad";
  if (min_groups_per_unit > 0) out << "_occ" << min_groups_per_unit;
  return out.str();
}

bool KernelSpec::operator==(const KernelSpec& o) const { return name() == o.name(); }

}  // namespace bfly::plan
