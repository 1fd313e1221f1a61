// Tuning tables: FFTW's wisdom for GPUs. `bfly tune` times the launch
// shapes the planner can give one kernel and records the winners, keyed by
// device, compute capability and bfly version; the planner reads them as
// data (plan.cpp, axis_passes.cpp) and falls back to its model where a
// table says nothing. A table is plain data: no files, no device here
// (runtime/tuning_files.cpp finds and reads them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::plan {

// The launch of a one-pass kernel over contiguous points (a 1D transform, or
// the innermost axis of an array): what `bfly tune` varies. A field at its
// "unset" value keeps the model's choice.
struct LaunchChoice {
  int threads = 0;        // threads per transform; 0: the model's
  int group_threads = 0;  // threads a group aims for (transforms per group = group_threads / threads); 0: the model's
  int padding = -1;       // pad local rows against bank conflicts: 0/1; -1: the model's
  int halves = -1;        // exchange real and imaginary parts in two rounds: 0/1; -1: the model's
  int two_level = -1;     // inner twiddles from a two-level table: 0/1; -1: the model's
  int occupancy = -1;     // groups per multiprocessor asked of the compiler; -1: the model's
  int staged = -1;        // persistent groups staging the next input (KernelSpec::staged): 0/1/2; -1: the model's
  std::vector<int> radices;  // the stages; empty: the model's

  // "T512 G512 pad0 half0 tw1 occ2 r16x8x8x8", unset fields left out; "model" when all are.
  std::string text() const;
  bool operator==(const LaunchChoice& o) const;
};

// One measured problem class: `precision` transforms of `length` contiguous points.
struct TuningEntry {
  Precision precision = Precision::Single;
  std::int64_t length = 0;
  // How the axis is split into passes: empty for one pass (whose kernel
  // `launch` shapes), else the pass lengths (the launch does not apply).
  std::vector<std::int64_t> passes;
  LaunchChoice launch;
  // What the tuner saw (information for people; the planner ignores it).
  double ms = 0;        // the winner's median time
  double model_ms = 0;  // the model's plan in the same run
  int variants = 0;     // how many it timed
};

struct TuningTable {
  std::string device;              // as DeviceInfo::name
  std::string compute_capability;  // "9.0"; empty where the device has none (OpenCL)
  std::string version;             // the bfly version that measured it
  std::string source;              // where it was read from, for `bfly plan`
  std::string note;                // how it was made (command, date, driver)
  std::vector<TuningEntry> entries;

  // The entry for exactly this length (nullptr: none; a length no entry
  // names takes the model's launch, nothing borrowed from a neighbour).
  const TuningEntry* exact(Precision precision, std::int64_t length) const;
  // Adds or replaces the entry of the same precision and length.
  void put(const TuningEntry& entry);
  // Entries of `other` replace or extend these (a user's table over the shipped one).
  void merge(const TuningTable& other);
  bool matches(const std::string& device_name, const std::string& capability) const;
  // Measured on another device of the same compute capability (and this
  // bfly version): a stand-in where none was measured on the device itself.
  bool same_architecture(const std::string& capability) const;
};

// Whether this build reads and writes tables (it needs nlohmann-json).
bool tuning_tables_supported();

// JSON text (format "bfly-tuning-1") to a table and back. parse throws
// Error(InvalidArgument) naming `source` and the bad field.
TuningTable parse_tuning(const std::string& json, const std::string& source);
std::string to_json(const TuningTable& table);

}  // namespace bfly::plan
