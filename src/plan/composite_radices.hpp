#pragma once

#include <cstdint>
#include <vector>

#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// The fewest stages for n over the model's radices and composite_radices()
// (factorize.hpp), where that is fewer than `model` has; among those, the
// smallest widest radix (the fewest points a thread), then the largest
// smallest. Empty where no factorisation saves a stage.
std::vector<int> fewer_stage_radices(std::int64_t n, const std::vector<int>& model);

// Where DeviceLimits::composite_radices asks, a one-pass fp32 row takes
// fewer_stage_radices (composite_radices.cpp says why).
void apply_composite_radices(KernelSpec& spec, const DeviceLimits& limits);

}  // namespace bfly::plan
