// A plan: the decomposition of one Problem into passes over device memory,
// each pass one generated kernel. Pure data: printable, comparable, testable
// without a device.
#pragma once

#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::plan {

// Where a pass reads or writes: the caller's buffers or plan workspace.
enum class Slot { Input, Output, Work0, Work1 };
const char* to_string(Slot s);

struct Pass {
  KernelSpec spec;
  Slot source = Slot::Input;
  Slot destination = Slot::Output;
  std::int64_t transforms = 1;  // sub-transforms this pass runs (batch * total / length)
  std::int64_t groups() const;
};

struct PlanTree {
  Problem problem;
  std::string solver;           // which decomposition produced it
  std::vector<Pass> passes;
  int workspace_buffers = 0;    // each of problem.bytes()

  std::string print() const;
};

// Chooses the decomposition for `problem` on a device with `limits`.
// Throws Error(Unsupported) naming the length when none applies.
PlanTree make_plan(const Problem& problem, const DeviceLimits& limits);

// Launch shape for one sub-transform length: threads per transform and
// transforms per group. Shared by every solver so equal passes get equal specs.
KernelSpec make_spec(const Problem& problem, std::int64_t length, std::int64_t stride_product,
                     const DeviceLimits& limits);

}  // namespace bfly::plan
