// Where half storage's conversion and the callbacks fuse into a plan
// (issue 42): the one policy the planner (make_plan of a half problem,
// `bfly plan`) and the runtime (runtime/ends_plan.hpp) share.
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "plan/end_ops.hpp"
#include "plan/plan.hpp"

namespace bfly::plan {

// Marks the first pass's loads (KernelSpec::load_storage) and the last
// pass's stores (store_storage) of `tree`, a plan of the native problem, to
// convert from and to `storage` where those passes take it, moving the
// intermediates the plan keeps in the caller's buffers to a workspace
// buffer (a 16-bit buffer cannot hold fp32 ones). The runtime converts in
// kernels of their own where a side is left.
void fuse_storage(PlanTree& tree, Storage storage);

// What a plan's two ends do besides reading and writing: half storage's
// conversion and the callbacks (plan/end_ops.hpp).
struct Ends {
  Storage storage = Storage::Native;
  EndOps load, store;
  bool empty() const { return storage == Storage::Native && load.empty() && store.empty(); }
};
// fuse_storage's rule for both: a side fuses whole (its conversion and its
// callback in the one pass) or not at all, so the runtime applies what is
// left in a kernel of its own. (A callback fuses into no chained launch:
// its data is the pass's own argument.)
void fuse_ends(PlanTree& tree, const Ends& ends);
// `pass` without its callbacks and their sides' conversions, which then run
// apart (the ends plan's kernels, the convolution's own product): where the
// fused kernel spilled past a few words. `why` joins its launch_from.
Pass unfused(const Pass& pass, const std::string& why);
// A convolution's product (runtime/fused_plan.hpp): in the last stores, or
// the first loads; none where period < 0.
Ends product_ends(const Problem& problem, std::int64_t period, bool stores);
// Whether the tree's first loads (last stores) do all that side of `ends` asks.
bool loads_fused(const PlanTree& tree, const Ends& ends);
bool stores_fused(const PlanTree& tree, const Ends& ends);

// Whether the tree's first loads (last stores) convert.
bool loads_convert(const PlanTree& tree);
bool stores_convert(const PlanTree& tree);
// For a half problem's tree (`bfly plan`): a line saying where each side
// converts (in a pass, or in a conversion kernel through fp32 workspace);
// empty for a native one.
std::string storage_note(const PlanTree& tree);

}  // namespace bfly::plan
