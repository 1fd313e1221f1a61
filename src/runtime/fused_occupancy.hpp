// A pass that took callbacks (pieces/callback.cpp) keeps the occupancy it
// had without them. Their loads and index arithmetic cost a few registers,
// which at 512 threads a group can halve the groups a multiprocessor holds
// (H200, R2C 16384 b4096 with a Hann window: 63 -> 76 registers, 2 -> 1
// groups, 0.206 -> 0.273 ms). The plain kernel is compiled too; where it
// held more groups, the fused one is built again bounded to that many
// (KernelSpec::min_groups_per_unit), if that spills no more than `spills`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "backends/device_impl.hpp"
#include "plan/plan.hpp"

namespace bfly::detail {

// `make(spec)`: the kernel of a pass spec (made once per device). The
// bounded pass, or nothing where the fused kernel keeps the plain one's
// groups or the bound would not help. CUDA only (elsewhere the device
// reports no register counts).
std::optional<plan::Pass> occupancy_kept(
    DeviceImpl& device, const plan::Pass& pass, KernelImpl& fused,
    const std::function<std::shared_ptr<KernelImpl>(const plan::KernelSpec&)>& make, std::size_t spills);

}  // namespace bfly::detail
