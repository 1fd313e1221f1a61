// Passes for one axis: single pass when one group can hold the axis, else
// Stockham passes (four-step generalised to k steps): N = L1 * L2 * ... * Lk,
// each pass a batch of Lj-point sub-transforms read with stride N/Lj. The
// twiddles between steps are fused into the next pass's loads and the
// transposition is folded into each pass's output indexing (Stockham order),
// so there is no transpose or digit-reversal kernel.
#include <algorithm>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

namespace bfly::plan {
namespace {

int fewest_passes(std::int64_t n, std::int64_t max_length, std::vector<std::int64_t>* lengths) {
  for (int k = 2; k <= 4; ++k) {
    auto split = split_length(n, k, max_length);
    if (!split.empty()) {
      if (lengths) *lengths = split;
      return k;
    }
  }
  return 0;
}

}  // namespace

bool Step::may_write_source(const Problem& problem) const {
  if (kind != Kind::Fft) return false;
  if (cluster > 1) return true;  // a cluster holds whole rows: every load precedes its barrier
  if (plane) return true;        // a group holds whole planes: every load precedes its first barrier
  if (chirp == Chirp::Fused || (chirp == Chirp::Rader && prime == 0) || (packed && padded == 0))
    return true;                          // one group holds the whole axis
  if (chirp == Chirp::Turn) return true;  // its sub-transforms' points go back where they came from
  return chirp == Chirp::None && length == problem.shape[dim - 1];
}

// The cost model: one pass when the axis fits one group; else the fewest
// passes whose lengths stay within the preferred length, as long as that is
// at most three passes (or no more than the fewest possible); e.g. on a CPU
// 2^20 takes three passes of <= 256 points, not two of 1024 (measurements in
// plan/device_limits.cpp).
// A tuned split is taken where its passes multiply to n and each fits one
// group (one pass: its points fit local memory in halves).
static bool fits_split(const std::vector<std::int64_t>& passes, std::int64_t n, const DeviceLimits& limits) {
  if (passes.empty()) return n <= limits.max_tuned_row_length;
  std::int64_t product = 1;
  for (std::int64_t length : passes) {
    if (length < 2 || length > limits.max_pass_length || !is_supported_length(length)) return false;
    product *= length;
  }
  return product == n;
}

std::vector<std::int64_t> axis_pass_lengths(std::int64_t n, const DeviceLimits& limits, bool strided, RowAxis row) {
  if (row.rows && !strided) {
    // Only the table's own lengths: a neighbour's one pass on other stages
    // may not fit the registers (the NVRTC sweep saw 28672 after 32768 spill).
    if (limits.tuning)
      if (const TuningEntry* tuned = limits.tuning->exact(row.precision, n);
          tuned && fits_split(tuned->passes, n, limits))
        return tuned->passes.empty() ? std::vector<std::int64_t>{n} : tuned->passes;
    if (n <= limits.max_row_length) return {n};
  }
  if (n <= limits.max_single_pass_length && (!strided || n <= limits.max_strided_length)) return {n};
  if (strided && n > limits.max_strided_length) {
    // Shorter passes, where n splits into them.
    DeviceLimits shorter = limits;
    shorter.max_single_pass_length = shorter.max_pass_length =
        std::min(limits.max_pass_length, limits.max_strided_length);
    shorter.preferred_pass_length = std::min(limits.preferred_pass_length, shorter.max_pass_length);
    if (fewest_passes(n, shorter.max_pass_length, nullptr) != 0) return axis_pass_lengths(n, shorter, false);
  }
  if (n <= limits.max_single_pass_length) return {n};
  std::vector<std::int64_t> lengths;
  const int fewest = fewest_passes(n, limits.max_pass_length, &lengths);
  if (fewest == 0)
    throw Error(ErrorCode::Unsupported, "length " + std::to_string(n) + " does not split into 4 passes of at most " +
                                            std::to_string(limits.max_pass_length));
  std::vector<std::int64_t> preferred;
  const int k = fewest_passes(n, limits.preferred_pass_length, &preferred);
  if (k != 0 && k <= std::max(fewest, 3)) return preferred;
  return lengths;
}

// Blocks of a cluster for a contiguous row of n points past the one-block
// rows (DeviceLimits::max_row_length). Each block takes a sector's columns
// (M = 32 bytes of points), so the row is n / W-point FFTs of W = C * M
// columns: the fewest blocks that leave each at most cluster_chunk_points
// (64 KiB), where two such blocks run on a multiprocessor at once (their
// points a thread leave the registers room: complete_model); 1 where none
// does. Larger blocks, or one a multiprocessor, lost to two passes: nothing
// overlaps one block's loads, FFTs and stores (H100, fp32 40000, 81920,
// 98304: 0.59-0.94x; fp64 20480-65536: 0.71-0.92x; docs/PERF.md).
int cluster_size(std::int64_t n, Precision precision, const DeviceLimits& limits) {
  if (limits.max_cluster < 2 || n <= limits.max_row_length) return 1;
  if (precision == Precision::Double && !limits.cluster_double) return 1;
  const std::int64_t point = precision == Precision::Single ? 8 : 16, sector = 32 / point;
  for (int c = 2; c <= limits.max_cluster; c *= 2) {
    const std::int64_t width = c * sector, length = n / width;
    if (n % width != 0 || length < 2 || !is_supported_length(length)) continue;
    if (sector * length > limits.cluster_chunk_points) continue;
    // The block as make_pass and complete_model will have it.
    KernelSpec block;
    block.precision = precision;
    block.length = length;
    block.cluster = c;
    block.in_point_stride = width;
    block.dims = {{width, 1, length}, {1, n, n}};
    complete_spec(block, limits);
    if (block.local_bytes() > limits.local_memory_bytes) continue;
    if (limits.registers_per_unit > 0 && block.min_groups_per_unit < 2) continue;
    return c;
  }
  return 1;
}

bool cache_aliased(const Problem& problem, std::int64_t stride, const DeviceLimits& limits) {
  const std::int64_t bytes = stride * static_cast<std::int64_t>(problem.element_bytes());
  return stride != 1 && limits.cache_alias_bytes > 0 && bytes % limits.cache_alias_bytes == 0;
}

bool stockham_length(std::int64_t n, const DeviceLimits& limits) {
  return is_supported_length(n) && largest_prime_factor(n) <= limits.max_pass_length;
}

namespace {

// One axis of n points, as the rules below see it.
struct AxisCase {
  const Problem& problem;
  int dim;
  const DeviceLimits& limits;
  const std::vector<int>& order;
  std::int64_t n;
};

// Where a Stockham axis is read, and what a tuning table says of it.
struct StockhamContext {
  RowAxis row;
  bool aliased = false;
  const TuningEntry* tuned = nullptr;
  bool table_split = false;
};

StockhamContext stockham_context(const AxisCase& c) {
  // Strided by a multiple of the cache's aliasing period where this axis is
  // read (the input's layout, or the workspace's order in the row-column strategy).
  std::int64_t stride = 1;
  if (c.order.empty()) {
    stride = c.problem.input_layout().strides[c.dim - 1];
  } else {
    for (auto d = c.order.rbegin(); *d != c.dim; ++d) stride *= *d == 0 ? c.problem.batch : c.problem.shape[*d - 1];
  }
  StockhamContext x;
  // Contiguous complex rows may take longer single passes (device_limits.cpp).
  x.row = RowAxis{stride == 1 && c.problem.kind == Kind::C2C, c.problem.precision};
  x.aliased = cache_aliased(c.problem, stride, c.limits);  // never for rows (stride 1)
  // A table's own split for this length stands (it was measured, or asked for).
  x.tuned = x.row.rows && c.limits.tuning ? c.limits.tuning->exact(x.row.precision, c.n) : nullptr;
  x.table_split = x.tuned && !x.tuned->passes.empty() && fits_split(x.tuned->passes, c.n, c.limits) && !x.aliased;
  return x;
}

// fp64 on a GPU: a prime axis of 29 or 31 points takes Rader's kernel (a
// 28- or 30-point convolution of small radices, rows as one block), where
// the codelet holds a row's 31 points in a thread's 250 registers (H100,
// 2^24 points: 31 0.305 vs 0.408 ms, 29 0.215 vs 0.392; docs/PERF.md
// "radices 29 and 31"). fp32's codelets run at the copy floor.
std::vector<Step> wide_prime_by_rader(const AxisCase& c) {
  if (!(c.limits.is_gpu && c.problem.precision == Precision::Double && wide_codelet(c.n) &&
        prime_factors(c.n).size() == 1))
    return {};
  return rader_steps(c.problem, c.dim, c.limits, c.order);
}

// Lengths the codelets cannot factor: Rader for a prime, Rader on one prime
// factor, else Bluestein.
std::vector<Step> by_rader(const AxisCase& c) {
  return stockham_length(c.n, c.limits) ? std::vector<Step>{} : rader_steps(c.problem, c.dim, c.limits, c.order);
}
std::vector<Step> by_rader_factor(const AxisCase& c) {
  return stockham_length(c.n, c.limits) ? std::vector<Step>{} : rader_factor_steps(c.problem, c.dim, c.limits, c.order);
}
std::vector<Step> by_bluestein(const AxisCase& c) {
  return stockham_length(c.n, c.limits) ? std::vector<Step>{} : bluestein_steps(c.problem, c.dim, c.limits, c.order);
}

// One pass in clusters: the first of the split [n / W, W], the second
// fused into it (KernelSpec::cluster).
std::vector<Step> in_clusters(const AxisCase& c) {
  if (!stockham_length(c.n, c.limits)) return {};
  const StockhamContext x = stockham_context(c);
  const int cluster = x.row.rows && !x.table_split ? cluster_size(c.n, c.problem.precision, c.limits) : 1;
  if (cluster <= 1) return {};
  const std::int64_t n = c.n;
  const std::int64_t width =
      cluster * std::max<std::int64_t>(1, 32 / static_cast<std::int64_t>(c.problem.element_bytes()));
  std::vector<Step> steps = stockham_steps(c.dim, {n / width, width}, c.order);
  steps.pop_back();
  steps[0].cluster = cluster;
  steps[0].what = "axis " + std::to_string(c.dim - 1) + ", " + std::to_string(n) + " points, one pass in clusters of " +
                  std::to_string(cluster) + " blocks: " + std::to_string(n / width) + "-point FFTs of " +
                  std::to_string(width) + " columns, then " + std::to_string(width) + "-point DFTs across the blocks";
  return steps;
}

// Stockham passes of the codelets: one where one group holds the axis,
// else the fewest that fit (a table's own split where it has one).
std::vector<Step> in_stockham_passes(const AxisCase& c) {
  if (!stockham_length(c.n, c.limits)) return {};
  const StockhamContext x = stockham_context(c);
  std::vector<std::int64_t> lengths = axis_pass_lengths(c.n, c.limits, x.aliased, x.row);
  // bfly plan says where the split came from.
  const bool split_from_table = x.tuned && fits_split(x.tuned->passes, c.n, c.limits) && !x.aliased;
  // fp64 on a GPU: a pass of 29- or 31-point butterflies goes first, where
  // it has no pass twiddles to hold beside them (62000 = 248 x 250: 248 =
  // 31 x 8 as the second pass spilled 8 bytes at 254 registers, NVRTC sm_90).
  if (c.limits.is_gpu && c.problem.precision == Precision::Double && !split_from_table)
    std::stable_partition(lengths.begin(), lengths.end(), wide_codelet);
  std::vector<Step> steps = stockham_steps(c.dim, lengths, c.order);
  for (std::size_t j = 0; j < steps.size(); ++j)
    steps[j].what =
        "axis " + std::to_string(c.dim - 1) + ", " + std::to_string(c.n) + " points" +
        (steps.size() > 1 ? ", pass " + std::to_string(j + 1) + " of " + std::to_string(steps.size()) : "") +
        (!split_from_table   ? ""
         : steps.size() == 1 ? " (one pass: the table)"
                             : " (split from the table)");
  return steps;
}

// The per-axis choice: the first rule that gives steps. A new way to
// transform an axis is a new row (and its solver file).
struct AxisRule {
  const char* name;
  std::vector<Step> (*steps)(const AxisCase&);
};
const AxisRule kAxisRules[] = {
    {"wide prime by Rader (fp64, GPU)", wide_prime_by_rader},
    {"Rader", by_rader},
    {"Rader on a prime factor", by_rader_factor},
    {"Bluestein", by_bluestein},
    {"clusters", in_clusters},
    {"Stockham passes", in_stockham_passes},
};

}  // namespace

std::vector<Step> axis_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                             const std::vector<int>& order) {
  const AxisCase c{problem, dim, limits, order, problem.shape[dim - 1]};
  for (const AxisRule& rule : kAxisRules)
    if (std::vector<Step> steps = rule.steps(c); !steps.empty()) return steps;
  throw Error(ErrorCode::Unsupported, "no way to transform an axis of " + std::to_string(c.n) + " points");
}

std::vector<Step> stockham_steps(int dim, const std::vector<std::int64_t>& lengths, const std::vector<int>& order) {
  std::vector<Step> steps;
  std::int64_t stride_product = 1;
  for (std::int64_t length : lengths) {
    Step step;
    step.dim = dim;
    step.length = length;
    step.stride_product = stride_product;
    step.order = order;
    steps.push_back(step);
    stride_product *= length;
  }
  return steps;
}

}  // namespace bfly::plan
