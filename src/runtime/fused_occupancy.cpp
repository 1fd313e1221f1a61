#include "runtime/fused_occupancy.hpp"

namespace bfly::detail {

std::optional<plan::Pass> occupancy_kept(
    DeviceImpl& device, const plan::Pass& pass, KernelImpl& fused,
    const std::function<std::shared_ptr<KernelImpl>(const plan::KernelSpec&)>& make, std::size_t spills) {
  const plan::KernelSpec& spec = pass.spec;
  if (device.info().backend != "cuda" || (spec.load_ops.empty() && spec.store_ops.empty())) return std::nullopt;
  const std::size_t units = std::max<std::size_t>(1, device.info().compute_units);
  const std::size_t size = static_cast<std::size_t>(spec.group_size()), local = spec.local_bytes();
  const std::size_t have = device.resident_groups(fused, size, local);
  plan::KernelSpec plain = spec;
  plain.load_ops = {};
  plain.store_ops = {};
  const std::size_t want = device.resident_groups(*make(plain), size, local);
  if (want <= have) return std::nullopt;  // (the bounded pass's kernel, built again, holds as many)
  plan::Pass bounded = pass;
  bounded.spec.min_groups_per_unit = static_cast<int>(want / units);
  const std::shared_ptr<KernelImpl> kernel = make(bounded.spec);
  if (device.spill_bytes(*kernel) > spills || device.resident_groups(*kernel, size, local) <= have) return std::nullopt;
  bounded.launch_from += " (bounded to the plain kernel's " + std::to_string(want / units) + " groups a unit)";
  return bounded;
}

}  // namespace bfly::detail
