#!/usr/bin/env bash
# Issue 19's proofs on the CUDA GPU, within one device call (after
# `bash scripts/gpu/run.sh none` built build-gpu/):
#   - the fault and limit tests and the concurrency tests on cuda:0;
#   - compute-sanitizer's memcheck and racecheck (and synccheck) over one plan
#     per solver (tests/reliability/test_solver_set.cpp), each tool its own
#     process, side by side;
#   - the kernel-cache unit tests and an interrupted CLI on the GPU.
# Logs to $OUT/reliability-*.log, a summary to $OUT/reliability.txt; the exit
# status is non-zero if anything failed or a sanitizer reported an error.
#
#   device run: timeout 250 bash scripts/gpu/run.sh none && bash scripts/gpu/reliability.sh   (carry [".deps"])
source "$(dirname "$0")/device-env.sh"
status=0
python=$( [ -x /opt/torch/.venv/bin/python3 ] && echo /opt/torch/.venv/bin/python3 || echo python3 )
summary=$out/reliability.txt
: > "$summary"

sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer /opt/nvidia/*/compute-sanitizer 2>/dev/null | head -1)
pids=()
if [ -n "$sanitizer" ]; then
  "$sanitizer" --version | tail -1 >> "$summary"
  # Kernels compile first, unsanitized (NVRTC is slow under the tools).
  build-gpu/tests/bfly_fault_tests --gtest_filter='*SolverSet*/cuda' > "$out/reliability-solvers.log" 2>&1 || status=1
  for tool in memcheck racecheck synccheck; do
    "$sanitizer" --tool $tool --error-exitcode 86 --print-limit 20 \
      build-gpu/tests/bfly_fault_tests --gtest_filter='*SolverSet*/cuda' > "$out/reliability-$tool.log" 2>&1 &
    pids+=($!)
  done
else
  echo "compute-sanitizer: not found on this machine" >> "$summary"
  status=1
fi

build-gpu/tests/bfly_fault_tests --gtest_filter='*Faults*/cuda' > "$out/reliability-faults.log" 2>&1 || status=1
if [ -x build-gpu/tests/bfly_concurrency_tests ]; then
  build-gpu/tests/bfly_concurrency_tests > "$out/reliability-concurrency.log" 2>&1 || status=1
fi
build-gpu/tests/bfly_unit_tests --gtest_filter='KernelCache*' > "$out/reliability-cache.log" 2>&1 || status=1
"$python" tests/cli/test_interrupt.py --bfly build-gpu/apps/bfly/bfly > "$out/reliability-interrupt.log" 2>&1 || status=1

for pid in "${pids[@]}"; do wait "$pid" || status=1; done
{
  for log in "$out"/reliability-*.log; do
    echo "== $(basename "$log")"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[ solver|ERROR SUMMARY|RACECHECK SUMMARY|passed, .* failed|signals landed|threads|executions" "$log" | head -30
  done
} >> "$summary"
cat "$summary"
exit $status
