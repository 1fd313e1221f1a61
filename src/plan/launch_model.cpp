#include "plan/launch_model.hpp"
#include "plan/column_points.hpp"
#include "plan/composite_radices.hpp"
#include "plan/row_threads.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "pieces/piece.hpp"
#include "plan/factorize.hpp"
#include "plan/launch_alternatives.hpp"
#include "plan/pass_modes.hpp"

namespace bfly::plan {

namespace {

// Sorts the dims before the last (the batch dim stays outermost) by `key`,
// drops 1-point dims and merges neighbours that step as one, keeping track of
// the twiddle dim, the chirp dim and an odd count of paired rows (never
// merged: their indices enter the twiddle and chirp exponents and the
// test for the last pair's row b). An even count of paired rows has no
// such test (KernelSpec::pair_dim becomes -1) and merges as any dim.
void normalise_dims(KernelSpec& spec, bool by_input) {
  struct D {
    IndexDim dim;
    bool twiddle;
    bool chirp;
    bool pair;
    bool kept() const { return twiddle || chirp || pair; }
  };
  std::vector<D> ds;
  for (std::size_t d = 0; d < spec.dims.size(); ++d)
    ds.push_back({spec.dims[d], static_cast<int>(d) == spec.twiddle_dim, static_cast<int>(d) == spec.axis_dim,
                  static_cast<int>(d) == spec.pair_dim && spec.pair_rows % 2 == 1});
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
  spec.pair_dim = -1;
  for (const D& d : merged) {
    if (d.twiddle) spec.twiddle_dim = static_cast<int>(spec.dims.size());
    if (d.chirp) spec.axis_dim = static_cast<int>(spec.dims.size());
    if (d.pair) spec.pair_dim = static_cast<int>(spec.dims.size());
    spec.dims.push_back(d.dim);
  }
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
  // thread) of a 513-wide half spectrum spill at 5 groups. The pieces ask
  // for their own (Piece::extra_registers: a real axis's mirror loads and
  // split stores). An exchange in halves keeps one real a point waiting.
  int piece_extra = 0;
  for (const pieces::Piece* piece : pieces::of(spec)) piece_extra += piece->extra_registers(spec);
  bool odd_extents = false;
  if (spec.points_per_thread() >= 32)
    for (std::size_t d = 0; d + 1 < spec.dims.size(); ++d)
      odd_extents = odd_extents || (spec.dims[d].extent & (spec.dims[d].extent - 1)) != 0;
  const int registers = 2 * words * spec.points_per_thread() + temporaries + 40 +
                        (spec.stage_twiddle_bits > 0 ? 48 : 0) + (spec.wide ? 16 : 0) +
                        (spec.reads_pass_twiddles() ? 24 : 0) + (spec.convolve ? 40 : 0) + (odd_extents ? 8 : 0) +
                        piece_extra + (spec.local_halves ? words * spec.points_per_thread() : 0);
  return std::min(255, registers);
}

std::int64_t warps_of(std::int64_t threads) { return (threads + 31) / 32 * 32; }  // registers are granted per warp

// As many groups per multiprocessor as the estimated registers allow (the
// compiler is asked to fit them: __launch_bounds__).
int groups_per_unit(const KernelSpec& spec, const DeviceLimits& limits) {
  const int group = static_cast<int>(warps_of(spec.group_size()));
  const int groups =
      std::min(limits.threads_per_unit / group, limits.registers_per_unit / (group * register_estimate(spec)));
  return std::max(1, groups);
}

// Whether the tuning table's launch choices apply to `spec`: a one-pass
// kernel of contiguous points of a complex transform (what `bfly tune` times).
bool tunable(const KernelSpec& spec) {
  return modes_admit(spec, Form::Tuning) && spec.mapping == Mapping::TransformMajor && spec.stride_product == 1 &&
         spec.in_point_stride == 1 && spec.out_point_stride == 1 && spec.length > 1;
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
  s.min_groups_per_unit = std::max(1, std::min(s.min_groups_per_unit, groups_local_memory_holds(s, limits)));
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
    s.stage_twiddle_bits =
        choice.two_level ? static_cast<int>(std::ceil(std::log2(static_cast<double>(s.length)) / 2)) : 0;
  if (limits.twiddle_powers == 1 && s.stage_twiddle_bits == 0) s.stage_twiddle_powers = false;
  if (choice.padding >= 0) s.local_padding = choice.padding == 1;
  if (choice.threads > 0)
    s.threads_per_transform = static_cast<int>(
        std::clamp<std::int64_t>(choice.threads, 1, std::min<std::int64_t>(limits.max_group_size, s.length / 2)));
  if (choice.group_threads > 0 || choice.threads > 0) {
    const std::int64_t aim = choice.group_threads > 0 ? choice.group_threads : limits.target_group_size;
    s.transforms_per_group = static_cast<int>(std::max<std::int64_t>(1, aim / s.threads_per_transform));
  }
  if (choice.halves >= 0) s.local_halves = choice.halves == 1 && s.halves_allowed();
  if (!fit_group(s, limits)) return false;
  if (limits.registers_per_unit > 0) {
    s.min_groups_per_unit = choice.occupancy >= 0 ? choice.occupancy : groups_per_unit(s, limits);
    // A group of 1024 threads can keep at most 64 registers each.
    s.min_groups_per_unit =
        std::min(s.min_groups_per_unit, static_cast<int>(limits.threads_per_unit / warps_of(s.group_size())));
  }
  // (An entry that does not say was measured unstaged.)
  set_staged(s, std::max(0, choice.staged), limits);
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
  // (A phase at one thread a transform that still passes the group, C or R
  // above max_group_size, cannot shrink: plane.cpp never asks for one.)
  while (std::max(columns_threads * C, rows_threads * R) > limits.max_group_size) {
    if (columns_threads * C >= rows_threads * R && columns_threads > 1)
      columns_threads = (columns_threads + 1) / 2;
    else if (rows_threads * R >= columns_threads * C && rows_threads > 1)
      rows_threads = (rows_threads + 1) / 2;
    else
      break;
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
    const int columns_points = points(spec.radices, R, columns_threads),
              rows_points = points(spec.plane_radices, C, rows_threads);
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
      const int fit = groups_local_memory_holds(spec, limits);
      const int registers = limits.registers_per_unit / (group * 64);
      spec.min_groups_per_unit =
          std::max(spec.min_groups_per_unit, std::min({fit, registers, limits.threads_per_unit / group}));
    }
  }
}

// The values a thread holds in a stage of radix r when T = N / m threads
// share its N / r butterflies (b = t + j T): ceil(m / r) butterflies.
std::int64_t stage_values(std::int64_t m, int r) { return (m + r - 1) / r * r; }

// The radices of at most 16 whose product is n that leave a thread the
// fewest values at m, counting any up to `floor` as `floor` (then the fewest
// stages), largest first; empty where n does not factor over them.
std::vector<int> row_radices(std::int64_t n, std::int64_t m, const std::vector<int>& small, std::int64_t floor) {
  std::vector<int> best, now;
  std::int64_t best_values = 0;
  std::function<void(std::int64_t, std::size_t, std::int64_t)> search = [&](std::int64_t rest, std::size_t from,
                                                                            std::int64_t values) {
    values = std::max(values, floor);
    if (rest == 1) {
      if (best.empty() || values < best_values || (values == best_values && now.size() < best.size()))
        best = now, best_values = values;
      return;
    }
    if (now.size() >= 8) return;
    for (std::size_t i = from; i < small.size(); ++i) {
      const int r = small[i];
      if (rest % r != 0) continue;
      now.push_back(r);
      search(rest / r, i, std::max(values, stage_values(m, r)));
      now.pop_back();
    }
  };
  search(n, 0, 0);
  return best;
}

// VkFFT's rule for a one-pass row (DeviceLimits::row_values, `target`): m
// values a thread for m a divisor of N from 2/3 to twice the target (N / m
// threads within a group), with the radices that leave a thread the fewest
// values at that m; of the m, the one with the fewest values a thread, then
// the fewest stages, then m nearest the target. With `floor`, values up to
// the target count as the target: a one-kernel convolution (DeviceLimits::
// convolution_values) takes the fewest stages within it, not seven of
// radix 2 and 6 for six values (1152 = 6 x 6 x 2^5; 8 x 8 x 9 x 2 at 8).
// Sets spec.radices; returns the threads, or 0 where no m applies.
std::int64_t row_values_threads(KernelSpec& spec, const DeviceLimits& limits, std::int64_t target, bool floor) {
  std::vector<int> small;
  for (int r : available_radices())
    if (r <= 16) small.push_back(r);
  std::sort(small.begin(), small.end(), std::greater<int>());
  const std::int64_t n = spec.length;
  std::vector<int> best;
  std::int64_t best_m = 0, best_values = 0;
  for (std::int64_t m = std::max<std::int64_t>(2, 2 * target / 3); m <= 2 * target; ++m) {
    if (n % m != 0 || n / m > limits.max_group_size) continue;
    const std::vector<int> radices = row_radices(n, m, small, floor ? target : 0);
    if (radices.empty()) continue;
    std::int64_t values = floor ? target : 0;
    for (int r : radices) values = std::max(values, stage_values(m, r));
    const bool better =
        best.empty() || values < best_values || (values == best_values && radices.size() < best.size()) ||
        (values == best_values && radices.size() == best.size() && std::abs(m - target) < std::abs(best_m - target));
    if (better) best = radices, best_m = m, best_values = values;
  }
  if (best.empty()) return 0;
  spec.radices = best;
  return n / best_m;
}

}  // namespace

// (column_points.hpp: complete_model chooses among its launches.)
void complete_model_at(KernelSpec& spec, const DeviceLimits& limits) {
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
  // Points of a transform apart in memory: adjacent work-items take adjacent
  // transforms (columns), so reads coalesce across the group.
  // (A packed real axis reads two reals a point: contiguous at stride 2.)
  const std::int64_t point_stride =
      spec.real_load == KernelSpec::RealLoad::Pairs ? spec.in_point_stride / 2 : spec.in_point_stride;
  const bool columns = point_stride != 1 || length == 1;
  spec.mapping = columns ? Mapping::ColumnMajor : Mapping::TransformMajor;
  normalise_dims(spec, columns);
  apply_composite_radices(spec, limits);
  // (DeviceLimits::convolution_values: the same rule for a one-kernel
  // convolution, whose two FFTs keep their points live.)
  // (Bluestein's middle pass along rows by it lost: fp64, 1.037x the time
  // over 10 primes, none faster; H100, docs/perf/2026-11-27f-issue39.)
  const bool one_pass_row = !columns && spec.stride_product == 1 && !spec.clustered();
  const std::int64_t values = spec.convolve ? limits.convolution_values : limits.row_values;
  const std::int64_t rule_threads =
      values > 0 && one_pass_row ? row_values_threads(spec, limits, values, spec.convolve) : 0;
  const int widest = spec.radices.empty() ? 1 : *std::max_element(spec.radices.begin(), spec.radices.end());
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
  const bool long_table =
      length > 4 * limits.max_direct_twiddles || (power_of_two && length > limits.max_direct_twiddles);
  if (long_table) spec.stage_twiddle_bits = static_cast<int>(std::ceil(std::log2(static_cast<double>(length)) / 2));

  // One widest butterfly per thread per stage (or VkFFT's rule, above).
  std::int64_t threads = rule_threads > 0 ? rule_threads : (length + widest - 1) / widest;
  // A one-kernel convolution: a thread a butterfly of its busiest stage
  // where that pays (row_threads.cpp).
  if (rule_threads == 0) threads = convolution_threads(spec, limits, threads);
  if (!columns && rule_threads == 0) threads = row_busiest_threads(spec, limits, threads);
  std::int64_t per_group = columns ? limits.min_columns : std::max<std::int64_t>(1, limits.target_group_size / threads);
  // On a GPU, short strided transforms take more columns, up to a full
  // group: a 7-point column pass with 8 columns ran groups of 8 threads
  // (H100, 7x4096: 65% of the two-pass floor, 0.66x cuFFT).
  if (columns && limits.is_gpu) per_group = std::max(per_group, limits.target_group_size / threads);
  // A row pass whose own store goes by columns through local memory
  // (Bluestein's last pass, pieces/chirp.cpp): at least a 32-byte sector of
  // adjacent transforms a row of its stores (at 1-2 transforms a group, its
  // 8-byte stores a row apart moved 2-4x the bytes).
  if (!columns && limits.is_gpu && spec.out_point_stride != 1 && spec.pieces_own_store() &&
      spec.pieces_store_from_local()) {
    const std::int64_t sector = spec.precision == Precision::Double ? 2 : 4;
    per_group = std::max(per_group, largest_divisor_at_most(spec.dims.front().extent, sector));
  }
  // Long strided transforms on a GPU: about 64 points per thread. Their
  // columns fill most of the shared memory, so few groups fit a
  // multiprocessor; fewer threads per group, each with more independent
  // loads, wait less at the barriers (H100, ms at 2^26 points: 16-32 vs 4-8
  // points per thread, columns sweep: 2048x2048 0.81 vs 1.16, 4096x4096
  // 0.91 vs 1.20, 3000x3000 0.99 vs 1.19; 128 points per thread fell to 2.66
  // at 4096. From 1000 points rather than 2048, long_strided: 1000x1000
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
  const std::int64_t fp32_points =
      power_of_two || wide_codelet(length) ? limits.strided_points_per_thread : limits.strided_points_mixed;
  const std::int64_t per_thread = spec.precision == Precision::Double || spec.convolve ? 16 : fp32_points;
  const bool long_strided = columns && limits.is_gpu && length >= limits.long_strided_length;
  if (long_strided) threads = std::min<std::int64_t>(threads, (length + per_thread - 1) / per_thread);
  if (long_strided && !power_of_two) {
    // Mixed-radix stages round a thread's points up past per_thread (2000 =
    // 25 x 10 x 8 at 32 threads: 75 points, whose pass twiddles spilled
    // under 255 registers in the NVRTC sweep): the fewest more threads, up
    // to twice as many, that bring them within it (40: 50 points), so each
    // thread does whole butterflies (1000-point columns at 16: 100 threads
    // of 10 points, not 63 of 20; H200, fp32: 3000x3000 1.09x, at 64 as
    // before, but 12582912 0.94x).
    // (DeviceLimits::column_busiest: up to a thread a butterfly of the
    // busiest stage, so every stage's butterflies can spread one a thread:
    // fp64 1215 = 15 x 9 x 9 at 76 threads holds 30 points, at 135 15;
    // column_points.cpp complete_model keeps it where it pays.)
    std::int64_t busiest = (length + widest - 1) / widest;
    if (limits.column_busiest)
      for (int r : spec.radices) busiest = std::max<std::int64_t>(busiest, length / r);
    const std::int64_t most = std::min<std::int64_t>(2 * threads, busiest);
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
  const bool compact_double =
      spec.precision == Precision::Double && 2 * per_thread <= limits.strided_compact_words_double;
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
    threads =
        std::clamp<std::int64_t>((length + limits.cluster_points_per_thread - 1) / limits.cluster_points_per_thread, 1,
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
  // Twiddles as powers (KernelSpec::stage_twiddle_powers), but not in long
  // strided passes of 32 words a thread, whose registers are full: the
  // products keep w^1..w^7 live through a radix-16 stage (NVRTC, sm_90:
  // 2048- and 4096-point columns spilled 16-44 bytes; H200, 1572864's
  // 1024-point columns 127 -> 157 registers, 0.91x).
  const int point_words = spec.precision == Precision::Double ? 2 : 1;
  spec.stage_twiddle_powers = (limits.twiddle_powers == 2 || (limits.twiddle_powers == 1 && long_table)) &&
                              spec.radices.size() > 1 &&
                              !(long_strided && spec.points_per_thread() * point_words >= 32);
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
    const bool compact =
        long_strided && spec.points_per_thread() * words <= (words == 1 ? 32 : limits.strided_compact_words_double);
    while (per_group > 1 && !spec.clustered() && !compact &&
           warps_of(threads * per_group) * registers > limits.registers_per_unit)
      per_group /= 2;
    // (DeviceLimits::convolution_group: a convolution's columns past it.)
    while (per_group > 1 && spec.convolve && columns && limits.convolution_group > 0 &&
           threads * per_group > limits.convolution_group)
      per_group /= 2;
    spec.transforms_per_group = static_cast<int>(per_group);
    spec.min_groups_per_unit = groups_per_unit(spec, limits);
    if (compact && limits.strided_groups_per_unit > 0) {
      const int group = static_cast<int>(warps_of(threads * per_group));
      spec.min_groups_per_unit = std::max(1, std::min({limits.strided_groups_per_unit, limits.threads_per_unit / group,
                                                       groups_local_memory_holds(spec, limits)}));
    }
    // Clusters: as many blocks as asked where their local memory fits (a
    // multiprocessor has 1 KiB a block more) and their points leave the
    // registers room (NVRTC, sm_90, two blocks: 32 fp32 points a thread of
    // 256 spill 12-16 bytes, 50 of 392 (radix 25) 1.7 KB, 30 fp64 276 bytes).
    if (spec.clustered() && limits.cluster_groups_per_unit > 0 && spec.points_per_thread() * words <= 36) {
      spec.min_groups_per_unit =
          std::max(1, std::min(limits.cluster_groups_per_unit, groups_local_memory_holds(spec, limits)));
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
    // Computed where the count is a multiple of 8 (DeviceLimits::
    // pass_sincos), whose quadrant and octant fold are integers and whose
    // angle in [0, pi/4] takes two short polynomials: through a division
    // and sincospi's general range reduction, 100000's short passes (250
    // points after 400) ran 0.762 -> 0.968 ms (H100, 2026-11-23); folded,
    // 0.761 -> 0.758 (2026-11-27, later).
    const std::int64_t points = spec.pass_twiddle_points();
    spec.pass_sincos =
        spec.has_pass_twiddles() && !spec.clustered() &&
        ((limits.pass_sincos >= 1 && (points & (points - 1)) == 0) || (limits.pass_sincos >= 2 && points % 8 == 0));
  }
}

namespace {

// Short rows whose threads would read less than limits.block_rows_bytes
// of a row at once load and store as one block (KernelSpec::block_rows),
// where its local array fits.
void set_block_rows(KernelSpec& spec, const DeviceLimits& limits) {
  const int point = spec.precision == Precision::Single ? 8 : 16;
  if (limits.block_rows_bytes <= 0 || spec.threads_per_transform * point >= limits.block_rows_bytes ||
      !spec.block_rows_allowed())
    return;
  if (limits.is_gpu && spec.precision == Precision::Double && wide_codelet(spec.length)) return;
  spec.block_rows = true;
  if (spec.local_bytes() > limits.local_memory_bytes) spec.block_rows = false;
}

// Short real rows the same way (KernelSpec::real_block): an R2C or C2R in
// one pass, rows end to end in both buffers (out of place), where a row's
// threads would read less than real_block_bytes of it at once (a C2R,
// whose mirrored reads X[n - j] scatter the more), or half that (an R2C).
// H200 fp32, 2^26 points: R2C rows of one thread (7-31 points) 2.0-3.3x
// faster, of 3 (21, 27) 1.02-1.09x, of 5 and 7 (45, 63) 0.85-0.88x; C2R 13
// and 19 points 4.8-5.8x, 125 (5 threads) 1.23x (docs/PERF.md 2026-11-26).
void set_real_block(KernelSpec& spec, const DeviceLimits& limits) {
  using K = KernelSpec;
  const int real = spec.precision == Precision::Single ? 4 : 8;
  const bool r2c = spec.real_load == K::RealLoad::Real && spec.real_store == K::RealStore::Half;
  const bool c2r = spec.real_load == K::RealLoad::Hermitian && spec.real_store == K::RealStore::Real;
  const int bytes = c2r ? limits.real_block_bytes : limits.real_block_bytes / 2;
  if (bytes <= 0 || spec.threads_per_transform * real >= bytes) return;
  const std::int64_t n = spec.length, h = n / 2 + 1;
  if ((!r2c && !c2r) || spec.row_pairs() || spec.bluestein() || spec.rader_prime > 0 || !spec.store_ops.empty() ||
      !spec.load_ops.empty() || spec.staged || spec.block_rows || spec.local_halves || spec.stride_product != 1 ||
      spec.mapping != Mapping::TransformMajor || spec.transforms_per_group < 2 || spec.in_point_stride != 1 ||
      spec.out_point_stride != 1 || spec.dims.back().in_stride != (r2c ? n : h) ||
      spec.dims.back().out_stride != (r2c ? h : n))
    return;
  // (A C2R keeps the axis's dim of one point for its index j.)
  for (std::size_t d = 0; d + 1 < spec.dims.size(); ++d)
    if (spec.dims[d].extent != 1) return;
  spec.real_block = true;
  if (spec.local_bytes() > limits.local_memory_bytes) spec.real_block = false;
}

// The launch: the model's, then a tuning table's where one applies.
std::string complete_launch(KernelSpec& spec, const DeviceLimits& limits) {
  complete_model(spec, limits);
  if (spec.clustered()) return "model";
  // One-kernel convolutions: the groups their points leave registers for,
  // as rows (row_threads.cpp), where that is more than the estimate asked.
  // Bluestein's other rows (the chirp's passes) the groups a row's points
  // leave, as the tuner's rows.
  if (convolution_occupancy_applies(spec, limits))
    spec.min_groups_per_unit =
        std::max(spec.min_groups_per_unit,
                 spec.convolve ? convolution_groups_per_unit(spec, limits) : row_groups_per_unit(spec, limits));
  // (Bluestein's middle pass of three: DeviceLimits::convolution_pass_groups.)
  spec.min_groups_per_unit = std::max(spec.min_groups_per_unit, convolution_pass_groups(spec, limits));
  if (!tunable(spec)) return "model";
  // Long rows: the thread count that keeps their points in registers
  // (plan/row_threads.cpp).
  if (choose_long_row_threads(spec, limits) && limits.registers_per_unit > 0)
    spec.min_groups_per_unit = groups_per_unit(spec, limits);
  // A row too long for local memory in whole points exchanges in halves.
  if (spec.local_bytes() > limits.local_memory_bytes && spec.halves_allowed()) {
    spec.local_halves = true;
    if (limits.registers_per_unit > 0) spec.min_groups_per_unit = groups_per_unit(spec, limits);
  }
  // Long rows hold one or two groups a multiprocessor: staged, the next
  // transform's loads overlap this one's stages. With row_occupancy, only
  // where one group fits: staging doubles a group's local memory, and
  // where the registers let several groups share a multiprocessor they
  // hide the loads as well (the tune log: 3375 unstaged at 4 groups 1.21x
  // the staged one at 1, 4235 1.28x, 9375 at 2 1.38x; 12288 and 13824,
  // one group, staged 1.06-1.2x).
  if (limits.row_occupancy && limits.registers_per_unit > 0 && spec.transforms_per_group == 1) {
    spec.min_groups_per_unit = row_groups_per_unit(spec, limits);
    set_staged(spec, spec.min_groups_per_unit > 1 ? 0 : model_stages(spec, limits), limits);
  } else {
    set_staged(spec, model_stages(spec, limits), limits);
  }
  if (!limits.tuning) return "model";
  if (const TuningEntry* tuned = limits.tuning->exact(spec.precision, spec.length); tuned && tuned->passes.empty())
    return apply_launch(spec, tuned->launch, limits) ? "table"
                                                     : "model (the table's " + tuned->launch.text() + " does not fit)";
  // A length the table has no entry for keeps the model's launch: nothing
  // is borrowed from a neighbour (issue 39). Where its kernel spills, the
  // runtime tries the rule's other launches (plan/launch_alternatives.hpp).
  return "model";
}

}  // namespace

bool apply_choice(KernelSpec& spec, const LaunchChoice& choice, const DeviceLimits& limits) {
  return apply_launch(spec, choice, limits);
}

bool tunable_row(const KernelSpec& spec) { return tunable(spec); }

int groups_local_memory_holds(const KernelSpec& spec, const DeviceLimits& limits) {
  return static_cast<int>((limits.local_memory_bytes + 1024) / (spec.local_bytes() + 1024));
}

std::string complete_spec(KernelSpec& spec, const DeviceLimits& limits) {
  const std::string from = complete_launch(spec, limits);
  set_block_rows(spec, limits);
  set_real_block(spec, limits);
  return from;
}

}  // namespace bfly::plan
