#!/usr/bin/env bash
# Issue 39's device sessions of 2026-11-27. Steps 1, 3, 4 and 5 ran that
# day (docs/PERF.md, "issue 39, eleventh step"; their rules are the
# defaults now and their knobs restore the old launches), then 6 and one
# seed of 2 ("twelfth step"), then 7-11 and three seeds ("thirteenth
# step"). Next: STEP=12 (PRECISION=single, double, and KIND=r2c; about 1-2
# minutes each, bfly alone), STEP=13 and STEP=14 (PRECISION=single, double),
# then STEP=2 on seeds drawn then. (12-14 ran on 2026-11-27, docs/perf/
# 2026-11-27-h200-issue39-knobs: convolution_spill 32 (fp32) and
# convolution_group_occupancy are the defaults; column_relaunch lost and
# is gone, so STEP=13 no longer runs.) 16 and 17 ran later that day.
# 18-20 ran later that day, then 21 (its knob is the default now) and two
# seeds on the H100, then 22 (whose knob changed after it) and 23 (its
# knob is the default now); then 24 (column_halving=2: the default since,
# at 4/3 where it ran at 5/4), 25 (lost; its knob is gone) and 26
# (pass_sincos=2, the default since) on the H100 (docs/perf/2026-11-27e-
# issue39). Then, on the H100 (docs/perf/2026-11-27f-issue39): 28
# (pass_sincos=2 held on fresh draws), 27 (lost; its knob is gone), 29
# and 30 (the values rule lost again, fp64 and fp32), two seeds, and 31
# (a convolution's second FFT in reverse from registers: the default
# since, no knob). Next: STEP=31 KIND=r2c and PRECISION=double in full
# (cut by the session's device time; .deps/onebin/bfly-old is the CLI
# of f6d471e, built again by checking it out), STEP=32, then the seeds
# again (STEP=2).
#  1. Primes 2049-4096 that Rader cannot take (p - 1 has a prime factor past
#     31): Bluestein's M is 4608-8192, past the one-kernel limit of 4096
#     (solvers/bluestein.cpp one_kernel_convolution, set when the fused
#     kernel held 16 points a thread and spilled), so they run two passes
#     through an M-point workspace, about 3x the traffic of one kernel
#     (2789: 0.44x cuFFT in the random suite of seed 33282939). NVRTC, sm_90,
#     today's launch in one kernel: 4608 96 registers, 7680 128, no spills;
#     6912 spills 44 bytes, 8192 4. BFLY_LIMITS=convolution=8192 against the
#     default on 12 of them drawn at random (seed 27112026).
#  2. The random suites with the peers on seeds drawn then, fp32 and fp64,
#     one case a process (suite-each.sh), each split over two calls.
#  3. One-pass rows a thread a butterfly of their busiest stage
#     (BFLY_LIMITS=row_busiest=1; row_threads.cpp): where the model's
#     widest butterfly a thread leaves threads two slots of a stage (3360 =
#     16 x 15 x 14 at 210 threads: 30 points a thread, 0.74x cuFFT in seed
#     33935183's suite). It changes 40 of 120 random smooth lengths
#     1024-16384 (seed 5272026); NVRTC, sm_90, at the first launch 24 of
#     those 40 spill under the model and 1 under the knob. 20 of the 40
#     (seed 5272027), peers beside.
#  4. Long mixed column passes up to a thread a butterfly of their busiest
#     stage (BFLY_LIMITS=column_busiest=1; launch_model.cpp, column_points.cpp):
#     fp64 885735 (0.74x cuFFT in seed 33282939's suite) runs its 1215-point
#     columns as 2 x 76 threads of 30 points at 178 registers; with the knob
#     4 x 135 of 15 at 92. It changes 16 (fp32) and 15 (fp64) of 80 random
#     smooth lengths 2^18-2^24 (seed 5272028), all of them 1.2M-2.9M but
#     one; NVRTC, sm_90: no new spill but one of 20 bytes. 12 of them (seed
#     5272029), PRECISION=single and double, peers beside.
# With the prebuilt CLI (here: bash scripts/gpu/prebuilt.sh; carry
# [".deps/onebin"]; STEP=1, STEP=3 and STEP=4 (PRECISION=single|double),
# then STEP=2 SEED=S PRECISION=P PART=1/2 and 2/2; STEP=1, 3 and 4 each
# take about 3 minutes with the peers)
# or after `bash scripts/gpu/run.sh none`.
#  5. (After 1, 3 and 4 ran on 2026-11-27, docs/perf/2026-11-27-h200-
#     issue39-ab2, and their rules became the defaults.) The new defaults
#     against the old on lengths drawn afresh among those they change
#     (scripts/gpu/draw-changed.py --seed 27112027: smooth rows 1024-16384,
#     smooth columns 2^18-2^24, primes 2049-4096 for Bluestein's one kernel).
#  6. One-kernel convolutions by VkFFT's values rule (BFLY_LIMITS=
#     convolution_values=V; launch_model.cpp row_values_threads): small
#     Bluestein primes hold 15-18 points a thread at 128-148 registers (223:
#     M = 450 = 15 x 6 x 5 at 4 x 30 threads, 0.71x cuFFT and 20% of the
#     copy floor in seed 61925403's suite); at V = 10 450 = 10 x 9 x 5 at 50
#     threads, 76 registers (NVRTC, sm_90). V = 10 and 14 against the
#     model on primes 67-4096 the knob changes (draw-changed.py --seed
#     28112026 --kind prime; Rader's and Bluestein's), PRECISION=single
#     (16 of them) and double (10, 67-2048); KIND=r2c: odd real lengths
#     67-8192 with a prime factor past 31 (--kind odd --transform r2c, seed
#     30112026; 2321 = 11 x 211's pairs at M = 4800 = 25 x 16 x 12 hold 25
#     points a thread at 126 registers, 0.63x cuFFT in seed 90417263's
#     suite, 1.6x the time of its C2C).
#  (STEP=6 ran on 2026-11-27, docs/perf/2026-11-27-h200-issue39-
#     convolution-values: the values rule as a default lost, 0.91-1.03x;
#     where the model's convolution spills it won, so a spilling
#     convolution now relaunches by it: convolution_relaunch_values.)
#  7. row_busiest=2 (the default since then) against 1: where a butterfly
#     a thread of the busiest stage passes twice the model's threads, the
#     fewest threads up to twice at which the busiest thread holds the
#     fewest points (1470 = 15 x 14 x 7: 105 threads of 15 for 98 of 28,
#     0.82x cuFFT in seed 71153229's suite). Lengths drawn among those it
#     changes (draw-changed.py --override row_busiest=1 --kind smooth --low
#     1024 --high 16384, seed 28112028 fp32, 28112029 fp64), peers beside.
#  8. The spilling convolutions' relaunch by the values rule against none
#     (BFLY_LIMITS=convolution_relaunch_values=0), on the lengths an NVRTC
#     survey (seed 27112028, 200 primes and odd real lengths) found it
#     changes: fp32 C2C 1609 1627, R2C 1647 6339 6507 7029 7455 7563.
#  9. Real axes by Rader on a prime factor (real_rader_factor;
#     solvers/rader.cpp): 1 (the default since 2026-11-27) past the paired
#     rows' Bluestein kernel, 2 also within it (as a C2C: 2321 = 11 x 211's
#     R2C took 1.6x its C2C's time paired at M = 4800), 0 never (the pairs
#     and Bluestein's passes). Odd real lengths 2 changes against 0
#     (draw-changed.py --override real_rader_factor=0 with 2 the default
#     then --kind odd --transform r2c, seed 27112029 fp32 1000-30000,
#     27112030 fp64 300-30000), R2C then C2R, bfly alone (its C2C of the
#     same shape beside): keep 1, move to 2, or back to 0.
#  (STEP=7, 8 and 9 ran on 2026-11-27, docs/perf/2026-11-27-h200-issue39-
#     rules: row_busiest 2 won where the groups held and lost where they
#     fell, so it now keeps them (row_threads.cpp); the relaunch held;
#     real_rader_factor 2 won 1.16x R2C and became the default.)
# 10. row_busiest's groups-keeping rule (the default) against 1 on lengths
#     drawn among those it changes: draw-changed.py --override row_busiest=1
#     --low 1024 --high 16384, fp32 --kind smooth13 seed 29112029 (with
#     6860, the one 7-smooth length not timed before), fp64 --kind smooth
#     seed 29112027 (those not timed before) and smooth13 seed 29112030,
#     peers beside.
# 11. real_rader_factor 2 (the default) against 1 on odd real lengths
#     drawn among those it changes (--kind odd --transform r2c --low 1000
#     --high 30000, seed 29112028), R2C and C2R (KIND=), bfly alone.
# 12. Convolutions and Bluestein's chirp passes keeping a spill of up to 32
#     bytes at 2 groups or more (BFLY_LIMITS=convolution_spill=32) against
#     the default, which relaunches them a group fewer at any spill (1087's
#     2304-point convolution: 8 bytes at 3 groups, 96 registers, relaunched
#     at 2 with 146). Lengths drawn among those it changes (draw-changed.py
#     --override convolution_spill=32 --nvrtc: --kind prime 67-4096 seed
#     29112032 fp32, 67-2048 seed 29112033 fp64; --kind odd --transform r2c
#     67-8192 seed 29112034), bfly alone (PRECISION=single|double; KIND=r2c
#     with single). Adopt as the default if it wins.
# 13. Spilling column passes relaunched at half their columns, then a
#     quarter (BFLY_LIMITS=column_relaunch=1; Rader's columns on a prime
#     factor keep 4 by the compact rule: 27549's spill 140 bytes) against
#     the default, on odd lengths drawn among those it changes
#     (draw-changed.py --override column_relaunch=1 --nvrtc --kind odd
#     --low 8000 --high 2000000, seed 29112035), fp32 C2C, bfly alone.
# 14. One-kernel convolutions of several transforms a group asking the
#     groups their points leave registers for (BFLY_LIMITS=
#     convolution_group_occupancy=1; 167: 79 registers at 6 groups, not 101
#     at 3) against the default, on primes drawn among those it changes
#     (draw-changed.py --override convolution_group_occupancy=1 --kind prime:
#     67-4096 seed 29112036 fp32, 37-2048 seed 29112037 fp64 (37 ran 0.51x
#     cuFFT in seed 58310428), PRECISION=single|double, bfly alone.
# 15. Bluestein's three passes batch-innermost (BFLY_LIMITS=batch_inner=1;
#     plan/group_order.cpp): Nsight Compute on fp32 1955533 x 34 found each
#     pass reading its table (chirp 15.6 MB, spectrum 31 MB) once a batch
#     member, 2.1 of the 8.5 GB the three moved (1955533 0.60x VkFFT in seed
#     84270113). Against 0 on large primes Bluestein takes, bfly alone,
#     PRECISION=single and double. (Ran on 2026-11-27, docs/perf/2026-11-
#     27-h200-issue39-knobs: 1.28x slower in fp32, 1.10x in fp64; the knob
#     and its code are gone.)
# 16. One-pass fp32 rows by composite radices 18-28 where they save a stage
#     (BFLY_LIMITS=composite_radices=1; plan/composite_radices.cpp): 4536 =
#     18 x 18 x 14 at 324 threads, not 9 x 9 x 8 x 7 at 504 (cuFFT ran 252
#     threads of 18 in 316 us, bfly 488 under Nsight Compute; 0.66x cuFFT in
#     seed 84270113). Against the default on lengths drawn among those it
#     changes (draw-changed.py --override composite_radices=1 --kind smooth
#     --low 1000 --high 30000 --count 16 --seed 29112040) with 4536 and 3969,
#     peers beside; NVRTC, sm_90: 56-80 registers below 6000 points, spills
#     in 5103 (16 bytes) and 8232 (44; 9800 160 -> 36). KIND=r2c and c2r:
#     real rows drawn the same way (--transform r2c, seed 29112041).
# 17. Bluestein's middle pass relaunched at half its columns where it
#     spills (BFLY_LIMITS=convolution_columns_relaunch=1; launch_
#     alternatives.cpp): fp32 1955533's 1920-point pass spills 172 bytes at
#     8 columns x 120 threads (64 registers) and took 2.43 of the three
#     passes' 5.1 ms under Nsight Compute; at 4 columns 126 registers, none.
#     fp64's spill 196-236 bytes (377011, 1493423) and take 254 registers
#     at half. Primes drawn among those it changes (draw-changed.py
#     --override convolution_columns_relaunch=1 --nvrtc --kind prime --low
#     20000 --high 2097152: seed 29112042 fp32 with 1955533, 29112043
#     fp64), bfly alone, PRECISION=single and double. Beside it
#     strided_points=16: the first pass's 2048-point columns at 16 points a
#     thread, not 32 (1955533: 8 x 128 threads at 64 registers, 50% of the
#     warps, where 8 x 64 at 128 ran at 24%), and both.
#     (16 and 17 ran on 2026-11-27, docs/perf/2026-11-27b-h200-issue39:
#     composite_radices won, C2C 0.841x the time, R2C 0.861x, C2R 0.934x,
#     and is the GPUs' default; the columns relaunch lost, 1.048x, and is
#     gone, so STEP=17 now runs strided_points=16 alone, fp32 only. Mind
#     the time: a bench of 18 shapes with peers took about 90 s a config,
#     bfly alone about 50, fp64 twice that (the long-double check).)
# 18. Bluestein's three passes along rows (BFLY_LIMITS=bluestein_rows=1;
#     plan/solvers/bluestein_rows.cpp): the first and last passes over
#     columns, each point back where it was read, the middle pass over
#     contiguous rows (VkFFT's order), not the Stockham order whose middle
#     pass reads 8 columns of rows L1 apart and whose last pass writes 2
#     transforms' 8-byte points L2 apart. Large primes 0.59-0.74x VkFFT in
#     seeds 84270113 and 11271415 (1955533, 910799, 1585547). NVRTC, sm_90:
#     the middle pass's 2048-point rows at 128 threads take 182-184
#     registers (2 groups a multiprocessor), 1440 at 144 95; the column
#     passes 64-83. Primes drawn among those it changes (draw-changed.py
#     --override bluestein_rows=1 --kind prime --low 20000 --high 2097152:
#     seed 29112050 fp32, 29112051 fp64; --kind odd seed 29112052 fp32)
#     with 1955533 and 910799, bfly alone, PRECISION=single and double
#     (and KIND=odd). Beside it bluestein_rows=2: the rows as long as one
#     kernel goes, 4096 fp32 points, the columns short (1955533: 960-point
#     columns, 4 x 64 threads, 72-80 registers; 4096-point rows at 256
#     threads, 174, one group a multiprocessor). About 60 s a config in
#     fp32, twice that in fp64: one step a precision a call.
# 19. Planes in one pass against a pass an axis (BFLY_LIMITS=plane=0):
#     70 x 175 fp32 ran its one pass at 34% of the copy floor (700 threads
#     of 28 points, one group a multiprocessor) and 0.77x VkFFT in seed
#     11271415. 2D arrays drawn among those it changes (draw-changed.py
#     --override plane=0 --kind smooth2d --low 4096 --high 16384: seed
#     29112053 fp32, 29112054 fp64) with 70x175, bfly alone,
#     PRECISION=single and double.
# 20. Long rows in clusters against two passes (BFLY_LIMITS=cluster=1):
#     fp64 20736 in clusters of 8 blocks ran at 38% of the copy floor and
#     0.81x VkFFT in seed 11271416. Lengths drawn among those it changes
#     (--override cluster=1 --kind smooth: seed 29112055 fp64 12800-100000,
#     29112056 fp32 24576-200000), bfly alone, PRECISION=single and double.
#  (18-20 ran on 2026-11-27, docs/perf/2026-11-27c-issue39: bluestein_rows
#     2 won past 64-point columns and is the GPUs' default there; planes
#     stay (fp32 mixed, fp64 1.14x); fp64 rows left clusters for two
#     passes, fp32 kept them (the H100: clusters 1.06x). Then, on an H100,
#     fp64 Bluestein convolutions of 3072-8192 points in one kernel won
#     (0.895x the time over 9 primes) and are the default.)
# 21. Bluestein's middle pass of three at 2 and 3 groups a multiprocessor
#     (BFLY_LIMITS=convolution_pass_groups=2|3; launch_alternatives.cpp):
#     fp32's 4096-point rows at 256 threads take 174-176 registers at the
#     estimate's one group, 128 with no spill at 2, 80 spilling 148-180
#     bytes at 3; fp64's 1024-point rows 238 at 2, 168 at 3 (NVRTC,
#     sm_90). The large primes the random suites missed (1004779 0.72x,
#     1415611 0.82x, 910799 0.59x VkFFT) and four more, fp64 six past
#     50000, bfly alone, PRECISION=single and double. Next after it: the
#     seeds again (STEP=2) on seeds drawn then, on the H100.
set -e
here=$(dirname "$0")
[ -x .deps/onebin/bfly ] && export BFLY=${BFLY:-$PWD/.deps/onebin/bfly}
# bfly alone at PRECISION over SHAPES (commas), each of CONFIGS (ab-many.sh's
# ';'-separated sets; "-" the defaults), the table to $OUT/ab-NAME.txt.
alone_ab() {
  local name=$1 shapes=$2 configs=$3 p=${PRECISION:-single}
  BFLY_AB_PEERS=0 BFLY_BENCH_PRECISION=$p BFLY_AB_SHAPES=$shapes BFLY_AB_CONFIGS=$configs bash "$here/ab-many.sh"
  mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-$name.txt"
}
case "${STEP:-1}" in
  1)
    BFLY_AB_CONFIGS="-;BFLY_LIMITS=convolution=8192" \
      BFLY_AB_SHAPES=2221,2243,2423,3229,3373,3533,3541,3793,3797,3863,3931,4079 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-bluestein-one-kernel-single.txt"
    ;;
  3)
    # (PRECISION=double too: NVRTC, the first 16 of them in fp64 spill at
    # 11 model launches, 20-256 bytes, and at 8 under the knob, 8-64.)
    p=${PRECISION:-single}
    BFLY_BENCH_PRECISION=$p BFLY_AB_CONFIGS="-;BFLY_LIMITS=row_busiest=1" \
      BFLY_AB_SHAPES=1080,1260,1400,1512,1792,2016,2160,2205,2250,2688,2916,2940,3430,3888,5376,5832,6300,6480,6860,9000 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-row-busiest-$p.txt"
    ;;
  4)
    p=${PRECISION:-single}
    BFLY_BENCH_PRECISION=$p BFLY_AB_CONFIGS="-;BFLY_LIMITS=column_busiest=1" \
      BFLY_AB_SHAPES=1215000,1350000,1400000,1524096,1568000,1693440,1960000,2240000,2304960,2352000,2430000,2809856 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-column-busiest-$p.txt"
    ;;
  5)
    BFLY_BENCH_PRECISION=single BFLY_AB_CONFIGS="-;BFLY_LIMITS=row_busiest=0,column_busiest=0,convolution=4096" \
      BFLY_AB_SHAPES=1080,1120,1260,1344,1440,1792,1960,2016,2700,2880,3136,3360,889056,1088640,1433600,2322432,2419200,2488320,8748000,14929920,2207,2213,2287,2477,2617,2671,3011,3547 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-new-defaults-single.txt"
    BFLY_BENCH_PRECISION=double BFLY_AB_CONFIGS="-;BFLY_LIMITS=row_busiest=0,column_busiest=0" \
      BFLY_AB_SHAPES=1344,1500,1512,1680,1920,1960,3584,3600,984150,1296000,1512630,1580544,1666980,1866240,2100000,2654208 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-double.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-new-defaults-double.txt"
    ;;
  6)
    p=${PRECISION:-single}
    k=${KIND:-c2c}
    shapes=73,89,97,109,151,167,181,197,269,383,503,547,887,1019,1511,1609
    [ "$p" = double ] && shapes=71,73,97,107,131,149,179,263,631,1409
    [ "$k" = r2c ] && shapes=131,163,451,591,921,1081,1159,1551,3387,3899,6629,7455
    BFLY_BENCH_PRECISION=$p BFLY_BENCH_KIND=$k BFLY_AB_SHAPES=$shapes \
      BFLY_AB_CONFIGS="-;BFLY_LIMITS=convolution_values=10;BFLY_LIMITS=convolution_values=14" \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-convolution-values-$k-$p.txt"
    ;;
  7)
    p=${PRECISION:-single}
    shapes=1050,1470,3675,3780,4725,5880,6615,6720,7350,8820,9408,10290,10976,11760
    [ "$p" = double ] && shapes=1050,1470,3675,3780,4200,4500,4725,4800,5145
    BFLY_BENCH_PRECISION=$p BFLY_AB_CONFIGS="-;BFLY_LIMITS=row_busiest=1" BFLY_AB_SHAPES=$shapes \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-row-busiest-fewest-$p.txt"
    ;;
  8)
    # (No peers: VkFFT takes seconds a transform at some primes.)
    for k in c2c r2c; do
      shapes=1609,1627
      [ $k = r2c ] && shapes=1647,6339,6507,7029,7455,7563
      BFLY_AB_PEERS=0 BFLY_BENCH_KIND=$k BFLY_AB_SHAPES=$shapes \
        BFLY_AB_CONFIGS="-;BFLY_LIMITS=convolution_relaunch_values=0" bash "$here/ab-many.sh"
      mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-convolution-relaunch-$k.txt"
    done
    ;;
  9)
    p=${PRECISION:-single}
    shapes=2321,2781,3051,3065,3197,3621,4961,5585,7061,8749,11629,16885,27549
    [ "$p" = double ] && shapes=591,671,795,1081,1095,1905,2085,2403,3647,9449
    for k in r2c c2r; do
      BFLY_AB_PEERS=0 BFLY_BENCH_PRECISION=$p BFLY_BENCH_KIND=$k BFLY_AB_SHAPES=$shapes \
        BFLY_AB_CONFIGS="-;BFLY_LIMITS=real_rader_factor=2;BFLY_LIMITS=real_rader_factor=0" bash "$here/ab-many.sh"
      mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-real-rader-factor-$k-$p.txt"
    done
    ;;
  10)
    p=${PRECISION:-single}
    shapes=3003,3146,4620,5280,5775,6370,6860,6930,7007,7040,10920
    [ "$p" = double ] && shapes=1155,1792,1890,2250,3960,6050,6825,7020,7436
    BFLY_BENCH_PRECISION=$p BFLY_AB_CONFIGS="-;BFLY_LIMITS=row_busiest=1" BFLY_AB_SHAPES=$shapes \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-row-busiest-groups-$p.txt"
    ;;
  11)
    k=${KIND:-r2c}
    BFLY_AB_PEERS=0 BFLY_BENCH_KIND=$k BFLY_AB_SHAPES=2553,3055,3615,3781,4009,4053,4155,4465,4929,6721,7091,7929 \
      BFLY_AB_CONFIGS="-;BFLY_LIMITS=real_rader_factor=1" bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-real-rader-factor-drawn-$k.txt"
    ;;
  12)
    p=${PRECISION:-single}
    k=${KIND:-c2c}
    shapes=607,619,1087,1213,1223,1229,1237,2137,2141
    [ "$p" = double ] && shapes=587,593,607,659,1493,1811,1831,1913
    [ "$k" = r2c ] && shapes=815,821,839,843,857
    BFLY_AB_PEERS=0 BFLY_BENCH_PRECISION=$p BFLY_BENCH_KIND=$k BFLY_AB_SHAPES=$shapes \
      BFLY_AB_CONFIGS="-;BFLY_LIMITS=convolution_spill=32" bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-convolution-spill-$k-$p.txt"
    ;;
  13)
    echo "STEP=13: column_relaunch lost (1.044x slower over 10) and its knob is gone" >&2
    exit 1
    ;;
  14)
    p=${PRECISION:-single}
    shapes=79,97,139,151,179,197,269,419,433,467,479,673
    [ "$p" = double ] && shapes=41,43,53,67,71,73,101,113,271,601
    BFLY_AB_PEERS=0 BFLY_BENCH_PRECISION=$p BFLY_AB_SHAPES=$shapes \
      BFLY_AB_CONFIGS="-;BFLY_LIMITS=convolution_group_occupancy=1" bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-$p.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-convolution-group-occupancy-$p.txt"
    ;;
  15)
    echo "STEP=15: batch_inner lost (1.28x slower in fp32, 1.10x in fp64) and its knob is gone" >&2
    exit 1
    ;;
  16)
    k=${KIND:-c2c}
    shapes=1458,3675,3969,4536,5040,5103,5292,5376,8232,8505,8960,9800,13440,14175,14400,15876,18144,19683
    [ "$k" != c2c ] && shapes=2916,3675,5832,8505,11664,15360,17280,20412,21000,24192
    BFLY_BENCH_KIND=$k BFLY_AB_CONFIGS="-;BFLY_LIMITS=composite_radices=1" BFLY_AB_SHAPES=$shapes \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-composite-radices-$k.txt"
    ;;
  17)
    BFLY_AB_PEERS=0 BFLY_AB_SHAPES=763579,1082527,1220657,1318841,1665877,1807027,1824727,1899757,1955533 \
      BFLY_AB_CONFIGS="-;BFLY_LIMITS=strided_points=16" bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-strided-points-single.txt"
    ;;
  18)
    p=${PRECISION:-single}
    shapes=25703,28229,29297,115153,341701,349967,411641,908909,1080281,1516987,910799,1955533
    [ "$p" = double ] && shapes=22697,39043,48883,53087,202381,463339,589273,768101
    [ "${KIND:-c2c}" = odd ] && shapes=33261,91937,772319,931883,1100929,1481909
    alone_ab "bluestein-rows-$p${KIND:+-$KIND}" "$shapes" "-;BFLY_LIMITS=bluestein_rows=1;BFLY_LIMITS=bluestein_rows=2"
    ;;
  19)
    p=${PRECISION:-single}
    shapes=140x63,147x81,160x70,28x360,32x486,336x21,343x28,40x150,81x105,84x150,70x175
    [ "$p" = double ] && shapes=125x45,12x525,21x280,21x300,45x120,45x147,64x80,80x54
    alone_ab "plane-$p" "$shapes" "-;BFLY_LIMITS=plane=0"
    ;;
  20)
    p=${PRECISION:-single}
    shapes=27216,27648,28224,31104,38400,46656,54432,55296
    [ "$p" = double ] && shapes=14000,14400,15120,15680,20736,25200,31104,32768
    alone_ab "cluster-$p" "$shapes" "-;BFLY_LIMITS=cluster=1"
    ;;
  21)
    p=${PRECISION:-single}
    shapes=1004779,1415611,910799,1955533,341701,411641,908909,1516987
    [ "$p" = double ] && shapes=53087,202381,463339,589273,768101,1000003
    alone_ab "convolution-pass-groups-$p" "$shapes" \
      "-;BFLY_LIMITS=convolution_pass_groups=2;BFLY_LIMITS=convolution_pass_groups=3"
    ;;
  22)
    # Long mixed columns whose busiest launch leaves too few registers at
    # the model's columns: half the columns first (column_halving=1 keeps a
    # 32-byte sector a row, 2 goes to one column). Lengths drawn among those
    # it changes (draw-changed.py --override column_halving=1: seed
    # 27112041 fp64 smooth 2^18-2^24, 27112042 fp64 smooth2d 2^14-2^22,
    # 27112043 fp32 smooth 2^18-2^24), and the three seed 13865768 found
    # below 0.9x of a peer (fp64 2916000 0.73x VkFFT, 2288x24 0.76x, 4032x63
    # 0.86x).
    p=${PRECISION:-double}
    shapes=2916000,2288x24,4032x63,2204496,2361960,2488320,2688000,2881200,3161088,3361400,3483648,3732480,3888000,1296x1536,1620x25,1680x768,2058x768,2205x1512,2352x288,2700x1008,3375x9
    [ "$p" = single ] && shapes=2593080,2765952,3402000,4665600,4822335,9604000,10804500,13171200
    # (Mode 2 is gone since: it lost 4032x63 1.13x and fp32 13171200 1.44x.)
    alone_ab "column-halving-$p" "${SHAPES:-$shapes}" "-;BFLY_LIMITS=column_halving=1"
    ;;
  23)
    # column_halving as it became after 22 (only where the halved launch
    # keeps the widest launch's columns; no mode 2), on lengths drawn
    # afresh among those it changes: draw-changed.py --override
    # column_halving=1, seeds 27112051 (fp64 smooth 2^18-2^24), 27112052
    # (fp64 smooth2d 2^14-2^22), 27112053 and 27112054 (the same in fp32).
    p=${PRECISION:-double}
    shapes=1574640,1749600,1990656,2074464,2540160,3175200,3240000,3499200,3528000,3628800,1764x1440,1800x50,1920x675,2250x210,2304x486,2352x960,2520x21,2940x350
    [ "$p" = single ] && shapes=4445280,4838400,4898880,5832000,7024640,8297856,9800000,10716300,2160x945,2250x750,2304x80,2352x15,2940x15,3600x8
    alone_ab "column-halving-fresh-$p" "${SHAPES:-$shapes}" "-;BFLY_LIMITS=column_halving=1"
    ;;
  24)
    # column_halving=2: also where the widest launch's points need more
    # than 5/4 of the registers its threads leave (fp64 3375x9 spilled 552
    # bytes at 4 columns, 1.75x slower than 2 in STEP=22; fp32 3375x336,
    # 0.77x VkFFT in seed 32061298, spills 336 at 8). Drawn among those it
    # changes: draw-changed.py --override column_halving=2, seeds 27112061
    # (fp64 smooth2d 2^14-2^22), 27112062 (fp32 smooth2d), 27112063 (fp32
    # smooth 2^18-2^24).
    p=${PRECISION:-double}
    shapes=2205x1029,2205x1568,2205x1764,2205x24,2205x480,2268x1568,3375x1215,3375x9
    [ "$p" = single ] && shapes=2016x1750,2625x1080,2625x125,2625x1260,2800x245,2800x98,3200x252,3375x144,3375x336,4148928,4354560,4408992,5000000,5625000,7350000,12288000,12656250
    alone_ab "column-halving2-$p" "${SHAPES:-$shapes}" "-;BFLY_LIMITS=column_halving=2"
    ;;
  25)
    # bluestein_light=25 (an fp32 axis whose Bluestein M passes one kernel
    # took a longer M of the family, up to 25% longer, that ran in one:
    # 2371's 4800 in two passes -> 5120 in one at 640 threads, one group a
    # multiprocessor) lost 1.113x over 17 primes and odd lengths 2063-3797
    # (only 2371 and 2389 0.96x; docs/perf/2026-11-27e-issue39), and its knob
    # is gone.
    echo "STEP=25: bluestein_light lost (1.113x slower over 17) and its knob is gone" >&2
    exit 1
    ;;
  26)
    # pass_sincos=2: pass twiddles computed where their count is a multiple
    # of 8, not only a power of two (Bluestein's passes past one kernel:
    # H100, ncu, fp32 66463's middle pass at 86% of L1 throughput and 35%
    # of DRAM's, 0.72x VkFFT in seed 58495390; the two-level table's two
    # lookups a point on load and store). Large primes of the seeds and
    # mixed two-pass lengths, bfly alone.
    p=${PRECISION:-single}
    alone_ab "pass-sincos-$p" "${SHAPES:-66463,72859,753719,673667,1000003,300007,100000,1166400}" \
      "-;BFLY_LIMITS=pass_sincos=2"
    ;;
  27)
    # convolution_pass_values=8 (Bluestein's middle pass along rows by
    # VkFFT's values rule: fp64 673667's 1280-point rows at 256 threads of
    # 8 points, not 80 of 20 at 252 registers) lost in fp64, 1.037x the
    # time over 10 primes drawn among those it changed, none faster (H100,
    # docs/perf/2026-11-27f-issue39), and its knob is gone.
    echo "STEP=27: convolution_pass_values lost (fp64 1.037x slower over 10) and its knob is gone" >&2
    exit 1
    ;;
  28)
    # pass_sincos=2 as adopted (STEP=26), against 1, on lengths drawn
    # afresh among those it changes: draw-changed.py --override
    # pass_sincos=1 --names, seeds 27112091 (fp32 smooth 2^17-2^24),
    # 27112092 (fp32 primes 40000-2^21), 27112095 (fp32 smooth2d
    # 2^14-2^22), 27112093 and 27112094 (the same in fp64, no 2D).
    p=${PRECISION:-single}
    shapes=192080,1296000,1749600,1959552,3429216,4032000,11113200,14002632,46601,168677,227789,420319,478207,565603,1226377,1803253,109760x12,22400x21,26880x42,28x100352,28x90000,38400x25,96768x28,98x36288
    [ "$p" = double ] && shapes=294912,612360,1474560,3932160,4741632,6193152,6967296,15680000,54539,75133,84793,185467,389369,420919,470389,536399
    alone_ab "pass-sincos-fresh-$p" "${SHAPES:-$shapes}" "-;BFLY_LIMITS=pass_sincos=1"
    ;;
  29)
    # fp64 one-kernel convolutions by VkFFT's values rule
    # (convolution_values=10), which ran 1.034x faster over 10 fp64 primes
    # on the H200 (twelfth step) but lost in fp32, so it is no default:
    # fp64 alone now, for a double's default (device_limits.cpp
    # for_precision) if it wins. Seed 55531754's odd R2C 485 (0.86x VkFFT;
    # 972-point convolution at 108 threads of 12 points, 128 registers)
    # beside lengths drawn among those it changes: draw-changed.py
    # --override convolution_values=10 --precision double, seeds 27112096
    # (C2C primes 67-4096) and 27112097 (KIND=r2c: odd 101-8191).
    if [ "${KIND:-c2c}" = r2c ]; then
      BFLY_BENCH_KIND=r2c PRECISION=double alone_ab "convolution-values-double-r2c" \
        "${SHAPES:-113,167,173,197,219,259,295,413,423,485,511}" "-;BFLY_LIMITS=convolution_values=10"
    else
      PRECISION=double alone_ab "convolution-values-double" \
        "${SHAPES:-71,79,89,173,179,257,281,859,1301,1583}" "-;BFLY_LIMITS=convolution_values=10"
    fi
    ;;
  30)
    # One-kernel convolutions by VkFFT's values rule again, fp32
    # (convolution_values=8 and 10 against the model), on the H100 at
    # today's code: seed 40262089's lowest cases were small Bluestein
    # primes (223 0.72x VkFFT, 1163 0.67x, R2C 557 0.56x), where ncu shows
    # both peers at 7-10 points a thread, 56-64 registers and 46-50% of
    # the warps active, ours at 16-18 points, 110-128 registers, 17-24%.
    # It lost as a default on the H200 in the twelfth step (0.942x speed).
    # Drawn among those it changes: draw-changed.py --override
    # convolution_values=10, seeds 28112001 (C2C primes 60-4096) and
    # 28112002 (KIND=r2c: odd 100-8000), with the seed's lows.
    if [ "${KIND:-c2c}" = r2c ]; then
      BFLY_BENCH_KIND=r2c PRECISION=single alone_ab "convolution-values-single-r2c" \
        "${SHAPES:-313,489,557,655,685,727,1607,1947,3217,4833,5927}" \
        "-;BFLY_LIMITS=convolution_values=8;BFLY_LIMITS=convolution_values=10"
    else
      PRECISION=single alone_ab "convolution-values-single" \
        "${SHAPES:-61,67,73,79,107,127,149,167,199,223,331,499,503,797,1069,1163,2957}" \
        "-;BFLY_LIMITS=convolution_values=8;BFLY_LIMITS=convolution_values=10"
    fi
    ;;
  31)
    # A one-kernel convolution's second FFT with its radices reversed,
    # starting from the registers the first left (codegen/pass_chirp.cpp
    # turns_in_registers), against the round trip through local memory
    # before it: a codegen change with no knob, so the CLI before it
    # (.deps/onebin/bfly-old: copy it there before prebuilt.sh) against
    # the CLI with it, bfly alone. fp32 C2C and R2C: STEP=30's lengths;
    # fp64: STEP=29's (PRECISION=double).
    p=${PRECISION:-single}
    shapes=61,67,73,79,107,127,149,167,199,223,331,499,503,797,1069,1163,2957
    [ "$p" = double ] && shapes=71,79,89,173,179,257,281,859,1301,1583
    [ "${KIND:-c2c}" = r2c ] && shapes=313,489,557,655,685,727,1607,1947,3217,4833,5927
    for bin in bfly-old bfly; do
      BFLY=$PWD/.deps/onebin/$bin BFLY_BENCH_KIND=${KIND:-c2c} PRECISION=$p \
        alone_ab "register-turn-${KIND:-c2c}-$p-$bin" "${SHAPES:-$shapes}" "-"
    done
    ;;
  32)
    # fp64 Bluestein convolutions of 1025-3071 points in one kernel
    # (BFLY_LIMITS=convolution=3072) against their two FFTs' passes, now
    # that the second FFT starts from registers (STEP=31): NVRTC, sm_90, one
    # kernel at 2 groups a multiprocessor 1152 254 -> 230 registers, 1280
    # 252 -> 238, 1200 170 -> 162, no spill; in passes, seed 88983662's 607
    # ran 0.56x cuFFT. Lost before (557's M = 1152 1.09x, sixteenth step).
    # Primes drawn among those it changes: draw-changed.py --override
    # convolution=3072 --kind prime --low 513 --high 1536 --precision
    # double, seed 28112021, with 607; bfly alone.
    PRECISION=double alone_ab "convolution-3072-double" \
      "${SHAPES:-607,709,739,827,853,941,1187,1213,1231,1367,1439}" "-;BFLY_LIMITS=convolution=3072"
    ;;
  2)
    bash "$here/suite-each.sh" "${SEED:?SEED=S: a seed drawn after the code is final}" "${PRECISION:-single}"
    ;;
esac
