#include "plan/row_threads.hpp"

#include <algorithm>

#include "plan/launch_model.hpp"

namespace bfly::plan {

bool points_fit_registers(const KernelSpec& spec, int registers_per_unit) {
  const int words = spec.precision == Precision::Double ? 2 : 1;
  const std::int64_t warps = (spec.threads_per_transform + 31) / 32 * 32;  // registers are granted per warp
  const std::int64_t leaves = std::min<std::int64_t>(255, registers_per_unit / warps);
  return 2 * words * spec.points_per_thread() + 40 <= leaves;
}

int column_registers_left(const KernelSpec& spec, int registers_per_unit) {
  // (What the compiler leaves a thread under __launch_bounds__: registers
  // go to warps four at a time, eight a thread at a time.)
  const std::int64_t group = std::int64_t{spec.threads_per_transform} * spec.transforms_per_group;
  return static_cast<int>(std::min<std::int64_t>(255, registers_per_unit / ((group + 127) / 128 * 128) / 8 * 8));
}

int column_registers_needed(const KernelSpec& spec) {
  const int words = spec.precision == Precision::Double ? 2 : 1;
  return 3 * words * spec.points_per_thread() + 4;
}

bool column_points_fit_registers(const KernelSpec& spec, int registers_per_unit) {
  return column_registers_needed(spec) <= column_registers_left(spec, registers_per_unit);
}

// (Halving can leave a stage one thread's worth of slots short: 12288 at
// 768 threads, 24 points each; at 1024, 16. The fewest threads among equals,
// since the others would idle.)
int fewest_points_threads(KernelSpec s, std::int64_t low, std::int64_t high, int registers_per_unit) {
  int best = static_cast<int>(registers_per_unit > 0 ? low - 1 : high), best_points = 1 << 30;
  for (std::int64_t t = std::max<std::int64_t>(1, low); t <= high; ++t) {
    s.threads_per_transform = static_cast<int>(t);
    if (registers_per_unit > 0 && !points_fit_registers(s, registers_per_unit)) continue;
    if (s.points_per_thread() < best_points) {
      best_points = s.points_per_thread();
      best = static_cast<int>(t);
    }
  }
  return best;
}

bool choose_long_row_threads(KernelSpec& spec, const DeviceLimits& limits) {
  if (!limits.is_gpu || spec.transforms_per_group != 1) return false;
  const int before = spec.threads_per_transform;
  if (spec.precision == Precision::Single && spec.length > 4096 && spec.points_per_thread() > 16) {
    // A long row: about 512 threads with up to 128 registers each hold its
    // points without spilling, where 1024 threads have 64 each (NVRTC,
    // sm_90: 20000 points at 1000 threads spilled 128 bytes, at 500 threads
    // of 40-50 points none); among those, the count that leaves the fewest
    // points a thread.
    const int most = static_cast<int>(std::min<std::int64_t>({limits.max_group_size, 512, spec.length / 2}));
    spec.threads_per_transform = fewest_points_threads(spec, most / 2 + 1, most);
  }
  const int wide =
      static_cast<int>(std::min<std::int64_t>({limits.max_group_size, limits.long_row_threads, spec.length / 2}));
  if (spec.precision == Precision::Single && spec.length > 4096 && wide > 512 && wide > spec.threads_per_transform) {
    // DeviceLimits::long_row_threads past 512: the fewest points a thread
    // up to that many threads, where the points leave the registers room.
    KernelSpec probe = spec;
    probe.threads_per_transform =
        fewest_points_threads(spec, spec.threads_per_transform + 1, wide, limits.registers_per_unit);
    if (probe.points_per_thread() < spec.points_per_thread()) spec.threads_per_transform = probe.threads_per_transform;
  }
  if (spec.precision == Precision::Double && spec.points_per_thread() > 16 && spec.threads_per_transform > 256) {
    // Doubles take two registers: at most 256 threads, which may keep 255
    // registers each (NVRTC, sm_90: 6720 = 15 x 8 x 8 x 7 at 448 threads of
    // 21 points spilled 16 bytes, at 840 of 15 184 bytes).
    spec.threads_per_transform = fewest_points_threads(spec, 129, 256);
  }
  return spec.threads_per_transform != before;
}

// The most groups a multiprocessor whose register share still holds
// `need` registers a thread, within the threads and local memory it has.
// The share: a multiprocessor's registers are four banks, one a warp
// scheduler, each warp's from one bank in steps of 8 a thread (4 groups of
// 8 warps: 64; 6 of 8: 40, not 42; 3 of 13: 48), as NVRTC then allots.
namespace {

int groups_leaving(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t need) {
  const std::int64_t warps = (spec.group_size() + 31) / 32;
  const std::int64_t fit = groups_local_memory_holds(spec, limits);
  const std::int64_t most = std::min<std::int64_t>({limits.threads_per_unit / (32 * warps), fit, 32});
  const std::int64_t bank = limits.registers_per_unit / 4;
  int groups = 1;
  for (std::int64_t g = 2; g <= most; ++g) {
    const std::int64_t warps_a_bank = (g * warps + 3) / 4;
    if (std::min<std::int64_t>(255, bank / (32 * warps_a_bank) / 8 * 8) >= need) groups = static_cast<int>(g);
  }
  return groups;
}

}  // namespace

// A one-pass row's groups a multiprocessor (DeviceLimits::row_occupancy):
// the most whose register share still holds 2 registers a point's word
// and 16 more (groups_leaving).
// register_estimate asks for 2-3 times what NVRTC uses on such rows (3375
// at 225 threads: 145 against 62-78). Fitted to `bfly tune --log` over 38
// lengths 648-24500 (H200, fp32, 2026-11-26; docs/perf/2026-11-26-row-
// occupancy): at this share the best time was within 3% in 20 of 22
// occupancy sweeps; below it (2352's 14 points at 40 registers, 6300's 27
// at 64) 1.13-2.5x slower; above it, one group fewer, 1.03-1.38x slower
// (9375: 1.32x at 1 group against 2). A few spilled words cost less than
// the occupancy gains (4704 at 48 registers spilling 28 bytes a thread:
// 1.07x faster than at 64). Rows of several transforms a group kept to
// the estimate: short, they ran alike at every occupancy.
int row_groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits) {
  const int words = spec.precision == Precision::Double ? 2 : 1;
  return groups_leaving(spec, limits, 2 * words * spec.points_per_thread() + 16);
}

// A one-kernel convolution (Bluestein's FFT x spectrum x inverse FFT) keeps
// its points through two FFTs, the chirp's index and the spectrum's reads:
// about twice a row's registers. NVRTC, sm_90, 2304-point convolutions
// (1025 R2C, 1031 C2C): 24 points a thread at 144 threads fit 128 registers
// (3 groups) with no spills and spilled 120 bytes at 96 (4 groups); 16
// points at 192 threads fit 96 (3 groups) and spilled 44 bytes at 80. The
// estimate (register_estimate, +40 for the convolution) asked 2 groups and
// 1, where the compiler then took 167 and 146.
int convolution_groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits) {
  const int words = spec.precision == Precision::Double ? 2 : 1;
  // (Two-level twiddles hold their tables' indices too, as the estimate
  // says: 997's 2048-point convolution, 16 points a thread, spilled 164
  // bytes at 96 registers and some at 128.)
  return groups_leaving(spec, limits,
                        4 * words * spec.points_per_thread() + 32 + (spec.stage_twiddle_bits > 0 ? 48 : 0));
}

// A one-kernel convolution holds its points through two FFTs: a thread
// per butterfly of its stage with the most (every stage whole butterflies
// a thread, the fewest points a thread), where the group allows: always
// with convolution_threads; on a GPU, Bluestein's where that cuts the
// busiest thread's points by a quarter or more. H200, fp32, with the
// convolution's occupancy rule (above): 2304 = 16 x 12 x 12 at
// 192 threads, 16 points, not 144 of 24: R2C 1025 and 1031 1.15x, C2C
// 1031 1.01x; 3072 = 16 x 16 x 12 at 256, 16 not 24: R2C 1383 and 1511
// 1.37-1.40x, C2C 1511 1.17x. Where the points stay (2048 = 16 x 16 x 8:
// 997 0.84x) or fall by less (896 = 14 x 8 x 8, 16 -> 14: 389 0.89x) the
// idle threads cost more; Rader's convolutions lost 0.83-0.93x at 4 of 5
// lengths.
namespace {

// A thread a butterfly of the stage with the most butterflies, where the
// group allows (at most `cap` threads) and (unless `always`) that cuts the
// busiest thread's points by a quarter or more, from at least `min_points`;
// else `threads`. With `fewest`, where that stage's butterflies pass `cap`
// (or, with `keep_groups`, cost groups; below): the fewest threads up to
// `cap` at which the busiest thread holds the fewest points, a narrow
// stage's thread running two butterflies where they hold no more points
// than the widest's one (1470 = 15 x 14 x 7: 105 threads of 15 points,
// where a butterfly a thread of the radix-7 stage takes 210, past twice the
// model's 98 of 28), among those whose points fit the registers their
// threads leave (points_fit_registers: NVRTC, sm_90, fp64 launches of 13-16
// points at 715-975 threads spilled 16-336 bytes; those it keeps, 188-650
// threads, none).
// With `keep_groups` (DeviceLimits::row_occupancy on), only launches that
// keep the groups a multiprocessor the model's threads have, or 4 (as the
// launch then takes them: row_groups_per_unit, after choose_long_row_
// threads). H200, 2^26 points, row_busiest 2 against 1 (docs/perf/
// 2026-11-27-h200-issue39-rules): where the groups held, fp32 1.02-1.12x at
// 7 of 7 lengths (1470 1.12x, 10976 1.08x), fp64 0.96-1.11x; where they
// fell (3 -> 2, 2 -> 1, then staged) 0.88-0.94x at 6 of 9 (6615 fp32 0.88x,
// fp64 4800 0.90x), 1.02-1.11x only where the model's launch spilled
// (10290 fp32: 24 bytes). Among 2-3 groups one fewer is a third of the
// warps or more; from 4 the points saved paid (row_busiest 1 against 0,
// docs/perf/2026-11-27-h200-issue39-ab2: 1260 fp32 12 -> 8 groups 1.02x,
// 1792 7 -> 5 1.08x; 6860 2 -> 1 0.98x, fp64 2250 4 -> 3 0.98x).
std::int64_t busiest_stage_threads(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t threads,
                                   bool always, std::int64_t cap, std::int64_t min_points = 0, bool fewest = false,
                                   bool keep_groups = false) {
  // (The busiest thread's points at t threads: the spec's own count.)
  KernelSpec probe = spec;
  auto busiest = [&](std::int64_t t) {
    probe.threads_per_transform = static_cast<int>(t);
    return std::int64_t{probe.points_per_thread()};
  };
  const bool occupancy = keep_groups && limits.row_occupancy && limits.registers_per_unit > 0;
  auto groups = [&](std::int64_t t) {
    KernelSpec g = spec;
    g.threads_per_transform = static_cast<int>(t);
    g.transforms_per_group = 1;
    choose_long_row_threads(g, limits);
    return row_groups_per_unit(g, limits);
  };
  const int floor_groups = occupancy ? std::min(groups(threads), 4) : 0;
  auto holds = [&](std::int64_t t) { return !occupancy || groups(t) >= floor_groups; };
  std::int64_t most = threads;
  for (int r : spec.radices) most = std::max<std::int64_t>(most, spec.length / r);
  if (most > cap || (most <= limits.max_group_size && !holds(most))) {
    if (!fewest) return threads;
    most = threads;
    std::int64_t least = busiest(threads);
    for (std::int64_t t = threads + 1; t <= std::min<std::int64_t>(cap, limits.max_group_size); ++t)
      if (const std::int64_t points = busiest(t);
          points < least &&
          (limits.registers_per_unit <= 0 || points_fit_registers(probe, limits.registers_per_unit)) && holds(t))
        least = points, most = t;
  }
  if (busiest(threads) < min_points) return threads;
  return most <= limits.max_group_size && (always || 4 * busiest(most) <= 3 * busiest(threads)) ? most : threads;
}

}  // namespace

std::int64_t convolution_threads(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t threads) {
  if (spec.convolve && spec.radices.size() > 1 && (limits.convolution_threads || (limits.is_gpu && spec.bluestein())))
    return busiest_stage_threads(spec, limits, threads, limits.convolution_threads, limits.max_group_size);
  return threads;
}

// Only from row_busiest_points (20) a thread: H200, 2^26 points, 20 random
// lengths 1024-9000 the rule changes, knob against model in one run
// (docs/perf/2026-11-27-h200-issue39-ab2): where the model's thread held 20
// or more points, fp32 1.054x geomean (2940 = 15 x 14 x 14, 28 -> 15 points:
// 1.29x; 2688 1.13x; 9000 and 6860 0.94x and 0.98x), fp64 1.07x (2940 1.29x,
// 2688 1.17x; 2250 0.98x); where it held 12-18 the idle threads of the
// stages with fewer butterflies cost more than the points saved (3888 = 12 x
// 9 x 6 x 6 at 648 threads, 18 -> 12: 0.85x fp32; 2205 = 9 x 7 x 7 x 5,
// 14 -> 9: 0.89x and 0.94x; 5376 0.96x both).
std::int64_t row_busiest_threads(const KernelSpec& spec, const DeviceLimits& limits, std::int64_t threads) {
  if (limits.row_busiest && limits.is_gpu && !spec.convolve && spec.stride_product == 1 && spec.radices.size() > 1 &&
      spec.length >= limits.row_busiest_length)
    // (At most twice the threads: 3675 = 15 x 7 x 7 x 5 would take 735 for
    // 245, one group a multiprocessor for four.)
    return busiest_stage_threads(spec, limits, threads, false, 2 * threads, limits.row_busiest_points,
                                 limits.row_busiest == 2, limits.row_busiest == 2);
  return threads;
}

}  // namespace bfly::plan
