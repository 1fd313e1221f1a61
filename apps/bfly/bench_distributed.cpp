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

#include "bench_mpi.hpp"
#include "bfly/distributed.hpp"
#include "io/output_file.hpp"
#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

namespace dist = bfly::distributed;
using Clock = std::chrono::steady_clock;

template <typename Enum>
Enum parse_named(const std::string& text, std::initializer_list<Enum> values, const std::string& what) {
  std::string names;
  for (Enum value : values) {
    if (text == dist::to_string(value)) return value;
    names += (names.empty() ? "" : ", ") + std::string(dist::to_string(value));
  }
  throw Error(ErrorCode::InvalidArgument, "invalid " + what + " '" + text + "' (expected " + names + ")");
}

std::vector<int> parse_grid(const std::string& text) {
  if (text.empty()) return {};
  const Error bad(ErrorCode::InvalidArgument, "invalid --grid '" + text + "' (expected P0xP1, e.g. 2x2)");
  std::vector<std::int64_t> sides;
  try {
    sides = text::parse_shape(text);
  } catch (const Error&) {
    throw bad;
  }
  if (sides.size() != 2 || sides[0] < 1 || sides[1] < 1 || sides[0] > INT_MAX || sides[1] > INT_MAX) throw bad;
  return {static_cast<int>(sides[0]), static_cast<int>(sides[1])};
}

// The problem every shape is timed with (its shape left empty).
dist::Problem problem_of(const DistributedBenchOptions& o) {
  using D = dist::Decomposition;
  using T = dist::Transport;
  dist::Problem p;
  const KindChoice kind = o.kind.empty() ? KindChoice{} : parse_kind(o.kind);
  if (kind.kind != Kind::C2C && kind.kind != Kind::R2C)
    throw Error(ErrorCode::InvalidArgument,
                "bench --distributed times c2c or r2c, not '" + o.kind + "' (c2r runs as an r2c's round trip)");
  if (kind.kind == Kind::R2C && o.inverse)
    throw Error(ErrorCode::InvalidArgument,
                "--inverse with --kind r2c: an r2c transform is forward (its round trip runs the c2r)");
  p.kind = kind.kind;
  if (o.precision != "single" && o.precision != "double")
    throw Error(ErrorCode::InvalidArgument,
                "invalid precision '" + o.precision + "' (bench --distributed takes single or double)");
  p.precision = o.precision == "double" ? Precision::Double : Precision::Single;
  p.direction = o.inverse ? Direction::Inverse : Direction::Forward;
  p.norm = parse_norm(o.norm);
  p.decomposition =
      parse_named(o.decomposition, {D::Slabs, D::Pencils, D::SlabsTransposedIn, D::PencilsTransposedIn, D::Auto},
                  "--decomposition");
  p.grid = parse_grid(o.grid);
  p.transport = parse_named(o.transport, {T::Auto, T::Mpi, T::Nccl}, "--transport");
  p.pipeline = o.pipeline;
  return p;
}

// The plan that undoes `p` on the same boxes: the other direction (C2R for
// an R2C), the decomposition's way back, and a norm that makes the pair the
// identity (p's own where it scales, else 1/N on the way back).
dist::Problem way_back(const dist::Problem& p) {
  using D = dist::Decomposition;
  dist::Problem back = p;
  back.kind = p.kind == Kind::R2C ? Kind::C2R : p.kind;
  back.direction = p.direction == Direction::Forward ? Direction::Inverse : Direction::Forward;
  for (const auto& [a, b] : {std::pair{D::Slabs, D::SlabsTransposedIn}, std::pair{D::Pencils, D::PencilsTransposedIn}})
    if (p.decomposition == a || p.decomposition == b) back.decomposition = p.decomposition == a ? b : a;
  if (p.norm == Norm::None) back.norm = back.direction == Direction::Inverse ? Norm::Backward : Norm::Forward;
  return back;
}

// [lower, upper) of part `index` of an axis of n split into `parts`
// (the layer's rule: include/bfly/distributed.hpp, Decomposition).
std::pair<std::int64_t, std::int64_t> part(std::int64_t n, int parts, int index) {
  const std::int64_t q = n / parts, m = n % parts;
  return {index * q + std::min<std::int64_t>(index, m), (index + 1) * q + std::min<std::int64_t>(index + 1, m)};
}

std::int64_t overlap(const dist::Box& a, const dist::Box& b) {
  std::int64_t points = 1;
  for (std::size_t k = 0; k < a.lower.size(); ++k)
    points *= std::max<std::int64_t>(0, std::min(a.upper[k], b.upper[k]) - std::max(a.lower[k], b.lower[k]));
  return points;
}

// The complex points this rank sends to other ranks over the plan's
// exchanges: each exchange's box less the part of it the rank keeps (its
// box after). An R2C's first stage halves the last axis before any
// exchange; pencils pass through y-pencils (axis 0 over P0, axis 1 whole,
// axis 2 over P1) between their two exchanges. (describe()'s "send" counts
// the kept part too.)
std::int64_t points_sent(const dist::Plan& plan, int rank) {
  using D = dist::Decomposition;
  const dist::Problem& p = plan.problem();
  std::vector<std::int64_t> shape = p.shape;
  dist::Box box = plan.input_box();
  if (p.kind == Kind::R2C) shape.back() = shape.back() / 2 + 1, box.upper.back() = shape.back();
  std::vector<dist::Box> boxes{box};
  if (p.decomposition == D::Pencils || p.decomposition == D::PencilsTransposedIn) {
    const std::vector<int>& grid = plan.grid();
    dist::Box y{{0, 0, 0}, {0, shape[1], 0}};
    std::tie(y.lower[0], y.upper[0]) = part(shape[0], grid[0], rank / grid[1]);
    std::tie(y.lower[2], y.upper[2]) = part(shape[2], grid[1], rank % grid[1]);
    boxes.push_back(y);
  }
  boxes.push_back(plan.output_box());
  std::int64_t sent = 0;
  for (std::size_t j = 0; j + 1 < boxes.size(); ++j) sent += boxes[j].elements() - overlap(boxes[j], boxes[j + 1]);
  return sent;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The host side in double whatever the precision: the bench's arithmetic.
void write_values(Buffer& buffer, const std::vector<double>& values, Precision precision) {
  if (precision == Precision::Double) {
    buffer.write(values.data(), values.size() * sizeof(double));
  } else {
    const std::vector<float> narrow(values.begin(), values.end());
    buffer.write(narrow.data(), narrow.size() * sizeof(float));
  }
}
std::vector<double> read_values(const Buffer& buffer, std::size_t count, Precision precision) {
  std::vector<double> values(count);
  if (precision == Precision::Double) {
    buffer.read(values.data(), count * sizeof(double));
  } else {
    std::vector<float> narrow(count);
    buffer.read(narrow.data(), count * sizeof(float));
    std::copy(narrow.begin(), narrow.end(), values.begin());
  }
  return values;
}

struct Run {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, ranks = 1;
  std::optional<Device> device;
  dist::Problem problem;
  PlanOptions plan_options;
  int repetitions = 20, warmup = 3;
  bool verbose = false;
};

struct Row {
  std::vector<std::int64_t> shape;
  std::string layout, transport;  // "pencils 2x2", "mpi"
  std::vector<int> grid;
  double total_ms = 0, local_ms = 0, exchange_ms = 0, bound_ms = 0, error = 0;
  std::int64_t bytes_sent = 0, workspace_bytes = 0;  // the busiest rank's
  double efficiency() const { return total_ms > 0 ? (local_ms + bound_ms) / total_ms : 0; }
  double gbytes_per_s() const { return exchange_ms > 0 ? bytes_sent / (exchange_ms * 1e6) : 0; }
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
  long long most[2] = {static_cast<long long>(points_sent(plan, run.rank) * 2 * scalar),
                       static_cast<long long>(plan.workspace_bytes())};
  MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_LONG_LONG, MPI_MAX, run.comm);
  row.bytes_sent = most[0], row.workspace_bytes = most[1];
  return row;
}

void print_row(const Row& row, const Run& run, int shape_width, bool header) {
  const int layout_width = std::max<int>(13, static_cast<int>(row.layout.size()));
  if (header)
    std::printf("%-*s %-4s %-6s %-*s %-9s %5s %9s %9s %9s %9s %5s %9s %10s\n", shape_width, "shape", "kind", "prec",
                layout_width, "decomposition", "transport", "ranks", "total ms", "local ms", "exch ms", "bound ms",
                "eff", "exch GB/s", "round trip");
  char rate[32] = "-";
  if (row.bytes_sent > 0) std::snprintf(rate, sizeof rate, "%.3g", row.gbytes_per_s());
  std::printf("%-*s %-4s %-6s %-*s %-9s %5d %9.3f %9.3f %9.3f %9.3f %5.2f %9s %10.2e\n", shape_width,
              text::shape(row.shape).c_str(), to_string(run.problem.kind),
              run.problem.precision == Precision::Double ? "double" : "single", layout_width, row.layout.c_str(),
              row.transport.c_str(), run.ranks, row.total_ms, row.local_ms, row.exchange_ms, row.bound_ms,
              row.efficiency(), rate, row.error);
}

nlohmann::json json_of(const Row& row, const Run& run) {
  const dist::Problem& p = run.problem;
  return {{"shape", row.shape},
          {"kind", to_string(p.kind)},
          {"precision", p.precision == Precision::Double ? "double" : "single"},
          {"inverse", p.direction == Direction::Inverse},
          {"norm", to_string(p.norm)},
          {"decomposition", dist::to_string(p.decomposition)},
          {"grid", row.grid},
          {"transport", row.transport},
          {"ranks", run.ranks},
          {"repetitions", run.repetitions},
          {"total_ms", row.total_ms},
          {"local_ms", row.local_ms},
          {"exchange_ms", row.exchange_ms},
          {"bound_ms", row.bound_ms},
          {"efficiency", row.efficiency()},
          {"exchange_bytes", row.bytes_sent},
          {"exchange_gbytes_per_s", row.gbytes_per_s()},
          {"workspace_bytes", row.workspace_bytes},
          {"round_trip_error", row.error}};
}

// Each rank of a node its own PoCL kernel cache, set before the first
// device opens: Debian's PoCL 3.1 fails builds ("OpenCL error -11") when
// processes compile into one cache at once (docs/DISTRIBUTED.md, "Build and
// tests"). Under PoCL's usual one, by node-local rank, so a later run
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
  if (!o.usage_error.empty()) throw Error(ErrorCode::InvalidArgument, o.usage_error);
  run.problem = problem_of(o);
  std::vector<std::vector<std::int64_t>> shapes;
  int shape_width = 5;
  for (const std::string& list : o.shapes)
    for (const std::string& item : text::split(list, ',')) {
      shapes.push_back(text::parse_shape(item));
      shape_width = std::max<int>(shape_width, static_cast<int>(text::shape(shapes.back()).size()));
    }
  if (shapes.empty())
    throw Error(ErrorCode::InvalidArgument, "bench --distributed needs shapes, e.g. bfly bench --distributed 64x64x64");
  if (o.repetitions < 1)
    throw Error(ErrorCode::InvalidArgument, "invalid --repetitions " + std::to_string(o.repetitions) + " (1 or more)");
  if (o.warmup < 0)
    throw Error(ErrorCode::InvalidArgument, "invalid --warmup " + std::to_string(o.warmup) + " (0 or more)");
  if (!o.out.empty() && !ends_with(o.out, ".json"))
    throw Error(ErrorCode::InvalidArgument, "output '" + o.out + "' must end in .json (bench --distributed)");
  const std::string json = !o.json.empty() ? o.json : o.out;
  run.repetitions = o.repetitions, run.warmup = o.warmup, run.verbose = o.verbose;
  run.plan_options.strategy = parse_strategy(o.strategy.empty() ? "auto" : o.strategy);
  run.plan_options.tier = parse_tier(o.tier.empty() ? "default" : o.tier);
  run.plan_options.tuning = tuning_option(o.tuning);
  if (run.rank == 0 && !o.quiet)  // a size new to the device compiles first: say so where that takes a second
    run.plan_options.on_wait = [](const std::string& message) { std::fprintf(stderr, "bfly: %s\n", message.c_str()); };

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
    print_row(row, run, shape_width, i == 0);
    doc["cases"].push_back(json_of(row, run));
  }
  if (run.rank == 0)
    std::printf(
        "total: median of %d executions on device buffers, the slowest rank's each time; local, exchange: "
        "the\nphases (Plan::profile); bound: the exchanges' transport alone; eff = (local + bound) / total; "
        "exch GB/s:\nthe busiest rank's bytes to other ranks / exchange ms; round trip: relative L2 error of "
        "the inverse's output\n",
        run.repetitions);
  agree(run.comm, [&] {
    if (run.rank == 0 && !json.empty()) io::write_text(json, doc.dump(2) + "\n");
  });
}

}  // namespace

int run_distributed_bench(const DistributedBenchOptions& options) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows as shapes finish, into a file too
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
