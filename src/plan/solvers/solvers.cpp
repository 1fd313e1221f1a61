#include "plan/solvers/solver.hpp"

namespace bfly::plan {

const std::vector<Solver>& solvers() {
  static const std::vector<Solver> table{single_pass_solver(), multi_pass_solver()};
  return table;
}

}  // namespace bfly::plan
