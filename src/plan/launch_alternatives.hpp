// Other launches for a one-pass row whose kernel the compiler spilled
// (issue 39). Whether a launch spills depends on what the compiler makes of
// its stages at the registers its thread count leaves (64K / threads), which
// no estimate here predicts well: on an H100 the same radices spilled at one
// thread count and fitted at a neighbouring one (7680 = 15 x 8 x 8 x 8: 256
// bytes a thread at 320 and 512 threads, none at 256), and a spilling launch
// ran at 0.6-0.8 of one that fitted (docs/PERF.md, "launches that spill").
// So the runtime asks the compiler: where the model's kernel spills, it
// compiles these in turn and keeps the first that does not
// (runtime/plan_impl.cpp).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// Relaunches of a completed one-pass row `spec` (tunable_row) on a GPU: for
// each count of points a thread, the fewest threads that give it, fewest
// points first, those whose points could not fit the registers their
// threads leave or that hold more than 36 points a thread and more than the
// spec's left out; at most `most`, the spec's own launch not among them.
// Empty where launches do not apply.
std::vector<KernelSpec> launch_alternatives(const KernelSpec& spec, const DeviceLimits& limits, int most = 4);

// Whether a one-pass row's groups a multiprocessor came from its points
// (DeviceLimits::row_occupancy, launch_model.cpp row_groups_per_unit).
bool row_occupancy_applies(const KernelSpec& spec, const DeviceLimits& limits);
// Whether a one-kernel convolution's groups came from its points the same
// way (row_threads.cpp convolution_groups_per_unit), or a Bluestein chirp
// row's as a row's: then a spill relaunches at one and two groups fewer.
bool convolution_occupancy_applies(const KernelSpec& spec, const DeviceLimits& limits);
// The groups a multiprocessor Bluestein's middle pass of three (a
// convolution of sub-transforms, stride_product > 1) asks by
// DeviceLimits::convolution_pass_groups, as its threads and local memory
// let them; 0 where that does not apply.
int convolution_pass_groups(const KernelSpec& spec, const DeviceLimits& limits);

// Spilled bytes a thread the runtime keeps a model launch with rather than
// relaunch it, at row_occupancy's groups: DeviceLimits::tolerated_spill_bytes
// (200) where 2-3 groups are asked, 32 at more (a few spilled words cost
// less than a group fewer: H200, 4704 at 48 registers spilling 28 bytes
// 1.07x faster than at 64 without; at 4-12 groups 36-60 bytes lost 5-10%;
// launch_alternatives.cpp), else none.
std::size_t tolerated_spill_bytes(const KernelSpec& spec, const DeviceLimits& limits);

// What the runtime compiles in turn where a model launch spills more than
// that: at row_occupancy's groups, the same launch at one and two groups
// fewer first (the spill came from the register share), then
// launch_alternatives.
std::vector<KernelSpec> relaunch_candidates(const KernelSpec& spec, const DeviceLimits& limits);

// Which of `candidates` a model launch that spilled `spilled` bytes a
// thread, more than `tolerated`, relaunches as: the first whose spill
// (`spill_of`, asked in order, so each is compiled only as needed) is at
// most `tolerated`, else the one that spills least, where that is less
// than `spilled`; none where no candidate spills less. The runtime
// (runtime/plan_impl.cpp) and `bfly plan --nvrtc` both choose by it.
std::optional<std::size_t> choose_relaunch(const std::vector<KernelSpec>& candidates, std::size_t spilled,
                                           std::size_t tolerated,
                                           const std::function<std::size_t(std::size_t)>& spill_of);

// The points the busiest thread of a one-pass row runs through its stages'
// butterflies, the sum over stages of ceil((N / r) / T) r: N times the stage
// count where every thread does whole butterflies of every stage, more
// where the radices' butterfly counts do not share the thread count (5120 =
// 10 x 8 x 8 x 8: 58 at 512 threads, 34 at 640). `bfly plan` shows it
// beside each launch (issue 39: the candidates a cost model will choose
// among).
std::int64_t busiest_thread_points(const KernelSpec& spec);

}  // namespace bfly::plan
