#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"
#include "problem/text.hpp"

namespace bfly::plan {

const char* to_string(Slot s) {
  switch (s) {
    case Slot::Input: return "input";
    case Slot::Output: return "output";
    case Slot::Work0: return "work0";
    case Slot::Work1: return "work1";
  }
  return "?";
}

std::int64_t Pass::groups() const {
  return (transforms + spec.transforms_per_group - 1) / spec.transforms_per_group;
}

namespace {

// Sorts the dims before the last (the batch dim stays outermost) by `key`,
// drops 1-point dims and merges neighbours that step as one, keeping track of
// the twiddle dim and the chirp dim (never merged: their indices enter the
// twiddle and chirp exponents).
void normalise_dims(KernelSpec& spec, bool by_input) {
  struct D {
    IndexDim dim;
    bool twiddle;
    bool chirp;
    bool kept() const { return twiddle || chirp; }
  };
  std::vector<D> ds;
  for (std::size_t d = 0; d < spec.dims.size(); ++d)
    ds.push_back({spec.dims[d], static_cast<int>(d) == spec.twiddle_dim, static_cast<int>(d) == spec.axis_dim});
  D batch = ds.back();
  ds.pop_back();
  ds.erase(std::remove_if(ds.begin(), ds.end(), [](const D& d) { return d.dim.extent == 1 && !d.kept(); }), ds.end());
  std::stable_sort(ds.begin(), ds.end(), [&](const D& a, const D& b) {
    return by_input ? a.dim.in_stride < b.dim.in_stride : a.dim.out_stride < b.dim.out_stride;
  });
  ds.push_back(batch);
  std::vector<D> merged;
  for (const D& d : ds) {
    if (!merged.empty()) {
      D& prev = merged.back();
      const bool steps_on = d.dim.in_stride == prev.dim.in_stride * prev.dim.extent &&
                            d.dim.out_stride == prev.dim.out_stride * prev.dim.extent &&
                            d.dim.caller_in == prev.dim.caller_in * prev.dim.extent &&
                            d.dim.caller_out == prev.dim.caller_out * prev.dim.extent;
      if (!d.kept() && !prev.kept() && steps_on) {
        // The merged dim keeps the inner strides.
        prev.dim.extent *= d.dim.extent;
        continue;
      }
    }
    merged.push_back(d);
  }
  spec.dims.clear();
  spec.twiddle_dim = -1;
  spec.axis_dim = -1;
  for (const D& d : merged) {
    if (d.twiddle) spec.twiddle_dim = static_cast<int>(spec.dims.size());
    if (d.chirp) spec.axis_dim = static_cast<int>(spec.dims.size());
    spec.dims.push_back(d.dim);
  }
}

std::int64_t largest_divisor_at_most(std::int64_t n, std::int64_t limit) {
  for (std::int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

// Registers a thread of `spec` needs for its points (2 each, plus about as
// many again for the butterfly's temporaries) and indexing. The weights are
// what the NVRTC sweep (tests/unit/test_cuda_codegen.cpp) needs to see no
// kernel spill.
int register_estimate(const KernelSpec& spec) {
  // Codelets with odd factors (6, 7, 9, 10, ..., 25) keep ~5 temporaries a
  // point live; powers of two ~2. A double takes two registers.
  const int words = spec.precision == Precision::Double ? 2 : 1;
  int temporaries = 0;
  for (const std::vector<int>* radices : {&spec.radices, &spec.plane_radices})
    for (int r : *radices) temporaries = std::max(temporaries, ((r & (r - 1)) == 0 ? 2 : 5) * r * words);
  // A thread has at most 255 (the estimate overshoots for the longest
  // strided kernels, which the sweep sees compile without spills).
  // Bluestein's fused kernels keep the chirp index, the tables and the
  // second FFT's state: about 40 more (NVRTC sweep: 1024 points spilled
  // at 128 registers, fit at 170).
  // Dividing the transform index by an extent that is not a power of two
  // (a magic-number multiply) takes a few more where a thread holds many
  // points: the NVRTC sweep saw the 1024-point columns (64 points a
  // thread) of a 513-wide half spectrum spill at 5 groups. So do a real
  // axis's mirror loads and split stores (a second point and a twiddle:
  // the 512-point split spilled at 72 and at 80 registers, not at 102).
  // An exchange in halves keeps one real a point waiting.
  using K = KernelSpec;
  const bool real_extra = spec.real_load == K::RealLoad::Hermitian || spec.real_load == K::RealLoad::Mirror ||
                          spec.real_store == K::RealStore::Split || spec.real_store == K::RealStore::SplitPaired;
  bool odd_extents = false;
  if (spec.points_per_thread() >= 32)
    for (std::size_t d = 0; d + 1 < spec.dims.size(); ++d)
      odd_extents = odd_extents || (spec.dims[d].extent & (spec.dims[d].extent - 1)) != 0;
  const int registers = 2 * words * spec.points_per_thread() + temporaries + 40 + (spec.stage_twiddle_bits > 0 ? 48 : 0) +
                           (spec.wide ? 16 : 0) + (spec.reads_pass_twiddles() ? 24 : 0) + (spec.convolve ? 40 : 0) +
                           (odd_extents ? 8 : 0) + (real_extra ? 16 : 0) +
                           (spec.local_halves ? words * spec.points_per_thread() : 0);
  return std::min(255, registers);
}

std::int64_t warps_of(std::int64_t threads) { return (threads + 31) / 32 * 32; }  // registers are granted per warp

// As many groups per multiprocessor as the estimated registers allow (the
// compiler is asked to fit them: __launch_bounds__).
int groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits) {
  const int group = static_cast<int>(warps_of(spec.group_size()));
  const int groups = std::min(limits.threads_per_unit / group, limits.registers_per_unit / (group * register_estimate(spec)));
  return std::max(1, groups);
}

// The thread count in [low, high] that leaves each thread the fewest points
// (the widest stage's slots times its radix, over every stage), the fewest
// threads among equals (the others would idle): halving can leave a stage
// one thread's worth of slots short (12288 at 768 threads: 24 points each;
// at 1024: 16).
int fewest_points_threads(KernelSpec s, std::int64_t low, std::int64_t high) {
  int best = static_cast<int>(high), best_points = 1 << 30;
  for (std::int64_t t = std::max<std::int64_t>(1, low); t <= high; ++t) {
    s.threads_per_transform = static_cast<int>(t);
    if (s.points_per_thread() < best_points) {
      best_points = s.points_per_thread();
      best = static_cast<int>(t);
    }
  }
  return best;
}

// Whether the tuning table's launch choices apply to `spec`: a one-pass
// kernel of contiguous points of a complex transform (what `bfly tune` times).
bool tunable(const KernelSpec& spec) {
  return !spec.identity && !spec.bluestein() && !spec.rader() && !spec.convolve && !spec.real() && spec.mapping == Mapping::TransformMajor &&
         spec.stride_product == 1 && spec.in_point_stride == 1 && spec.out_point_stride == 1 && spec.length > 1;
}

// Fits `s` to the device after a choice: fewer transforms a group while the
// group or its local array is too large; halves where whole points do not
// fit. False where even that does not fit.
bool fit_group(KernelSpec& s, const DeviceLimits& limits) {
  while (s.transforms_per_group > 1 && s.group_size() > limits.max_group_size) s.transforms_per_group /= 2;
  while (s.transforms_per_group > 1 && s.local_bytes() > limits.local_memory_bytes) s.transforms_per_group /= 2;
  if (s.local_bytes() > limits.local_memory_bytes && !s.local_halves && s.halves_allowed()) s.local_halves = true;
  return s.group_size() <= limits.max_group_size && s.local_bytes() <= limits.local_memory_bytes;
}

// Staging (KernelSpec::staged) on or off where it applies and the stage
// fits beside the exchange. A staged group holds its local memory for the
// whole launch, so the blocks per multiprocessor asked of the compiler are
// no more than that memory allows (a multiprocessor has the largest group's
// local memory and 1 KiB a group more).
// The model stages long rows (DeviceLimits::staged_min_length): the
// staging mode, 0 for none.
int model_stages(const KernelSpec& s, const DeviceLimits& limits) {
  return limits.staged_min_length > 0 && s.length >= limits.staged_min_length ? limits.staged_copy : 0;
}

void set_staged(KernelSpec& s, int mode, const DeviceLimits& limits) {
  s.staged = s.staged_allowed() ? std::clamp(mode, 0, 2) : 0;
  if (s.staged && s.local_bytes() > limits.local_memory_bytes) s.staged = 0;
  if (!s.staged || s.min_groups_per_unit <= 0) return;
  const std::size_t fit = (limits.local_memory_bytes + 1024) / (s.local_bytes() + 1024);
  s.min_groups_per_unit = std::max(1, std::min(s.min_groups_per_unit, static_cast<int>(fit)));
}

// The table's entry for this length over the model's spec; false (spec
// unchanged) where it does not fit the device.
bool apply_launch(KernelSpec& spec, const LaunchChoice& choice, const DeviceLimits& limits) {
  KernelSpec s = spec;
  s.staged = 0;  // decided again once the rest fits
  if (!choice.radices.empty()) {
    std::int64_t product = 1;
    for (int r : choice.radices) product *= r;
    const std::vector<int>& known = tunable_radices();
    for (int r : choice.radices)
      if (std::find(known.begin(), known.end(), r) == known.end()) return false;
    if (product != s.length) return false;
    s.radices = choice.radices;
    // The model's one widest butterfly a thread, for the new stages.
    const int widest = *std::max_element(s.radices.begin(), s.radices.end());
    s.threads_per_transform = static_cast<int>(std::min<std::int64_t>(s.threads_per_transform, s.length / widest));
  }
  if (choice.two_level >= 0)
    s.stage_twiddle_bits = choice.two_level ? static_cast<int>(std::ceil(std::log2(static_cast<double>(s.length)) / 2)) : 0;
  if (choice.padding >= 0) s.local_padding = choice.padding == 1;
  if (choice.threads > 0)
    s.threads_per_transform = static_cast<int>(std::clamp<std::int64_t>(choice.threads, 1, std::min<std::int64_t>(limits.max_group_size, s.length / 2)));
  if (choice.group_threads > 0 || choice.threads > 0) {
    const std::int64_t aim = choice.group_threads > 0 ? choice.group_threads : limits.target_group_size;
    s.transforms_per_group = static_cast<int>(std::max<std::int64_t>(1, aim / s.threads_per_transform));
  }
  if (choice.halves >= 0) s.local_halves = choice.halves == 1 && s.halves_allowed();
  if (!fit_group(s, limits)) return false;
  if (limits.registers_per_unit > 0) {
    s.min_groups_per_unit = choice.occupancy >= 0 ? choice.occupancy : groups_per_unit(s, limits);
    // A group of 1024 threads can keep at most 64 registers each.
    s.min_groups_per_unit = std::min(s.min_groups_per_unit, static_cast<int>(limits.threads_per_unit / warps_of(s.group_size())));
  }
  // (An entry that does not say was measured unstaged.)
  set_staged(s, std::max(0, choice.staged), limits);
  spec = s;
  return true;
}

// A neighbour's launch (a tuned length within a factor of two) carried over
// as what it measured to pay rather than as numbers that fit only its own
// stages: at most its points a thread (the fewest threads that do it), its
// threads a group, the registers a thread its blocks-per-multiprocessor hint
// allowed it (the hint caps registers; what runs at once follows from what
// the compiler uses), its halves, padding and twiddles.
bool apply_neighbour(KernelSpec& spec, const TuningEntry& neighbour, const DeviceLimits& limits) {
  const LaunchChoice& c = neighbour.launch;
  if (c.threads <= 0 || c.radices.empty()) return false;
  KernelSpec theirs;
  theirs.length = neighbour.length;
  theirs.radices = c.radices;
  theirs.threads_per_transform = c.threads;
  const int their_points = theirs.points_per_thread();
  const std::int64_t their_group = std::max(c.threads, c.group_threads);
  const std::int64_t their_registers =
      limits.registers_per_unit > 0 ? std::min<std::int64_t>(255, limits.registers_per_unit / (std::max(1, c.occupancy) * warps_of(their_group))) : 0;
  KernelSpec s = spec;
  s.staged = 0;
  const std::int64_t most = std::min<std::int64_t>(limits.max_group_size, s.length);
  int chosen = 0, fewest = 1 << 30;
  for (std::int64_t t = 1; t <= most; ++t) {
    s.threads_per_transform = static_cast<int>(t);
    const int points = s.points_per_thread();
    if (points < fewest) fewest = points, chosen = static_cast<int>(t);
    if (points <= their_points) break;
  }
  // Fewer points a thread than it had are out of reach (a radix wider than
  // its points): its register budget says nothing then.
  if (fewest > their_points) return false;
  // Doubles keep the model: at two registers a value the tuned fp64 kernels
  // sit at the register limit, and other stages spill there (the NVRTC
  // sweep: 3840 = 16 x 16 x 15 after 4000, 6720 after 6144, 4800 and 6000).
  if (s.precision == Precision::Double) return false;
  s.threads_per_transform = chosen;
  s.transforms_per_group = static_cast<int>(std::max<std::int64_t>(1, their_group / chosen));
  if (c.two_level >= 0)
    s.stage_twiddle_bits = c.two_level ? static_cast<int>(std::ceil(std::log2(static_cast<double>(s.length)) / 2)) : 0;
  if (c.padding >= 0) s.local_padding = c.padding == 1;
  if (c.halves >= 0) s.local_halves = c.halves == 1 && s.halves_allowed();
  if (!fit_group(s, limits)) return false;
  if (limits.registers_per_unit > 0) {
    // Odd codelets keep more temporaries live than powers of two (about 5 a
    // point against 2): stages with a wider odd radix than the neighbour's
    // may not fit its registers, so they keep the model (the NVRTC sweep saw
    // 6720 = 15 x 8 x 8 x 7 after 6144 = 12 x 8 x 8 x 8 spill at any blocks
    // per multiprocessor, 2160 = 15 x 12 x 12 after 2187, 4800 = 25 x 16 x
    // 12 after 4096).
    auto widest_odd = [](const std::vector<int>& radices) {
      int odd = 1;
      for (int r : radices) odd = std::max(odd, r / (r & -r));
      return odd;
    };
    if (widest_odd(s.radices) > widest_odd(c.radices)) return false;
    // More registers than the neighbour had: tuned kernels sit at the edge
    // (10000's spills a little) and other stages need more. The NVRTC sweep
    // saw 5120, 6720, 7680 and 9000 spill at the same budget; a quarter more
    // fits up to 24 points a thread, half more past that (9000 at 30). Not
    // more: the budget caps registers, and a kernel given more uses them and
    // runs fewer groups at once (2160 after 3000 at half more: 0.65x cuFFT).
    const std::int64_t group = warps_of(s.group_size());
    const std::int64_t registers = std::min<std::int64_t>(255, their_registers * (fewest > 24 ? 6 : 5) / 4);
    s.min_groups_per_unit = static_cast<int>(
        std::clamp<std::int64_t>(limits.registers_per_unit / (group * registers), 1, limits.threads_per_unit / group));
  }
  set_staged(s, c.staged >= 0 ? c.staged : model_stages(s, limits), limits);
  spec = s;
  return true;
}

// KernelSpec::plane: one widest butterfly a thread in each phase (fewer
// threads where a plane would not fit a group), as many planes a group as
// the target group size asks and local memory holds.
void complete_plane(KernelSpec& spec, const DeviceLimits& limits) {
  const std::int64_t R = spec.length, C = spec.plane_columns;
  spec.radices = choose_radices(R);
  spec.plane_radices = choose_radices(C);
  spec.mapping = Mapping::ColumnMajor;
  auto widest = [](const std::vector<int>& radices) {
    return radices.empty() ? 1 : *std::max_element(radices.begin(), radices.end());
  };
  std::int64_t columns_threads = (R + widest(spec.radices) - 1) / widest(spec.radices);
  std::int64_t rows_threads = (C + widest(spec.plane_radices) - 1) / widest(spec.plane_radices);
  while (std::max(columns_threads * C, rows_threads * R) > limits.max_group_size && (columns_threads > 1 || rows_threads > 1)) {
    if (columns_threads * C >= rows_threads * R) columns_threads = (columns_threads + 1) / 2;
    else rows_threads = (rows_threads + 1) / 2;
  }
  // The phase with more threads takes fewer (more points each) while it
  // then holds no more points a thread than the other: the group has the
  // larger phase's threads, and the other phase's would idle (128 x 64:
  // 512 threads of 16 points, not 1024 with half of them idle in the first).
  auto points = [&](const std::vector<int>& radices, std::int64_t n, std::int64_t threads) {
    KernelSpec phase;
    phase.length = n;
    phase.radices = radices;
    phase.threads_per_transform = static_cast<int>(threads);
    return phase.points_per_thread();
  };
  for (;;) {
    const int columns_points = points(spec.radices, R, columns_threads), rows_points = points(spec.plane_radices, C, rows_threads);
    if (columns_threads * C > rows_threads * R && columns_threads > 1 &&
        points(spec.radices, R, (columns_threads + 1) / 2) <= rows_points)
      columns_threads = (columns_threads + 1) / 2;
    else if (rows_threads * R > columns_threads * C && rows_threads > 1 &&
             points(spec.plane_radices, C, (rows_threads + 1) / 2) <= columns_points)
      rows_threads = (rows_threads + 1) / 2;
    else
      break;
  }
  spec.threads_per_transform = static_cast<int>(columns_threads);
  spec.plane_threads = static_cast<int>(rows_threads);
  // The rows' phase is a transform-major exchange: padded as the model's
  // single passes are.
  const int first = spec.plane_radices.empty() ? 1 : spec.plane_radices.front();
  spec.local_padding = limits.local_padding && (first & (first - 1)) == 0 && first >= 8;
  const std::int64_t one = std::max(columns_threads * C, rows_threads * R);
  std::int64_t planes = std::max<std::int64_t>(1, limits.target_group_size / one);
  auto fits = [&](std::int64_t p) {
    spec.transforms_per_group = static_cast<int>(p * C);
    return spec.group_size() <= limits.max_group_size && spec.local_bytes() <= limits.local_memory_bytes;
  };
  while (planes > 1 && !fits(planes)) --planes;
  fits(planes);
  const int point = spec.precision == Precision::Single ? 8 : 16;
  spec.plane_block_store = rows_threads * point < limits.plane_block_bytes;
  if (limits.registers_per_unit > 0) {
    // Memory-bound: as many groups a multiprocessor as local memory holds
    // (1 KiB a group more), where up to 16 fp32 points a thread leave each
    // thread 64 registers; the estimate alone asked one group of 512
    // threads for 64 x 64.
    spec.min_groups_per_unit = groups_per_unit(spec, limits);
    const int words = spec.precision == Precision::Double ? 2 : 1;
    if (spec.points_per_thread() * words <= 16) {
      const int group = static_cast<int>(warps_of(spec.group_size()));
      const int fit = static_cast<int>((limits.local_memory_bytes + 1024) / (spec.local_bytes() + 1024));
      const int registers = limits.registers_per_unit / (group * 64);
      spec.min_groups_per_unit =
          std::max(spec.min_groups_per_unit, std::min({fit, registers, limits.threads_per_unit / group}));
    }
  }
}

void complete_model(KernelSpec& spec, const DeviceLimits& limits) {
  if (spec.plane()) {
    complete_plane(spec, limits);
    return;
  }
  const std::int64_t length = spec.length;
  if (spec.identity) {
    // A tiled transpose: each transform is a row chunk read along the
    // source's innermost dim; adjacent transforms are adjacent in the output,
    // so a group parks its tile in local memory and writes it by columns.
    spec.mapping = Mapping::TransformMajor;
    normalise_dims(spec, false);
    spec.radices.clear();
    spec.threads_per_transform = static_cast<int>(std::max<std::int64_t>(1, (length + 3) / 4));
    const bool columns = spec.dims.front().out_stride == 1 && spec.out_point_stride != 1;
    spec.transforms_per_group = static_cast<int>(columns ? largest_divisor_at_most(spec.dims.front().extent, 32) : 32);
    return;
  }
  spec.radices = choose_radices(length);
  const int widest = spec.radices.empty() ? 1 : *std::max_element(spec.radices.begin(), spec.radices.end());
  // Points of a transform apart in memory: adjacent work-items take adjacent
  // transforms (columns), so reads coalesce across the group.
  // (A packed real axis reads two reals a point: contiguous at stride 2.)
  const std::int64_t point_stride = spec.real_load == KernelSpec::RealLoad::Pairs ? spec.in_point_stride / 2 : spec.in_point_stride;
  const bool columns = point_stride != 1 || length == 1;
  spec.mapping = columns ? Mapping::ColumnMajor : Mapping::TransformMajor;
  normalise_dims(spec, columns);
  // Padding pays where the first stage writes its outputs a power of two
  // (8 or 16) points apart, which lands whole warps in one bank, and the
  // group's array is small; elsewhere it only cost (H100, % of the copy
  // floor, padded vs not: 1536 100/78, 4096 70/66; 1000 85/97, 2187 79/92,
  // 4000 72/80, 8192 78/83).
  const bool power_of_two = (length & (length - 1)) == 0;
  const int first = spec.radices.empty() ? 1 : spec.radices.front();
  spec.local_padding = limits.local_padding && !columns && (first & (first - 1)) == 0 && first >= 8 && length <= 4096;
  // Two-level inner twiddles: a must for powers of two past 1024 and for
  // anything past 4096 (H100: 4096 70% -> 98%, 8192 66 -> 78, 10000 53 -> 67),
  // a loss for mixed lengths up to 4096 (2187 92 -> 84, 3000 90 -> 83).
  const bool long_table = length > 4 * limits.max_direct_twiddles || (power_of_two && length > limits.max_direct_twiddles);
  if (long_table)
    spec.stage_twiddle_bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(length)) / 2));

  // One widest butterfly per thread per stage.
  std::int64_t threads = (length + widest - 1) / widest;
  std::int64_t per_group = columns ? limits.min_columns : std::max<std::int64_t>(1, limits.target_group_size / threads);
  // On a GPU, short strided transforms take more columns, up to a full
  // group: a 7-point column pass with 8 columns ran groups of 8 threads
  // (H100, 7x4096: 65% of the two-pass floor, 0.66x cuFFT).
  if (columns && limits.is_gpu) per_group = std::max(per_group, limits.target_group_size / threads);
  // Long strided transforms on a GPU: about 64 points per thread. Their
  // columns fill most of the shared memory, so few groups fit a
  // multiprocessor; fewer threads per group, each with more independent
  // loads, wait less at the barriers (H100, ms at 2^26 points: 16-32 vs 4-8
  // points per thread, BFLY_COLUMNS sweep: 2048x2048 0.81 vs 1.16, 4096x4096
  // 0.91 vs 1.20, 3000x3000 0.99 vs 1.19; 128 points per thread fell to 2.66
  // at 4096. From 1000 points rather than 2048, BFLY_LONG_STRIDED: 1000x1000
  // 0.83 vs 0.86, 2^20 0.90 vs 0.95; from 512, 512x512 lost 0.91 vs 0.76).
  // (16 for doubles, which take twice the registers: at 32 the NVRTC sweep
  // saw spills in the pass-twiddle kernels.)
  // Bluestein's fused kernels hold two FFTs' worth of live values: 16 (the
  // NVRTC sweep saw 64 spill).
  // Powers of two now take strided_points_per_thread (32): with computed
  // pass twiddles (DeviceLimits::pass_sincos) and the columns kept, 2^20..2^24
  // ran 4-9% faster than at 64 (H100, 2026-11-23, docs/PERF.md "two-pass
  // kernels"); mixed columns lost at 32 (1000x1000 0.83 -> 1.00 ms, 3000x3000
  // 0.96 -> 1.14: 40-50 points a thread, the columns halved) and keep 64.
  // (Radices 29 and 31 as well: 64 points, two of their butterflies a
  // thread, spilled 72-192 bytes in the NVRTC sweep, 3100 x 6.)
  const std::int64_t fp32_points = power_of_two || wide_codelet(length) ? limits.strided_points_per_thread : 64;
  const std::int64_t per_thread = spec.precision == Precision::Double || spec.convolve ? 16 : fp32_points;
  const bool long_strided = columns && limits.is_gpu && length >= limits.long_strided_length;
  if (long_strided) threads = std::min<std::int64_t>(threads, (length + per_thread - 1) / per_thread);
  if (long_strided && !power_of_two && spec.stride_product > 1) {
    // Mixed-radix stages round a thread's points up past per_thread (2000 =
    // 25 x 10 x 8 at 32 threads: 75 points, whose pass twiddles spilled
    // under 255 registers in the NVRTC sweep): the fewest more threads, up
    // to twice as many, that bring them within it (40: 50 points).
    const std::int64_t most = std::min<std::int64_t>(2 * threads, (length + widest - 1) / widest);
    for (std::int64_t t = threads; t <= most; ++t) {
      spec.threads_per_transform = static_cast<int>(t);
      if (spec.points_per_thread() <= per_thread) {
        threads = t;
        break;
      }
    }
  }
  // Compact passes (below) keep their columns whatever the register
  // estimate says; a double's column is twice as wide, so half as many
  // fill the same 64 bytes a row (H100, fp64, 2^26 points, ms, compact at
  // 8 vs 4 columns: 2^20 1.80 vs 1.71, 2^21 1.84 vs 1.87, 2^22 1.95 vs 1.94).
  const bool compact_double = spec.precision == Precision::Double && 2 * per_thread <= limits.strided_compact_words_double;
  if (long_strided && compact_double && !spec.convolve) per_group = std::max(1, limits.min_columns / 2);
  if (length == 1) per_group = limits.target_group_size;
  if (spec.clustered()) {
    // A cluster's block: a sector's columns (the planner's W / C) of about
    // cluster_points_per_thread points a thread, more where the block would
    // pass 512 threads: its W-point DFTs keep W points and their twiddles
    // live, which needs about 100 registers a thread (NVRTC, sm_90: 1024
    // threads of 64 registers spilled 200-800 bytes). Two blocks of 256
    // threads a multiprocessor beat one of 512 (DeviceLimits::cluster_*).
    per_group = spec.in_point_stride / spec.cluster;
    threads = std::clamp<std::int64_t>((length + limits.cluster_points_per_thread - 1) / limits.cluster_points_per_thread, 1,
                                       (length + widest - 1) / widest);
    while (threads * per_group > std::min(512, limits.max_group_size) && threads > 1) threads = (threads + 1) / 2;
  }
  // Keep the group within the device's limits: fewer threads per transform
  // (more points each) before fewer columns, since columns buy coalescing.
  // (Not past per_thread points, where the registers would spill: fp64
  // 8192-point columns at 64 points a thread did in the NVRTC sweep.)
  const bool register_bound = limits.is_gpu && (spec.precision == Precision::Double || spec.convolve);
  spec.threads_per_transform = static_cast<int>(threads);
  auto local_bytes = [&](std::int64_t m) {
    spec.transforms_per_group = static_cast<int>(m);
    return spec.local_bytes();
  };
  // Long strided passes keep their points a thread: columns that local
  // memory cannot hold go first, before the threads are halved for the
  // group's limit (4096-point columns at 16 points a thread: 4 of 256
  // threads, not 4 of 128 at 32).
  if (long_strided)
    while (per_group > 1 && local_bytes(per_group) > limits.local_memory_bytes) per_group /= 2;
  while (threads * per_group > limits.max_group_size && threads > 1 &&
         !(register_bound && per_group > 1 && (length + threads - 1) / threads >= per_thread))
    threads = (threads + 1) / 2;
  while (threads * per_group > limits.max_group_size && per_group > 1) per_group /= 2;
  spec.threads_per_transform = static_cast<int>(threads);
  while (per_group > 1 && !spec.clustered() && local_bytes(per_group) > limits.local_memory_bytes) per_group /= 2;
  if (limits.registers_per_unit > 0) {
    const int registers = register_estimate(spec);
    // (Not for long strided passes of up to 32 registers' worth of points a
    // thread: their columns are what local memory allows, and the compiler
    // fits 512 threads in 128 registers each without spills where the
    // estimate says 208 (NVRTC sweep; 3000-point columns of 50 points a
    // thread spilled). fp64 at 16 points, 4 columns of 2048 in 512 threads
    // of 128 registers: H100, 2^26 points, ms, compact vs columns halved
    // to 2: 2^21 2.03 -> 1.87, 2^22 2.42 -> 1.94, 2048x2048 1.68 -> 1.60.)
    const int words = spec.precision == Precision::Double ? 2 : 1;
    const bool compact = long_strided && spec.points_per_thread() * words <= (words == 1 ? 32 : limits.strided_compact_words_double);
    while (per_group > 1 && !spec.clustered() && !compact && warps_of(threads * per_group) * registers > limits.registers_per_unit)
      per_group /= 2;
    spec.transforms_per_group = static_cast<int>(per_group);
    spec.min_groups_per_unit = groups_per_unit(spec, limits);
    if (compact && limits.strided_groups_per_unit > 0) {
      const int group = static_cast<int>(warps_of(threads * per_group));
      const std::size_t fit = (limits.local_memory_bytes + 1024) / (spec.local_bytes() + 1024);
      spec.min_groups_per_unit =
          std::max(1, std::min({limits.strided_groups_per_unit, limits.threads_per_unit / group, static_cast<int>(fit)}));
    }
    // Clusters: as many blocks as asked where their local memory fits (a
    // multiprocessor has 1 KiB a block more) and their points leave the
    // registers room (NVRTC, sm_90, two blocks: 32 fp32 points a thread of
    // 256 spill 12-16 bytes, 50 of 392 (radix 25) 1.7 KB, 30 fp64 276 bytes).
    if (spec.clustered() && limits.cluster_groups_per_unit > 0 && spec.points_per_thread() * words <= 36) {
      const std::size_t fit = (limits.local_memory_bytes + 1024) / (spec.local_bytes() + 1024);
      spec.min_groups_per_unit = std::max(1, std::min(limits.cluster_groups_per_unit, static_cast<int>(fit)));
    }
  }
  if (spec.real_store == KernelSpec::RealStore::SplitPaired) {
    // Transforms m and m + M/2 are a pair: M even (an estimate's one more
    // column does not spill: the sweep checks).
    per_group = std::max<std::int64_t>(2, per_group - per_group % 2);
    if (limits.registers_per_unit > 0 && spec.min_groups_per_unit > 1) {
      const int group = static_cast<int>((threads * per_group + 31) / 32 * 32);
      spec.min_groups_per_unit = std::max(1, std::min(spec.min_groups_per_unit, limits.threads_per_unit / group));
    }
  }
  spec.transforms_per_group = static_cast<int>(per_group);
  if (spec.reads_pass_twiddles()) {
    // Two-level table w^e = fine[e mod 2^b] * coarse[e >> b], b = ceil(log2(p*L)/2):
    // two tables of ~sqrt(p*L) entries instead of one of p*L.
    const double bits = std::log2(static_cast<double>(spec.pass_twiddle_points()));
    spec.twiddle_fine_bits = static_cast<int>(std::ceil(bits / 2));
    // Computed only for powers of two (the angle's ratio exact, a multiply):
    // 100000's short passes (250 points after 400) ran 0.762 -> 0.968 ms
    // computing them with a division (H100, 2026-11-23).
    const std::int64_t points = spec.pass_twiddle_points();
    spec.pass_sincos = limits.pass_sincos && spec.has_pass_twiddles() && !spec.clustered() && (points & (points - 1)) == 0;
  }
}

// Short rows whose threads would read less than limits.block_rows_bytes
// of a row at once load and store as one block (KernelSpec::block_rows),
// where its local array fits.
void set_block_rows(KernelSpec& spec, const DeviceLimits& limits) {
  const int point = spec.precision == Precision::Single ? 8 : 16;
  if (limits.block_rows_bytes <= 0 || spec.threads_per_transform * point >= limits.block_rows_bytes || !spec.block_rows_allowed())
    return;
  if (limits.is_gpu && spec.precision == Precision::Double && wide_codelet(spec.length)) return;
  spec.block_rows = true;
  if (spec.local_bytes() > limits.local_memory_bytes) spec.block_rows = false;
}

// The launch: the model's, then a tuning table's where one applies.
std::string complete_launch(KernelSpec& spec, const DeviceLimits& limits) {
  complete_model(spec, limits);
  if (spec.clustered()) return "model";
  if (!tunable(spec)) return "model";
  if (limits.is_gpu && spec.precision == Precision::Single && spec.transforms_per_group == 1 && spec.length > 4096 &&
      spec.points_per_thread() > 16) {
    // A long row: about 512 threads with up to 128 registers each hold its
    // points without spilling, where 1024 threads have 64 each (NVRTC,
    // sm_90: 20000 points at 1000 threads spilled 128 bytes, at 500 threads
    // of 40-50 points none); among those, the count that leaves the fewest
    // points a thread.
    const int most = static_cast<int>(std::min<std::int64_t>({limits.max_group_size, 512, spec.length / 2}));
    spec.threads_per_transform = fewest_points_threads(spec, most / 2 + 1, most);
    if (limits.registers_per_unit > 0) spec.min_groups_per_unit = groups_per_unit(spec, limits);
  }
  if (limits.is_gpu && spec.precision == Precision::Double && spec.transforms_per_group == 1 &&
      spec.points_per_thread() > 16 && spec.threads_per_transform > 256) {
    // Doubles take two registers: at most 256 threads, which may keep 255
    // registers each (NVRTC, sm_90: 6720 = 15 x 8 x 8 x 7 at 448 threads of
    // 21 points spilled 16 bytes, at 840 of 15 184 bytes).
    spec.threads_per_transform = fewest_points_threads(spec, 129, 256);
    if (limits.registers_per_unit > 0) spec.min_groups_per_unit = groups_per_unit(spec, limits);
  }
  // A row too long for local memory in whole points exchanges in halves.
  if (spec.local_bytes() > limits.local_memory_bytes && spec.halves_allowed()) {
    spec.local_halves = true;
    if (limits.registers_per_unit > 0) spec.min_groups_per_unit = groups_per_unit(spec, limits);
  }
  // Long rows hold one or two groups a multiprocessor: staged, the next
  // transform's loads overlap this one's stages.
  set_staged(spec, model_stages(spec, limits), limits);
  if (!limits.tuning) return "model";
  if (const TuningEntry* tuned = limits.tuning->exact(spec.precision, spec.length); tuned && tuned->passes.empty())
    return apply_launch(spec, tuned->launch, limits) ? "table" : "model (the table's " + tuned->launch.text() + " does not fit)";
  // Rows past the single-pass length keep the model's long-row launch: the
  // tuner's winners there are that launch (17280, 22500) or near it, and a
  // neighbour's stages carried over spilled 300-1000 bytes a thread (NVRTC:
  // 20480 after 20000, 24000 after 27648).
  if (spec.length > limits.max_single_pass_length) return "model";
  // Nor do the long rows' launches suit shorter rows (15000 after 19440's
  // 432 threads in halves: 0.69x cuFFT).
  for (const TuningEntry* near : limits.tuning->neighbours(spec.precision, spec.length))
    if (near->length <= limits.max_single_pass_length && apply_neighbour(spec, *near, limits))
      return "table, from " + std::to_string(near->length);
  return "model";
}

}  // namespace

std::string complete_spec(KernelSpec& spec, const DeviceLimits& limits) {
  const std::string from = complete_launch(spec, limits);
  set_block_rows(spec, limits);
  return from;
}

namespace {

// Strides of the logical dims (0: batch, a+1: axis a) in one buffer.
using View = std::vector<std::int64_t>;

View layout_view(const Layout& layout) {
  View v{layout.distance};
  v.insert(v.end(), layout.strides.begin(), layout.strides.end());
  return v;
}

// Row-major over `order` (outermost first); natural order when empty. The
// extent of `padded_dim` is `padded` where that is nonzero (Bluestein's
// zero-padded data).
View work_view(const Problem& p, std::vector<int> order, int padded_dim = -1, std::int64_t padded = 0) {
  const int dims = p.rank() + 1;
  if (order.empty()) {
    order.resize(dims);
    std::iota(order.begin(), order.end(), 0);
  }
  View v(dims);
  std::int64_t stride = 1;
  for (int i = dims - 1; i >= 0; --i) {
    const int d = order[i];
    v[d] = stride;
    stride *= d == padded_dim && padded > 0 ? padded : d == 0 ? p.batch : p.shape[d - 1];
  }
  return v;
}

std::int64_t extent_of(const Problem& p, int dim) { return dim == 0 ? p.batch : p.shape[dim - 1]; }

// The kernel of one step between two views.
// `caller_src` and `caller_dst`: where Rader's kernel store finds x[0] and
// puts X[0] (its convolution's first source and last destination).
Pass make_pass(const Problem& p, const Step& step, const View& src, const View& dst, const DeviceLimits& limits,
               const View& caller_src, const View& caller_dst) {
  KernelSpec spec;
  spec.precision = p.precision;
  const int dims = p.rank() + 1;
  const int a = step.dim;
  const std::int64_t n = extent_of(p, a);
  // The points a step's transforms cover along the dim: Bluestein's passes
  // run over its zero-padded M points.
  const bool rader = step.chirp == Step::Chirp::Rader;
  const bool fused = step.chirp == Step::Chirp::Fused || rader;
  const bool packed_passes = step.packed && step.padded > 0;
  const std::int64_t span = (step.chirp == Step::Chirp::None && !packed_passes) || fused ? n : step.padded;
  const bool forward_real = p.kind == Kind::R2C;
  if (step.plane) {
    // Planes (solvers/plane.cpp): the columns' FFTs along dim a (the row
    // pitches as point strides), each plane's C columns the innermost dim
    // of the sub-transform index, the planes the dims past it.
    const int b = a + 1;
    spec.length = n;
    spec.plane_columns = extent_of(p, b);
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.dims.push_back({spec.plane_columns, src[b], dst[b]});
    for (int d = 1; d < dims; ++d)
      if (d != a && d != b && extent_of(p, d) > 1) spec.dims.push_back({extent_of(p, d), src[d], dst[d]});
    spec.dims.push_back({p.batch, src[0], dst[0]});
    std::int64_t in_last = 0, out_last = 0;
    for (int d = 0; d < dims; ++d) {
      in_last += (extent_of(p, d) - 1) * src[d];
      out_last += (extent_of(p, d) - 1) * dst[d];
    }
    const std::int64_t limit = std::int64_t{1} << 31;
    spec.wide = in_last >= limit || out_last >= limit || p.elements() >= limit;
    Pass pass;
    pass.what = step.what;
    pass.launch_from = complete_spec(spec, limits);
    pass.spec = spec;
    pass.transforms = p.elements() / n;  // the columns of every plane
    return pass;
  }
  if (step.packed && !packed_passes) {
    // An even real axis as n/2 complex points (solvers/real_axis.cpp); point
    // strides count reals on the real side.
    using K = KernelSpec;
    spec.length = n / 2;
    spec.real_load = forward_real ? K::RealLoad::Pairs : K::RealLoad::Mirror;
    spec.real_store = forward_real ? K::RealStore::Split : K::RealStore::Pairs;
    spec.real_length = n;
    spec.in_point_stride = forward_real ? 2 * src[a] : src[a];
    spec.out_point_stride = forward_real ? dst[a] : 2 * dst[a];
  } else if (step.kind == Step::Kind::Fft && rader) {
    // Rader in one kernel: an (N - 1)-point convolution per N-point axis,
    // or per p-point sub-transform of the first Stockham pass of N = p m
    // (step.prime): point j of sub-transform i at i + j m, output k at i p + k.
    const std::int64_t prime = step.prime > 0 ? step.prime : n, m = n / prime;
    spec.length = prime - 1;
    spec.in_point_stride = m * src[a];
    spec.out_point_stride = dst[a];
    if (m > 1) spec.dims.push_back({m, src[a], prime * dst[a]});
    spec.rader_prime = prime;
    spec.convolve = true;
  } else if (step.kind == Step::Kind::Fft && fused) {
    // Bluestein in one kernel: an M-point transform per N-point axis.
    spec.length = step.padded;
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.chirp_length = n;
    spec.chirp_load = true;
    spec.convolve = true;
  } else if (step.kind == Step::Kind::Fft) {
    // Index j along the axis = i + n_point * S with S = N / L, i = a' * P + k;
    // the output index of point k' is a' * P * L + k + k' * P.
    const std::int64_t L = step.length, P = step.stride_product, S = span / L;
    spec.length = L;
    spec.stride_product = P;
    spec.cluster = step.cluster;
    spec.in_point_stride = S * src[a];
    spec.out_point_stride = P * dst[a];
    spec.dims.push_back({P, src[a], dst[a]});
    spec.twiddle_dim = P > 1 ? 0 : -1;
    spec.dims.push_back({S / P, P * src[a], P * L * dst[a]});
    // The middle passes are plain FFT passes (shared with fast lengths).
    if (step.rader && step.chirp != Step::Chirp::Middle) {
      // Rader past one kernel (solvers/rader.cpp).
      spec.rader_prime = n;
      if (step.chirp == Step::Chirp::Load || step.chirp == Step::Chirp::LoadKernelStore) {
        spec.rader_gather = true;
        spec.axis_dim = 1;
        spec.axis_stride = S;
      }
      spec.rader_kernel_store = step.chirp == Step::Chirp::KernelStore || step.chirp == Step::Chirp::LoadKernelStore;
      spec.rader_scatter = step.chirp == Step::Chirp::ChirpStore;
    } else if (step.chirp != Step::Chirp::None && step.chirp != Step::Chirp::Middle) {
      spec.chirp_length = n;
    }
    if (!step.rader && (step.chirp == Step::Chirp::Load || step.chirp == Step::Chirp::LoadKernelStore)) {
      // The first pass (P == 1): point j = i + n_point * S of the N-point input.
      spec.chirp_load = true;
      spec.axis_dim = 1;
      spec.axis_stride = S;
    }
    // The last passes (S == P): output e = k + k' * P.
    if (!step.rader && (step.chirp == Step::Chirp::KernelStore || step.chirp == Step::Chirp::LoadKernelStore))
      spec.chirp_store = KernelSpec::ChirpStore::Kernel;
    if (!step.rader && step.chirp == Step::Chirp::ChirpStore) spec.chirp_store = KernelSpec::ChirpStore::Chirp;
    if (step.real_first && !forward_real) {
      // The first pass (P == 1): point j = i + n_point * S of the axis.
      spec.axis_dim = 1;
      spec.axis_stride = S;
    }
    if (packed_passes) {
      // The packed axis in several passes (solvers/real_axis.cpp): the first
      // R2C pass and the last C2R pass are plain complex passes over the
      // real side read as pairs; the inverse's first pass loads the mirror,
      // the forward's last splits pairs of sub-transforms.
      using K = KernelSpec;
      if (step.real_first && !forward_real) spec.real_load = K::RealLoad::Mirror;
      if (step.real_last && forward_real) spec.real_store = K::RealStore::SplitPaired;
      if (spec.real()) {
        spec.real_length = n;
        spec.real_twiddle_bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(n)) / 2));
      }
    }
  } else {
    // Row chunks of the source's innermost dim.
    const std::int64_t L = largest_divisor_at_most(n, 32);
    spec.identity = true;
    spec.length = L;
    spec.in_point_stride = src[a];
    spec.out_point_stride = dst[a];
    spec.dims.push_back({n / L, L * src[a], L * dst[a]});
  }
  // Rader's kernel store reaches its row's x[0] and X[0] in other buffers.
  auto caller = [&](int d, IndexDim dim) {
    if (spec.rader_kernel_store) {
      dim.caller_in = caller_src[static_cast<std::size_t>(d)];
      dim.caller_out = caller_dst[static_cast<std::size_t>(d)];
    }
    return dim;
  };
  for (int d = 1; d < dims; ++d)
    if (d != a) spec.dims.push_back(caller(d, {extent_of(p, d), src[d], dst[d]}));
  spec.dims.push_back(caller(0, {p.batch, src[0], dst[0]}));
  if (!step.packed && (step.real_first || step.real_last)) {
    // A real axis as an n-point complex FFT: its first pass reads the real
    // side or extends the half spectrum, its last writes the other side.
    using K = KernelSpec;
    if (step.real_first) spec.real_load = forward_real ? K::RealLoad::Real : K::RealLoad::Hermitian;
    if (step.real_last) spec.real_store = forward_real ? K::RealStore::Half : K::RealStore::Real;
    if (!spec.bluestein()) spec.real_length = n;  // Bluestein's kernels take N at run time
  }
  if (step.packed && !packed_passes) {
    // Both reals of a point in one complex access: the axis contiguous and
    // every offset on the real side even.
    const bool real_in = forward_real;
    bool aligned = (real_in ? src[a] : dst[a]) == 1;
    for (const IndexDim& d : spec.dims) aligned = aligned && (real_in ? d.in_stride : d.out_stride) % 2 == 0;
    spec.real_pairs_aligned = aligned;
  }
  // 64-bit offsets once any offset or the transform count can pass 2^31.
  std::int64_t in_last = (spec.length - 1) * spec.in_point_stride, out_last = (spec.length - 1) * spec.out_point_stride;
  for (const IndexDim& d : spec.dims) {
    in_last += (d.extent - 1) * d.in_stride;
    out_last += (d.extent - 1) * d.out_stride;
  }
  const std::int64_t limit = std::int64_t{1} << 31;
  const std::int64_t elements = p.elements() / n * span;
  spec.wide = in_last >= limit || out_last >= limit || elements >= limit;
  const std::string launch_from = complete_spec(spec, limits);
  Pass pass;
  pass.what = step.what;
  pass.launch_from = launch_from;
  pass.spec = spec;
  pass.transforms = rader && step.prime > 0 ? elements / step.prime
                    : fused || (step.packed && !packed_passes) ? elements / n : elements / spec.length;
  if (spec.real_store == KernelSpec::RealStore::SplitPaired) {
    // Pairs (k, P - k) of the P sub-transforms of each row: P/2 + 1 of them,
    // counted twice (a group runs M/2 pairs).
    const std::int64_t P = spec.stride_product;
    pass.transforms = 2 * (pass.transforms / P) * (P / 2 + 1);
  }
  return pass;
}

// Gives each step its source and destination: the first reads the input, the
// last writes the output, nothing writes the input of an out-of-place
// problem, a step writes the buffer it reads only where a group owns whole
// sub-transforms, and a permuted intermediate goes to workspace. Among the
// assignments, the one with the fewest workspace buffers (a search: plans
// have at most a dozen steps).
std::vector<std::pair<Slot, Slot>> assign_slots(const Problem& p, const std::vector<Step>& steps, int* workspace) {
  const bool in_place = p.placement == Placement::InPlace;
  // In place, input and output are one buffer: call it Output throughout.
  auto same = [&](Slot a, Slot b) {
    auto canon = [&](Slot s) { return in_place && s == Slot::Input ? Slot::Output : s; };
    return canon(a) == canon(b);
  };
  // Which buffers can hold a step's result: workspace holds complex points
  // only; the caller's buffers their own side (in place, the one buffer
  // both sides of a real problem), never a real axis's full n points.
  auto holds = [&](Slot s, Step::Side side) {
    if (s == Slot::Work0 || s == Slot::Work1) return side != Step::Side::Real;
    if (!p.is_real()) return true;
    if (side == Step::Side::Full) return false;
    return in_place || side == (p.kind == Kind::R2C ? Step::Side::Complex : Step::Side::Real);
  };
  std::vector<Slot> best, current;
  int best_work = 3;
  std::function<void(std::size_t, Slot, int)> search = [&](std::size_t j, Slot source, int work) {
    if (work >= best_work) return;
    if (j == steps.size()) {
      best = current;
      best_work = work;
      return;
    }
    const Step& step = steps[j];
    const bool last = j + 1 == steps.size();
    std::vector<Slot> candidates;
    if (last) candidates = {Slot::Output};
    else if (step.work_only) candidates = {Slot::Work0, Slot::Work1};
    else candidates = {source, Slot::Output, Slot::Work0, Slot::Work1};
    for (Slot dest : candidates) {
      if (dest == Slot::Input) continue;
      if (!holds(dest, step.to)) continue;
      if (same(dest, source) && !step.may_write_source(p)) continue;
      if (!in_place && dest == Slot::Input) continue;
      const int used = std::max(work, dest == Slot::Work1 ? 2 : dest == Slot::Work0 ? 1 : 0);
      if (dest == Slot::Work1 && work < 1) continue;  // Work0 first
      current.push_back(dest);
      search(j + 1, dest, used);
      current.pop_back();
    }
  };
  search(0, Slot::Input, 0);
  if (best.size() != steps.size())
    throw Error(ErrorCode::Unsupported, "no buffer assignment for the passes of " + p.token());
  std::vector<std::pair<Slot, Slot>> slots;
  Slot source = Slot::Input;
  for (Slot dest : best) {
    slots.push_back({source, dest});
    source = dest;
  }
  *workspace = best_work;
  return slots;
}

}  // namespace

DeviceLimits for_precision(DeviceLimits limits, Precision precision) {
  if (precision == Precision::Single) return limits;
  // A double point takes 16 bytes: the lengths that local memory bounds
  // halve where they no longer fit (4096 -> 2048 on a CPU's 32 KiB, 16384 ->
  // 8192 in a Hopper block).
  auto fits = [&](std::int64_t n) {
    const std::int64_t row = limits.local_padding ? n + n / 16 : n;
    return row * 16 <= static_cast<std::int64_t>(limits.local_memory_bytes);
  };
  while (limits.max_single_pass_length > 1 && !fits(limits.max_single_pass_length)) limits.max_single_pass_length /= 2;
  // Rows: the model's as the single passes; a table's what fits 8 bytes a
  // point (a double in halves).
  const std::int64_t local = static_cast<std::int64_t>(limits.local_memory_bytes);
  limits.max_tuned_row_length = std::max(limits.max_single_pass_length, std::min(limits.max_tuned_row_length, local / 8));
  limits.max_row_length = std::max(limits.max_single_pass_length, std::min(limits.max_row_length_double, limits.max_tuned_row_length));
  // Multi-pass sub-transforms: four columns of them must fit (device_limits.cpp).
  while (limits.max_pass_length > 1024 && 4 * limits.max_pass_length * 16 > static_cast<std::int64_t>(limits.local_memory_bytes))
    limits.max_pass_length /= 2;
  limits.max_pass_length = std::min(limits.max_pass_length, limits.max_single_pass_length);
  limits.staged_min_length = limits.staged_min_length_double;
  limits.cluster_chunk_points /= 2;
  limits.plane_points /= 2;
  limits.cluster_points_per_thread = std::max(1, limits.cluster_points_per_thread / 2);
  limits.preferred_pass_length = std::min(limits.preferred_pass_length, limits.max_pass_length);
  return limits;
}

namespace {

// Groups of `pass` per batch element when its groups cover the batch in
// order, element by element (the batch its last dim, whole groups an
// element); 0 otherwise.
std::int64_t groups_per_element(const Pass& pass, std::int64_t batch) {
  const KernelSpec& s = pass.spec;
  std::int64_t inner = 1;
  for (std::size_t d = 0; d + 1 < s.dims.size(); ++d) inner *= s.dims[d].extent;
  if (s.dims.empty() || inner * batch != pass.transforms || inner % s.transforms_per_group != 0) return 0;
  return inner / s.transforms_per_group;
}

// Pairs of consecutive passes through a workspace buffer that run as one
// chained launch, so the second reads the first's output from L2
// (Pass::chain_elements). Batch elements of at most l2_chain_bytes.
void chain_through_l2(PlanTree& tree, const DeviceLimits& limits) {
  const Problem& p = tree.problem;
  if (limits.l2_chain_bytes <= 0 || p.batch < 2) return;
  const std::int64_t element_bytes = p.elements() / p.batch * static_cast<std::int64_t>(p.element_bytes());
  if (2 * element_bytes > limits.l2_chain_bytes) return;
  const std::int64_t lookahead = std::min<std::int64_t>(p.batch - 1, std::max<std::int64_t>(1, limits.l2_chain_bytes / element_bytes));
  for (std::size_t j = 0; j + 1 < tree.passes.size(); ++j) {
    Pass& a = tree.passes[j];
    const Pass& b = tree.passes[j + 1];
    if (j > 0 && tree.passes[j - 1].chain_elements > 0) continue;  // b of the previous pair
    if (a.destination != b.source || (a.destination != Slot::Work0 && a.destination != Slot::Work1)) continue;
    if (!a.spec.chainable() || !b.spec.chainable()) continue;
    // Powers of two only: every such case measured won, while fp32 147456
    // (384 x 384) lost (H100: 0.803 -> 0.931 ms), though fp64 250000 won
    // (0.984 -> 0.877); the chained kernel's occupancy is a guess
    // (codegen/chain_kernel.cpp) that fits the powers of two.
    auto pow2 = [](std::int64_t n) { return (n & (n - 1)) == 0; };
    if (!pow2(a.spec.length) || !pow2(b.spec.length)) continue;
    // Unequal groups: the smaller runs on the first threads (whole warps).
    if (a.spec.group_size() != b.spec.group_size() &&
        (!limits.chain_unequal_groups || a.spec.group_size() % 32 != 0 || b.spec.group_size() % 32 != 0))
      continue;
    if (groups_per_element(a, p.batch) == 0 || groups_per_element(b, p.batch) == 0) continue;
    a.chain_elements = p.batch;
    a.chain_lookahead = lookahead;
  }
}

}  // namespace

PlanTree make_plan(const Problem& problem, const DeviceLimits& device_limits, const PlanOptions& options) {
  problem.validate();
  const DeviceLimits limits = for_precision(device_limits, problem.precision);
  const Solver* solver = nullptr;
  for (const Solver& s : solvers())
    if (s.strategy == options.strategy) solver = &s;
  std::vector<Step> steps = solver->steps(problem, limits);
  if (steps.empty()) {
    // Every transformed axis has one point: the transform is a copy (scaled
    // under a norm), done as 1-point transforms of the first axis.
    Step copy;
    copy.dim = problem.transform_axes().front() + 1;
    copy.what = "1-point transforms (copy)";
    steps.push_back(copy);
  }
  PlanTree tree;
  tree.problem = problem;
  if (limits.tuning) tree.tuning = limits.tuning->source.empty() ? "table" : limits.tuning->source;
  tree.solver = solver->name;
  if (options.strategy == Strategy::Auto) {
    bool one_dim = true;
    for (const Step& s : steps) one_dim = one_dim && s.dim == steps.front().dim && !s.plane;
    if (one_dim) tree.solver = steps.size() == 1 ? "single-pass" : "multi-pass";
  }
  const auto slots = assign_slots(problem, steps, &tree.workspace_buffers);
  // A workspace buffer holds the array, or its Bluestein-padded form.
  std::int64_t work_elements = problem.elements();
  for (const Step& s : steps)
    if (s.padded > 0) work_elements = std::max(work_elements, problem.elements() / problem.shape[s.dim - 1] * s.padded);
  tree.workspace_bytes = tree.workspace_buffers > 0 ? work_elements * static_cast<std::int64_t>(problem.element_bytes()) : 0;
  const View input = layout_view(problem.input_layout()), output = layout_view(problem.output_layout());
  // A real problem's steps see its complex side (the half spectrum) or, on
  // the real axis, the real shape; in place, its one buffer holds either side.
  const Problem complex = complex_side(problem);
  const bool in_place_real = problem.is_real() && problem.placement == Placement::InPlace;
  const View real_side = problem.kind == Kind::R2C ? input : output, complex_view = layout_view(complex.input_layout());
  std::vector<int> order;  // of the data the next step reads, where it is workspace
  std::vector<View> sources, destinations;
  for (std::size_t j = 0; j < steps.size(); ++j) {
    auto view = [&](Slot s, Step::Side side, const std::vector<int>& o, bool padded) {
      if (side == Step::Side::Real && steps[j].packed && steps[j].padded > 0) {
        // The real side as complex pairs: the axis contiguous, the other strides halved.
        View v = real_side;
        for (std::size_t d = 0; d < v.size(); ++d) v[d] = static_cast<int>(d) == steps[j].dim ? 1 : v[d] / 2;
        return v;
      }
      if (in_place_real && (s == Slot::Input || s == Slot::Output)) return side == Step::Side::Real ? real_side : complex_view;
      switch (s) {
        case Slot::Input: return input;
        case Slot::Output: return output;
        default: return work_view(side == Step::Side::Full ? problem : complex, o, steps[j].dim, padded ? steps[j].padded : 0);
      }
    };
    sources.push_back(view(slots[j].first, steps[j].from, order, steps[j].padded_source()));
    destinations.push_back(view(slots[j].second, steps[j].to, steps[j].order, steps[j].padded_destination()));
    order = steps[j].order;
  }
  for (std::size_t j = 0; j < steps.size(); ++j) {
    const bool on_complex_side = steps[j].from == Step::Side::Complex && steps[j].to == Step::Side::Complex;
    // Rader's kernel store reaches its convolution's source (x[0]) and
    // final destination (X[0]): the first and last steps of its group.
    std::size_t first = j, last = j;
    const bool rader_store = steps[j].rader && (steps[j].chirp == Step::Chirp::KernelStore || steps[j].chirp == Step::Chirp::LoadKernelStore);
    if (rader_store) {
      while (first > 0 && !(steps[first].chirp == Step::Chirp::Load || steps[first].chirp == Step::Chirp::LoadKernelStore)) --first;
      while (last + 1 < steps.size() && steps[last].chirp != Step::Chirp::ChirpStore) ++last;
    }
    Pass pass = make_pass(on_complex_side ? complex : problem, steps[j], sources[j], destinations[j], limits, sources[first],
                          destinations[last]);
    pass.source = slots[j].first;
    pass.destination = slots[j].second;
    pass.rader_source = slots[first].first;
    pass.rader_destination = slots[last].second;
    pass.rader_first = first == 0;
    pass.rader_last = last + 1 == steps.size();
    tree.passes.push_back(pass);
  }
  chain_through_l2(tree, limits);
  return tree;
}

std::string PlanTree::print() const {
  std::ostringstream out;
  out << "plan " << problem.token() << "\n  solver " << solver;
  if (!tuning.empty()) out << ", tuning " << tuning;
  out << ", " << passes.size()
      << (passes.size() == 1 ? " pass" : " passes") << ", workspace " << workspace_buffers << " x "
      << (workspace_buffers > 0 ? workspace_bytes : problem.bytes()) << " bytes\n";
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const Pass& pass = passes[i];
    const KernelSpec& s = pass.spec;
    out << "  pass " << i << ": " << to_string(pass.source) << " -> " << to_string(pass.destination) << ", "
        << pass.what << "\n    length " << s.length;
    if (s.identity) {
      out << ", copy";
    } else {
      out << " = ";
      if (s.radices.empty()) out << "1";
      for (std::size_t r = 0; r < s.radices.size(); ++r) out << (r ? " x " : "") << s.radices[r];
    }
    out << ", " << s.geometry() << (s.has_pass_twiddles() ? ", pass twiddles" : "") << "\n    " << pass.transforms
        << " transforms in " << pass.groups() << " groups of " << s.transforms_per_group << " x "
        << s.threads_per_transform << " threads, " << s.points_per_thread() << " points per thread, "
        << s.local_bytes() << " bytes local" << (s.local_halves ? " (exchanged in halves)" : "") << ", "
        << (s.block_rows ? "rows load and store as one block through local memory"
            : s.store_via_local() ? "store via local" : "direct store")
        << (s.staged == 1 ? ", staged (persistent groups; each thread copies its share of the next input to local memory during this one)"
            : s.staged == 2 ? ", staged (persistent groups; one bulk copy of the next input to local memory during this one)" : "");
    if (s.plane())
      out << ", " << s.planes_per_group() << " planes a group: then " << s.plane_columns << " = ";
    for (std::size_t r = 0; s.plane() && r < s.plane_radices.size(); ++r) out << (r ? " x " : "") << s.plane_radices[r];
    if (s.plane()) out << " along the rows, " << s.plane_threads << " threads a row";
    if (s.clustered())
      out << ", in clusters of " << s.cluster << " groups (one row: then its " << s.cluster_width()
          << "-point DFTs across the groups' local memory)";
    if (!s.identity && s.min_groups_per_unit > 0) out << ", " << s.min_groups_per_unit << " groups per unit asked";
    out << "\n    launch from " << pass.launch_from << "\n    kernel " << s.name() << "\n";
    if (pass.chain_elements > 0)
      out << "    chained with the next pass in one launch through L2: " << pass.chain_elements
          << " batch elements, the next pass " << pass.chain_lookahead << " elements behind\n";
  }
  return out.str();
}

}  // namespace bfly::plan
