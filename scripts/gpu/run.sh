#!/usr/bin/env bash
# Builds bfly on a GPU machine that has only the CUDA toolkit, CMake and ninja,
# runs the whole test suite on its CUDA device and the GPU benchmark, and
# writes every log and result to $OUT.
#
#   bash scripts/gpu/fetch-debs.sh              # here, once: Debian packages to carry
#   device run: bash scripts/gpu/run.sh [test|test-accuracy|bench|bench-nd|bench-prime|bench-f64|bench-real|tune|bench-tuned|tables|ab|ncu|all]   with carry [".deps"]
#
# Nothing is installed on the machine: the carried .deb files (FFTW, GoogleTest,
# CLI11, nlohmann-json, VkFFT's header) are unpacked into .deps/root.
set -uo pipefail
what=${1:-all}
source "$(dirname "$0")/device-env.sh"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
} > "$out/machine.txt" 2>&1

cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/usr" \
  -DBFLY_VKFFT_INCLUDE_DIR="$root/usr/include" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
build-gpu/apps/bfly/bfly info > "$out/info.txt" 2>&1
cat "$out/info.txt"

status=0
if [ "$what" = test ] || [ "$what" = all ]; then
  ctest --test-dir build-gpu --output-on-failure > "$out/tests.log" 2>&1 || status=1
  tail -15 "$out/tests.log"
  grep -E "^\[ device|SKIPPED|FAILED" build-gpu/Testing/Temporary/LastTest.log | sort | uniq -c | head -20
  if [ -x build-gpu/bench/peers/bfly_peer_selftest ]; then
    build-gpu/bench/peers/bfly_peer_selftest --cuda > "$out/peer-selftest.log" 2>&1 || status=1
    tail -12 "$out/peer-selftest.log"
  fi
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  build-gpu/apps/bfly/bfly bench --suite gpu --device cuda:0 --quiet --repetitions 11 \
    --points 134217728 --out "$out/gpu-bench.json" > "$out/bench.txt" 2>&1 || status=1
  cat "$out/bench.txt"
fi
if [ "$what" = bench-nd ] || [ "$what" = all ]; then
  for suite in 2d 3d; do
    build-gpu/apps/bfly/bfly bench --suite $suite --device cuda:0 --quiet --repetitions 11 \
      --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/gpu-bench-$suite.json" > "$out/bench-$suite.txt" 2>&1 || status=1
    cat "$out/bench-$suite.txt"
  done
fi
if [ "$what" = bench-prime ] || [ "$what" = all ]; then
  # Rader, Bluestein and prime lengths beside fast ones, in both precisions.
  for precision in single double; do
    for suite in prime prime-extra prime-nd; do
      build-gpu/apps/bfly/bfly bench --suite $suite --precision $precision --device cuda:0 --quiet --repetitions 11 \
        --points ${BFLY_BENCH_POINTS:-16777216} --out "$out/gpu-bench-$suite-$precision.json" \
        > "$out/bench-$suite-$precision.txt" 2>&1 || status=1
      cat "$out/bench-$suite-$precision.txt"
    done
  done
fi
if [ "$what" = bench-real ]; then
  # Real transforms (r2c and c2r, both precisions) beside cuFFT R2C/C2R (D2Z/Z2D)
  # and VkFFT, each with bfly's C2C of the same shape: one log, one JSON per run.
  : > "$out/bench-real.txt"
  for precision in single double; do
    for kind in r2c c2r; do
      build-gpu/apps/bfly/bfly bench --suite real --kind $kind --precision $precision --device cuda:0 --quiet \
        --repetitions 11 --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/gpu-bench-real-$kind-$precision.json" \
        >> "$out/bench-real.txt" 2>&1 || status=1
    done
  done
  cat "$out/bench-real.txt"
fi
if [ "$what" = bench-f64 ]; then
  build-gpu/apps/bfly/bfly bench --suite gpu --precision double --device cuda:0 --quiet --repetitions 11 \
    --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/gpu-bench-double.json" > "$out/bench-double.txt" 2>&1 || status=1
  cat "$out/bench-double.txt"
fi
if [ "$what" = test-accuracy ]; then
  # Only the accuracy suite, optionally filtered (BFLY_TEST_FILTER, a gtest filter).
  build-gpu/tests/bfly_accuracy_tests --gtest_filter="${BFLY_TEST_FILTER:-*}" > "$out/accuracy.log" 2>&1 || status=1
  grep -E "worst|FAILED|PASSED|OK \]|SKIPPED" "$out/accuracy.log" | tail -60
fi
if [ "$what" = tune ]; then
  # bfly tune over the shipped tables' lengths (or BFLY_TUNE_SHAPE), writing
  # $out/tuning.json: copy it to tuning/<device>.json to ship it.
  # BFLY_TUNE_SECONDS bounds the run (the table is written after every length).
  args=(--suite tune)
  [ -n "${BFLY_TUNE_SHAPE:-}" ] && args=(--shape "$BFLY_TUNE_SHAPE")
  [ -f "${BFLY_TUNE_FROM:-}" ] && cp "$BFLY_TUNE_FROM" "$out/tuning.json"
  timeout "${BFLY_TUNE_SECONDS:-3000}" build-gpu/apps/bfly/bfly tune "${args[@]}" --precision "${BFLY_TUNE_PRECISION:-both}" \
    --device cuda:0 --quiet --points ${BFLY_TUNE_POINTS:-33554432} --out "$out/tuning.json" > "$out/tune.txt" 2>&1 || status=1
  cat "$out/tune.txt"
fi
if [ "$what" = bench-tuned ]; then
  # The gpu and smooth suites with the device's table (BFLY_TUNING names one)
  # beside cuFFT and VkFFT; BFLY_BENCH_PRECISION picks the precision.
  for suite in ${BFLY_BENCH_SUITES:-gpu smooth}; do
    build-gpu/apps/bfly/bfly bench --suite $suite --precision ${BFLY_BENCH_PRECISION:-single} --device cuda:0 --quiet \
      --repetitions 11 --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/gpu-bench-$suite.json" \
      > "$out/bench-$suite.txt" 2>&1 || status=1
    cat "$out/bench-$suite.txt"
  done
fi
if [ "$what" = tables ]; then
  # The issue tables: every suite of BFLY_BENCH_SUITES in every precision of
  # BFLY_TABLE_PRECISIONS, peers beside, one log and JSON per (suite,
  # precision); each log ends with the geometric means over its cases.
  for precision in ${BFLY_TABLE_PRECISIONS:-single double}; do
    for suite in ${BFLY_BENCH_SUITES:-gpu large 2d 3d}; do
      build-gpu/apps/bfly/bfly bench --suite $suite --precision $precision --device cuda:0 --quiet \
        --repetitions 11 --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/tables-$suite-$precision.json" \
        > "$out/tables-$suite-$precision.txt" 2>&1 || status=1
      echo "== $suite $precision"
      grep -E "^geometric|rror" "$out/tables-$suite-$precision.txt"
    done
  done
fi
if [ "$what" = ab ]; then
  # Several limits overrides (BFLY_LIMITS, plan/limits_override.hpp) over
  # the same shapes, peers beside each run:
  # BFLY_AB_VALUES="staged=0 staged=1024" BFLY_AB_SHAPES=8192,10000
  # (BFLY_BENCH_PRECISION, BFLY_BENCH_POINTS as above).
  for value in ${BFLY_AB_VALUES:-staged=0 staged=1}; do
    env "BFLY_LIMITS=$value" build-gpu/apps/bfly/bfly bench --shape "${BFLY_AB_SHAPES:-8192}" \
      --precision ${BFLY_BENCH_PRECISION:-single} --device cuda:0 --quiet --repetitions 11 \
      --points ${BFLY_BENCH_POINTS:-67108864} --out "$out/ab-${BFLY_BENCH_PRECISION:-single}-$value.json" \
      > "$out/ab-${BFLY_BENCH_PRECISION:-single}-$value.txt" 2>&1 || status=1
    echo "== BFLY_LIMITS=$value"
    grep -E "^[0-9]" "$out/ab-${BFLY_BENCH_PRECISION:-single}-$value.txt"
  done
fi
if [ "$what" = ncu ]; then
  # Nsight Compute on bfly's kernels for BFLY_NCU_SHAPES (one launch each):
  # bandwidth, occupancy and warp stalls, to $out/ncu.txt.
  for shape in ${BFLY_NCU_SHAPES:-16384}; do
    timeout 120 ncu --kernel-name regex:bfly_f --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy \
      --section WarpStateStats --section LaunchStats build-gpu/apps/bfly/bfly bench --shape "$shape" \
      --precision ${BFLY_BENCH_PRECISION:-single} --device cuda:0 --quiet --no-peers --repetitions 1 \
      --points ${BFLY_BENCH_POINTS:-67108864} >> "$out/ncu.txt" 2>&1 || status=1
  done
  grep -E "bfly_|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|Duration|Block Limit" "$out/ncu.txt" | head -150
fi
exit $status
