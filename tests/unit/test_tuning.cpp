// Tuning tables (plan/tuning.hpp): the JSON form, lookups, and how the
// planner takes a table's choices (exact, a neighbour's, a split, one pass
// past the model's limit) or falls back to its model; the shipped tables.
#include <gtest/gtest.h>

#include <cstdlib>

#include "plan/plan.hpp"
#include "plan/tuning.hpp"
#include "runtime/tuning_files.hpp"
#include "plan/limits_override.hpp"

namespace {

using bfly::Precision;
using bfly::plan::LaunchChoice;
using bfly::plan::TuningEntry;
using bfly::plan::TuningTable;

TuningEntry entry(std::int64_t length, Precision precision = Precision::Single) {
  TuningEntry e;
  e.length = length;
  e.precision = precision;
  return e;
}

TuningTable table_of(std::vector<TuningEntry> entries) {
  TuningTable t;
  t.device = "NVIDIA H100 80GB HBM3";
  t.compute_capability = "9.0";
  t.version = bfly::version();
  t.source = "test";
  t.entries = std::move(entries);
  return t;
}

bfly::Problem row(std::int64_t n, Precision precision = Precision::Single) {
  bfly::Problem p;
  p.shape = {n};
  p.batch = 64;
  p.precision = precision;
  return p;
}

bfly::plan::DeviceLimits hopper(const TuningTable* table) {
  bfly::plan::DeviceLimits limits = bfly::plan::gpu_limits(232448, 1024);
  if (table) limits.tuning = std::make_shared<TuningTable>(*table);
  return limits;
}

TEST(Tuning, JsonRoundTrip) {
  TuningEntry a = entry(8192);
  a.launch.threads = 512;
  a.launch.group_threads = 512;
  a.launch.padding = 0;
  a.launch.halves = 1;
  a.launch.two_level = 1;
  a.launch.occupancy = 2;
  a.launch.radices = {16, 8, 8, 8};
  a.ms = 0.25;
  a.model_ms = 0.3;
  a.variants = 40;
  TuningEntry b = entry(65536, Precision::Double);
  b.passes = {256, 256};
  TuningTable t = table_of({a, b});
  t.note = "made by a test";
  const TuningTable back = bfly::plan::parse_tuning(bfly::plan::to_json(t), "round trip");
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.device, t.device);
  EXPECT_EQ(back.compute_capability, "9.0");
  EXPECT_EQ(back.version, bfly::version());
  EXPECT_EQ(back.note, t.note);
  EXPECT_EQ(back.source, "round trip");
  EXPECT_TRUE(back.entries[0].launch == a.launch);
  EXPECT_EQ(back.entries[0].launch.text(), "T512 G512 pad0 half1 tw1 occ2 r16x8x8x8");
  EXPECT_EQ(back.entries[1].passes, (std::vector<std::int64_t>{256, 256}));
  EXPECT_EQ(back.entries[1].precision, Precision::Double);
  EXPECT_EQ(LaunchChoice{}.text(), "model");
}

TEST(Tuning, MalformedTablesNameTheirSourceAndField) {
  auto message = [](const std::string& json) {
    try {
      bfly::plan::parse_tuning(json, "my.json");
    } catch (const bfly::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{").find("my.json"), std::string::npos);
  EXPECT_NE(message(R"({"format": "other"})").find("bfly-tuning-1"), std::string::npos);
  const std::string head = R"({"format": "bfly-tuning-1", "device": "d", "bfly_version": "0.1.0", "entries": [)";
  EXPECT_NE(message(head + R"({"precision": "half", "length": 8}]})").find("precision 'half'"), std::string::npos);
  EXPECT_NE(message(head + R"({"precision": "single", "length": 0}]})").find("length 0"), std::string::npos);
  EXPECT_NE(message(head + R"({"precision": "single", "length": 8, "threads": "many"}]})").find("'threads'"),
            std::string::npos);
  EXPECT_NE(message(R"({"format": "bfly-tuning-1", "entries": []})").find("malformed"), std::string::npos);
}

TEST(Tuning, ExactLookups) {
  TuningEntry split = entry(3000);
  split.passes = {50, 60};
  const TuningTable t = table_of({entry(1024), entry(4096), entry(1024, Precision::Double), split});
  EXPECT_EQ(t.exact(Precision::Single, 1024)->length, 1024);
  EXPECT_EQ(t.exact(Precision::Single, 2048), nullptr);
  EXPECT_EQ(t.exact(Precision::Double, 1024)->length, 1024);
  EXPECT_EQ(t.exact(Precision::Double, 4096), nullptr);
  TuningTable u = t;
  TuningEntry replaced = entry(1024);
  replaced.launch.threads = 32;
  u.put(replaced);
  EXPECT_EQ(u.entries.size(), t.entries.size());
  EXPECT_EQ(u.exact(Precision::Single, 1024)->launch.threads, 32);
  EXPECT_TRUE(t.matches("NVIDIA H100 80GB HBM3", "9.0"));
  EXPECT_FALSE(t.matches("NVIDIA H200", "9.0"));
  EXPECT_FALSE(t.matches("NVIDIA H100 80GB HBM3", "8.0"));
  EXPECT_TRUE(t.same_architecture("9.0"));
  EXPECT_FALSE(t.same_architecture("8.0"));
  EXPECT_FALSE(t.same_architecture(""));
  TuningTable cpu = t;  // an OpenCL device has no compute capability: its name alone
  cpu.device = "pthread-skylake-avx512-AMD EPYC";
  cpu.compute_capability = "";
  EXPECT_TRUE(cpu.matches("pthread-skylake-avx512-AMD EPYC", ""));
  EXPECT_FALSE(cpu.same_architecture(""));
}

// A device no shipped table was measured on takes one of its compute
// capability (an H800 the H100's); other architectures take none; the H200
// takes its own.
TEST(Tuning, DevicesOfTheSameArchitectureShareAShippedTable) {
  if (!bfly::plan::tuning_tables_supported()) GTEST_SKIP() << "built without nlohmann-json";
  unsetenv("BFLY_TUNING");
  const char* was = std::getenv("BFLY_CACHE_DIR");
  const std::string cache = was ? was : "";
  setenv("BFLY_CACHE_DIR", (::testing::TempDir() + "bfly-no-user-table").c_str(), 1);  // no user table
  bfly::DeviceInfo h100, h800, h200, ampere;
  h100.name = "NVIDIA H100 80GB HBM3";
  h800.name = "NVIDIA H800";
  h200.name = "NVIDIA H200";
  ampere.name = "NVIDIA A100-SXM4-80GB";
  h100.compute_capability = h800.compute_capability = h200.compute_capability = "9.0";
  ampere.compute_capability = "8.0";
  const auto own = bfly::detail::tuning_for(h100);
  const auto sibling = bfly::detail::tuning_for(h800);
  ASSERT_NE(own, nullptr);
  ASSERT_NE(sibling, nullptr);
  EXPECT_EQ(sibling->entries.size(), own->entries.size());
  EXPECT_NE(sibling->source.find("nvidia-h100"), std::string::npos) << sibling->source;
  const auto h200_table = bfly::detail::tuning_for(h200);
  ASSERT_NE(h200_table, nullptr);
  EXPECT_NE(h200_table->source.find("nvidia-h200"), std::string::npos) << h200_table->source;
  EXPECT_EQ(bfly::detail::tuning_for(ampere), nullptr);
  if (was)
    setenv("BFLY_CACHE_DIR", cache.c_str(), 1);
  else
    unsetenv("BFLY_CACHE_DIR");
}

TEST(Tuning, PlannerTakesTheTablesLaunchAndSaysSo) {
  TuningEntry e = entry(8192);
  e.launch.threads = 256;
  e.launch.halves = 1;
  e.launch.occupancy = 3;
  e.launch.two_level = 0;
  e.launch.radices = {8, 8, 8, 16};
  const TuningTable t = table_of({e});
  const bfly::plan::PlanTree model = bfly::plan::make_plan(row(8192), hopper(nullptr));
  EXPECT_EQ(model.passes[0].launch_from, "model");
  const bfly::plan::PlanTree tuned = bfly::plan::make_plan(row(8192), hopper(&t));
  ASSERT_EQ(tuned.passes.size(), 1u);
  const bfly::plan::KernelSpec& s = tuned.passes[0].spec;
  EXPECT_EQ(tuned.passes[0].launch_from, "table");
  EXPECT_EQ(s.threads_per_transform, 256);
  EXPECT_TRUE(s.local_halves);
  EXPECT_EQ(s.local_bytes(), 8192u * 4 + 8192 / 16 * 4 * (s.local_padding ? 1 : 0));
  EXPECT_EQ(s.min_groups_per_unit, 3);
  EXPECT_EQ(s.stage_twiddle_bits, 0);
  EXPECT_EQ(s.radices, (std::vector<int>{8, 8, 8, 16}));
  EXPECT_NE(s.name(), model.passes[0].spec.name());
  const std::string text = tuned.print();
  EXPECT_NE(text.find("tuning test"), std::string::npos) << text;
  EXPECT_NE(text.find("launch from table"), std::string::npos) << text;
  EXPECT_NE(text.find("exchanged in halves"), std::string::npos) << text;
  // A length the table does not name keeps the model's launch: nothing is
  // borrowed from a neighbour (issue 39).
  const bfly::plan::PlanTree near = bfly::plan::make_plan(row(4096), hopper(&t));
  EXPECT_EQ(near.passes[0].launch_from, "model");
  EXPECT_EQ(near.passes[0].spec.name(), bfly::plan::make_plan(row(4096), hopper(nullptr)).passes[0].spec.name());
  // Other lengths, precisions, strided axes and real transforms: the model.
  EXPECT_EQ(bfly::plan::make_plan(row(2048), hopper(&t)).passes[0].launch_from, "model");
  EXPECT_EQ(bfly::plan::make_plan(row(8192, Precision::Double), hopper(&t)).passes[0].launch_from, "model");
  bfly::Problem columns = row(8192);
  columns.shape = {8192, 8};
  columns.axes = {0};
  EXPECT_EQ(bfly::plan::make_plan(columns, hopper(&t)).passes[0].launch_from, "model");
  bfly::Problem real = row(16384);
  real.kind = bfly::Kind::R2C;
  EXPECT_EQ(bfly::plan::make_plan(real, hopper(&t)).passes[0].launch_from, "model");
}

// Staging (KernelSpec::staged): the model stages long one-pass rows (fp32
// from 2048 points, fp64 from 3072) where input and exchange fit and, with
// row_occupancy, only where one group fits a multiprocessor; a table's
// entry stays unstaged unless it says so, and may ask for either copy.
TEST(Tuning, StagedRowsFromTheModelAndTheTable) {
  auto staged = [](const bfly::plan::PlanTree& tree) { return tree.passes[0].spec.staged; };
  bfly::plan::DeviceLimits estimate = hopper(nullptr);
  estimate.row_occupancy = 0;
  EXPECT_EQ(staged(bfly::plan::make_plan(row(2160), estimate)), 2);
  EXPECT_EQ(staged(bfly::plan::make_plan(row(1800), estimate)), 0);
  EXPECT_EQ(staged(bfly::plan::make_plan(row(2160, Precision::Double), estimate)), 0);
  EXPECT_EQ(staged(bfly::plan::make_plan(row(4800, Precision::Double), estimate)), 2);
  // row_occupancy (the GPUs' default): several groups a multiprocessor run
  // unstaged (3375: 15 points a thread, 5 groups of 225 threads), one
  // staged (13824: 32 points a thread at 432 threads).
  for (std::int64_t n : {3375, 13824}) {
    const bfly::plan::KernelSpec& s = bfly::plan::make_plan(row(n), hopper(nullptr)).passes[0].spec;
    EXPECT_EQ(s.staged, s.min_groups_per_unit > 1 ? 0 : 2) << n;
    EXPECT_EQ(s.min_groups_per_unit, n == 3375 ? 5 : 1) << n;
  }
  const bfly::plan::PlanTree tree = bfly::plan::make_plan(row(2160), estimate);
  EXPECT_LE(tree.passes[0].spec.local_bytes(), 232448u);
  EXPECT_NE(tree.print().find("staged"), std::string::npos);
  // Multi-pass axes and strided points are never staged.
  EXPECT_EQ(staged(bfly::plan::make_plan(row(1 << 20), hopper(nullptr))), 0);
  // A table's entry: unstaged unless it asks.
  TuningEntry e = entry(2160);
  e.launch.threads = 144;
  const TuningTable unstaged = table_of({e});
  EXPECT_EQ(staged(bfly::plan::make_plan(row(2160), hopper(&unstaged))), 0);
  e.launch.staged = 1;
  const TuningTable threads = table_of({e});
  EXPECT_EQ(staged(bfly::plan::make_plan(row(2160), hopper(&threads))), 1);
  // Too long to stage beside its exchange in 227 KiB: 16384 fp64 points.
  TuningEntry big = entry(16384, Precision::Double);
  big.launch.staged = 2;
  big.launch.halves = 1;
  const TuningTable too_big = table_of({big});
  EXPECT_EQ(staged(bfly::plan::make_plan(row(16384, Precision::Double), hopper(&too_big))), 0);
  // CPU limits: only a table stages.
  bfly::plan::DeviceLimits cpu = bfly::plan::cpu_limits();
  EXPECT_EQ(bfly::plan::make_plan(row(2048), cpu).passes[0].spec.staged, 0);
  TuningEntry small = entry(512);
  small.launch.staged = 2;
  small.launch.threads = 64;
  small.launch.group_threads = 64;
  cpu.tuning = std::make_shared<TuningTable>(table_of({small}));
  EXPECT_EQ(bfly::plan::make_plan(row(512), cpu).passes[0].spec.staged, 2);
}

TEST(Tuning, ChoicesThatDoNotFitLeaveTheModel) {
  TuningEntry e = entry(1000);
  e.launch.radices = {8, 125};  // 125 is no codelet
  e.launch.threads = 50;
  const TuningTable t = table_of({e});
  const bfly::plan::PlanTree tree = bfly::plan::make_plan(row(1000), hopper(&t));
  const bfly::plan::PlanTree model = bfly::plan::make_plan(row(1000), hopper(nullptr));
  EXPECT_EQ(tree.passes[0].spec.name(), model.passes[0].spec.name());
  EXPECT_NE(tree.passes[0].launch_from.find("does not fit"), std::string::npos);
}

TEST(Tuning, TablesChooseTheSplitAndOnePassPastTheModel) {
  // The model runs fp32 rows up to 24576 points in one pass on Hopper
  // (max_row_length) and 32768 in two; a table that measured one pass to
  // pay puts 32768 in one (exchanged in halves), one that measured a split
  // splits 20000.
  EXPECT_EQ(bfly::plan::make_plan(row(20000), hopper(nullptr)).passes.size(), 1u);
  EXPECT_EQ(bfly::plan::make_plan(row(24576), hopper(nullptr)).passes.size(), 1u);
  EXPECT_EQ(bfly::plan::make_plan(row(25600), hopper(nullptr)).passes.size(), 2u);
  const TuningTable t = table_of({entry(32768)});
  EXPECT_EQ(bfly::plan::make_plan(row(32768), hopper(nullptr)).passes.size(), 2u);
  const bfly::plan::PlanTree tree = bfly::plan::make_plan(row(32768), hopper(&t));
  ASSERT_EQ(tree.passes.size(), 1u);
  EXPECT_LE(tree.passes[0].spec.local_bytes(), 232448u);
  EXPECT_TRUE(tree.passes[0].spec.local_halves);
  TuningEntry two = entry(20000);
  two.passes = {160, 125};
  const TuningTable split_20000 = table_of({two});
  EXPECT_EQ(bfly::plan::make_plan(row(20000), hopper(&split_20000)).passes.size(), 2u);
  // Other lengths keep the model's split: a neighbour's launch is no proof
  // that another length's stages fit one pass.
  EXPECT_EQ(bfly::plan::make_plan(row(28672), hopper(&t)).passes.size(), 2u);
  EXPECT_EQ(bfly::plan::make_plan(row(40000), hopper(&t)).passes.size(), 2u);
  // Doubles: one pass to 12800 points, then two.
  bfly::Problem d = row(12000);
  d.precision = bfly::Precision::Double;
  EXPECT_EQ(bfly::plan::make_plan(d, hopper(nullptr)).passes.size(), 1u);
  d.shape = {13440};
  EXPECT_EQ(bfly::plan::make_plan(d, hopper(nullptr)).passes.size(), 2u);
  // Off Hopper-sized blocks, the powers of two stay the limit.
  EXPECT_EQ(bfly::plan::make_plan(row(8192), bfly::plan::gpu_limits(49152, 1024)).passes.size(), 2u);
  // Past what local memory holds even in halves: the entry is ignored.
  const TuningTable too_long = table_of({entry(65536)});
  EXPECT_EQ(bfly::plan::make_plan(row(65536), hopper(&too_long)).passes.size(), 2u);
  // A split: taken when its lengths multiply to n and fit, else the model's.
  TuningEntry split = entry(65536);
  split.passes = {16, 64, 64};
  const TuningTable three = table_of({split});
  EXPECT_EQ(bfly::plan::make_plan(row(65536), hopper(&three)).passes.size(), 3u);
  split.passes = {16, 64};
  const TuningTable wrong = table_of({split});
  EXPECT_EQ(bfly::plan::make_plan(row(65536), hopper(&wrong)).passes.size(), 2u);
}

TEST(Tuning, RowsPastOneBlockTakeOnePassInClusters) {
  bfly::plan::DeviceLimits limits = hopper(nullptr);
  limits.max_cluster = 8;
  // Blocks of a sector's columns (4 fp32 points): the fewest that leave each
  // at most 8192 fp32 points, where two fit a multiprocessor.
  const std::vector<std::pair<std::int64_t, int>> single{{32768, 4}, {36864, 8}, {49152, 8}, {65536, 8}};
  for (const auto& [n, cluster] : single) {
    const bfly::plan::PlanTree tree = bfly::plan::make_plan(row(n), limits);
    ASSERT_EQ(tree.passes.size(), 1u) << n;
    const bfly::plan::KernelSpec& s = tree.passes[0].spec;
    EXPECT_EQ(s.cluster, cluster) << n;
    EXPECT_EQ(s.transforms_per_group, 4) << n;  // one 32-byte sector of columns a block
    EXPECT_EQ(s.length * s.cluster_width(), n) << n;
    EXPECT_EQ(s.in_point_stride, s.cluster_width()) << n;
    EXPECT_EQ(s.mapping, bfly::plan::Mapping::ColumnMajor) << n;
    EXPECT_EQ(s.dims[0].extent, s.cluster_width()) << n;  // block k of a cluster: columns 4k .. 4k + 3
    EXPECT_FALSE(s.has_pass_twiddles()) << n;
    EXPECT_TRUE(s.reads_pass_twiddles()) << n;
    EXPECT_EQ(s.pass_twiddle_points(), n) << n;
    EXPECT_LE(s.group_size(), 512) << n;
    EXPECT_LE(s.local_bytes(), limits.local_memory_bytes) << n;
    EXPECT_EQ(tree.passes[0].groups(), 64 * cluster) << n;
    EXPECT_NE(s.name().find("_cl" + std::to_string(cluster)), std::string::npos);
  }
  const bfly::plan::KernelSpec f64 = bfly::plan::make_plan(row(32768, Precision::Double), limits).passes[0].spec;
  EXPECT_EQ(f64.cluster, 8);
  EXPECT_EQ(f64.transforms_per_group, 2);  // two fp64 points a sector
  EXPECT_EQ(f64.length, 2048);
  EXPECT_EQ(f64.min_groups_per_unit, 2);
  // Blocks too large for two a multiprocessor (131072: 128 KiB; fp64
  // 65536), or whose points a thread would crowd the registers (40000:
  // radix 25, 50 points): two passes.
  for (const std::int64_t n : {40000, 98304, 131072})
    EXPECT_EQ(bfly::plan::make_plan(row(n), limits).passes.size(), 2u) << n;
  EXPECT_EQ(bfly::plan::make_plan(row(65536, Precision::Double), limits).passes.size(), 2u);
  // In place: one pass still (a cluster holds whole rows).
  bfly::Problem in_place = row(65536);
  in_place.placement = bfly::Placement::InPlace;
  EXPECT_EQ(bfly::plan::make_plan(in_place, limits).passes.size(), 1u);
  // Too long for 8 blocks, or no clusters: the Stockham passes.
  EXPECT_EQ(bfly::plan::make_plan(row(1 << 18), limits).passes.size(), 2u);
  EXPECT_EQ(bfly::plan::make_plan(row(65536), hopper(nullptr)).passes.size(), 2u);
  // Rows within one block keep one plain pass.
  EXPECT_EQ(bfly::plan::make_plan(row(16384), limits).passes[0].spec.cluster, 1);
  // A table's own split for the length stands.
  TuningEntry split = entry(65536);
  split.passes = {16, 64, 64};
  const TuningTable split_table = table_of({split});
  bfly::plan::DeviceLimits tabled = hopper(&split_table);
  tabled.max_cluster = 8;
  EXPECT_EQ(bfly::plan::make_plan(row(65536), tabled).passes.size(), 3u);
  // The override's max_pass_length asks for several passes: no clusters.
  const bfly::plan::DeviceLimits forced = bfly::plan::with_override(limits, "max_pass_length=16");
  EXPECT_EQ(forced.max_cluster, 1);
  EXPECT_GE(bfly::plan::make_plan(row(32), forced).passes.size(), 2u);
}

TEST(Tuning, ShippedTablesParseAndNameTheirDevice) {
  const std::vector<TuningTable> shipped = bfly::detail::shipped_tuning_tables();
  for (const TuningTable& t : shipped) {
    SCOPED_TRACE(t.source);
    EXPECT_FALSE(t.device.empty());
    EXPECT_EQ(t.compute_capability, "9.0");
    EXPECT_EQ(t.version, bfly::version()) << "regenerate the table with bfly tune after a version change";
    EXPECT_FALSE(t.entries.empty());
    // Every entry plans: the launch fits the device it was measured on.
    for (const TuningEntry& e : t.entries) {
      const bfly::plan::PlanTree tree = bfly::plan::make_plan(row(e.length, e.precision), hopper(&t));
      if (e.passes.empty()) {
        ASSERT_EQ(tree.passes.size(), 1u) << e.length;
        EXPECT_EQ(tree.passes[0].launch_from, "table") << e.length;
      } else {
        EXPECT_EQ(tree.passes.size(), e.passes.size()) << e.length;
      }
    }
  }
}

}  // namespace
