// bfly bench --distributed --devices LIST: one process driving several
// devices (bfly::distributed::MultiDevicePlan, issue 44), no mpirun. The
// same rows as over MPI ranks (bench_distributed.cpp), each part's time
// being the process's: total = one execute over every device, waited for;
// local, exchange and bound = MultiDevicePlan::profile's phases.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "bench_distributed_rows.hpp"
#include "bfly/multi_device.hpp"
#include "io/output_file.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

using Clock = std::chrono::steady_clock;

// "all": every CUDA GPU here; else specs separated by commas (a spec may
// come twice: its parts then exchange through the host).
std::vector<Device> open_devices(const std::string& list) {
  std::vector<Device> devices;
  if (list == "all") {
    for (const DeviceInfo& info : Device::list())
      if (info.backend == "cuda") devices.push_back(Device::open(info.spec));
    if (devices.empty())
      throw Error(ErrorCode::InvalidArgument,
                  "--devices all: no CUDA GPU here (name the devices, e.g. --devices cpu,cpu)");
    return devices;
  }
  for (const std::string& spec : text::split(list, ',')) {
    if (spec.empty()) throw Error(ErrorCode::InvalidArgument, "invalid --devices '" + list + "' (an empty name)");
    devices.push_back(Device::open(spec));
  }
  return devices;
}

Row bench_shape(const std::vector<Device>& devices, const BenchSetup& setup, const DistributedBenchOptions& o,
                const std::vector<std::int64_t>& shape) {
  dist::Problem problem = setup.problem;
  problem.shape = shape;
  const dist::MultiDevicePlan plan(devices, problem, setup.plan_options);
  const dist::MultiDevicePlan back(devices, way_back(problem), setup.plan_options);
  if (o.verbose) std::fputs(plan.describe().c_str(), stdout);
  const Precision precision = problem.precision;
  const std::size_t scalar = precision == Precision::Double ? sizeof(double) : sizeof(float);
  const std::size_t parts = devices.size();
  std::vector<std::vector<double>> input(parts);
  std::vector<Buffer> in, out, returned;
  for (std::size_t r = 0; r < parts; ++r) {
    const std::size_t in_values = plan.input_boxes()[r].elements() * (problem.kind == Kind::R2C ? 1 : 2);
    const std::size_t out_values = plan.output_boxes()[r].elements() * 2;
    std::mt19937_64 random(2026 + r);
    std::uniform_real_distribution<double> uniform(-1, 1);
    input[r].resize(in_values);
    for (double& value : input[r]) value = uniform(random);
    in.emplace_back(devices[r], std::max<std::size_t>(in_values * scalar, 16));
    out.emplace_back(devices[r], std::max<std::size_t>(out_values * scalar, 16));
    returned.emplace_back(devices[r], std::max<std::size_t>(in_values * scalar, 16));
    write_values(in.back(), input[r], precision);
  }
  for (int i = 0; i < o.warmup; ++i) plan.execute(in, out);
  std::vector<double> total(o.repetitions);
  for (double& ms : total) {
    const Clock::time_point start = Clock::now();
    plan.execute(in, out);  // returns when every device is done
    ms = ms_since(start);
  }
  if (o.warmup > 0) plan.profile(in, out);
  std::vector<double> columns[3];
  for (int i = 0; i < o.repetitions; ++i) {
    const dist::Phases p = plan.profile(in, out);
    int column = 0;
    for (const std::vector<double>* times : {&p.stage_ms, &p.exchange_ms, &p.bound_ms}) {
      double sum = 0;
      for (double ms : *times) sum += ms;
      columns[column++].push_back(sum);
    }
  }
  Row row;
  row.problem = setup.problem, row.ranks = static_cast<int>(parts), row.repetitions = o.repetitions;
  row.shape = shape;
  row.grid = plan.grid();
  const dist::Decomposition chosen = plan.problem().decomposition;
  row.layout = dist::to_string(chosen);
  if (chosen == dist::Decomposition::Pencils || chosen == dist::Decomposition::PencilsTransposedIn)
    row.layout += " " + std::to_string(row.grid[0]) + "x" + std::to_string(row.grid[1]);
  row.transport = plan.transport() == dist::Transport::Nccl ? "nccl" : "host";
  row.total_ms = median(total);
  row.local_ms = median(columns[0]), row.exchange_ms = median(columns[1]), row.bound_ms = median(columns[2]);
  back.execute(out, returned);
  double sums[2] = {0, 0};  // |back - input|^2, |input|^2
  for (std::size_t r = 0; r < parts; ++r) {
    const std::vector<double> got = read_values(returned[r], input[r].size(), precision);
    for (std::size_t k = 0; k < got.size(); ++k)
      sums[0] += (got[k] - input[r][k]) * (got[k] - input[r][k]), sums[1] += input[r][k] * input[r][k];
    const std::int64_t sent =
        points_sent(plan.problem(), plan.grid(), plan.input_boxes()[r], plan.output_boxes()[r], static_cast<int>(r));
    row.bytes_sent = std::max<std::int64_t>(row.bytes_sent, sent * 2 * static_cast<std::int64_t>(scalar));
  }
  for (std::size_t bytes : plan.workspace_bytes())
    row.workspace_bytes = std::max<std::int64_t>(row.workspace_bytes, static_cast<std::int64_t>(bytes));
  row.error = sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : 0;
  return row;
}

}  // namespace

int run_devices_bench(const DistributedBenchOptions& o) {
  const BenchSetup setup = setup_of(o, true);
  if (!o.device.empty())
    throw Error(ErrorCode::InvalidArgument, "--device with --devices: name every part's device in --devices");
  const std::vector<Device> devices = open_devices(o.devices);
  const DeviceInfo& info = devices[0].info();
  std::printf("bfly %s bench --distributed: one process driving %zu part%s, part 0 on %s: %s (driver %s), NCCL %d\n",
              version(), devices.size(), devices.size() == 1 ? "" : "s", info.spec.c_str(), info.name.c_str(),
              info.driver.c_str(), dist::nccl_version());
  if (o.verbose)
    for (std::size_t r = 0; r < devices.size(); ++r)
      std::printf("  part %zu: %s (%s)\n", r, devices[r].info().spec.c_str(), devices[r].info().name.c_str());
  nlohmann::json doc = {{"bfly_version", version()},
                        {"command", "bench --distributed --devices"},
                        {"ranks", devices.size()},
                        {"processes", 1},
                        {"device", {{"spec", info.spec}, {"name", info.name}, {"driver", info.driver}}},
                        {"warmup", o.warmup},
                        {"cases", nlohmann::json::array()}};
  for (std::size_t i = 0; i < setup.shapes.size(); ++i) {
    const Row row = bench_shape(devices, setup, o, setup.shapes[i]);
    print_row(row, setup.shape_width, i == 0);
    doc["cases"].push_back(json_of(row));
  }
  print_legend(o.repetitions);
  if (!setup.json.empty()) io::write_text(setup.json, doc.dump(2) + "\n");
  return 0;
}

}  // namespace bfly::cli
