#include "plan/device_limits.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::plan {

DeviceLimits cpu_limits() {
  DeviceLimits limits;
  // A group's working set should stay in the core's 32-48 KiB L1: PoCL
  // reports 1 MiB of local memory, but on a 2-core EPYC (bfly bench, PoCL
  // 3.1) 16384 points in one pass (128 KiB) ran at half the speed of two
  // passes of 128, and 2^20 = 1024 x 1024 with 8 columns of 1024 points
  // (64 KiB) ran 1.5-2x slower than with 4 columns (32 KiB).
  limits.local_memory_bytes = 32 * 1024;
  limits.max_group_size = 4096;
  limits.is_gpu = false;
  limits.max_single_pass_length = 4096;
  limits.max_tuned_row_length = 4096;
  limits.max_row_length = 4096;
  limits.max_row_length_double = 2048;
  // 2^20 as 128 x 128 x 64 ran in 37-45 ms where 1024 x 1024 took 54-56 ms
  // (4M points, same run); 65536 stays at two passes of 256 (23-28 ms vs 31).
  limits.max_pass_length = 4096;
  limits.preferred_pass_length = 256;
  limits.min_columns = 8;
  // Strided axes whose points are a multiple of 4 KiB apart map onto the
  // same L1/L2 sets (as the 2^20 rows above): split them like 1D lengths
  // (bfly bench --no-peers, 2 cores, ms, split at 256 vs one pass: 512x512
  // 32.5 vs 36.6, 2048x2048 32.4 vs 42.8, 4096x4096 164 vs 217). Other
  // strides lose by splitting (1000x1000 31.0 vs 23.7, 3000x3000 89.6 vs 59.7).
  limits.max_strided_length = 256;
  limits.cache_alias_bytes = 4096;
  // Groups of 32-64 work-items beat 256 on PoCL (bench, same machine, 2^22
  // points: 64-point 6.3 vs 10.7-14.6 ms, 1024-point 12.9-18.5 vs 20.2 ms,
  // 120-point 7.5-12 vs 11-17 ms; other sizes within noise).
  limits.target_group_size = 64;
  return limits;
}

DeviceLimits gpu_limits(std::size_t local_memory_bytes, int max_group_size) {
  DeviceLimits limits;
  limits.local_memory_bytes = local_memory_bytes;
  limits.max_group_size = std::min(max_group_size, 1024);
  limits.is_gpu = true;
  // Largest power of two whose fp32 points, padded, fit in local memory:
  // 4096 in OpenCL's 48 KiB, 16384 in a Hopper block's 227 KiB.
  std::int64_t fit = 1;
  while ((fit * 2 + fit * 2 / 16) * 8 <= static_cast<std::int64_t>(local_memory_bytes)) fit *= 2;
  limits.max_single_pass_length = std::min<std::int64_t>(fit, 16384);
  // Contiguous rows: the model stays at the powers of two above (past 16384
  // fp32 points a block's 64K registers hold them only with few threads of
  // many points, and the NVRTC sweep saw most such kernels spill: 20480 and
  // 24000 at 512 threads, fp64 10000-13440), but a tuning table may put any
  // length whose points fit local memory in halves (4 bytes a point) in one
  // pass, up to 32768 (cuFFT's longest one kernel), where `bfly tune`
  // measured it to pay.
  const std::int64_t words = static_cast<std::int64_t>(local_memory_bytes) / 4;
  limits.max_tuned_row_length = std::max(limits.max_single_pass_length, std::min<std::int64_t>(words, 32768));
  // The model's own rows past that, where a block holds a Hopper's 227 KiB:
  // `bfly tune` on an H100 (2026-11-23, 2^25 points, lengths in no suite;
  // docs/perf/h100-2026-11-23-tune-*-train.txt) found one pass beat two at
  // every fp32 length from 17280 to 22500 (1.23-1.57x, about 480 threads
  // of up to 32 points, the model's long-row launch below) and lose at
  // 25600; fp64 one pass beat two from 8640 to 14400 (1.04-1.47x, 240-360
  // threads, in halves) and lost at 16000. The limits keep the model's
  // launches within 128 bytes of spills a thread (the NVRTC sweep: fp32
  // 24000 spills 120, fp64 12000 68 but 13440 588; the tuner's winners at
  // 21600 spilled 160 and at 27648 1140, and still beat two passes).
  // Smaller blocks keep the powers of two.
  const bool large_blocks = local_memory_bytes >= 128 * 1024;
  limits.max_row_length =
      large_blocks ? std::min<std::int64_t>(limits.max_tuned_row_length, 24576) : limits.max_single_pass_length;
  limits.max_row_length_double = large_blocks
                                     ? std::min<std::int64_t>(static_cast<std::int64_t>(local_memory_bytes) / 8, 12800)
                                     : limits.max_single_pass_length / 2;
  // Strided passes need several columns of a sub-transform in one group:
  // past 1024 points, 48 KiB holds only 1-2 columns and the reads shrink to
  // 8-16 bytes (H100, OpenCL-sized groups: 2^22..2^24 as 2048^2..4096^2 ran
  // at 25-38% of the two-pass floor), so longer transforms take a third
  // pass. With Hopper's 227 KiB, 4-8 columns of 2048-4096 points fit and,
  // at ~64 points per thread (complete_spec), two passes beat three (H100,
  // 2^27 points, ms: 2^21 1.91 vs 2.20, 2^22 2.06 vs 2.26, 2^23 2.22 vs
  // 2.35, 2^24 2.33 vs 2.48; pass_length=4096 vs 1024).
  limits.max_pass_length =
      std::min<std::int64_t>(limits.max_single_pass_length, local_memory_bytes >= 4 * 4096 * 8 ? 4096 : 1024);
  limits.preferred_pass_length = limits.max_pass_length;
  // Measured on an H100 (bfly bench --no-peers, 2^26 points, 2026-11-22):
  // 8 columns moved 16384 and 65536 from 84% to 93-96% of the two-pass floor
  // (4 columns = 32-byte segments); groups of 128 threads took 1024 from 95%
  // to 99% and 120 from 83% to 95% of the one-pass floor against 256.
  limits.min_columns = 8;
  limits.target_group_size = 128;
  limits.local_padding = true;
  // Bluestein in three passes: H200, fp32, 2^26 points, nine lengths
  // 16411-2097143 (docs/PERF.md 2026-11-26, third step): C2C 1.15x and
  // R2C 1.17x the speed of the two FFTs' four passes (556727 and 1048577
  // 1.55x; 100003 0.87x), fp64 C2C 1.16-1.39x but 100003 0.95x; C2R's
  // real axis 1.01x (50021-300007 0.77-0.89x: its last pass scatters
  // reals along the axis), so not there.
  limits.bluestein_three = 1;
  limits.max_direct_twiddles = 1024;
  // Inner twiddles as products of a few looked-up powers (H200, fp32,
  // 2^26 points, docs/PERF.md 2026-11-26 fourth step): 24 one-pass lengths
  // 1000-24000 1.12x (two-level tables only: 1.11x), 13824 128 -> 87
  // registers, 7500 145 -> 89; fp64 15 lengths 1.12x; the large suite
  // 1.02x, 2d 1.03x. Error unchanged to within 0.2e-7 (4096: 1.2 -> 1.4e-7).
  limits.twiddle_powers = 2;
  // Composite radices 18-28 where they save a one-pass fp32 row a stage
  // (plan/composite_radices.cpp): H200, 2^26 points, bfly alone, 11
  // repetitions (docs/perf/2026-11-27b-h200-issue39): C2C 0.841x the time
  // over 18 smooth lengths 1458-19683 (19683 0.70x, 3969 0.74x; 8505
  // 1.03x the only loss), R2C 0.861x and C2R 0.934x over 10 (8505 and
  // 20412 C2R 1.02x). fp64 stays at radices to 16 (composite_radices.cpp).
  limits.composite_radices = 1;
  // Bluestein's three passes along rows past 64-point columns (solvers/
  // bluestein_rows.cpp): H200, 2^26 points, bfly alone (docs/perf/
  // 2026-11-27c-issue39): fp32 primes 341701-1955533 0.92x the time over
  // 8, odd lengths past 700000 0.94x over 4; fp64 39043-768101 0.92x over 7.
  limits.bluestein_rows = 2;
  // Bluestein's middle pass of three at two groups a multiprocessor
  // (launch_alternatives.cpp convolution_pass_groups): H100, 2^26 points,
  // bfly alone, 11 repetitions (docs/perf/2026-11-27d-issue39): fp32 primes
  // and odd lengths 341701-1955533 0.940x the time over 8 (none slower;
  // 4096-point rows 174 -> 128 registers, NVRTC sm_90), fp64 0.983x over 6
  // (768101 0.89x, 202381 1.016x); three groups spill and lose (1.046x fp32).
  limits.convolution_pass_groups = 2;
  // One-pass rows' occupancy from their points (launch_model.cpp
  // row_groups_per_unit).
  limits.row_occupancy = 1;
  // Hopper (and every NVIDIA GPU since Kepler): 64K 32-bit registers and
  // 2048 threads per multiprocessor.
  limits.registers_per_unit = 65536;
  limits.threads_per_unit = 2048;
  // Staged one-pass rows (KernelSpec::staged): H100, 2^26 points, bulk
  // copy vs none, % of the copy kernel (docs/perf/h100-2026-11-23-staged-ab-*):
  // fp32 2160 78 -> 89, 3360 81 -> 85, 4800 82 -> 86, 6000 68 -> 89, 9000
  // 53 -> 72, 9600 63 -> 75, 13440 59 -> 70; fp64 3360 67 -> 81, 3840 77 ->
  // 88, 4800 70 -> 85, 6720 57 -> 69, but fp64 2160 85 -> 76 and 2560 96 ->
  // 88. Tuned launches (measured unstaged) lost: fp32 2048 99 -> 94, 4096
  // 98 -> 88, 8192 90 -> 86, so a table's entry stays unstaged unless it
  // says otherwise. Copies by each thread (cp.async) lost to the bulk copy
  // nearly everywhere (8192 77%, 10000 68%, 16384 73%: the copies queue
  // with the exchange's shared-memory traffic).
  limits.staged_min_length = 2048;
  limits.staged_min_length_double = 3072;
  // Rows whose threads read less than a 32-byte sector of a row at once
  // (17 points, one thread a row: 27% of the copy kernel and 0.27x cuFFT,
  // H100, 2026-11-23) go through shared memory as one block. A first
  // choice, before any measurement of the block form. 128 since 2026-11-27
  // (H200, 2^26 points, 16 random short lengths 20-588 at 32, 64, 128 and
  // 256: fp32 20-168 points 1.07-1.43x at 128, none slower, 312 0.89x at
  // 256; fp64 20, 52 and 84 1.12-1.30x at 128, none slower; 16 lengths
  // drawn after it: fp32 1.073x, fp64 1.090x, lowest 0.96x; docs/PERF.md,
  // issue 39).
  limits.block_rows_bytes = 128;
  // Real rows as one block (set_real_block) keep the first choice: R2C
  // rows of 5 and 7 threads lost 12-15% as blocks (issue 39, 2026-11-26).
  limits.real_block_bytes = 32;
  // Planes in one pass (solvers/plane.cpp): up to 16384 fp32 points (128
  // KiB) on Hopper-sized blocks, 2048 in OpenCL's 48 KiB. H100, 2^26
  // points, one pass vs a pass an axis (docs/PERF.md "planes"): fp32 16 x
  // 16 .. 128 x 128 1.9-2.0x, 90 x 90 1.4x; fp64 up to 64 x 128 1.8-2.0x,
  // 90 x 90 1.2x.
  limits.plane_points = large_blocks ? 16384 : 2048;
  // Pass twiddles computed, not gathered from the table (two loads a point
  // beside the exchange's shared-memory traffic): with 32 points a thread
  // in the power-of-two columns, H100 fp32 (2^26 points, ms, table ->
  // computed): 2^20 0.919 -> 0.828, 2^21 1.050 -> 0.949, 2^22 1.043 ->
  // 1.026, 2^23 1.087 -> 1.037, 2^24 1.163 -> 1.124; fp64 (16 points a
  // thread) 2^20 1.743 -> 1.706, 2^22 2.472 -> 2.419. Errors unchanged
  // (docs/PERF.md "two-pass kernels"). Where their count is a multiple of
  // 8 as well (the quadrant a quotient; H100, 2^26 points, bfly alone,
  // docs/perf/2026-11-27e-issue39 STEP=26): fp32 0.955x the time over 8
  // (Bluestein's three passes 66463 0.91x, 72859 0.89x; 1166400 0.92x;
  // 1000003 1.003x the slowest, 100000 0.996x), fp64 0.922x over 4
  // (300007 0.89x), errors unchanged.
  limits.pass_sincos = 2;
  return limits;
}

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
  limits.max_tuned_row_length =
      std::max(limits.max_single_pass_length, std::min(limits.max_tuned_row_length, local / 8));
  limits.max_row_length =
      std::max(limits.max_single_pass_length, std::min(limits.max_row_length_double, limits.max_tuned_row_length));
  // Multi-pass sub-transforms: four columns of them must fit (device_limits.cpp).
  while (limits.max_pass_length > 1024 &&
         4 * limits.max_pass_length * 16 > static_cast<std::int64_t>(limits.local_memory_bytes))
    limits.max_pass_length /= 2;
  limits.max_pass_length = std::min(limits.max_pass_length, limits.max_single_pass_length);
  limits.staged_min_length = limits.staged_min_length_double;
  limits.cluster_chunk_points /= 2;
  limits.plane_points /= 2;
  limits.cluster_points_per_thread = std::max(1, limits.cluster_points_per_thread / 2);
  limits.preferred_pass_length = std::min(limits.preferred_pass_length, limits.max_pass_length);
  return limits;
}

}  // namespace bfly::plan
