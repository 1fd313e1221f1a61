// Single pass: one group owns whole transforms; every point is read from and
// written to device memory once (the Intel seed's shared-memory technique).
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

std::string applicable(const Problem& problem, const DeviceLimits& limits) {
  if (problem.length() > limits.max_single_pass_length)
    return "length " + std::to_string(problem.length()) + " exceeds one group's " +
           std::to_string(limits.max_single_pass_length);
  return "";
}

PlanTree make(const Problem& problem, const DeviceLimits& limits) {
  PlanTree tree;
  tree.problem = problem;
  tree.solver = "single-pass";
  Pass pass;
  pass.spec = make_spec(problem, problem.length(), 1, limits);
  pass.source = Slot::Input;
  pass.destination = Slot::Output;
  pass.transforms = problem.batch;
  tree.passes.push_back(pass);
  return tree;
}

}  // namespace

Solver single_pass_solver() { return {"single-pass", applicable, make}; }

}  // namespace bfly::plan
