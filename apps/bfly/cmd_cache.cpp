// bfly cache: the on-disk kernel cache (backends/kernel_cache.hpp). `warm`
// plans a list of problems so their kernels are compiled ahead of use (for
// deployment and containers), `info` says where the cache is and what it
// holds, `clear` empties it (the tuning tables beside it stay).
#include <chrono>
#include <cstdio>
#include <vector>

#include "inspect/inspect.hpp"
#include "bench_runner.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

struct WarmOptions {
  DeviceOptions device;
  std::string shape;  // shapes, comma-separated: 1024,1000x1000
  std::string suite;  // a bench suite's shapes
  std::string precision = "single";
  std::string kind = "c2c";
  bool generic = false;  // the generic tier's kernels instead of the shapes'
};

std::string mib(std::uintmax_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

int show_info() {
  const inspect::KernelCache cache;
  if (!cache.enabled()) {
    std::printf("kernel cache: off (BFLY_CACHE_DIR=off, or no directory could be made)\n");
    return 0;
  }
  const inspect::CacheInfo info = cache.info();
  std::printf("kernel cache: %s/kernels\n", info.directory.c_str());
  std::printf("  %zu entries, %s of a %s cap (BFLY_CACHE_MAX_BYTES; least recently used go first)\n", info.entries,
              mib(info.bytes).c_str(), mib(info.cap_bytes).c_str());
  for (const inspect::CacheDevice& d : info.devices)
    std::printf("  %zu entries, %s: %s, bfly %s\n", d.entries, mib(d.bytes).c_str(), d.identity.c_str(),
                d.version.c_str());
  return 0;
}

std::vector<std::vector<std::int64_t>> shapes_of(const WarmOptions& o) {
  std::vector<std::vector<std::int64_t>> shapes;
  if (!o.suite.empty())
    for (const BenchCase& c : suite(o.suite, 1)) shapes.push_back(c.shape);
  for (const std::string& item : text::split(o.shape, ','))
    if (!item.empty()) shapes.push_back(text::parse_shape(item));
  if (shapes.empty() && !o.generic)
    throw Error(ErrorCode::InvalidArgument, "cache warm needs --shape N[xM...][,...], --suite NAME or --generic");
  return shapes;
}

// The generic tier's kernels, run once on a small grid and once on a large
// one: PoCL builds a launch's work-group function on first use, one for
// grids under about 2^16 work-items and one for larger (each about 0.5 s
// on two cores), so warming compiles both, and a new size's first call
// then compiles nothing at any batch (zeros in, nothing read back).
void run_small_and_large(const Device& device, Problem p, const PlanOptions& options) {
  for (std::int64_t batch : {std::int64_t{1}, std::int64_t{1} << 16}) {
    p.batch = batch;
    const Plan plan(device, p, options);
    Buffer in(device, static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes());
    Buffer out(device, static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes());
    std::vector<unsigned char> zeros(in.bytes());
    in.write(zeros.data(), zeros.size());
    plan.execute(in, out);
  }
  device.synchronize();
}

int warm(const WarmOptions& o) {
  std::vector<Precision> precisions;
  if (o.precision == "single" || o.precision == "both") precisions.push_back(Precision::Single);
  if (o.precision == "double" || o.precision == "both") precisions.push_back(Precision::Double);
  if (precisions.empty())
    throw Error(ErrorCode::InvalidArgument,
                "invalid precision '" + o.precision + "' (expected single, double or both)");
  Kind kind = Kind::C2C;
  if (o.kind == "r2c")
    kind = Kind::R2C;
  else if (o.kind == "c2r")
    kind = Kind::C2R;
  else if (o.kind != "c2c")
    throw Error(ErrorCode::InvalidArgument, "invalid kind '" + o.kind + "' (expected c2c, r2c or c2r)");
  // Each shape with whether it plans by the generic tier: the tier's every
  // kernel from a C2C of 11 (a row of 16 slots) and an R2C of 17 (Bluestein:
  // gather, rows of 8 slots, chirp, product, scatter), whatever --kind says.
  struct Warm {
    std::vector<std::int64_t> shape;
    bool generic;
    Kind kind;
  };
  std::vector<Warm> shapes;
  for (const auto& shape : shapes_of(o)) shapes.push_back({shape, false, kind});
  if (o.generic) shapes.insert(shapes.end(), {{{11}, true, Kind::C2C}, {{17}, true, Kind::R2C}});
  const inspect::KernelCache cache;
  if (!cache.enabled())
    throw Error(ErrorCode::InvalidArgument, "the kernel cache is off (BFLY_CACHE_DIR=off): nothing to warm");
  const Device device = o.device.open();
  std::printf("warming %s/kernels for %s\n", cache.directory().c_str(), device.info().name.c_str());
  int kernels = 0, compiled = 0;
  for (Precision precision : precisions)
    for (const Warm& w : shapes) {
      Problem p;
      p.shape = w.shape;
      p.precision = precision;
      p.kind = w.kind;
      p.direction = w.kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
      // (Direction, normalisation and the batch are kernel arguments: one plan covers them.)
      const auto start = std::chrono::steady_clock::now();
      PlanOptions options;
      options.tier = w.generic ? Tier::Generic : Tier::Specialised;
      const Plan plan(device, p, options);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (w.generic) run_small_and_large(device, p, options);
      const BuildStats& s = plan.build_stats();
      // (A kernel shared in memory with an earlier plan here counts for that one.)
      const int made = s.built - s.cache_hits - s.shipped;
      kernels += s.kernels;
      compiled += made;
      std::printf(
          "  %-28s %2d kernels, %2d compiled, %2d from the cache, %2d shipped, %8.1f ms (kernels %.1f, tables %.1f)\n",
          p.token().c_str(), s.kernels, made, s.cache_hits, s.shipped, ms, s.compile_ms, s.twiddle_ms);
    }
  std::printf("%d kernels, %d compiled now\n", kernels, compiled);
  return show_info();
}

}  // namespace

void add_cache_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  CLI::App* cache = app.add_subcommand(
      "cache",
      "the on-disk kernel cache ($BFLY_CACHE_DIR, else ~/.cache/bfly; capped by BFLY_CACHE_MAX_BYTES, default 1G)");
  cache->require_subcommand(1);
  CLI::App* info = cache->add_subcommand(
      "info", "where the cache is, its size and entries, and the devices and bfly versions they are for");
  actions.emplace_back(info, [] { return show_info(); });
  CLI::App* clear = cache->add_subcommand("clear", "remove every cached kernel (the tuning tables stay)");
  actions.emplace_back(clear, [] {
    const inspect::KernelCache cache;
    if (!cache.enabled()) {
      std::printf("kernel cache: off\n");
      return 0;
    }
    const std::size_t removed = cache.clear();
    std::printf("removed %zu cached kernels from %s/kernels\n", removed, cache.directory().c_str());
    return 0;
  });
  auto o = std::make_shared<WarmOptions>();
  CLI::App* warm_command = cache->add_subcommand(
      "warm",
      "compile and cache the kernels of a list of problems ahead of use (one plan per shape and precision serves "
      "both directions, every batch and normalisation)");
  o->device.add_to(*warm_command);
  warm_command->add_option("--shape", o->shape, "shapes, comma-separated: 1024,1000x1000,64x64x64");
  warm_command->add_option(
      "--suite", o->suite,
      "a bench suite's shapes (pocl, gpu, smooth, large, tune, demo, 2d, 3d, prime, prime-extra, prime-nd, real)");
  warm_command->add_option("--precision", o->precision, "single, double or both");
  warm_command->add_option("--kind", o->kind, "c2c, r2c or c2r");
  warm_command->add_flag("--generic", o->generic,
                         "also the generic tier's kernels (PlanOptions::tier, BFLY_LIMITS=generic=1: a plan of any "
                         "size then compiles nothing)");
  actions.emplace_back(warm_command, [o] { return warm(*o); });
}

}  // namespace bfly::cli
