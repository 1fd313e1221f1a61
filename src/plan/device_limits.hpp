// What the planner may know about a device: plain numbers, no handles, so
// planning stays a pure function testable without any device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "plan/tuning.hpp"

namespace bfly::plan {

struct DeviceLimits {
  std::size_t local_memory_bytes = 32768;
  int max_group_size = 256;
  bool is_gpu = false;
  // Longest sub-transform one group keeps in local memory in one pass.
  std::int64_t max_single_pass_length = 4096;
  // Longest contiguous axis a tuning table may put in one pass: its points
  // fit local memory exchanged in halves (KernelSpec::local_halves).
  std::int64_t max_tuned_row_length = 4096;
  // Longest contiguous complex axis the model puts in one pass (exchanged in
  // halves where whole points do not fit), fp32 and fp64 (for_precision
  // takes the second): past max_single_pass_length on Hopper-sized blocks.
  std::int64_t max_row_length = 4096;
  std::int64_t max_row_length_double = 2048;
  // Measured launch choices for this device (plan/tuning.hpp, `bfly tune`);
  // null: the model alone.
  std::shared_ptr<const TuningTable> tuning;
  // Longest sub-transform of one pass of a multi-pass plan.
  std::int64_t max_pass_length = 4096;
  // Sub-transform length worth one extra pass to stay under: strided passes
  // touch `length` rows at once, and on a CPU many rows at a power-of-two
  // stride thrash the caches.
  std::int64_t preferred_pass_length = 4096;
  // Longest axis transformed in one pass when its points are strided in
  // memory by a multiple of cache_alias_bytes (then they all fall into the
  // same cache sets): longer ones take Stockham passes of at most this.
  std::int64_t max_strided_length = std::int64_t{1} << 40;
  std::int64_t cache_alias_bytes = 4096;
  // GPU: strided transforms of at least this many points keep about
  // strided_points_per_thread points a thread where their length is a power
  // of two, strided_points_mixed otherwise (64 where fewer would cost the
  // group columns: complete_model), 16 for doubles.
  std::int64_t long_strided_length = 1000;
  int strided_points_per_thread = 32;
  int strided_points_mixed = 16;
  // Where those take 64 for their columns ("wide"), 32 in twice the threads
  // at the same columns where the registers their group leaves fit them
  // (complete_model; H200, fp32, 2^26 points: all 14 lengths of 4.2M-13.8M
  // drawn for it faster, 1.01-1.22x, docs/PERF.md 2026-11-27; 0: off).
  int wide_fit = 1;
  // A one-pass contiguous transform's threads and radices by VkFFT's rule
  // (issue 39; ../shared/reviews/vkfft-planning-2026-11-25.md) when > 0:
  // m values a thread, m a divisor of N near row_values, N / m threads,
  // radices of at most 16 that leave each thread the fewest values. 0: the
  // model's one widest butterfly a thread. A measurement knob until the
  // GPU has timed it (`BFLY_LIMITS=row_values=12`).
  int row_values = 0;
  // One-pass fp32 rows (complex, and real rows' halves) take composite
  // radices 18-28 where they save a stage (plan/composite_radices.cpp;
  // gpu_limits turns it on; 0: radices up to 16, 25, 29 and 31).
  int composite_radices = 0;
  // The same rule for one-kernel convolutions (Rader's and Bluestein's,
  // both FFTs through local memory) when > 0: small Bluestein convolutions
  // hold 15-18 points a thread at 128-148 registers (NVRTC, sm_90: 223's M
  // = 450 = 15 x 6 x 5 at 4 x 30 threads, 148; 20% of the copy floor and
  // 0.71x cuFFT on the H200), where VkFFT's radices of at most 16 and m
  // values a thread hold 10 (450 = 10 x 9 x 5 at 50 threads). A
  // measurement knob (`BFLY_LIMITS=convolution_values=10`).
  int convolution_values = 0;
  // A one-kernel convolution whose kernel spills is relaunched by that rule
  // at this many values a thread, then at 10 (launch_alternatives.cpp
  // relaunch_candidates): the spill came from the points a thread, which
  // fewer groups keep (H200, fp32: 1609's M = 3456 at 216 threads of 18
  // points spilled 124 bytes and ran at one group of 218 registers, 10% of
  // the copy floor; at 14, 288 threads of 12, no spill, 1.55x; odd real
  // 7455's pairs at 30 points spilling 728 bytes, at 16 188 bytes, 1.40x).
  // 0: never.
  int convolution_relaunch_values = 14;
  // Those passes whose points take at most 32 registers a thread (fp32), or
  // this many (fp64), keep their columns whatever the register estimate
  // says (complete_model's compact rule).
  int strided_compact_words_double = 32;
  // Groups a multiprocessor should fit for those compact passes; 0: as the
  // register estimate allows.
  int strided_groups_per_unit = 0;
  // Transforms per group for strided passes, so adjacent columns are read
  // together (a 64-byte cache line or 32-byte sector holds 8/4 fp32 points).
  int min_columns = 8;
  // Threads a group should have when the transforms are small.
  int target_group_size = 256;
  // Pad local arrays against bank conflicts (GPUs have banks; CPUs do not).
  bool local_padding = false;
  // Sub-transforms longer than this take their inner twiddles from a
  // two-level table (KernelSpec::stage_twiddle_bits).
  std::int64_t max_direct_twiddles = std::int64_t{1} << 40;
  // Inner-stage twiddles looked up only at powers of two, the others their
  // products (KernelSpec::stage_twiddle_powers): 0 never, 1 where the
  // table is two-level, 2 always (GPUs; not long strided passes of 32
  // words a thread).
  int twiddle_powers = 0;
  // The most threads the model gives a long fp32 row (launch_model.cpp
  // complete_launch); past 512 only where the points leave the registers
  // room (a measurement knob: 5120 ran 1.13x faster at 640 threads of 10
  // points than at 512 of 16 once the twiddles took fewer registers).
  int long_row_threads = 512;
  // One-pass rows ask the compiler for as many groups a multiprocessor as
  // leave each thread 2 registers a point's word and 16 more (rather than
  // register_estimate's), and are staged only where one group fits
  // (launch_model.cpp row_groups_per_unit); 0: the estimate, as for other
  // kernels.
  int row_occupancy = 0;
  // The spill a one-pass row asking 2-3 groups a multiprocessor keeps
  // before the runtime relaunches it at fewer (launch_alternatives.cpp
  // tolerated_spill_bytes says why; rows of more groups keep 32 bytes).
  int tolerated_spill_bytes = 200;
  // The spill a one-kernel convolution or a Bluestein chirp pass of 4-byte
  // words asking 2 groups a multiprocessor or more keeps before the runtime
  // relaunches it (launch_alternatives.cpp tolerated_spill_bytes; 0: none).
  // NVRTC, sm_90: 1087's 2304-point convolution spills 8 bytes at 3
  // groups, 96 registers, and relaunched at 2 with 146. Kept at 32 against
  // relaunched (H200, 2^26 points, bfly alone, lengths drawn among those it
  // changes): fp32 C2C 1.13x over 9 primes, none slower (1087-1237
  // 1.18-1.20x); odd R2C 1.16x over 5. fp64's chirp passes (8 -> 7 groups,
  // 3 -> 2) ran 0.99x over 8 with it, 0.96x at the worst, so a double
  // kernel keeps none. A few words, as rows keep (tolerated_spill_bytes),
  // not 1627's 124 bytes at 2 groups, whose relaunch by the values rule
  // ran 1.54x. docs/PERF.md, issue 39, fourteenth step.
  int convolution_spill_bytes = 32;
  // One-kernel convolutions of several transforms a group (short Rader and
  // Bluestein primes) ask for the groups their points leave registers for,
  // as those of one do (row_threads.cpp convolution_groups_per_unit); false
  // keeps the estimate's. NVRTC, sm_90: 167's 360-point convolution, 3 x 36
  // threads of 12 points, takes 101 registers at the estimate's 3 groups
  // and 79 at 6. H200, fp32 on 12 primes drawn among those it changes:
  // 1.036x (179 1.18x, 467 and 479 1.09x, none slower than 0.99x); fp64 on
  // 10: 1.00x (none faster or slower than 1%). docs/PERF.md, issue 39,
  // fourteenth step.
  bool convolution_group_occupancy = true;
  // Bluestein's middle pass of three (a convolution over sub-transforms
  // with the pass twiddles) asks at least this many groups a multiprocessor
  // where its threads and local memory let them (launch_alternatives.cpp
  // convolution_pass_groups); 0: the estimate's. NVRTC, sm_90: fp32
  // 4096-point rows at 256 threads take 174-176 registers at the
  // estimate's one group (144 registers estimated), 128 with no spill at
  // 2 (1004779: 4 bytes), 80 with 148-180 bytes spilled at 3. GPUs take
  // 2 (device_limits.cpp gpu_limits).
  int convolution_pass_groups = 0;
  // The generic tier (runtime/generic_plan.hpp): 1 runs every problem by
  // fixed kernels that take the length as an argument (nothing compiled for
  // a new size); 2 tiered (generic until the specialised plan, made on a
  // thread, is ready); 3 (the default) tiered where a specialised kernel
  // would compile, else specialised; 4 generic where one would compile,
  // else specialised (runtime/tier_choice.hpp); 0 the specialised kernels.
  // PlanOptions::tier, where set, decides instead.
  int generic_tier = 3;
  // CUDA: NVRTC loads on a thread of its own as the device opens, beside
  // the context's creation (issue 40: fixed costs off the first call's
  // path; the default tier asks NVRTC's version to key the disk cache);
  // 0 loads it when first needed.
  int early_nvrtc = 1;
  // Registers and threads of one multiprocessor (0: not a GPU), from which
  // the planner asks the compiler for an occupancy it can keep.
  int registers_per_unit = 0;
  int threads_per_unit = 0;
  // One-pass contiguous rows of at least this many points run staged
  // (KernelSpec::staged) where input and exchange fit local memory; 0: never.
  std::int64_t staged_min_length = 0;
  std::int64_t staged_min_length_double = 0;  // the same for doubles (for_precision takes it)
  int staged_copy = 2;                        // how (KernelSpec::staged): 1 by threads, 2 one bulk copy
  // Blocks a thread-block cluster may have (KernelSpec::cluster); 1: no
  // clusters (OpenCL, CUDA before Hopper, or BFLY_LIMITS=cluster=1). Contiguous
  // rows past max_row_length whose columns fit two blocks a multiprocessor
  // then take one pass (solvers/axis_passes.cpp cluster_size).
  int max_cluster = 1;
  // Whether fp64 rows take clusters too (Hopper: not; the policy in
  // device_policy.cpp, the measurement there; BFLY_LIMITS=cluster_double=1).
  bool cluster_double = true;
  // Points a cluster's block should hold (64 KiB), where a row splits so.
  std::int64_t cluster_chunk_points = 8192;
  // Points a thread of a cluster's block should hold (KernelSpec::cluster;
  // half for doubles), and the blocks a multiprocessor must fit (asked of
  // the compiler where their local memory fits; 0: as the register
  // estimate allows). H100, fp32, % of the copy kernel: 65536 in clusters
  // of 8, 32 points and 2 blocks 58%, 32 points and 1 block 42%, 16 points
  // (512 threads) and 1 block 41%; 49152 54 / 38 / 39; 32768 (of 4) 65 / 46 / 47.
  int cluster_points_per_thread = 32;
  int cluster_groups_per_unit = 2;
  // Short contiguous rows load and store as one block through local memory
  // (KernelSpec::block_rows) where a row's threads would read fewer than
  // this many contiguous bytes at once; 0: never.
  int block_rows_bytes = 0;
  // The same for short real rows (launch_model.cpp set_real_block).
  int real_block_bytes = 0;
  // Planes (the two innermost axes of a complex array, rows contiguous)
  // of at most this many fp32 points (half for doubles) take one pass, a
  // group holding whole planes (KernelSpec::plane_columns); 0: a pass an axis.
  std::int64_t plane_points = 0;
  // A plane's rows whose threads write fewer contiguous bytes than this at
  // once store through local memory (KernelSpec::plane_block_store). H100,
  // fp32, % of the copy kernel, direct vs through local memory: 16 x 16
  // and 256 x 32 (8 bytes: a row a thread) 30-38 vs 97-99, 120 x 120 (40
  // bytes) 39 vs 62; but 64 x 64 (64 bytes) 99 vs 92, 100 x 100 and 12 x
  // 120 (80 bytes) 75 vs 67 and 91 vs 71.
  int plane_block_bytes = 48;
  // Multi-pass passes compute their twiddles rather than read them from a
  // two-level table (GPUs: device_limits.cpp): 1 where the pass's twiddle
  // count is a power of two, 2 (GPUs) also where it is a multiple of 8
  // (Bluestein's passes past one kernel, whose M is rarely a power of two,
  // ran L1-bound on their table's two lookups a point: H100, ncu, fp32
  // 66463's middle pass at 86% of L1 throughput and 35% of DRAM's); 0
  // never.
  int pass_sincos = 0;
  // Primes whose p - 1 factors over the codelets take Rader's algorithm in
  // one kernel where it fits (plan/solvers/rader.cpp); false: Bluestein.
  bool rader = true;
  // Real axes take Rader on a prime factor past Bluestein's one kernel, as
  // a complex axis does (solvers/rader.cpp rader_factor_steps): 2 (the
  // default), past a C2C's, also where real rows would pair in one kernel;
  // 1, past the paired rows' one kernel only (their Bluestein passes took
  // three of M points where these take two of N); 0, never (the plan
  // before 2026-11-27). H200, fp32, 2 against 1: R2C 1.13x geomean over 21
  // odd lengths, 15 faster, C2R 1.0-1.08x (rader.cpp says more).
  int real_rader_factor = 2;
  // The longest convolution Rader's one kernel takes (below its own
  // register and local-memory limits): a testing knob, so the passes past
  // one kernel run on any device (BFLY_LIMITS=rader_kernel=L).
  std::int64_t rader_one_kernel = std::int64_t{1} << 40;
  // The longest convolution one kernel runs, Bluestein's M and Rader's
  // N - 1, where > 0 (at most max_single_pass_length); 0: the GPUs' rule
  // (solvers/bluestein.cpp one_kernel_convolution).
  std::int64_t convolution_length = 0;
  // One-kernel convolutions take a thread per butterfly of their busiest
  // stage (launch_model.cpp); false: one widest butterfly a thread.
  bool convolution_threads = false;
  // One-pass rows of at least row_busiest_length points whose model launch
  // holds row_busiest_points or more a thread take a thread a butterfly of
  // their busiest stage where that cuts the busiest thread's points by a
  // quarter (row_threads.cpp row_busiest_threads, which says what the H200
  // measured; 0: the model's launch). 2 (the default): where a butterfly a
  // thread of the busiest stage passes twice the model's threads, the
  // fewest threads up to that at which the busiest thread holds the fewest
  // points (a narrow stage's thread runs two butterflies: 1470 = 15 x 14 x
  // 7 at 105 threads of 15, where 1 keeps the model's 98 of 28); at 2 only
  // launches that keep the model's groups a multiprocessor (or 4).
  int row_busiest = 2;
  std::int64_t row_busiest_length = 1024;
  std::int64_t row_busiest_points = 20;
  // Long mixed-radix column passes whose threads' points round past their
  // aim look for the fewest more threads up to a thread a butterfly of the
  // busiest stage, not of the widest (launch_model.cpp): 1, where that
  // cuts a thread's points by a quarter or the widest launch's values fill
  // more than 64 registers (column_points.cpp complete_model, which says
  // what the H200 measured); 2, always; 0, never.
  int column_busiest = 1;
  // Where the busiest launch's threads at the model's columns leave too few
  // registers for their points (column_busiest's fallback to the widest),
  // that launch at half the columns, and half again while a row of its
  // loads fills a 32-byte sector, if its threads then hold their points and
  // it keeps the widest launch's columns (column_points.cpp): 1; 2 (the
  // default), also where the widest launch's points need more than 4/3 of
  // the registers its threads leave; 0, never.
  // NVRTC, sm_90, fp64: 2916000's 1620-point columns at 2 x 102 threads of
  // 30 points take 192 registers, at 2 x 180 of 15, 100; 2288x24's
  // 2288-point ones at 1 x 143 of 26, 176, at 2 x 208 of 16, 92. H100,
  // 2^26 points, bfly alone, on lengths drawn among those an earlier form
  // changed: 2916000 0.81x, 2288x24 0.71x, 2352x288 and 2700x1008 0.66x;
  // that form also halved where the widest launch kept more columns and
  // lost there (3483648's 1944-point columns at 4 x 216 threads, 72
  // registers and no spill, 1.12x at 2 x 216; 2058x768's, spilling 152
  // bytes at 4, 1.17x at 2), so this one keeps them. On lengths drawn
  // afresh among those it changes (docs/perf/2026-11-27d-issue39, STEP=23):
  // fp64 0.823x the time over 18 (2250x210, 2352x960, 2520x21, 2940x350
  // 0.65-0.66x; 1920x675 1.002x the slowest), fp32 0.943x over 14 (none
  // slower). 2 against 1 on lengths drawn among those 2 changed at 5/4
  // (docs/perf/2026-11-27e-issue39, STEP=24): fp64 0.892x over 8 (3375x9
  // 0.57x, 3375x1215 0.65x; 2268x1568 1.08x), fp32 0.897x over 17
  // (12288000 0.68x, 3375x336 0.76x; 5625000 1.04x, which 4/3 leaves out).
  int column_halving = 2;
  // The most threads a group of a convolution's column pass (Bluestein's
  // middle kernel) where > 0: its columns halve past it, whatever the
  // compact rule in launch_model.cpp keeps. A measurement knob (0: none):
  // NVRTC, sm_90, 2048-point middle kernels of 8 columns at 1024 threads
  // (1479211 fp32, 529327 fp64) spill 180-400 bytes at 64 registers.
  int convolution_group = 0;
  // Bluestein past one kernel in three passes where M splits in two (the
  // first pass, one kernel over the second's sub-transforms, the first's
  // inverse: solvers/bluestein.cpp): 0 never (the two FFTs' passes), 1
  // where it wins (every axis but a C2R's real one: GPUs), 2 every axis.
  int bluestein_three = 0;
  // Bluestein's three passes with the middle one along contiguous rows and
  // the first and last along columns, each point written back where it was
  // read (solvers/bluestein_rows.cpp), when > 0; 0: the Stockham order (the
  // middle pass's rows L1 apart); 1: the longer length takes the rows; 2
  // (GPUs): the rows as long as one kernel goes where the columns are 64
  // points or more; 3: at any columns. Complex axes only.
  int bluestein_rows = 0;
  // Two passes of a batched transform run as one chained launch whose second
  // pass reads the first's output from L2 (Pass::chain_elements,
  // codegen/chain_kernel.hpp) when a batch element is at most this many
  // bytes; the lookahead keeps about this much in flight. 0: no chains
  // (OpenCL, older GPUs; BFLY_LIMITS=l2_chain=MiB). Elements of at most half of
  // it, so the lookahead is at least two elements.
  std::int64_t l2_chain_bytes = 0;
  // Chains of passes whose groups differ in size (the smaller runs on the
  // launch's first threads): H100, 131072 and 524288 ran 17-45% slower
  // chained this way, so off (BFLY_LIMITS=chain_unequal=1).
  bool chain_unequal_groups = false;
  // A chained kernel's blocks a multiprocessor, asked of the compiler; 0:
  // the generator's estimate from the two passes' registers
  // (codegen/chain_kernel.cpp). Set, it is part of the chain's name.
  int chain_groups_per_unit = 0;
};

// Chained passes on Hopper (50 MB of L2 on the H100, 60 on the H200): a copy
// model of two passes (bench/experiments/l2-chunks.cu, H100, 2^26 points) ran
// 1.36-1.58x a copy's time with 4-16 MB in flight, against 1.93x for two
// launches, and lost the gain past 24 MB. The passes themselves (H100, 2^26
// points fp32, 2^25 fp64, ms unchained -> chained; docs/PERF.md "passes
// chained through L2"): with 8 MB, fp64 65536 0.733 -> 0.620 and 262144
// 0.878 -> 0.747, fp32 262144 0.852 -> 0.789; but an element of 8 MB (fp32
// 2^20, one element of lookahead) 0.820 -> 0.902, and 16 or 32 MB lost
// more. So chains take elements of at most half of this.
constexpr std::int64_t kHopperL2ChainBytes = std::int64_t{8} << 20;

// Defaults by device class. Where the numbers come from:
// - CPU (PoCL): local memory is ordinary cached memory; what counts is that a
//   group's points fit L1 (measurements in device_limits.cpp).
// - GPU (OpenCL): 48 KiB of local memory is what NVIDIA exposes through
//   OpenCL; 4096 fp32 points = 32 KiB.
DeviceLimits cpu_limits();
DeviceLimits gpu_limits(std::size_t local_memory_bytes, int max_group_size);

// The override of these limits (BFLY_LIMITS, PlanOptions::limits) is
// plan/limits_override.hpp.

// The limits for a precision: lengths bounded by local memory shrink for
// 16-byte double points.
DeviceLimits for_precision(DeviceLimits limits, Precision precision);

}  // namespace bfly::plan
