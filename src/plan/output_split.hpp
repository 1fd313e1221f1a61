// Where a plan stores the output's split (Layout::split; the piece:
// pieces/split_store.cpp): on its one pass, which transforms the split
// axis whole in a form that admits it. Elsewhere the planner says why not.
#pragma once

#include <cstdint>

#include "bfly/bfly.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// Before the launch is chosen: sets spec's split for the plan's one pass
// (`steps` of them) over logical dim `dim` (0 the batch, a + 1 axis a);
// throws Error(Unsupported) naming the problem where the plan cannot.
void place_split(KernelSpec& spec, const Problem& problem, std::size_t steps, int dim);
// After: throws where the launch's form stores its own way.
void check_split(const KernelSpec& spec, const Problem& problem);
// The largest output offset of the sub-transform's points (from its origin).
std::int64_t split_reach(const KernelSpec& spec);

}  // namespace bfly::plan
