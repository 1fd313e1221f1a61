#include "support/planned_kernels.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"
#include "plan/plan.hpp"
#include "plan/tuning.hpp"
#include "runtime/tuning_files.hpp"
#include "size_lists.hpp"

namespace bfly::test {

using plan::KernelSpec;
namespace {

// 7-smooth lengths to 4096 and the sweep's larger and 11-, 13-smooth ones.
std::vector<std::int64_t> sweep_lengths() {
  std::vector<std::int64_t> out;
  for (std::int64_t a = 1; a <= 4096; a *= 2)
    for (std::int64_t b = a; b <= 4096; b *= 3)
      for (std::int64_t c = b; c <= 4096; c *= 5)
        for (std::int64_t d = c; d <= 4096; d *= 7) out.push_back(d);
  for (std::int64_t n : {8192,
                         16384,
                         65536,
                         1 << 20,
                         531441 /* 3^12 */,
                         390625 /* 5^8 */,
                         823543 /* 7^7 */,
                         1000,
                         3000,
                         248832 /* 2^10 3^5 */,
                         1 << 24,
                         11,
                         13,
                         121,
                         169,
                         143,
                         1331,
                         2197,
                         11 * 13 * 16,
                         11 * 256,
                         13 * 256,
                         14641,
                         28561,
                         161051,
                         371293})
    out.push_back(n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::map<std::string, PlannedKernel> gpu_sweep_kernels() {
  struct Limits {
    const char* name;
    plan::DeviceLimits limits;
  };
  // 48 KiB: OpenCL on NVIDIA; 227 KiB: the CUDA backend on Hopper (opt-in
  // shared memory, dynamic above 48 KiB).
  const std::vector<Limits> all{{"gpu_limits(49152, 1024)", plan::gpu_limits(49152, 1024)},
                                {"gpu_limits(232448, 1024)", plan::gpu_limits(232448, 1024)}};
  std::map<std::string, PlannedKernel> by_name;
  // Every pass of the problem's plan under `l`, described by its problem.
  auto add_plan = [&](const Problem& problem, const Limits& l) {
    const plan::PlanTree tree = plan::make_plan(problem, l.limits);
    for (std::size_t i = 0; i < tree.passes.size(); ++i) {
      const KernelSpec& spec = tree.passes[i].spec;
      by_name.emplace(spec.name(), PlannedKernel{spec, problem.token() + " pass " + std::to_string(i) +
                                                           (spec.plane() ? " (plane)" : "") + " under " + l.name});
    }
  };
  for (const Limits& l : all)
    for (std::int64_t n : sweep_lengths()) {
      Problem problem;
      problem.shape = {n};
      const plan::PlanTree tree = plan::make_plan(problem, l.limits);
      for (std::size_t i = 0; i < tree.passes.size(); ++i) {
        const KernelSpec& spec = tree.passes[i].spec;
        by_name.emplace(spec.name(), PlannedKernel{spec, "n=" + std::to_string(n) + " pass " + std::to_string(i) +
                                                             " under " + l.name});
      }
    }
  // The multi-dimensional cases of the bench, in both strategies (strided
  // axes; rows between tiled transposes), and one past 2^31 elements (64-bit offsets).
  const std::vector<std::vector<std::int64_t>> shapes{{120, 120},   {512, 512},      {1000, 1000},    {2048, 2048},
                                                      {3000, 3000}, {4096, 4096},    {480, 640},      {7, 4096},
                                                      {4096, 7},    {64, 64, 64},    {100, 100, 100}, {96, 128, 80},
                                                      {7, 5, 3},    {128, 128, 128}, {256, 256, 256}, {65536, 32768}};
  for (const Limits& l : all)
    for (const auto& shape : shapes)
      for (Strategy strategy : {Strategy::Auto, Strategy::Transpose}) {
        Problem problem;
        problem.shape = shape;
        PlanOptions options;
        options.strategy = strategy;
        const plan::PlanTree tree = plan::make_plan(problem, l.limits, options);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(spec.name(), PlannedKernel{spec, problem.token() + " " + to_string(strategy) + " pass " +
                                                               std::to_string(i) + " under " + l.name});
        }
      }
  // Planes in one pass (solvers/plane.cpp): square, flat and tall planes,
  // odd and the largest codelets, in 2D and inside 3D, both precisions.
  for (const Limits& l : all)
    for (Precision precision : {Precision::Single, Precision::Double})
      for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
               {2, 2},    {7, 5},       {16, 16},      {23, 23},    {17, 19},   {60, 60},   {64, 64},
               {90, 90},  {100, 81},    {128, 64},     {64, 128},   {128, 128}, {120, 120}, {32, 256},
               {256, 32}, {2, 2048},    {2048, 2},     {8, 1024},   {12, 120},  {120, 12},  {25, 300},
               {7, 5, 3}, {32, 32, 32}, {16, 128, 64}, {64, 64, 64}}) {
        Problem problem;
        problem.shape = shape;
        problem.precision = precision;
        add_plan(problem, l);
      }
  // Double precision: the same generator, twice the registers per point.
  for (const Limits& l : all)
    for (std::int64_t n : {64, 1000, 1024, 2187, 4096, 8192, 11 * 13 * 16, 65536, 1 << 20, 1 << 22}) {
      Problem problem;
      problem.shape = {n};
      problem.precision = Precision::Double;
      add_plan(problem, l);
    }
  // Radices 17 to 31, and Bluestein: one fused kernel per padded size (1D and strided axes), and
  // the chirp passes of the multi-pass form, in both precisions.
  for (const Limits& l : all)
    for (Precision precision : {Precision::Single, Precision::Double})
      for (const std::vector<std::int64_t>& shape :
           std::vector<std::vector<std::int64_t>>{{17},
                                                  {19},
                                                  {23},
                                                  {17 * 19 * 8},
                                                  {23 * 23 * 4},
                                                  {31},
                                                  {61},
                                                  {127},
                                                  {257},
                                                  {509},
                                                  {1021},
                                                  {2039},
                                                  {4093},
                                                  {8191},
                                                  {65537},
                                                  {1000003},
                                                  {17, 19, 23},
                                                  {641},
                                                  {1667},
                                                  {1871},
                                                  {2003},
                                                  {2029},
                                                  {2053},
                                                  {2593},
                                                  {3889},
                                                  {4051},
                                                  {29, 31, 37},
                                                  {1009, 1013},
                                                  {4093, 64},
                                                  {23, 4096},
                                                  {4096, 17},
                                                  {7681},
                                                  {12289},
                                                  {786433},
                                                  {8, 7681},
                                                  // Radices 29 and 31 (plan/factorize.hpp wide_codelet)
                                                  {29},
                                                  {29 * 64},
                                                  {961},
                                                  {1364},
                                                  {3100},
                                                  {4092},
                                                  {29000},
                                                  {62000},
                                                  {31 * 8192},
                                                  {3100, 6},
                                                  {31, 31},
                                                  {29, 4096},
                                                  // Rader on a prime factor (solvers/rader.cpp rader_factor_steps)
                                                  {3700},
                                                  {4097},
                                                  {74000},
                                                  {37 * 8192},
                                                  {3700, 6}}) {
        Problem problem;
        problem.shape = shape;
        problem.precision = precision;
        add_plan(problem, l);
      }
  // Real transforms, both kinds and precisions: packed even axes (one pass
  // up to twice the longest single pass), odd and long axes as complex with
  // real loads and stores, Bluestein's real loads and stores, multi-dim and
  // in place.
  for (const Limits& l : all)
    for (Precision precision : {Precision::Single, Precision::Double})
      for (Kind kind : {Kind::R2C, Kind::C2R})
        for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
                 {2},          {16},       {1000},       {1024},       {4096},         {8192},   {16384},
                 {32768},      {65536},    {1 << 20},    {1 << 24},    {1001},         {4097},   {127},
                 {8191},       {1000003},  {1021},       {2053},       {3889},         {97, 29}, {1024, 1024},
                 {1000, 1000}, {513, 511}, {4096, 4096}, {64, 64, 63}, {256, 256, 256}})
          for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
            Problem problem;
            problem.kind = kind;
            problem.direction = kind == Kind::R2C ? Direction::Forward : Direction::Inverse;
            problem.shape = shape;
            problem.precision = precision;
            problem.placement = placement;
            add_plan(problem, l);
          }
  // Long contiguous rows (one pass up to the model's row limit), the lengths
  // the shipped tuning tables hold and the smooth sizes they leave out for
  // their neighbours, each under the model, under every shipped table, and
  // exchanged in halves (a one-entry table asks for it), in both precisions.
  std::vector<std::pair<std::string, std::shared_ptr<const plan::TuningTable>>> tables{{"model", nullptr}};
  for (const plan::TuningTable& t : detail::shipped_tuning_tables())
    tables.push_back({t.source, std::make_shared<plan::TuningTable>(t)});
  std::vector<std::int64_t> rows = cli::tune_suite();
  for (std::int64_t n : cli::smooth_suite_lengths()) rows.push_back(n);
  for (std::int64_t n : {12288, 20480, 24000, 28672}) rows.push_back(n);
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : rows) {
      Problem problem;
      problem.shape = {n};
      problem.precision = precision;
      auto halves = std::make_shared<plan::TuningTable>();
      plan::TuningEntry entry;
      entry.precision = precision;
      entry.length = n;
      entry.launch.halves = 1;
      halves->entries.push_back(entry);
      auto all_tables = tables;
      // Halves on the powers of two the model runs in one pass (bfly tune
      // keeps only launches that compile without spills; here the
      // generator's halves text must compile).
      const bool one_pass = n <= (precision == Precision::Single ? 16384 : 8192) && (n & (n - 1)) == 0;
      if (one_pass) all_tables.push_back({"halves", halves});
      for (const auto& [table_name, table] : all_tables) {
        plan::DeviceLimits limits = plan::gpu_limits(232448, 1024);
        limits.tuning = table;
        const plan::PlanTree tree = plan::make_plan(problem, limits);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(
              spec.name(),
              PlannedKernel{spec, problem.token() + " pass " + std::to_string(i) + " under hopper, " + table_name,
                            tree.passes[i].launch_from == "table"});
        }
      }
    }
  // Rows past one block in thread-block clusters (Hopper), both precisions,
  // out of place and in place.
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {16384, 32768, 36864, 40000, 49152, 65536, 100000, 131072, 1 << 18})
      for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
        Problem problem;
        problem.shape = {n};
        problem.precision = precision;
        problem.placement = placement;
        plan::DeviceLimits limits = plan::gpu_limits(232448, 1024);
        limits.max_cluster = 8;
        const plan::PlanTree tree = plan::make_plan(problem, limits);
        for (std::size_t i = 0; i < tree.passes.size(); ++i) {
          const KernelSpec& spec = tree.passes[i].spec;
          by_name.emplace(spec.name(), PlannedKernel{spec, problem.token() + " pass " + std::to_string(i) +
                                                               " under hopper, clusters"});
        }
      }
  // The convolutions' forward transforms with the product fused into their
  // last pass (KernelSpec::store_ops; ops/convolver.cpp): padded images, 1D
  // signals, overlap-save blocks and volumes, real and complex.
  for (Precision precision : {Precision::Single, Precision::Double})
    for (Kind kind : {Kind::R2C, Kind::C2C})
      for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
               {4374, 4374}, {4116, 4116}, {1050, 1050}, {270, 270}, {1032}, {131250}, {64, 1024}, {70, 70, 70}}) {
        Problem problem;
        problem.kind = kind;
        problem.shape = shape;
        problem.precision = precision;
        if (shape == std::vector<std::int64_t>{64, 1024}) problem.axes = {1};  // blocks
        const std::int64_t period = shape.size() == 2 && shape[0] == 64 ? 513 : 0;
        const plan::PlanTree tree = plan::make_plan(problem, plan::gpu_limits(232448, 1024));
        KernelSpec spec = tree.passes.back().spec;
        if (spec.can_fuse_store_ops()) {
          spec.store_ops = bfly::plan::multiply_ops(period, problem.output_extent());
          by_name.emplace(spec.name(),
                          PlannedKernel{spec, problem.token() + " last pass with the product fused, under hopper"});
        }
        // The inverse's first pass, reading the product.
        problem.kind = kind == Kind::R2C ? Kind::C2R : Kind::C2C;
        problem.direction = Direction::Inverse;
        const plan::PlanTree inverse = plan::make_plan(problem, plan::gpu_limits(232448, 1024));
        spec = inverse.passes.front().spec;
        if (spec.can_fuse_load_ops()) {
          spec.load_ops = bfly::plan::multiply_ops(period, problem.input_extent());
          by_name.emplace(spec.name(),
                          PlannedKernel{spec, problem.token() + " first pass with the product fused, under hopper"});
        }
      }
  // A staged kernel that spills falls back to the unstaged one at run time
  // (runtime/plan_impl.cpp): that one must compile clean.
  std::vector<PlannedKernel> fallbacks;
  for (const auto& entry : by_name)
    if (entry.second.spec.staged) {
      PlannedKernel unstaged = entry.second;
      unstaged.spec.staged = 0;
      unstaged.origin += ", unstaged (the fallback)";
      unstaged.fallback_of = entry.second.spec.name();
      fallbacks.push_back(unstaged);
    }
  for (const PlannedKernel& job : fallbacks) by_name.emplace(job.spec.name(), job);
  return by_name;
}

namespace {

// Hopper as the CUDA backend sees it: 227 KiB, clusters of 8, L2 chains.
plan::DeviceLimits hopper() {
  plan::DeviceLimits limits = plan::gpu_limits(232448, 1024);
  limits.max_cluster = 8;
  limits.l2_chain_bytes = plan::kHopperL2ChainBytes;
  return limits;
}

// The bench suites' problems at `bfly bench`'s default 2^22 points a case:
// single-precision complex as the suites run, double too, and the real
// suite both ways.
std::vector<Problem> suite_problems() {
  std::vector<Problem> problems;
  for (const std::string& name : cli::suite_names())
    for (const std::vector<std::int64_t>& shape : cli::suite_shapes(name))
      for (Precision precision : {Precision::Single, Precision::Double})
        for (Kind kind : name == "real" ? std::vector<Kind>{Kind::R2C, Kind::C2R} : std::vector<Kind>{Kind::C2C}) {
          Problem p;
          p.shape = shape;
          p.kind = kind;
          p.precision = precision;
          p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
          std::int64_t points = 1;
          for (std::int64_t n : shape) points *= n;
          p.batch = std::max<std::int64_t>(1, (std::int64_t{1} << 22) / points);
          problems.push_back(p);
        }
  return problems;
}

}  // namespace

std::map<std::string, PlannedKernel> suite_kernels() {
  const std::vector<std::pair<const char*, plan::DeviceLimits>> all{
      {"cpu_limits()", plan::cpu_limits()},
      {"gpu_limits(49152, 1024)", plan::gpu_limits(49152, 1024)},
      {"hopper", hopper()}};
  std::map<std::string, PlannedKernel> by_name;
  for (const Problem& problem : suite_problems())
    for (const auto& [limits_name, limits] : all) {
      const plan::PlanTree tree = plan::make_plan(problem, limits);
      for (std::size_t i = 0; i < tree.passes.size(); ++i) {
        const plan::KernelSpec& spec = tree.passes[i].spec;
        by_name.emplace(spec.name(),
                        PlannedKernel{spec, problem.token() + " pass " + std::to_string(i) + " under " + limits_name});
      }
    }
  return by_name;
}

std::vector<PlannedChain> planned_chains() {
  std::vector<Problem> problems;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (const std::vector<std::int64_t>& shape :
         std::vector<std::vector<std::int64_t>>{{65536}, {131072}, {262144}, {524288}, {65536, 4}, {8192, 8}}) {
      Problem p;
      p.shape = shape;
      p.precision = precision;
      p.batch = 64;
      problems.push_back(p);
    }
  for (const Problem& p : suite_problems()) problems.push_back(p);
  std::map<std::string, PlannedChain> by_name;
  for (const Problem& problem : problems) {
    const plan::PlanTree tree = plan::make_plan(problem, hopper());
    for (std::size_t i = 0; i + 1 < tree.passes.size(); ++i) {
      const plan::Pass& a = tree.passes[i];
      if (a.chain_elements == 0) continue;
      const plan::Pass& b = tree.passes[i + 1];
      const codegen::ChainShape shape = codegen::chain_shape(a, b);
      by_name.emplace(codegen::chain_name(a.spec, b.spec, shape),
                      PlannedChain{a.spec, b.spec, shape,
                                   problem.token() + " passes " + std::to_string(i) + "-" + std::to_string(i + 1)});
    }
  }
  std::vector<PlannedChain> chains;
  for (auto& entry : by_name) chains.push_back(entry.second);
  return chains;
}

}  // namespace bfly::test
