// Two passes of a batched transform in one launch, so that the second reads
// what the first wrote while it is still in L2 (issue 14's L2 experiment;
// docs/PERF.md, "passes chained through L2").
//
// The launch is persistent: its groups take work items in order from an
// atomic ticket. Item order runs in rounds: round r holds the first pass's
// groups of batch element r, then the second pass's groups of element r - D
// (D = the lookahead, a run-time argument). A second-pass item waits
// (spinning, one thread of the group) until every first-pass group of its
// element has finished; those items have earlier tickets, taken by groups
// already running, so no wait can deadlock, whatever the launch's size. The
// last group to leave resets the counters, so the next launch finds zeros.
#pragma once

#include <cstdint>
#include <string>

#include "plan/kernel_spec.hpp"
#include "plan/plan.hpp"

namespace bfly::codegen {

// Groups of each pass per batch element: a pass's groups cover the batch in
// order, each element by `groups_a` (`groups_b`) consecutive groups.
struct ChainShape {
  std::int64_t groups_a = 1;
  std::int64_t groups_b = 1;
  // Blocks a multiprocessor asked of the compiler; 0: the estimate from the
  // passes' registers (DeviceLimits::chain_groups_per_unit). Set, the name
  // ends in _o<n>.
  int groups_per_unit = 0;
};

// The chained launch of pass `a` (Pass::chain_elements > 0) and the pass
// after it: each pass's groups per batch element, and the asked occupancy.
ChainShape chain_shape(const plan::Pass& a, const plan::Pass& b);

// The kernel's name (its source defines the two passes' functions and it).
std::string chain_name(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape);

// The chained launch's group size: the larger pass's (the other's body runs
// on its first threads, whole warps).
int chain_group_size(const plan::KernelSpec& a, const plan::KernelSpec& b);

// CUDA source of the chained kernel. Arguments: the first pass's eight (as
// a pass kernel's: in, out, twiddles, pass_twiddles, transforms, in_sign,
// out_re, out_im), then the second's eight, then
//   counters   unsigned int[4 + elements], zero before the first launch:
//              the ticket (64 bits), groups gone, spare, then per element
//              its first-pass groups done
//   elements   batch elements (u64)
//   lookahead  D, 1 <= D <= elements (u64)
// Neither spec staged, clustered, nor taking extra arguments (Bluestein,
// Rader, real); their group sizes whole warps where they differ.
std::string generate_chain(const plan::KernelSpec& a, const plan::KernelSpec& b, const ChainShape& shape);

}  // namespace bfly::codegen
