#include "plan/launch_alternatives.hpp"

#include <algorithm>
#include <map>

#include "plan/launch_model.hpp"
#include "plan/row_threads.hpp"

namespace bfly::plan {

std::vector<KernelSpec> launch_alternatives(const KernelSpec& spec, const DeviceLimits& limits, int most) {
  std::vector<KernelSpec> out;
  if (!limits.is_gpu || limits.registers_per_unit <= 0 || !tunable_row(spec) || spec.radices.empty()) return out;
  // Points a thread -> the fewest threads that give it.
  std::map<int, int> fewest;
  KernelSpec probe = spec;
  const std::int64_t top = std::min<std::int64_t>(limits.max_group_size, spec.length / 2);
  for (std::int64_t t = 32; t <= top; ++t) {
    probe.threads_per_transform = static_cast<int>(t);
    const int points = probe.points_per_thread();
    // A launch whose points alone pass what its threads leave cannot fit.
    if (!points_fit_registers(probe, limits.registers_per_unit)) continue;
    // Nor more points than the model's launch or 36, whichever is more:
    // fewer threads holding more fit the registers but leave a
    // multiprocessor too few warps (H100: 20736 at 247 threads of 84 points
    // spilled nothing and ran 2.5x slower than at 432 of 48 spilling 4
    // bytes; 24000 at 250 of 105, 2.4x). Up to 36 they ran as well as or
    // better than the model's (7680 at 256 threads of 32: 1.24x).
    if (points > std::max(36, spec.points_per_thread())) continue;
    fewest.emplace(points, static_cast<int>(t));
  }
  for (const auto& [points, threads] : fewest) {
    if (threads == spec.threads_per_transform) continue;
    LaunchChoice choice;
    choice.threads = threads;
    choice.staged = spec.staged;
    KernelSpec s = spec;
    if (!apply_choice(s, choice, limits) || s.threads_per_transform != threads) continue;
    out.push_back(s);
    if (static_cast<int>(out.size()) >= most) break;
  }
  return out;
}

bool row_occupancy_applies(const KernelSpec& spec, const DeviceLimits& limits) {
  return limits.is_gpu && limits.row_occupancy && limits.registers_per_unit > 0 && tunable_row(spec) &&
         spec.transforms_per_group == 1 && !spec.clustered();
}

// (Both the one-kernel convolutions and the rows of Bluestein's passes
// around the spectrum, whose chirp pieces keep them out of the tuner's rows;
// with DeviceLimits::convolution_group_occupancy, convolutions of several
// transforms a group too.)
bool convolution_occupancy_applies(const KernelSpec& spec, const DeviceLimits& limits) {
  const bool one = spec.transforms_per_group == 1 || (limits.convolution_group_occupancy && spec.convolve);
  return limits.is_gpu && limits.row_occupancy && limits.registers_per_unit > 0 &&
         (spec.convolve || spec.bluestein()) && spec.mapping == Mapping::TransformMajor && spec.stride_product == 1 &&
         one && !spec.clustered() && !spec.staged;
}

int convolution_pass_groups(const KernelSpec& spec, const DeviceLimits& limits) {
  if (limits.convolution_pass_groups <= 0 || !limits.is_gpu || limits.registers_per_unit <= 0 || !spec.convolve ||
      spec.stride_product <= 1 || spec.clustered())
    return 0;
  const std::int64_t threads = std::max<std::int64_t>(1, spec.group_size());
  const std::int64_t by_threads = limits.threads_per_unit / threads;
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({limits.convolution_pass_groups, by_threads,
                                                                            groups_local_memory_holds(spec, limits)})));
}

// A few spilled words cost less than a group: 4704 at 48 registers
// spilling 28 bytes ran 1.07x faster than at 64 registers without. Where a
// group fewer loses a third or more of the warps (2-3 groups asked), more
// spill pays (H200, fp32, 2^26 points, the 11 spilling rows of 2-3 groups
// among 270 random smooth lengths 400-30000, kept at up to 200 bytes
// against 32: 1.092x, none slower; 8064 (180 bytes) 1.25x, 10584 1.20x,
// 10125 1.19x, 3360 1.16x); at 4-12 groups it does not (17 such rows kept
// at up to 64 bytes: 0.95x, 1080 0.93x, 2592 0.90x). docs/PERF.md, issue
// 39, eighth step.
// (Convolutions and the chirp passes around them: DeviceLimits::
// convolution_spill_bytes, in fp32 only, where a group fewer cost more
// than a few spilled words: 1.13x kept; in fp64 0.99x.)
std::size_t tolerated_spill_bytes(const KernelSpec& spec, const DeviceLimits& limits) {
  if (convolution_occupancy_applies(spec, limits))
    return spec.min_groups_per_unit >= 2 && spec.precision != Precision::Double
               ? static_cast<std::size_t>(limits.convolution_spill_bytes)
               : 0;
  if (!row_occupancy_applies(spec, limits) || spec.min_groups_per_unit < 2) return 0;
  return spec.min_groups_per_unit <= 3 ? static_cast<std::size_t>(limits.tolerated_spill_bytes) : 32;
}

// A one-kernel convolution completed afresh by VkFFT's values rule
// (DeviceLimits::convolution_relaunch_values, then 10 values a thread),
// those that hold fewer points a thread than `spec`, each once.
static std::vector<KernelSpec> fewer_values(const KernelSpec& spec, const DeviceLimits& limits) {
  std::vector<KernelSpec> out;
  const int first = limits.convolution_relaunch_values;
  if (first <= 0 || !spec.convolve || !convolution_occupancy_applies(spec, limits)) return out;
  for (int values : {first, std::min(first, 10)}) {
    DeviceLimits rule = limits;
    rule.convolution_values = values;
    KernelSpec s = spec;
    complete_spec(s, rule);
    const bool seen = std::any_of(out.begin(), out.end(), [&](const KernelSpec& o) { return o.name() == s.name(); });
    if (!seen && s.points_per_thread() < spec.points_per_thread()) out.push_back(s);
  }
  return out;
}

std::vector<KernelSpec> relaunch_candidates(const KernelSpec& spec, const DeviceLimits& limits) {
  std::vector<KernelSpec> out;
  // A convolution that spills at 1-2 groups: fewer values a thread first,
  // as one group a multiprocessor hides nothing (1609: 10% of the copy
  // floor there, 1.55x at 14 values); at more, a group fewer first.
  const std::vector<KernelSpec> values = fewer_values(spec, limits);
  if (spec.min_groups_per_unit <= 2) out.insert(out.end(), values.begin(), values.end());
  // (A convolution that spills at the groups its rule asked: one fewer.)
  if (row_occupancy_applies(spec, limits) || convolution_occupancy_applies(spec, limits))
    for (int groups = spec.min_groups_per_unit - 1; groups >= std::max(1, spec.min_groups_per_unit - 2); --groups) {
      KernelSpec fewer = spec;
      fewer.min_groups_per_unit = groups;
      out.push_back(fewer);
    }
  if (spec.min_groups_per_unit > 2) out.insert(out.end(), values.begin(), values.end());
  for (const KernelSpec& other : launch_alternatives(spec, limits)) out.push_back(other);
  return out;
}

std::optional<std::size_t> choose_relaunch(const std::vector<KernelSpec>& candidates, std::size_t spilled,
                                           std::size_t tolerated,
                                           const std::function<std::size_t(std::size_t)>& spill_of) {
  std::optional<std::size_t> best;
  std::size_t least = spilled;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::size_t bytes = spill_of(i);
    if (bytes < least) least = bytes, best = i;
    if (bytes <= tolerated) break;
  }
  return best;
}

std::int64_t busiest_thread_points(const KernelSpec& spec) {
  const std::int64_t T = std::max(1, spec.threads_per_transform);
  std::int64_t points = 0;
  for (int r : spec.radices) points += (spec.length / r + T - 1) / T * r;
  return points;
}

}  // namespace bfly::plan
