#include "plan/row_threads.hpp"

#include <algorithm>

namespace bfly::plan {

bool points_fit_registers(const KernelSpec& spec, int registers_per_unit) {
  const int words = spec.precision == Precision::Double ? 2 : 1;
  const std::int64_t warps = (spec.threads_per_transform + 31) / 32 * 32;  // registers are granted per warp
  const std::int64_t leaves = std::min<std::int64_t>(255, registers_per_unit / warps);
  return 2 * words * spec.points_per_thread() + 40 <= leaves;
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

}  // namespace bfly::plan
