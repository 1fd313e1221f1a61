#include "plan/solvers/solver.hpp"

namespace bfly::plan {

const std::vector<Solver>& solvers() {
  static const std::vector<Solver> table{strided_axes_solver(), row_column_solver()};
  return table;
}

}  // namespace bfly::plan
