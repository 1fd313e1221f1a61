// The seeds' row-column scheme, kept as a baseline: every axis is
// transformed as contiguous rows. An axis that is not innermost is first
// moved there by a tiled transpose (swapping it with the innermost dim), and
// a last transpose restores the natural order. A 2D transform takes four
// passes (rows, transpose, rows, transpose) where the strided strategy takes two.
#include <algorithm>
#include <numeric>

#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

std::vector<Step> steps(const Problem& problem, const DeviceLimits& limits) {
  if (problem.is_real())
    throw Error(ErrorCode::Unsupported, "the transpose strategy does not do real transforms (" + problem.token() +
                                            "); use the default strategy");
  const int dims = problem.rank() + 1;
  std::vector<int> natural(dims);
  std::iota(natural.begin(), natural.end(), 0);
  std::vector<int> order = natural;  // physical order of the current data, outermost first
  std::vector<Step> out;
  auto transpose_to = [&](const std::vector<int>& next, const std::string& what) {
    Step t;
    t.kind = Step::Kind::Transpose;
    t.dim = order.back();
    t.order = next;
    t.work_only = next != natural;
    t.what = what;
    out.push_back(t);
    order = next;
  };
  const std::vector<int> axes = problem.transform_axes();
  for (auto a = axes.rbegin(); a != axes.rend(); ++a) {
    const int dim = *a + 1;
    if (problem.shape[*a] == 1) continue;
    if (order.back() != dim) {
      std::vector<int> next = order;
      std::swap(*std::find(next.begin(), next.end(), dim), next.back());
      transpose_to(next, "transpose axis " + std::to_string(*a) + " innermost");
    }
    for (Step s : axis_steps(problem, dim, limits, order)) {
      s.work_only = s.work_only || order != natural;
      out.push_back(s);
    }
  }
  if (order != natural) transpose_to(natural, "transpose back");
  return out;
}

}  // namespace

Solver row_column_solver() { return {"row-column", Strategy::Transpose, steps}; }

}  // namespace bfly::plan
