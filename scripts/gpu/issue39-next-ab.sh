#!/usr/bin/env bash
# Issue 39's next device session, prepared on 2026-11-27 (the A/B that
# this file held then ran that day: docs/perf/2026-11-27-h200-issue39-ab).
#  1. Long 1D lengths whose column passes take 4 columns of 60-64 points
#     a thread (210-253 registers, 212-228 threads a group, one group a
#     multiprocessor): half of 80 random 7-smooth lengths 2^21.5..2^24
#     (seed 20261130), 7290000 at 0.76x cuFFT. BFLY_LIMITS=wide_fit=1
#     keeps the 4 columns at 30 points a thread in twice the threads
#     (NVRTC, sm_90: 102-136 registers, no spills), the other passes as
#     they are (strided_mixed=32,columns=4 would change those too).
#  2. The random suites with the peers on three seeds drawn now (the
#     issue's bar), fp32 and fp64, one case a process (suite-each.sh).
# With the prebuilt CLI (here: bash scripts/gpu/prebuilt.sh; carry
# [".deps/onebin"]; about 8 + 3 x 2 x 4 minutes: split it over calls with
# STEP=1, STEP=2 SEED=S PRECISION=P PART=1/2 and 2/2) or after `bash scripts/gpu/run.sh none`.
set -e
here=$(dirname "$0")
[ -x .deps/onebin/bfly ] && export BFLY=${BFLY:-$PWD/.deps/onebin/bfly}
case "${STEP:-1}" in
  1)
    BFLY_AB_CONFIGS="-;BFLY_LIMITS=wide_fit=1" \
      BFLY_AB_SHAPES=4200000,5376000,6123600,6967296,7776000,8232000,8847360,9920232,10616832,11289600,12150000,13063680,13500000,13824000 \
      bash "$here/ab-many.sh"
    mv "${OUT:-/tmp/bfly-gpu-out}/ab-many-single.txt" "${OUT:-/tmp/bfly-gpu-out}/ab-wide-columns-single.txt"
    ;;
  2)
    bash "$here/suite-each.sh" "${SEED:?SEED=S: a seed drawn after the code is final}" "${PRECISION:-single}"
    ;;
esac
