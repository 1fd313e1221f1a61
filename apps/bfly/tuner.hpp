// The tuner behind `bfly tune`: for each length, the launch choices the
// planner can give its one-pass kernel (plan/tuning.hpp), timed on the
// device in one run, the fastest kept. A coordinate search: each round
// varies one choice at a time (threads, group size, blocks per
// multiprocessor, halves, padding, twiddle table, stage order) around the
// best so far; every variant's output is checked against the model plan's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/tuning.hpp"
#include "size_lists.hpp"

namespace bfly::cli {

struct TuneSettings {
  std::int64_t points = std::int64_t{1} << 26;  // per case: batch = points / length
  int repetitions = 5;                          // timed samples per variant (median)
  int rounds = 2;                               // passes of the coordinate search
  int compile_threads = 0;                      // 0: the machine's cores
};

// One timed variant, for `bfly tune --log`: which step of the search timed
// it (model, start, or the choice it varied), its launch as planned, its
// one-pass kernel and its median time.
struct TimedLaunch {
  std::string step;
  int round = 0;
  plan::LaunchChoice launch;
  std::string kernel;
  double ms = 0;
};

struct TuneResult {
  plan::TuningEntry entry;  // what goes in the table
  double model_ms = 0;      // the model's plan (no table)
  double best_ms = 0;
  int variants = 0;                // timed
  int rejected = 0;                // did not build or disagreed with the model's output
  std::string model_plan;          // "1 pass", "2 passes"
  std::vector<std::string> notes;  // why variants were rejected
  std::vector<TimedLaunch> timed;  // every variant timed, in order
};

using TuneProgress = std::function<void(const std::string& what)>;

// Tunes transforms of `length` points in `precision` on `device`.
TuneResult tune_length(const Device& device, std::int64_t length, Precision precision, const TuneSettings& settings,
                       const TuneProgress& progress);

}  // namespace bfly::cli
