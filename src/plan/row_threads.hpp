// How many threads a long one-pass row takes on a GPU: few enough that
// each holds its points in registers, many enough that no thread holds
// more points than the radices force (launch_model.cpp calls it after the
// model's launch; launch_alternatives.cpp shares its register test); and
// how many groups of them a multiprocessor is asked to hold.
#pragma once

#include <cstdint>

#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// Whether `spec`'s points alone (2 registers a value, a double's two
// values, and about 40 for its indexing) leave one group of its threads
// room in a multiprocessor's `registers_per_unit` (at most 255 a thread).
bool points_fit_registers(const KernelSpec& spec, int registers_per_unit);

// The same for a column pass's whole group (its columns times its threads):
// 3 registers a point's word and 4 more (NVRTC, sm_90, long fp32 columns
// under the registers their group leaves: 24 points a thread fitted in 80,
// 30 in 95-96; 28-32 spilled 8-180 bytes at 72-96; 60 fitted in 235).
bool column_points_fit_registers(const KernelSpec& spec, int registers_per_unit);
// Its two sides, which `bfly plan` shows beside a long column pass.
int column_registers_left(const KernelSpec& spec, int registers_per_unit);
int column_registers_needed(const KernelSpec& spec);

// The thread count in [low, high] that leaves each thread the fewest
// points, the fewest threads among equals; with `registers_per_unit` > 0,
// only counts whose points fit (points_fit_registers), low - 1 where none
// does.
int fewest_points_threads(KernelSpec s, std::int64_t low, std::int64_t high, int registers_per_unit = 0);

// Long GPU rows of one transform a group: the threads as the rules in
// row_threads.cpp say. True where it changed them.
bool choose_long_row_threads(KernelSpec& spec, const DeviceLimits& limits);

// A one-pass row's groups a multiprocessor under DeviceLimits::row_occupancy
// (the most whose register share leaves 2 registers a point's word and 16
// more; row_threads.cpp says how it was fitted).
int row_groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits);

// A one-kernel convolution's groups a multiprocessor under the same rule:
// the most whose share leaves 4 registers a point's word and 32 more.
int convolution_groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits);

// A one-kernel convolution's threads a transform, given the model's
// `threads` (a widest butterfly a thread): a thread a butterfly of its
// busiest stage with DeviceLimits::convolution_threads, or on a GPU for
// Bluestein's where that cuts a thread's points by a quarter; else `threads`.
std::int64_t convolution_threads(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t threads);

// The same rule for a one-pass contiguous row of at least
// DeviceLimits::row_busiest_length points with DeviceLimits::row_busiest
// (issue 39's measurement knob): where the model's widest butterfly a
// thread leaves threads two slots of a stage whose butterflies outnumber
// them (3360 = 16 x 15 x 14 at 210 threads: 30 points through the
// radix-15 stage; at 240, 16), a thread a butterfly of that stage.
std::int64_t row_busiest_threads(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t threads);

}  // namespace bfly::plan
