#!/usr/bin/env bash
# Issue 39's next A/B, prepared on 2026-11-27 from the random suites' slow
# classes (docs/PERF.md, "random suites drawn after 2026-11-26's code"), on
# lengths drawn at random (seed 20261127), not the suites' own, so that a
# rule chosen from them is not tuned to the cases that showed the gap:
#   short rows of many transforms (40 at 0.72-0.76x): rows whose threads
#     read 40-120 bytes of a row at once load directly; block_rows_bytes
#     (32 today) at 64, 128 and 256 moves them through local memory as one
#     coalesced block, as the 1-3 thread rows already go (2.4-3.9x there);
#   1D lengths past one pass (7290000 at 0.76x cuFFT): 2700-point column
#     passes take 60 points a thread at 252 registers, one group of 180
#     threads a multiprocessor; strided_mixed and columns trade points a
#     thread for occupancy (NVRTC: 30 points at 104-136 registers, 2 columns);
#   fp64 one-pass rows past about 9000 points: 60 points a thread at 255
#     registers spilling up to 484 bytes (docs/perf/2026-11-27-nvrtc-spill-
#     sweep); max_pass_length=8192 makes them two passes with no spill.
# After `bash scripts/gpu/run.sh none` (the build); one device call each.
set -e
here=$(dirname "$0")
BFLY_AB_CONFIGS="-;BFLY_LIMITS=block_rows=64;BFLY_LIMITS=block_rows=128;BFLY_LIMITS=block_rows=256" \
  BFLY_AB_SHAPES=20,40,50,99,104,156,165,168,312,363,392,396,405,495,576,588 bash "$here/ab-many.sh"
mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-${BFLY_BENCH_PRECISION:-single}.txt" \
  "${OUT:-/tmp/bfly-gpu-out}/ab-short-rows-${BFLY_BENCH_PRECISION:-single}.txt"
BFLY_AB_CONFIGS="-;BFLY_LIMITS=strided_mixed=32;BFLY_LIMITS=strided_mixed=16,columns=2" \
  BFLY_AB_SHAPES=1125000,1587600,1680000,2074464,2222640,2361960,2488320,3211264,4705960,5334336,9031680,9525600 \
  bash "$here/ab-many.sh"
mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-${BFLY_BENCH_PRECISION:-single}.txt" \
  "${OUT:-/tmp/bfly-gpu-out}/ab-long-columns-${BFLY_BENCH_PRECISION:-single}.txt"
BFLY_BENCH_PRECISION=double BFLY_AB_CONFIGS="-;BFLY_LIMITS=max_pass_length=8192" \
  BFLY_AB_SHAPES=9800,10816,11466,11979,12375,12480 bash "$here/ab-many.sh"
