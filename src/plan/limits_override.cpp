#include "plan/limits_override.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "problem/text.hpp"

namespace bfly::plan {
namespace {

struct Key {
  const char* name;
  const char* what;    // the field it sets, and how
  long long min, max;  // the values it takes
  void (*apply)(DeviceLimits&, long long);
};

constexpr long long kAny = 1LL << 40;

// Each key, in the order they are applied (max_pass_length last: it lowers
// what single_pass and pass_length raised).
const std::vector<Key>& keys() {
  static const std::vector<Key> table{
      {"local_padding", "local_padding (0 or 1): padded local arrays", 0, 1,
       [](DeviceLimits& l, long long v) { l.local_padding = v != 0; }},
      {"local_memory", "local_memory_bytes, at most the device's", 1024, kAny,
       [](DeviceLimits& l, long long v) { l.local_memory_bytes = std::min<std::size_t>(l.local_memory_bytes, v); }},
      {"columns", "min_columns", 1, 1024, [](DeviceLimits& l, long long v) { l.min_columns = static_cast<int>(v); }},
      {"group", "target_group_size", 1, 4096,
       [](DeviceLimits& l, long long v) { l.target_group_size = static_cast<int>(v); }},
      {"occupancy", "0: no blocks-a-multiprocessor hint (registers_per_unit = 0)", 0, 1,
       [](DeviceLimits& l, long long v) {
         if (v == 0) l.registers_per_unit = 0;
       }},
      {"direct_twiddles", "max_direct_twiddles", 0, kAny,
       [](DeviceLimits& l, long long v) { l.max_direct_twiddles = v; }},
      {"twiddle_powers",
       "twiddle_powers: inner twiddles from looked-up powers of two (0 never, 1 with a two-level table, 2 always)", 0,
       2, [](DeviceLimits& l, long long v) { l.twiddle_powers = static_cast<int>(v); }},
      {"long_row_threads", "long_row_threads: the most threads of a long fp32 row (past 512 where they fit)", 64, 1024,
       [](DeviceLimits& l, long long v) { l.long_row_threads = static_cast<int>(v); }},
      {"staged", "staged_min_length, both precisions (0: no staging)", 0, kAny,
       [](DeviceLimits& l, long long v) { l.staged_min_length = l.staged_min_length_double = v; }},
      {"staged_copy", "staged_copy (1 or 2)", 1, 2,
       [](DeviceLimits& l, long long v) { l.staged_copy = static_cast<int>(v); }},
      {"single_pass", "max_single_pass_length, raising the row and pass limits to it", 2, kAny,
       [](DeviceLimits& l, long long v) {
         l.max_single_pass_length = v;
         l.max_tuned_row_length = std::max<std::int64_t>(l.max_tuned_row_length, v);
         l.max_row_length = std::max<std::int64_t>(l.max_row_length, v);
         l.max_row_length_double = std::max<std::int64_t>(l.max_row_length_double, v);
         l.max_pass_length = std::max<std::int64_t>(l.max_pass_length, v);
       }},
      {"strided_length", "max_strided_length", 2, kAny, [](DeviceLimits& l, long long v) { l.max_strided_length = v; }},
      {"cluster", "max_cluster, at most the device's (1: none)", 1, 64,
       [](DeviceLimits& l, long long v) { l.max_cluster = static_cast<int>(std::min<long long>(v, l.max_cluster)); }},
      {"cluster_double", "cluster_double (0 or 1): fp64 rows take clusters too", 0, 1,
       [](DeviceLimits& l, long long v) { l.cluster_double = v != 0; }},
      {"cluster_occ", "cluster_groups_per_unit", 0, 64,
       [](DeviceLimits& l, long long v) { l.cluster_groups_per_unit = static_cast<int>(v); }},
      {"cluster_chunk", "cluster_chunk_points (0: no preference)", 0, kAny,
       [](DeviceLimits& l, long long v) { l.cluster_chunk_points = v; }},
      {"cluster_points", "cluster_points_per_thread", 1, 256,
       [](DeviceLimits& l, long long v) { l.cluster_points_per_thread = static_cast<int>(v); }},
      {"long_strided", "long_strided_length", 0, kAny, [](DeviceLimits& l, long long v) { l.long_strided_length = v; }},
      {"strided_points", "strided_points_per_thread", 4, 256,
       [](DeviceLimits& l, long long v) { l.strided_points_per_thread = static_cast<int>(v); }},
      {"strided_mixed", "strided_points_mixed: the same for other lengths", 4, 256,
       [](DeviceLimits& l, long long v) { l.strided_points_mixed = static_cast<int>(v); }},
      {"generic",
       "generic_tier: 0 specialised, 1 the generic tier's fixed kernels, 2 tiered, 3 tiered unless the specialised "
       "kernels are at hand, 4 generic unless they are (3: auto)",
       0, 4, [](DeviceLimits& l, long long v) { l.generic_tier = static_cast<int>(v); }},
      {"early_nvrtc", "early_nvrtc (0 or 1): CUDA loads NVRTC on a thread as a device opens", 0, 1,
       [](DeviceLimits& l, long long v) { l.early_nvrtc = static_cast<int>(v); }},
      {"row_occupancy", "row_occupancy: one-pass rows' groups a multiprocessor from their points (0: the estimate)", 0,
       1, [](DeviceLimits& l, long long v) { l.row_occupancy = static_cast<int>(v); }},
      {"spill", "tolerated_spill_bytes: the spill a one-pass row of 2-3 groups keeps", 0, 4096,
       [](DeviceLimits& l, long long v) { l.tolerated_spill_bytes = static_cast<int>(v); }},
      {"convolution_pass_groups",
       "convolution_pass_groups: the least groups a multiprocessor Bluestein's middle pass of three asks (0: the "
       "estimate's)",
       0, 64, [](DeviceLimits& l, long long v) { l.convolution_pass_groups = static_cast<int>(v); }},
      {"convolution_group_occupancy",
       "convolution_group_occupancy (0 or 1): one-kernel convolutions of several transforms a group ask the groups "
       "their points leave registers for",
       0, 1, [](DeviceLimits& l, long long v) { l.convolution_group_occupancy = v != 0; }},
      {"convolution_spill",
       "convolution_spill_bytes: the spill a one-kernel fp32 convolution or a Bluestein chirp pass of 2 groups or "
       "more keeps (0: none)",
       0, 4096, [](DeviceLimits& l, long long v) { l.convolution_spill_bytes = static_cast<int>(v); }},
      {"composite_radices", "composite_radices (0 or 1): one-pass fp32 rows take radices 18-28 where they save a stage",
       0, 1, [](DeviceLimits& l, long long v) { l.composite_radices = static_cast<int>(v); }},
      {"wide_fit",
       "wide_fit: long fp32 columns kept at 64 points a thread take 32 where they fit (1, the default; 0: off)", 0, 1,
       [](DeviceLimits& l, long long v) { l.wide_fit = static_cast<int>(v); }},
      {"row_values", "row_values (0: one widest butterfly a thread)", 0, 64,
       [](DeviceLimits& l, long long v) { l.row_values = static_cast<int>(v); }},
      {"convolution_values", "convolution_values (0: a one-kernel convolution's threads by the model)", 0, 64,
       [](DeviceLimits& l, long long v) { l.convolution_values = static_cast<int>(v); }},
      {"convolution_relaunch_values",
       "convolution_relaunch_values (0: a spilling one-kernel convolution keeps its points a thread)", 0, 64,
       [](DeviceLimits& l, long long v) { l.convolution_relaunch_values = static_cast<int>(v); }},
      {"strided_compact_double", "strided_compact_words_double", 0, 4096,
       [](DeviceLimits& l, long long v) { l.strided_compact_words_double = static_cast<int>(v); }},
      {"strided_occ", "strided_groups_per_unit", 0, 64,
       [](DeviceLimits& l, long long v) { l.strided_groups_per_unit = static_cast<int>(v); }},
      {"block_rows", "block_rows_bytes (0: never)", 0, kAny,
       [](DeviceLimits& l, long long v) { l.block_rows_bytes = static_cast<int>(std::min<long long>(v, 1 << 30)); }},
      {"real_block", "real_block_bytes (0: never)", 0, kAny,
       [](DeviceLimits& l, long long v) { l.real_block_bytes = static_cast<int>(std::min<long long>(v, 1 << 30)); }},
      {"rader", "rader (0: Bluestein for every prime)", 0, 1, [](DeviceLimits& l, long long v) { l.rader = v != 0; }},
      {"real_rader_factor",
       "real_rader_factor: real axes by Rader on a prime factor past the paired rows' Bluestein kernel (1), past a "
       "C2C's (2), never (0)",
       0, 2, [](DeviceLimits& l, long long v) { l.real_rader_factor = static_cast<int>(v); }},
      {"rader_kernel", "rader_one_kernel", 0, kAny, [](DeviceLimits& l, long long v) { l.rader_one_kernel = v; }},
      {"convolution", "convolution_length: the longest one-kernel convolution (0: the GPUs' rule)", 0, kAny,
       [](DeviceLimits& l, long long v) { l.convolution_length = v; }},
      {"convolution_threads", "convolution_threads (0 or 1): a one-kernel convolution's threads", 0, 1,
       [](DeviceLimits& l, long long v) { l.convolution_threads = v != 0; }},
      {"row_busiest",
       "row_busiest (0, 1 or 2): one-pass rows a thread a butterfly of their busiest stage (1), or the fewest threads "
       "at the fewest points a thread that keep the groups a multiprocessor (2)",
       0, 2, [](DeviceLimits& l, long long v) { l.row_busiest = static_cast<int>(v); }},
      {"row_busiest_points", "row_busiest_points: the fewest points a thread row_busiest starts from", 1, 1024,
       [](DeviceLimits& l, long long v) { l.row_busiest_points = v; }},
      {"column_halving",
       "column_halving (0, 1 or 2): long mixed columns whose busiest launch leaves too few registers halve their "
       "columns first, while a row fills a 32-byte sector and they keep the widest launch's (2: or that one's "
       "points need 4/3 of the registers it leaves, the default)",
       0, 2, [](DeviceLimits& l, long long v) { l.column_halving = static_cast<int>(v); }},
      {"column_busiest",
       "column_busiest (0, 1 or 2): long mixed columns up to a thread a butterfly of their busiest stage "
       "(1: where that pays, 2: always)",
       0, 2, [](DeviceLimits& l, long long v) { l.column_busiest = static_cast<int>(v); }},
      {"convolution_group", "convolution_group: the most threads a group of a convolution's column pass (0: none)", 0,
       1024, [](DeviceLimits& l, long long v) { l.convolution_group = static_cast<int>(v); }},
      {"bluestein_three",
       "bluestein_three: Bluestein past one kernel in three passes (0 never, 1 but a C2R's real axis, 2 always)", 0, 2,
       [](DeviceLimits& l, long long v) { l.bluestein_three = static_cast<int>(v); }},
      {"bluestein_rows",
       "bluestein_rows (0-3): Bluestein's three passes with the middle one along contiguous rows (complex "
       "axes; 1: the longer length, 2: as long as one kernel goes where the columns are 64 points or more, 3: any)",
       0, 3, [](DeviceLimits& l, long long v) { l.bluestein_rows = static_cast<int>(v); }},
      {"plane", "plane_points (0: never)", 0, kAny, [](DeviceLimits& l, long long v) { l.plane_points = v; }},
      {"plane_block", "plane_block_bytes", 0, kAny,
       [](DeviceLimits& l, long long v) { l.plane_block_bytes = static_cast<int>(std::min<long long>(v, 1 << 30)); }},
      {"pass_sincos",
       "pass_sincos (0, 1 or 2): pass twiddles computed in the kernel where their count is a power of two (2: or a "
       "multiple of 8)",
       0, 2, [](DeviceLimits& l, long long v) { l.pass_sincos = static_cast<int>(v); }},
      {"l2_chain", "l2_chain_bytes in MiB, where the device chains (0: no chains)", 0, 1 << 20,
       [](DeviceLimits& l, long long v) {
         if (l.l2_chain_bytes > 0) l.l2_chain_bytes = v << 20;
       }},
      {"chain_unequal", "chain_unequal_groups (0 or 1)", 0, 1,
       [](DeviceLimits& l, long long v) { l.chain_unequal_groups = v != 0; }},
      {"chain_occ", "chain_groups_per_unit: a chained kernel's blocks a multiprocessor (0: the model's)", 0, 64,
       [](DeviceLimits& l, long long v) { l.chain_groups_per_unit = static_cast<int>(v); }},
      {"pass_length", "max_pass_length and preferred_pass_length, at most max_single_pass_length", 2, kAny,
       [](DeviceLimits& l, long long v) {
         l.max_pass_length = l.preferred_pass_length = std::min<std::int64_t>(v, l.max_single_pass_length);
       }},
      {"max_pass_length",
       "lowers max_single_pass_length, the row and pass limits to it, and takes no clusters or planes", 2, kAny,
       [](DeviceLimits& l, long long v) {
         l.max_single_pass_length = std::min<std::int64_t>(l.max_single_pass_length, v);
         l.max_tuned_row_length = std::min<std::int64_t>(l.max_tuned_row_length, v);
         l.max_row_length = std::min<std::int64_t>(l.max_row_length, v);
         l.max_row_length_double = std::min<std::int64_t>(l.max_row_length_double, v);
         l.max_pass_length = std::min<std::int64_t>(l.max_pass_length, v);
         l.max_cluster = 1;  // several passes, as asked
         l.plane_points = 0;
         l.preferred_pass_length = std::min<std::int64_t>(l.preferred_pass_length, v);
       }},
  };
  return table;
}

std::string key_list() {
  std::string names;
  for (const Key& k : keys()) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

}  // namespace

DeviceLimits with_override(DeviceLimits limits, const std::string& text) {
  if (text.empty()) return limits;
  std::map<std::string, long long> given;
  for (std::string item : text::split(text, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    const std::string where = "in the limits override '" + text + "'";
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw Error(ErrorCode::InvalidArgument,
                  "'" + item + "' " + where + " is not key=value (keys: " + key_list() + ")");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const auto key = std::find_if(keys().begin(), keys().end(), [&](const Key& k) { return name == k.name; });
    if (key == keys().end())
      throw Error(ErrorCode::InvalidArgument, "unknown key '" + name + "' " + where + " (keys: " + key_list() + ")");
    if (given.count(name)) throw Error(ErrorCode::InvalidArgument, "key '" + name + "' given twice " + where);
    char* end = nullptr;
    const long long v = value.empty() ? 0 : std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v < key->min || v > key->max)
      throw Error(ErrorCode::InvalidArgument, "invalid value '" + value + "' for " + name + " " + where +
                                                  " (expected an integer " + std::to_string(key->min) + " to " +
                                                  std::to_string(key->max) + ")");
    given[name] = v;
  }
  for (const Key& k : keys())
    if (const auto it = given.find(k.name); it != given.end()) k.apply(limits, it->second);
  return limits;
}

std::string override_text(const PlanOptions& options) {
  if (!options.limits.empty()) return options.limits;
  const char* env = std::getenv("BFLY_LIMITS");
  return env ? env : "";
}

std::string override_keys() {
  std::string out;
  for (const Key& k : keys()) out += std::string(k.name) + ": " + k.what + "\n";
  return out;
}

}  // namespace bfly::plan
