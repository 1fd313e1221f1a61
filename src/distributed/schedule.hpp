// A distributed plan as data: the local stages and the exchanges between
// them, for each decomposition (docs/DISTRIBUTED.md). Pure C++, no MPI, no
// device: the box tests check it alone, and plan.cpp turns it into bfly
// plans and MPI exchanges.
//
//   tilings[0]  stage 0: axes[0]    (R2C: a bfly R2C whose last axis is the real one)
//   exchange 0  within groups[0]    (every rank's box of tilings[0] to tilings[1])
//   tilings[1]  stage 1: axes[1]
//   ...                              (slabs: 2 stages, 1 exchange; pencils: 3 and 2)
//   tilings[m]  stage m: axes[m]    (C2R: a bfly C2R over the real axis, last)
#pragma once

#include <string>
#include <vector>

#include "bfly/distributed.hpp"

namespace bfly::distributed::detail {

struct Schedule {
  std::vector<int> grid;  // {P0, P1}; {ranks, 1} for slabs
  // The shape the stages' boxes and the exchanges cover: the global shape,
  // the last axis n/2 + 1 for R2C and C2R (the half spectrum).
  std::vector<std::int64_t> complex_shape;
  std::vector<std::vector<Box>> tilings;  // [stage][rank], over complex_shape
  std::vector<std::vector<int>> axes;     // [stage]: the global axes it transforms, ascending
  std::vector<Kind> kinds;                // [stage]: C2C, R2C (stage 0) or C2R (the last)
  // [exchange][rank]: the group each rank exchanges within (a row or a
  // column of the grid, every rank for slabs), numbered so that a rank's
  // group is the ranks with its number, in rank order.
  std::vector<std::vector<int>> groups;
  // The caller's boxes: tilings[0] and tilings[m], over the real shape on
  // the real side (the last axis whole there).
  std::vector<Box> input_boxes, output_boxes;

  int exchanges() const { return static_cast<int>(groups.size()); }
  // Whether exchange j moves nothing (every rank keeps its box: a grid of
  // one row or column, or one rank), so the plan skips it.
  bool unchanged(int exchange) const { return tilings[exchange] == tilings[exchange + 1]; }
  // The ranks of `rank`'s group in exchange j, ascending.
  std::vector<int> members(int exchange, int rank) const;
};

// The problem with Decomposition::Auto replaced by the decomposition it
// stands for on `ranks` ranks (distributed.hpp); any other unchanged.
Problem resolve(const Problem& problem, int ranks);

// Throws bfly::Error (InvalidArgument or Unsupported, one line) where the
// problem cannot run on `ranks` ranks: a bad shape, kind or grid, a real
// axis the decomposition splits. The same on every rank for the same
// problem and rank count.
void check(const Problem& problem, int ranks);

// The local transform of a stage on `box` (the real box on the real side):
// `axes` of its row-major data (or as `input_strides` store the input), in
// the problem's precision, direction and norm (each stage's norm over its
// axes multiplies to the whole array's).
bfly::Problem stage_problem(const Problem& problem, const Box& box, Kind kind, std::vector<int> axes,
                            std::vector<std::int64_t> input_strides = {});

// The schedule of a problem check() accepted, on `ranks` ranks.
Schedule make_schedule(const Problem& problem, int ranks);

}  // namespace bfly::distributed::detail
