#include "plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "plan/factorize.hpp"
#include "plan/solvers/solver.hpp"

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

KernelSpec make_spec(const Problem& problem, std::int64_t length, std::int64_t stride_product,
                     const DeviceLimits& limits) {
  KernelSpec spec;
  spec.precision = problem.precision;
  spec.length = length;
  spec.total = problem.length();
  spec.stride_product = stride_product;
  spec.radices = choose_radices(length);
  const int widest = spec.radices.empty() ? 1 : *std::max_element(spec.radices.begin(), spec.radices.end());
  const std::size_t point = problem.element_bytes();
  const bool columns = spec.input_stride() > 1;
  spec.mapping = columns ? Mapping::ColumnMajor : Mapping::TransformMajor;
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
  // Keep the group within the device's limits: fewer threads per transform
  // (more points each) before fewer columns, since columns buy coalescing.
  while (threads * per_group > limits.max_group_size && threads > 1) threads = (threads + 1) / 2;
  while (threads * per_group > limits.max_group_size && per_group > 1) per_group /= 2;
  const std::int64_t row = spec.local_padding ? length + length / 16 : length;
  while (per_group > 1 && static_cast<std::size_t>(per_group * row) * point > limits.local_memory_bytes)
    per_group /= 2;
  spec.threads_per_transform = static_cast<int>(threads);
  if (limits.registers_per_unit > 0) {
    // Registers a thread needs for its points (2 each, plus about as many
    // again for the butterfly's temporaries) and indexing. The weights are
    // what the NVRTC sweep (tests/unit/test_cuda_codegen.cpp) needs to see no
    // kernel spill. A group must fit one multiprocessor's registers.
    // Codelets with odd factors (6, 7, 9, 10, ..., 25) keep ~5 temporaries a
    // point live; powers of two ~2.
    int temporaries = 0;
    for (int r : spec.radices) temporaries = std::max(temporaries, ((r & (r - 1)) == 0 ? 2 : 5) * r);
    const int registers = 2 * spec.points_per_thread() + temporaries + 40 + (spec.stage_twiddle_bits > 0 ? 48 : 0);
    auto warps_of = [](std::int64_t t) { return (t + 31) / 32 * 32; };  // registers are granted per warp
    while (per_group > 1 && warps_of(threads * per_group) * registers > limits.registers_per_unit) per_group /= 2;
    spec.transforms_per_group = static_cast<int>(per_group);
    // As many groups per multiprocessor as those registers allow.
    const int group = static_cast<int>(warps_of(spec.group_size()));
    int groups = std::min(limits.threads_per_unit / group, limits.registers_per_unit / (group * registers));
    spec.min_groups_per_unit = std::max(1, groups);
  }
  spec.transforms_per_group = static_cast<int>(per_group);
  if (spec.has_pass_twiddles()) {
    // Two-level table w^e = fine[e mod 2^b] * coarse[e >> b], b = ceil(log2(p*L)/2):
    // two tables of ~sqrt(p*L) entries instead of one of p*L.
    const double bits = std::log2(static_cast<double>(stride_product * length));
    spec.twiddle_fine_bits = static_cast<int>(std::ceil(bits / 2));
  }
  return spec;
}

PlanTree make_plan(const Problem& problem, const DeviceLimits& limits) {
  problem.validate();
  if (problem.shape.size() != 1)
    throw Error(ErrorCode::Unsupported, "shape " + std::to_string(problem.shape.size()) +
                                            "-dimensional transforms are not supported yet (1D only)");
  if (problem.precision != Precision::Single)
    throw Error(ErrorCode::Unsupported, "double precision is not supported yet");
  const std::int64_t n = problem.length();
  if (!is_supported_length(n))
    throw Error(ErrorCode::Unsupported,
                "length " + std::to_string(n) + " has prime factor " + std::to_string(largest_prime_factor(n)) +
                    "; lengths whose prime factors are all 2, 3, 5 or 7 are supported");
  std::string reasons;
  for (const Solver& solver : solvers()) {
    const std::string why = solver.applicable(problem, limits);
    if (why.empty()) return solver.make(problem, limits);
    reasons += std::string("; ") + solver.name + ": " + why;
  }
  throw Error(ErrorCode::Unsupported, "no decomposition for " + problem.token() + reasons);
}

std::string PlanTree::print() const {
  std::ostringstream out;
  out << "plan " << problem.token() << "\n  solver " << solver << ", " << passes.size()
      << (passes.size() == 1 ? " pass" : " passes") << ", workspace " << workspace_buffers << " x "
      << problem.bytes() << " bytes\n";
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const Pass& pass = passes[i];
    const KernelSpec& s = pass.spec;
    out << "  pass " << i << ": " << to_string(pass.source) << " -> " << to_string(pass.destination)
        << "\n    length " << s.length << " = ";
    if (s.radices.empty()) out << "1";
    for (std::size_t r = 0; r < s.radices.size(); ++r) out << (r ? " x " : "") << s.radices[r];
    out << ", input stride " << s.input_stride() << ", output stride " << s.output_stride()
        << (s.has_pass_twiddles() ? ", pass twiddles" : "") << "\n    " << pass.transforms
        << " transforms in " << pass.groups() << " groups of " << s.transforms_per_group << " x "
        << s.threads_per_transform << " threads, " << s.points_per_thread() << " points per thread, "
        << s.local_bytes() << " bytes local, " << (s.store_via_local() ? "store via local" : "direct store")
        << "\n    kernel " << s.name() << "\n";
  }
  return out.str();
}

}  // namespace bfly::plan
