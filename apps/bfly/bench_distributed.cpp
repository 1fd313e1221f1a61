// bfly bench --distributed (bench_distributed.hpp): what is measured.
//
//   total     one Plan::execute on device buffers: MPI_Barrier, execute,
//             device.synchronize(), agree() (an MPI_Allreduce, the second
//             barrier), on a steady clock; per
//             repetition the slowest rank's time (MPI_Allreduce MAX, so
//             every rank waits for the last anyway), the median reported.
//   local, exchange, bound
//             Plan::profile's phases (it synchronises the device and the
//             ranks between phases): the stages summed, the exchanges
//             summed (pack, transport, unpack), and each exchange's
//             transport alone moving the same bytes summed; per repetition
//             the slowest rank's, the median reported.
//   eff       (local + bound) / total: 1 where packing, unpacking and the
//             synchronisation cost nothing beyond the transport's floor.
//   GB/s      the busiest rank's bytes sent to other ranks over all the
//             exchanges (from the boxes: points_sent) / exchange time.
//   round trip
//             the inverse plan on the same boxes (the decomposition's way
//             back) applied to the output, against the input: the relative
//             L2 error over the whole global array (sums over the ranks).
#include "bench_distributed.hpp"

#include <mpi.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>

#include "bench_distributed_rows.hpp"
#include "bench_mpi.hpp"
#include "bfly/distributed.hpp"
#include "io/output_file.hpp"
#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct Run {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, ranks = 1;
  std::optional<Device> device;
  dist::Problem problem;
  PlanOptions plan_options;
  int repetitions = 20, warmup = 3;
  bool verbose = false;
};

Row bench_shape(const Run& run, const std::vector<std::int64_t>& shape) {
  dist::Problem problem = run.problem;
  problem.shape = shape;
  const dist::Plan plan(run.comm, *run.device, problem, run.plan_options);
  const dist::Plan back(run.comm, *run.device, way_back(problem), run.plan_options);
  if (run.verbose && run.rank == 0) std::fputs(plan.describe().c_str(), stdout);
  const Precision precision = problem.precision;
  const std::size_t scalar = precision == Precision::Double ? sizeof(double) : sizeof(float);
  const std::size_t in_values = plan.input_box().elements() * (problem.kind == Kind::R2C ? 1 : 2);
  const std::size_t out_values = plan.output_box().elements() * 2;
  std::vector<double> input;
  std::optional<Buffer> in, out, returned;
  agree(run.comm, [&] {
    std::mt19937_64 random(2026 + run.rank);
    std::uniform_real_distribution<double> uniform(-1, 1);
    input.resize(in_values);
    for (double& value : input) value = uniform(random);
    // (A rank with an empty box still passes a buffer.)
    in.emplace(*run.device, std::max<std::size_t>(in_values * scalar, 16));
    out.emplace(*run.device, std::max<std::size_t>(out_values * scalar, 16));
    returned.emplace(*run.device, std::max<std::size_t>(in_values * scalar, 16));
    write_values(*in, input, precision);
  });
  const auto execute = [&] {
    plan.execute(*in, *out);
    agree(run.comm, [&] { run.device->synchronize(); });
  };
  for (int i = 0; i < run.warmup; ++i) execute();
  std::vector<double> total(run.repetitions);
  for (double& ms : total) {
    MPI_Barrier(run.comm);
    const Clock::time_point start = Clock::now();
    execute();
    ms = ms_since(start);
  }
  if (run.warmup > 0) plan.profile(*in, *out);
  std::vector<double> phases(3 * run.repetitions);
  for (int i = 0; i < run.repetitions; ++i) {
    const dist::Phases p = plan.profile(*in, *out);
    for (const auto& [column, times] : {std::pair{0, &p.stage_ms}, {1, &p.exchange_ms}, {2, &p.bound_ms}})
      for (double ms : *times) phases[3 * i + column] += ms;
  }
  phases = max_over_ranks(run.comm, phases);
  Row row;
  row.problem = run.problem, row.ranks = run.ranks, row.repetitions = run.repetitions;
  row.shape = shape;
  row.grid = plan.grid();
  const dist::Decomposition chosen = plan.problem().decomposition;  // Auto resolved
  row.layout = dist::to_string(chosen);
  using D = dist::Decomposition;
  if (chosen == D::Pencils || chosen == D::PencilsTransposedIn)
    row.layout += " " + std::to_string(row.grid[0]) + "x" + std::to_string(row.grid[1]);
  row.transport = dist::to_string(plan.transport());
  row.total_ms = median(max_over_ranks(run.comm, total));
  double* const medians[3] = {&row.local_ms, &row.exchange_ms, &row.bound_ms};
  for (int j = 0; j < 3; ++j) {
    std::vector<double> column(run.repetitions);
    for (int i = 0; i < run.repetitions; ++i) column[i] = phases[3 * i + j];
    *medians[j] = median(column);
  }
  back.execute(*out, *returned);
  std::vector<double> got;
  agree(run.comm, [&] {
    run.device->synchronize();
    got = read_values(*returned, in_values, precision);
  });
  double sums[2] = {0, 0};  // |back - input|^2, |input|^2
  for (std::size_t k = 0; k < in_values; ++k)
    sums[0] += (got[k] - input[k]) * (got[k] - input[k]), sums[1] += input[k] * input[k];
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, run.comm);
  row.error = sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : 0;
  long long most[2] = {
      static_cast<long long>(points_sent(plan.problem(), plan.grid(), plan.input_box(), plan.output_box(), run.rank) *
                             2 * scalar),
      static_cast<long long>(plan.workspace_bytes())};
  MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_LONG_LONG, MPI_MAX, run.comm);
  row.bytes_sent = most[0], row.workspace_bytes = most[1];
  return row;
}

// finds its kernels. (Nothing else reads the variable.)
void separate_pocl_caches(int local_rank) {
  const char *given = std::getenv("POCL_CACHE_DIR"), *xdg = std::getenv("XDG_CACHE_HOME"), *home = std::getenv("HOME");
  const std::string base = given && *given ? given
                           : xdg && *xdg   ? std::string(xdg) + "/pocl/kcache"
                           : home && *home ? std::string(home) + "/.cache/pocl/kcache"
                                           : std::string("/tmp/pocl-kcache");
  setenv("POCL_CACHE_DIR", (base + "/bfly-rank" + std::to_string(local_rank)).c_str(), 1);
}

void run_all(const DistributedBenchOptions& o, Run& run) {
  BenchSetup setup = setup_of(o, run.rank == 0);
  run.problem = setup.problem;
  run.plan_options = setup.plan_options;
  run.repetitions = o.repetitions, run.warmup = o.warmup, run.verbose = o.verbose;
  const std::vector<std::vector<std::int64_t>>& shapes = setup.shapes;
  const std::string& json = setup.json;

  MPI_Comm node;
  int local_rank = 0, local_ranks = 1, hosts = 0;
  MPI_Comm_split_type(run.comm, MPI_COMM_TYPE_SHARED, run.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank), MPI_Comm_size(node, &local_ranks);
  MPI_Comm_free(&node);
  const int first_on_host = local_rank == 0;
  MPI_Allreduce(&first_on_host, &hosts, 1, MPI_INT, MPI_SUM, run.comm);
  if (local_ranks > 1) separate_pocl_caches(local_rank);
  // One GPU a rank where a host has several (the library's rule: rank_device).
  agree(run.comm, [&] { run.device = dist::rank_device(run.comm, o.device); });
  const DeviceInfo& info = run.device->info();
  char host[MPI_MAX_PROCESSOR_NAME] = "";
  int host_length = 0;
  MPI_Get_processor_name(host, &host_length);
  const std::vector<std::string> devices =
      gather_lines(run.comm, "rank " + std::to_string(run.rank) + " (" + host + ", local rank " +
                                 std::to_string(local_rank) + "): " + info.spec + " (" + info.name + ")");
  if (run.rank == 0) {
    std::printf("bfly %s bench --distributed: %d rank%s on %d host%s, rank 0 on %s: %s (driver %s), NCCL %d\n",
                version(), run.ranks, run.ranks == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s", info.spec.c_str(),
                info.name.c_str(), info.driver.c_str(), dist::nccl_version());
    if (o.verbose)
      for (const std::string& line : devices) std::printf("  %s\n", line.c_str());
  }
  nlohmann::json doc = {{"bfly_version", version()},
                        {"command", "bench --distributed"},
                        {"ranks", run.ranks},
                        {"hosts", hosts},
                        {"device", {{"spec", info.spec}, {"name", info.name}, {"driver", info.driver}}},
                        {"warmup", run.warmup},
                        {"cases", nlohmann::json::array()}};
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Row row = bench_shape(run, shapes[i]);
    if (run.rank != 0) continue;
    print_row(row, setup.shape_width, i == 0);
    doc["cases"].push_back(json_of(row));
  }
  if (run.rank == 0) print_legend(run.repetitions);
  agree(run.comm, [&] {
    if (run.rank == 0 && !json.empty()) io::write_text(json, doc.dump(2) + "\n");
  });
}

}  // namespace

int run_distributed_bench(const DistributedBenchOptions& options) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows as shapes finish, into a file too
  if (!options.devices.empty()) return run_devices_bench(options);
  const MpiSession mpi;
  Run run;
  MPI_Comm_rank(run.comm, &run.rank);
  MPI_Comm_size(run.comm, &run.ranks);
  try {
    run_all(options, run);
  } catch (...) {
    run.device.reset();
    if (run.rank == 0) throw;  // the same error as every rank's: one line, from rank 0
    return 1;
  }
  return 0;
}

}  // namespace bfly::cli