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
  std::string what;  // e.g. "axis 1, pass 2 of 2", "transpose"
  KernelSpec spec;
  Slot source = Slot::Input;
  Slot destination = Slot::Output;
  // Where the first pass of this pass's group reads and its last pass
  // writes, for a pass that reaches them (Step::reach_back, reach_forward:
  // Rader's kernel store reads x[0] and writes X[0] there); this pass's own
  // elsewhere. Whether that first pass is the plan's first (its input as
  // the caller gave it: conjugated for an inverse), and that last pass the
  // plan's last (its output scaled, and conjugated back for an inverse).
  Slot caller_source = Slot::Input;
  Slot caller_destination = Slot::Output;
  bool caller_first = true, caller_last = true;
  std::int64_t transforms = 1;  // sub-transforms this pass runs (elements / length)
  // When > 0, this pass and the next run as one chained launch over this
  // many batch elements (codegen/chain_kernel.hpp): the next pass's groups
  // of element e start once this pass's groups of e are done, about
  // chain_lookahead elements later, so they read its output from L2.
  std::int64_t chain_elements = 0;
  std::int64_t chain_lookahead = 0;
  int chain_groups_per_unit = 0;  // DeviceLimits::chain_groups_per_unit (0: the generator's estimate)
  // Where the launch shape came from: "model" or "table" (complete_spec),
  // "model, relaunched (...)" where the runtime replaced a spilling model
  // launch (plan/launch_alternatives.hpp); plan printing shows it.
  std::string launch_from = "model";
  std::int64_t groups() const;
};

struct PlanTree {
  Problem problem;
  std::string solver;  // which decomposition produced it
  std::string tuning;  // the tuning table's source, empty without one
  std::vector<Pass> passes;
  int workspace_buffers = 0;
  std::int64_t workspace_bytes = 0;  // each: problem.bytes(), or more for Bluestein's padding

  std::string print() const;
};

// Chooses the decomposition for `problem` on a device with `limits`.
// Throws Error(Unsupported) naming the length when none applies.
PlanTree make_plan(const Problem& problem, const DeviceLimits& limits, const PlanOptions& options = {});

}  // namespace bfly::plan
