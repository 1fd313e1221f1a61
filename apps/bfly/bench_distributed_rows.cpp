// bench --distributed's shared pieces (bench_distributed_rows.hpp).
#include "bench_distributed_rows.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {

using Clock = std::chrono::steady_clock;

namespace {

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

}  // namespace

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
  using E = dist::ExchangeMethod;
  p.exchange = parse_named(o.exchange, {E::Alltoallv, E::Alltoall, E::PointToPoint, E::Auto}, "--exchange");
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
std::int64_t points_sent(const dist::Problem& p, const std::vector<int>& grid, const dist::Box& input_box,
                         const dist::Box& output_box, int rank) {
  using D = dist::Decomposition;
  std::vector<std::int64_t> shape = p.shape;
  dist::Box box = input_box;
  if (p.kind == Kind::R2C) shape.back() = shape.back() / 2 + 1, box.upper.back() = shape.back();
  std::vector<dist::Box> boxes{box};
  if (p.decomposition == D::Pencils || p.decomposition == D::PencilsTransposedIn) {
    dist::Box y{{0, 0, 0}, {0, shape[1], 0}};
    std::tie(y.lower[0], y.upper[0]) = part(shape[0], grid[0], rank / grid[1]);
    std::tie(y.lower[2], y.upper[2]) = part(shape[2], grid[1], rank % grid[1]);
    boxes.push_back(y);
  }
  boxes.push_back(output_box);
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

BenchSetup setup_of(const DistributedBenchOptions& o, bool announce_compiles) {
  if (!o.usage_error.empty()) throw Error(ErrorCode::InvalidArgument, o.usage_error);
  BenchSetup setup;
  setup.problem = problem_of(o);
  for (const std::string& list : o.shapes)
    for (const std::string& item : text::split(list, ',')) {
      setup.shapes.push_back(text::parse_shape(item));
      setup.shape_width = std::max<int>(setup.shape_width, static_cast<int>(text::shape(setup.shapes.back()).size()));
    }
  if (setup.shapes.empty())
    throw Error(ErrorCode::InvalidArgument, "bench --distributed needs shapes, e.g. bfly bench --distributed 64x64x64");
  if (o.repetitions < 1)
    throw Error(ErrorCode::InvalidArgument, "invalid --repetitions " + std::to_string(o.repetitions) + " (1 or more)");
  if (o.warmup < 0)
    throw Error(ErrorCode::InvalidArgument, "invalid --warmup " + std::to_string(o.warmup) + " (0 or more)");
  if (!o.out.empty() && !ends_with(o.out, ".json"))
    throw Error(ErrorCode::InvalidArgument, "output '" + o.out + "' must end in .json (bench --distributed)");
  setup.json = !o.json.empty() ? o.json : o.out;
  setup.plan_options.strategy = parse_strategy(o.strategy.empty() ? "auto" : o.strategy);
  setup.plan_options.tier = parse_tier(o.tier.empty() ? "default" : o.tier);
  setup.plan_options.tuning = tuning_option(o.tuning);
  if (announce_compiles && !o.quiet)  // a size new to the device compiles first: say so where that takes a second
    setup.plan_options.on_wait = [](const std::string& message) {
      std::fprintf(stderr, "bfly: %s\n", message.c_str());
    };
  return setup;
}

void print_row(const Row& row, int shape_width, bool header) {
  const int layout_width = std::max<int>(13, static_cast<int>(row.layout.size()));
  if (header)
    std::printf("%-*s %-4s %-6s %-*s %-9s %5s %9s %9s %9s %9s %5s %9s %10s\n", shape_width, "shape", "kind", "prec",
                layout_width, "decomposition", "transport", "ranks", "total ms", "local ms", "exch ms", "bound ms",
                "eff", "exch GB/s", "round trip");
  char rate[32] = "-";
  if (row.bytes_sent > 0) std::snprintf(rate, sizeof rate, "%.3g", row.gbytes_per_s());
  std::printf("%-*s %-4s %-6s %-*s %-9s %5d %9.3f %9.3f %9.3f %9.3f %5.2f %9s %10.2e\n", shape_width,
              text::shape(row.shape).c_str(), to_string(row.problem.kind),
              row.problem.precision == Precision::Double ? "double" : "single", layout_width, row.layout.c_str(),
              row.transport.c_str(), row.ranks, row.total_ms, row.local_ms, row.exchange_ms, row.bound_ms,
              row.efficiency(), rate, row.error);
}

nlohmann::json json_of(const Row& row) {
  const dist::Problem& p = row.problem;
  return {{"shape", row.shape},
          {"kind", to_string(p.kind)},
          {"precision", p.precision == Precision::Double ? "double" : "single"},
          {"inverse", p.direction == Direction::Inverse},
          {"norm", to_string(p.norm)},
          {"decomposition", dist::to_string(p.decomposition)},
          {"grid", row.grid},
          {"transport", row.transport},
          {"ranks", row.ranks},
          {"repetitions", row.repetitions},
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

void print_legend(int repetitions) {
  std::printf(
      "total: median of %d executions on device buffers, the slowest part's each time; local, exchange: "
      "the\nphases (profile); bound: the exchanges' transport alone; eff = (local + bound) / total; "
      "exch GB/s:\nthe busiest part's bytes to other parts / exchange ms; round trip: relative L2 error of "
      "the inverse's output\n",
      repetitions);
}

}  // namespace bfly::cli
