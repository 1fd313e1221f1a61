#!/usr/bin/env bash
# Callbacks on the GPU (issue 42): their accuracy tests (and the half and
# convolution ones they share the pieces with) on cuda:0, and bfly bench
# of windowed spectra: each shape bare and with --window hann --store db
# in one run (the peers run the bare transform; the pair shows what the
# fusion costs).
#   device run: bash scripts/gpu/callbacks.sh [test|bench|all]     with carry [".deps"]
set -uo pipefail
what=${1:-all}
source "$(dirname "$0")/device-env.sh"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/usr" \
  -DBFLY_VKFFT_INCLUDE_DIR="$root/usr/include" > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" --target bfly_cli bfly_accuracy_tests > "$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
bfly=build-gpu/apps/bfly/bfly
status=0
if [ "$what" = test ] || [ "$what" = all ]; then
  build-gpu/tests/bfly_accuracy_tests --gtest_filter='*Callbacks*/cuda:*Half*/cuda:*onvol*/cuda' \
    > "$out/tests-callbacks-cuda.log" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED)|Failure|error" "$out/tests-callbacks-cuda.log" | head -30
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  for shape in "r2c 1024 65536" "r2c 16384 4096" "r2c 65536 1024" "r2c 1000 65536" "r2c 4096x4096 4" "c2c 4096 16384"; do
    set -- $shape
    for ops in "" "--window hann" "--window hann --store db" "--store power"; do
      echo "== $1 $2 b$3 $ops"
      $bfly bench --kind "$1" --shape "$2" --batch "$3" --device cuda:0 --quiet --repetitions 11 $ops 2>&1 |
        sed -n '1,/^$/p' | head -12
    done
  done > "$out/bench-callbacks.txt" 2>&1
  cat "$out/bench-callbacks.txt"
fi
exit $status
