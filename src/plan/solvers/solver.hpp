// One decomposition strategy per file, each with the same small interface
// (FFTW's solvers): whether it applies, and the plan it makes.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace bfly::plan {

struct Solver {
  const char* name;
  // Empty when applicable, else why not (shown by `bfly plan` on failure).
  std::string (*applicable)(const Problem& problem, const DeviceLimits& limits);
  PlanTree (*make)(const Problem& problem, const DeviceLimits& limits);
};

// In order of preference: the first applicable solver wins.
const std::vector<Solver>& solvers();

Solver single_pass_solver();
Solver multi_pass_solver();

}  // namespace bfly::plan
