#!/usr/bin/env bash
# The whole test suite on the device's CUDA GPU within one device call (after
# `bash scripts/gpu/run.sh none` built bfly): the accuracy suite's cuda
# instances in BFLY_TEST_SHARDS gtest shards at once (its FFTW references
# run on the host's cores, so one process would take past a call's limit),
# beside the unit, CLI and install tests. Logs to $OUT/tests-*.log; the
# exit status is non-zero if any part failed.
source "$(dirname "$0")/device-env.sh"
# The GPU run is the exhaustive tier (docs/TESTING.md): every case of every
# sweep; BFLY_TEST_TIER=quick for the sampled one.
export BFLY_TEST_TIER=${BFLY_TEST_TIER:-exhaustive}
shards=${BFLY_TEST_SHARDS:-12}
status=0
pids=()
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i build-gpu/tests/bfly_accuracy_tests \
    --gtest_filter="${BFLY_TEST_FILTER:-*/cuda}" > "$out/tests-accuracy-$i.log" 2>&1 &
  pids+=($!)
done
(cd build-gpu && ctest -E '^accuracy' --output-on-failure > "$out/tests-other.log" 2>&1) &
pids+=($!)
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat "$out"/tests-accuracy-*.log > "$out/tests-accuracy.log" && rm -f "$out"/tests-accuracy-*.log
grep -E "^\[  (PASSED|FAILED) |tests? ran" "$out/tests-accuracy.log" | sort | uniq -c
grep -E "tests passed|tests failed|Failed|\*\*\*" "$out/tests-other.log"
exit $status
