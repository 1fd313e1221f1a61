// The launch model: how one pass runs on a device. Given a spec whose
// precision, length, geometry and stride product a solver set, it orders and
// merges the dims, chooses the radices, the mapping (transform- or
// point-major), the threads and points a thread, padding, halves, staging,
// occupancy and the twiddle tables, from the device's limits and its tuning
// table (an entry for this length, else a neighbour's, else the model).
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
// Returns where the launch came from: "model", "table" (the tuning table's
// entry for this length) or "table, from N" (a neighbour's).
std::string complete_spec(KernelSpec& spec, const DeviceLimits& limits);

}  // namespace bfly::plan
