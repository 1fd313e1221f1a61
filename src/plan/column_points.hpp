// Points a thread of long strided columns (issue 39): the model's launch
// of a pass (launch_model.cpp complete_model_at) at a given
// strided_points_mixed, and the choice among those launches for long fp32
// columns of a length not a power of two (column_points.cpp): 16 points a
// thread, 64 where 16 would cost the group columns, 32 where the group's
// threads leave too few registers for 16 (row_threads.hpp
// column_points_fit_registers).
#pragma once

#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// The model's launch of `spec` at `limits` alone (launch_model.cpp).
void complete_model_at(KernelSpec& spec, const DeviceLimits& limits);

// complete_model_at, then for long fp32 mixed-radix columns on a GPU the
// launch the points-a-thread rule chooses among it and its variants.
void complete_model(KernelSpec& spec, const DeviceLimits& limits);

}  // namespace bfly::plan
