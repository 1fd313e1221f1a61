// What bench --distributed's two ways share (bench_distributed.cpp over
// MPI ranks, bench_devices.cpp in one process over --devices): the problem
// from the options, the round trip's plan, the bytes a part sends, the
// rows and their JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_distributed.hpp"
#include "bfly/distributed.hpp"

namespace bfly::cli {

namespace dist = bfly::distributed;

// The problem every shape is timed with (its shape left empty).
dist::Problem problem_of(const DistributedBenchOptions& o);
// The plan that undoes `p` on the same boxes.
dist::Problem way_back(const dist::Problem& p);
// The complex points part `rank` sends to other parts over the plan's
// exchanges (`p` resolved: the plan's problem()).
std::int64_t points_sent(const dist::Problem& p, const std::vector<int>& grid, const dist::Box& input_box,
                         const dist::Box& output_box, int rank);
double median(std::vector<double> values);
double ms_since(std::chrono::steady_clock::time_point start);
// The host side in double whatever the precision: the bench's arithmetic.
void write_values(Buffer& buffer, const std::vector<double>& values, Precision precision);
std::vector<double> read_values(const Buffer& buffer, std::size_t count, Precision precision);

// The checks and settings of a run: shapes, output, plan options (throws
// the first bad option's one-line error).
struct BenchSetup {
  dist::Problem problem;
  std::vector<std::vector<std::int64_t>> shapes;
  int shape_width = 5;
  std::string json;  // the file the rows go to, if any
  PlanOptions plan_options;
};
BenchSetup setup_of(const DistributedBenchOptions& o, bool announce_compiles);

struct Row {
  dist::Problem problem;  // as asked (decomposition Auto unresolved)
  int ranks = 1, repetitions = 0;
  std::vector<std::int64_t> shape;
  std::string layout, transport;  // "pencils 2x2", "mpi"
  std::vector<int> grid;
  double total_ms = 0, local_ms = 0, exchange_ms = 0, bound_ms = 0, error = 0;
  std::int64_t bytes_sent = 0, workspace_bytes = 0;  // the busiest rank's
  double efficiency() const { return total_ms > 0 ? (local_ms + bound_ms) / total_ms : 0; }
  double gbytes_per_s() const { return exchange_ms > 0 ? bytes_sent / (exchange_ms * 1e6) : 0; }
};

void print_row(const Row& row, int shape_width, bool header);
void print_legend(int repetitions);
nlohmann::json json_of(const Row& row);

}  // namespace bfly::cli
