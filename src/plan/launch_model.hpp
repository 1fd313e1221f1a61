// The launch model: how one pass runs on a device. Given a spec whose
// precision, length, geometry and stride product a solver set, it orders and
// merges the dims, chooses the radices, the mapping (transform- or
// point-major), the threads and points a thread, padding, halves, staging,
// occupancy and the twiddle tables, from the device's limits and its tuning
// table (an entry for this length, else the model's).
// Solvers call it to see whether a candidate fits; make_plan calls it for
// every pass, so equal passes get equal specs. It calls nothing above it.
#pragma once

#include <string>

#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// Completes a spec whose precision, length, identity, geometry (point
// strides, dims with the batch dim last, twiddle_dim) and stride_product are
// set: orders and merges the dims, chooses the radices, the mapping, the
// launch shape and the twiddle tables.
// Returns where the launch came from: "model" or "table" (the tuning
// table's entry for this length).
std::string complete_spec(KernelSpec& spec, const DeviceLimits& limits);

// A completed spec relaunched by `choice` (the tuning table's words: its
// unset fields keep the spec's); false, spec unchanged, where it does not
// fit the device.
bool apply_choice(KernelSpec& spec, const LaunchChoice& choice, const DeviceLimits& limits);

// Whether launch choices apply to `spec`: a one-pass kernel of contiguous
// points of a complex transform (what `bfly tune` times).
bool tunable_row(const KernelSpec& spec);

// The groups a multiprocessor's local memory holds: each group's own and
// 1 KiB more (what CUDA reserves a block).
int groups_local_memory_holds(const KernelSpec& spec, const DeviceLimits& limits);

}  // namespace bfly::plan
