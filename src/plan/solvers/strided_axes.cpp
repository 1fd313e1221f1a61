// The default strategy: each transformed axis in place in the array's own
// layout, one pass per axis where one group holds the axis (more where it
// does not). A strided axis is read as blocks of adjacent columns (the
// column-major mapping), so global accesses stay coalesced without any
// transpose kernel. Axes go innermost first; a real problem's real axis goes
// first (R2C) or last (C2R), the others transform its half spectrum. The
// two innermost axes of a complex array go as planes in one pass where a
// group holds a plane (solvers/plane.cpp).
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

std::vector<Step> steps(const Problem& problem, const DeviceLimits& limits) {
  std::vector<Step> out;
  const Problem complex = complex_side(problem);
  const std::vector<int> axes = problem.transform_axes();
  // The two innermost axes as planes in one pass, where they fit a group.
  const std::vector<Step> plane = plane_steps(problem, limits);
  out = plane;
  for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
    if (problem.shape[*a] == 1 || *a == problem.real_axis()) continue;  // a 1-point transform is the identity
    if (!plane.empty() && *a + 1 >= plane.front().dim) continue;        // in the plane
    for (const Step& s : axis_steps(complex, *a + 1, limits, {})) out.push_back(s);
  }
  if (!problem.is_real()) return out;
  const std::vector<Step> real = real_axis_steps(problem, limits);
  out.insert(problem.kind == Kind::R2C ? out.begin() : out.end(), real.begin(), real.end());
  return out;
}

}  // namespace

Solver strided_axes_solver() { return {"axes", Strategy::Auto, steps}; }

}  // namespace bfly::plan
