// bfly bench --distributed: time bfly::distributed plans (issue 43 item 6,
// issue 44), as `mpirun -np P bfly bench --distributed [options] SHAPE...`
// or alone as a singleton (one rank). Per shape: the whole execution on
// device buffers, its phases (Plan::profile: local stages, exchanges, and
// each exchange's transport alone), and a round trip through the inverse
// plan as the check. docs/DISTRIBUTED.md ("Benchmark") shows a run.
//
// The options are plain text here so that this header needs no MPI: the
// CLI registers them in every build, and a bfly built without MPI refuses
// --distributed in one line (cmd_bench.cpp). Everything is parsed after
// MPI starts, so that a bad value is one line from rank 0 alone and a
// non-zero exit on every rank.
#pragma once

#include <string>
#include <vector>

namespace bfly::cli {

struct DistributedBenchOptions {
  // Given to the bench command itself, only with --distributed.
  std::string decomposition = "slabs";  // slabs, pencils, slabs-transposed-in, pencils-transposed-in
  std::string grid;                     // P0xP1 (pencils); empty: the library's most square grid
  std::string transport = "auto";       // auto, mpi or nccl
  std::string exchange = "alltoallv";   // the MPI transport's: alltoallv, alltoall, p2p or auto (timed)
  int warmup = 3;                       // untimed executions (and one untimed profile) per shape
  int pipeline = 0;                     // Problem::pipeline: chunks of the first stage (0 default, 1 none)
  bool verbose = false;                 // each rank's device, and rank 0's plan
  std::string json;                     // --json FILE: rank 0 writes the rows (as --out FILE.json)
  // --devices LIST: one process driving these devices (MultiDevicePlan),
  // no MPI: "all" (every CUDA GPU) or specs with commas ("cuda:0,cuda:1").
  std::string devices;

  // Shared with the bench's other modes, copied in by cmd_bench.cpp.
  std::vector<std::string> shapes;  // "64x64x64" (2 or 3 axes each)
  std::string kind;                 // c2c (default) or r2c
  std::string precision = "single";
  std::string norm = "none";
  bool inverse = false;  // c2c only: time the inverse (the round trip then runs the forward)
  std::string device;    // --device; empty: BFLY_DEVICE, else auto
  std::string out;       // --out FILE.json: rank 0 writes the rows
  bool quiet = false;    // --quiet: no word on rank 0 while kernels compile
  int repetitions = 20;
  std::string tier, tuning, strategy;
  // A usage error cmd_bench.cpp found (an option --distributed does not
  // take): thrown once MPI is up, so that rank 0 alone prints it.
  std::string usage_error;
};

// The options `bench --distributed` reads, besides its own (above): any
// other bench option given with --distributed is refused by name.
inline const std::vector<std::string>& distributed_bench_shared_options() {
  static const std::vector<std::string> names{"--device",      "--quiet",  "--out",      "--kind",     "--shape",
                                              "--precision",   "--norm",   "--inverse",  "--strategy", "--tier",
                                              "--repetitions", "--tuning", "--no-peers", "shapes"};
  return names;
}
// Its own options: refused without --distributed.
inline const std::vector<std::string>& distributed_bench_own_options() {
  static const std::vector<std::string> names{"--decomposition", "--grid",     "--transport", "--warmup",  "--verbose",
                                              "--json",          "--pipeline", "--devices",   "--exchange"};
  return names;
}

// Initialises MPI where nobody has, runs every shape, finalises MPI again.
// Returns the exit status; rank 0 rethrows an error (every rank meets the
// same one), the other ranks return 1 without a word.
// With --devices, run_devices_bench instead: no MPI (bench_devices.cpp).
int run_distributed_bench(const DistributedBenchOptions& options);
int run_devices_bench(const DistributedBenchOptions& options);

}  // namespace bfly::cli
