// The default tier's choice (issue 40): a size whose specialised kernels
// are all at hand (made on the device in this process, shipped in the
// library or in the disk cache) plans specialised at once, as fast to make
// as a generic plan; any other runs tiered, the generic plan answering at
// once while the specialised one is made on a thread. So a process's first
// call of a new size never waits to compile, and a size met before never
// runs the slower generic kernels.
#pragma once

#include <functional>

#include "backends/device_impl.hpp"
#include "plan/plan.hpp"

namespace bfly::detail {

// Each kernel `tree` launches, in order (a chained pair's kernel in place
// of its two): its name and a function that writes its source (codegen
// costs; call it only where the name alone does not decide). `visit`
// returns false to stop.
void for_each_kernel(
    const plan::PlanTree& tree, codegen::DialectKind dialect,
    const std::function<bool(const std::string& name, const std::function<std::string()>& source)>& visit);

// Whether every kernel `tree` launches is made on `device` or would load
// without compiling.
bool kernels_ready(DeviceImpl& device, const plan::PlanTree& tree);

// The calling thread at the lowest scheduling priority (Linux; elsewhere
// nothing): a tiered plan's background compile yields the cores to the
// executions it serves (on a CPU device they share them: PoCL on two cores
// ran a prime's first call 4-5x slower beside its own compile). Threads it
// starts inherit the priority.
void background_priority();

// One execution of a plan of `problem` on scratch buffers, waited for,
// nothing read back: PoCL builds a launch's work-group code at its first
// run (0.3-0.8 s a kernel on two cores), so a tiered plan's specialised
// half runs once in the background before the foreground's executions meet
// it. Where the scratch does not fit, nothing happens (the foreground pays).
void rehearse(DeviceImpl& device, const Problem& problem,
              const std::function<void(const BufferImpl&, const BufferImpl&)>& execute);

}  // namespace bfly::detail
