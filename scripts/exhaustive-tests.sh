#!/usr/bin/env bash
# The exhaustive tier (docs/TESTING.md): every case of every sweep, where the
# README's test command (the quick tier, CI) runs a fresh stratified sample
# of each. Run by hand (nightly-style) and on the GPU machine:
#   bash scripts/exhaustive-tests.sh [BUILD_DIR]          (default: build)
# after scripts/build.sh (or scripts/gpu/run.sh none, with build-gpu). It runs
# - the accuracy suite (every length 1..2048 complex in both precisions,
#   1..1024 real, every 7- and 13-smooth length to 4096, every listed size
#   and layout) in gtest shards, one a core (its FFTW references run on the
#   host), beside the rest of ctest, all with BFLY_TEST_TIER=exhaustive;
# - the Python package's tests and NumPy's and SciPy's own fft suites
#   (scripts/python-test.sh), unless BFLY_EXHAUSTIVE_PYTHON=0;
# - the fuzzers for BFLY_FUZZ_SECONDS a target (default 60; 0 skips them).
# Environment: BFLY_TEST_FILTER (the accuracy suite's gtest filter; default
# every backend this machine has, e.g. '*/cuda' on the GPU machine),
# BFLY_TEST_SHARDS (default: the number of cores), BFLY_TEST_SEED (repeat
# a run's random data). Logs and a summary go to BUILD_DIR/exhaustive/.
# Times: PoCL on 2 cores, about 75 minutes for the C++ tests (2026-11-25).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
if [ ! -x "$build/tests/bfly_accuracy_tests" ]; then
  echo "exhaustive-tests.sh: no $build/tests/bfly_accuracy_tests (run scripts/build.sh first)" >&2
  exit 2
fi
export BFLY_TEST_TIER=exhaustive
logs=$build/exhaustive
rm -rf "$logs" && mkdir -p "$logs"
shards=${BFLY_TEST_SHARDS:-$(nproc)}
start=$(date +%s)
status=0
pids=()
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$build/tests/bfly_accuracy_tests" \
    --gtest_filter="${BFLY_TEST_FILTER:-*}" > "$logs/accuracy-$i.log" 2>&1 &
  pids+=($!)
done
# The other suites one at a time beside the shards; the timeouts ctest has
# for the quick tier are lifted (--timeout only sets tests without one, so
# the accuracy entries, the long ones, are run above instead).
(ctest --test-dir "$build" -E '^accuracy' --timeout 7200 --output-on-failure > "$logs/ctest.log" 2>&1) &
pids+=($!)
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat "$logs"/accuracy-*.log > "$logs/accuracy.log"
{
  echo "exhaustive tier, $(date -u +%FT%TZ), $(( $(date +%s) - start )) s for the C++ suites"
  grep -hE "^\[ seed" "$logs/accuracy.log" | sort -u
  grep -hE "^\[  (PASSED|FAILED) |^\[  FAILED  \]" "$logs/accuracy.log" | sort | uniq -c
  grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)" "$logs/ctest.log"
} | tee "$logs/summary.txt"
if [ "${BFLY_EXHAUSTIVE_PYTHON:-1}" != 0 ]; then
  bash scripts/python-test.sh > "$logs/python.log" 2>&1 || status=1
  tail -3 "$logs/python.log" | tee -a "$logs/summary.txt"
fi
seconds=${BFLY_FUZZ_SECONDS:-60}
if [ "$seconds" != 0 ]; then
  bash scripts/fuzz.sh "$seconds" > "$logs/fuzz.log" 2>&1 || status=1
  tail -12 "$logs/fuzz.log" | tee -a "$logs/summary.txt"
fi
echo "exhaustive tier: $([ $status = 0 ] && echo passed || echo FAILED) in $(( $(date +%s) - start )) s" | tee -a "$logs/summary.txt"
exit $status
