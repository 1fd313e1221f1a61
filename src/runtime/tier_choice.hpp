// The default tier's choice (issue 40): a size whose specialised kernels
// are all at hand (made on the device in this process, shipped in the
// library or in the disk cache) plans specialised at once, as fast to make
// as a generic plan; any other runs tiered, the generic plan answering at
// once while the specialised one is made on a thread. So a process's first
// call of a new size never waits to compile, and a size met before never
// runs the slower generic kernels.
#pragma once

#include "backends/device_impl.hpp"
#include "plan/plan.hpp"

namespace bfly::detail {

// Whether every kernel `tree` launches is made on `device` or would load
// without compiling (a chained pair's kernel in place of its two).
bool kernels_ready(DeviceImpl& device, const plan::PlanTree& tree);

}  // namespace bfly::detail
