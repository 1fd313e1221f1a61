// Multi-pass (four-step generalised to k steps): N = L1 * L2 * ... * Lk, each
// pass a batch of Lj-point sub-transforms read with stride N/Lj. The twiddles
// between steps are fused into the next pass's loads and the transposition is
// folded into each pass's output indexing (Stockham order), so there is no
// transpose or digit-reversal kernel.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

int fewest_passes(std::int64_t n, std::int64_t max_length, std::vector<std::int64_t>* lengths) {
  for (int k = 2; k <= 4; ++k) {
    auto split = split_length(n, k, max_length);
    if (!split.empty()) {
      if (lengths) *lengths = split;
      return k;
    }
  }
  return 0;
}

// The cost model: the fewest passes whose lengths stay within the preferred
// length, as long as that is at most three passes (or no more than the fewest
// possible); e.g. on a CPU 2^20 takes three passes of <= 256 points, not two
// of 1024 (measurements in plan/device_limits.cpp).
int passes_needed(const Problem& problem, const DeviceLimits& limits, std::vector<std::int64_t>* lengths) {
  const int fewest = fewest_passes(problem.length(), limits.max_pass_length, lengths);
  if (fewest == 0) return 0;
  std::vector<std::int64_t> preferred;
  const int k = fewest_passes(problem.length(), limits.preferred_pass_length, &preferred);
  if (k != 0 && k <= std::max(fewest, 3)) {
    if (lengths) *lengths = preferred;
    return k;
  }
  return fewest;
}

std::string applicable(const Problem& problem, const DeviceLimits& limits) {
  if (problem.length() <= 1) return "length 1 needs no passes";
  if (passes_needed(problem, limits, nullptr) == 0)
    return "length " + std::to_string(problem.length()) + " does not split into 4 passes of at most " +
           std::to_string(limits.max_pass_length);
  return "";
}

PlanTree make(const Problem& problem, const DeviceLimits& limits) {
  std::vector<std::int64_t> lengths;
  const int k = passes_needed(problem, limits, &lengths);
  PlanTree tree;
  tree.problem = problem;
  tree.solver = "multi-pass";
  const bool in_place = problem.placement == Placement::InPlace;
  tree.workspace_buffers = in_place ? (k == 2 ? 1 : 2) : 1;
  std::int64_t stride_product = 1;
  Slot source = Slot::Input;
  for (int j = 0; j < k; ++j) {
    Pass pass;
    pass.spec = make_spec(problem, lengths[j], stride_product, limits);
    pass.transforms = problem.batch * (problem.length() / lengths[j]);
    pass.source = source;
    const int left = k - 1 - j;  // passes after this one
    if (left == 0) pass.destination = Slot::Output;
    else if (in_place) pass.destination = (j % 2 == 0) ? Slot::Work0 : Slot::Work1;
    // Out of place, alternate so the last pass lands in the output and the
    // input is never written.
    else pass.destination = (left % 2 == 0) ? Slot::Output : Slot::Work0;
    tree.passes.push_back(pass);
    source = pass.destination;
    stride_product *= lengths[j];
  }
  return tree;
}

}  // namespace

Solver multi_pass_solver() { return {"multi-pass", applicable, make}; }

}  // namespace bfly::plan
