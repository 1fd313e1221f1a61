#include "plan/column_points.hpp"

#include "plan/row_threads.hpp"

namespace bfly::plan {

namespace {

// Points a thread of long strided fp32 columns before issue 39 (not powers
// of two): complete_model keeps them where fewer would cost columns.
constexpr int kStridedPointsWide = 64;
// ... and where the group's registers cannot hold its points at 16.
constexpr int kStridedColumnsFit = 32;

// DeviceLimits::column_halving: the model's launch at half the columns
// it aims at, and half again while a row of its loads fills a 32-byte
// sector, where its threads then hold their points; `spec` becomes the
// first that fits.
bool fewer_columns_fit(KernelSpec& spec, const KernelSpec& given, const DeviceLimits& limits) {
  if (limits.column_halving <= 0) return false;
  const int point = spec.precision == Precision::Double ? 16 : 8;
  const int least = (32 + point - 1) / point;
  DeviceLimits fewer = limits;
  for (int columns = limits.min_columns / 2; columns >= 1; columns /= 2) {
    fewer.min_columns = columns;
    KernelSpec s = given;
    complete_model_at(s, fewer);
    if (s.transforms_per_group < least) return false;
    if (column_points_fit_registers(s, limits.registers_per_unit)) {
      spec = s;
      return true;
    }
  }
  return false;
}

// DeviceLimits::column_halving = 2: the widest launch's points need more
// than 4/3 of the registers its threads leave (fp64 3375x9's 3375-point
// columns at 4 x 225 threads: 94 for 64, 552 bytes spilled, 1.75x slower
// than 2 columns of the busiest launch). H100, 2^26 points, bfly alone, on
// lengths drawn among those 5/4 changed (docs/perf/2026-11-27e-issue39,
// STEP=24): past 7/5 (3200, 3375: 296-568 bytes) 0.57-0.81x; at 11/8
// (2016, 2205, 2268; fp32 2800's 100 for 72) 0.977x over 10, from 0.83x
// to 1.08x; at 1.31 (fp32 2500 and 2625, 94 for 72, 52-76 bytes) 0.99x to
// 1.04x, so those keep the widest; and 2058x768's 88 for 80 ran 1.17x
// faster at 4 columns than at 2 (STEP=22).
bool widest_spills_far(const KernelSpec& widest, const DeviceLimits& limits) {
  return limits.column_halving >= 2 &&
         3 * column_registers_needed(widest) > 4 * column_registers_left(widest, limits.registers_per_unit);
}

// Long strided fp32 columns of a length not a power of two take
// strided_points_mixed points a thread (16), where the group keeps the
// columns it has at the old 64 (a 64-byte run a row and point): H200,
// 2^26 points, fp32, 21 lengths that change, 16 against 64 where the
// columns stay: 1536000 1.30x, 5788125 1.33x, 6718464 1.23x, 1000000
// 1.17x; where they halve: 3000x3000 0.80x, 12582912 0.96x (docs/PERF.md
// 2026-11-26, issue 39 third step).
void complete_model_once(KernelSpec& spec, const DeviceLimits& limits) {
  const KernelSpec given = spec;
  complete_model_at(spec, limits);
  // DeviceLimits::column_busiest: where its threads leave their group too
  // few registers for their points, the launch without it (NVRTC, sm_90:
  // fp32 4480000's 2240-point columns at 8 x 112 threads spilled 264 bytes;
  // fp64 3111696's 1764-point ones at 4 x 196, 128).
  if (limits.column_busiest && spec.mapping == Mapping::ColumnMajor && limits.registers_per_unit > 0 &&
      !column_points_fit_registers(spec, limits.registers_per_unit)) {
    KernelSpec busy = spec;
    DeviceLimits off = limits;
    off.column_busiest = 0;
    spec = given;
    complete_model(spec, off);
    if (fewer_columns_fit(busy, given, limits) &&
        (busy.transforms_per_group >= spec.transforms_per_group || widest_spills_far(spec, limits)))
      spec = busy;
    return;
  }
  // (Only there does strided_points_mixed decide anything: doubles take 16
  // and powers of two strided_points_per_thread either way.)
  const bool mixed = (spec.length & (spec.length - 1)) != 0 && spec.precision == Precision::Single;
  if (!limits.is_gpu || limits.strided_points_mixed >= kStridedPointsWide || spec.mapping != Mapping::ColumnMajor ||
      !mixed || spec.length < limits.long_strided_length)
    return;
  KernelSpec wide = given;
  DeviceLimits at_wide = limits;
  at_wide.strided_points_mixed = kStridedPointsWide;
  complete_model_at(wide, at_wide);
  if (wide.transforms_per_group > spec.transforms_per_group) {
    spec = wide;
    // (DeviceLimits::wide_fit: 32 a thread at the wide launch's columns.)
    if (limits.wide_fit && limits.registers_per_unit > 0) {
      KernelSpec half = given;
      DeviceLimits at_half = limits;
      at_half.strided_points_mixed = kStridedColumnsFit;
      at_half.min_columns = wide.transforms_per_group;
      complete_model_at(half, at_half);
      if (half.transforms_per_group == wide.transforms_per_group &&
          half.threads_per_transform > wide.threads_per_transform &&
          column_points_fit_registers(half, limits.registers_per_unit))
        spec = half;
    }
    return;
  }
  // Where the group's threads leave too few registers for their points, 32
  // points a thread in fewer threads, if the columns stay and they fit
  // (H200, fp32, 2^26 points: chosen where 32 everywhere ran 1680000,
  // 2222640 and 4705960 1.24-1.25x and spilling 8 columns of 30 lost up
  // to 54%; on 12 lengths drawn after it among those it changes, 1.107x,
  // none slower; 3211264 0.95x, whose 896 threads spilling 48 bytes beat
  // 512 that do not; docs/PERF.md, issue 39, 2026-11-27).
  const int regs = limits.registers_per_unit;
  if (regs <= 0 || limits.strided_points_mixed >= kStridedColumnsFit || column_points_fit_registers(spec, regs)) return;
  KernelSpec fewer = given;
  DeviceLimits at_fewer = limits;
  at_fewer.strided_points_mixed = kStridedColumnsFit;
  complete_model_at(fewer, at_fewer);
  if (fewer.transforms_per_group >= spec.transforms_per_group && column_points_fit_registers(fewer, regs)) spec = fewer;
}

}  // namespace

// DeviceLimits::column_busiest = 1: the launch up to a thread a butterfly
// of the busiest stage where, at the threads its group keeps, it cuts a
// thread's points by a quarter, or the widest launch's values fill more
// than 64 registers. H200, 2^26 points, 12 random lengths 1.2M-2.8M the
// knob changes, against the widest (docs/perf/2026-11-27-h200-issue39-ab2):
// fp64, all of them past 64 words, 1.21x geomean (1524096 1.44x, 1960000
// 1.41x, 1400000 1.32x, none below 1.03x); fp32 1.06x on the 6 cut by a
// quarter (1524096 and 2304960 1.09x) and 0.93-0.99x on the 6 cut by less
// (1960000's 1400-point columns at 8 x 70 threads of 28 points, not 8 x 50
// of 30: 0.93x), which keep the widest. (Not a one-kernel convolution's
// columns, Rader's, which hold two FFTs' values and which nothing has
// timed with it; Bluestein's passes past one kernel are plain FFT columns
// with a chirp piece, and take it.)
void complete_model(KernelSpec& spec, const DeviceLimits& limits) {
  const KernelSpec given = spec;
  complete_model_once(spec, limits);
  // (Only long mixed columns search past the widest: launch_model.cpp.)
  const bool searched = limits.is_gpu && (spec.length & (spec.length - 1)) != 0 &&
                        spec.length >= limits.long_strided_length && spec.mapping == Mapping::ColumnMajor;
  if (limits.column_busiest != 1 || !searched) return;
  KernelSpec widest = given;
  DeviceLimits off = limits;
  off.column_busiest = 0;
  complete_model_once(widest, off);
  const int before = widest.points_per_thread(), after = spec.points_per_thread();
  const int words = spec.precision == Precision::Double ? 4 : 2;
  // (Not where the widest launch would spill far, column_halving = 2, but
  // for a convolution's columns, which always take the widest.)
  if (!given.convolve && widest_spills_far(widest, limits) &&
      column_points_fit_registers(spec, limits.registers_per_unit))
    return;
  if (given.convolve || (4 * after > 3 * before && words * before <= 64)) spec = widest;
}

}  // namespace bfly::plan
