#!/usr/bin/env bash
# bfly under the sanitizers (issue 19): builds with g++ and runs the tests.
#   bash scripts/sanitize.sh [asan|tsan|all]        (default: all)
#
# asan: AddressSanitizer + UndefinedBehaviorSanitizer (no recovery: the first
#   UB aborts) + LeakSanitizer, in build-asan/: the unit tests, the
#   concurrency tests (30 iterations), the CLI tests (tests/cli against
#   build-asan/apps/bfly/bfly, /usr/bin/python3 with NumPy and SciPy) and
#   the Python package's tests (python/tests, the extension built here with
#   the same flags).
# tsan: ThreadSanitizer, in build-tsan/: the concurrency tests and the
#   kernel cache's tests (KernelCache*), and NVRTC compiling on 4 threads
#   (skipped without a CUDA toolkit).
#
# PoCL, the ICD loader, LLVM, NVRTC and Python are not instrumented; what
# they trip is suppressed in scripts/sanitizers/*.supp, each entry with its
# reason, never a bfly frame. Reports go to build-*/sanitizer-logs/ (one
# file per process that reported), so the CLI's and Python's child
# processes are counted too. The runs use the normal kernel cache
# (~/.cache/bfly, or BFLY_CACHE_DIR), so kernels the normal build compiled
# are loaded, not compiled again under the sanitizer.
#
# Environment: SANITIZE_PRECISE_LEAKS=1 records whole stacks and suppresses
# PoCL's leak by its function (scripts/sanitizers/lsan-precise.supp; about 6
# times slower); SANITIZE_FULL=1 also runs the NVRTC sweep of the unit tests
# (CudaCodegen.EveryPlannedKernel*: 4 to 7 minutes of NVRTC itself, where a
# CUDA toolkit is installed); TSAN_ITERATIONS (default 30) and
# ASAN_ITERATIONS (default 30): BFLY_STRESS_ITERATIONS of the concurrency
# tests under each sanitizer.
#
# Prints a summary; exits non-zero on any failed test or sanitizer report.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
supp=$root/scripts/sanitizers
mode=${1:-all}
case "$mode" in asan | tsan | all) ;; *) echo "usage: $0 [asan|tsan|all]" >&2; exit 2 ;; esac

summary=()
status=0
note() { summary+=("$1"); }
fail() { summary+=("$1"); status=1; }

# A gtest binary's totals ("N passed, M failed, K skipped") from its output.
gtest_totals() {
  local log=$1 passed failed skipped
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$log" | tail -1)
  failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$log" | tail -1)
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?, listed below.*/\1/p' "$log" | tail -1)
  echo "${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped"
}

# run NAME LOG COMMAND...: runs a test step, its output in LOG (and on the
# terminal's tail), and records its outcome.
run_step() {
  local name=$1 log=$2
  shift 2
  local start=$SECONDS
  echo "== $name"
  "$@" > "$log" 2>&1
  local code=$?
  local took=$((SECONDS - start))
  tail -n 3 "$log"
  local totals
  if grep -q '^\[==========\]' "$log"; then totals=$(gtest_totals "$log")
  else totals=$(grep -E '[0-9]+ passed' "$log" | tail -1)
  fi
  if [ "$code" -eq 0 ] || [ "$code" -eq 77 ]; then
    note "$name: ${totals:-exit $code} (${took}s)"
  else
    fail "$name: FAILED, exit $code; ${totals:-see $log} (${took}s)"
  fi
}

# The concurrency tests' totals line (threads, executions, plans).
stress_totals() {
  local line
  line=$(sed -n 's/^\[ totals   \] all: //p' "$1" | tail -1)
  if [ -n "$line" ]; then note "    ($line)"; fi
}

# The sanitizer reports that processes left in DIR, counted and named.
count_reports() {
  local dir=$1 label=$2
  local files
  files=$(find "$dir" -type f 2>/dev/null | sort)
  if [ -z "$files" ]; then
    note "$label: no sanitizer reports"
    return
  fi
  local reports
  reports=$(cat $files | grep -c '^SUMMARY: ')
  fail "$label: sanitizer reports from $(echo "$files" | wc -l) process(es), $reports SUMMARY line(s):"
  local f
  for f in $files; do
    summary+=("    $f: $(grep -m1 -E 'ERROR: |WARNING: ThreadSanitizer|runtime error' "$f" | cut -c1-160)")
  done
}

configure() {  # DIR FLAGS [more cmake arguments]
  local dir=$1 flags=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
    -DCMAKE_MODULE_LINKER_FLAGS="$flags" "$@" > "$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; return 1; }
}

# The Python environment of scripts/python-test.sh (NumPy 2, SciPy, pytest,
# Hypothesis, nanobind), made as that script makes it where it is missing.
python_venv() {
  local venv=build/pyvenv
  if ! "$venv/bin/python" -c "import numpy, scipy, pytest, hypothesis, nanobind" 2> /dev/null; then
    local py=python3
    [ -x /usr/bin/python3 ] && py=/usr/bin/python3
    "$py" -m venv "$venv" &&
      "$venv/bin/python" -m pip install -q --upgrade pip &&
      "$venv/bin/python" -m pip install -q "numpy>=2" scipy pytest hypothesis nanobind scikit-build-core || return 1
  fi
  echo "$root/$venv/bin/python"
}

unit_filter() {
  if [ "${SANITIZE_FULL:-0}" = 1 ]; then echo "*"; else echo "-CudaCodegen.EveryPlannedKernel*"; fi
}

run_asan() {
  local dir=build-asan logs=$root/build-asan/sanitizer-logs
  local flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  local start=$SECONDS py
  py=$(python_venv) || { fail "asan: no Python environment for the package's tests"; return; }
  echo "== asan: configure and build $dir"
  mkdir -p "$dir"
  # Without the benchmark's VkFFT peers and CUDA plugin, which no test here
  # runs: VkFFT's header alone took 2 of the 12 minutes of this build.
  configure "$dir" "$flags" -DBFLY_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py" \
    -DBFLY_VKFFT_HEADER_DIR=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON || { fail "asan: configure failed"; return; }
  if ! cmake --build "$dir" -j"$(nproc)" --target bfly_unit_tests bfly_concurrency_tests bfly_cli _core > "$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log"
    fail "asan: build failed ($dir/build.log)"
    return
  fi
  note "asan: configure and build $((SECONDS - start))s"
  start=$SECONDS
  rm -rf "$logs"
  mkdir -p "$logs"
  # The extension beside the package's Python files, first on the path.
  local package=$root/$dir/python-package
  rm -rf "$package"
  mkdir -p "$package/bfly"
  ln -s "$root"/python/bfly/*.py "$package/bfly/"
  ln -s "$root/$dir"/python/_core*.so "$package/bfly/"

  # print_suppressions=0: the CLI tests expect one line on stderr.
  local leaks="suppressions=$supp/lsan.supp" unwind=""
  if [ "${SANITIZE_PRECISE_LEAKS:-0}" = 1 ]; then
    leaks="suppressions=$supp/lsan-precise.supp"
    unwind=":fast_unwind_on_malloc=0:malloc_context_size=40"
  fi
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:suppressions=$supp/asan.supp:log_path=$logs/asan$unwind"
  export LSAN_OPTIONS="$leaks:print_suppressions=0"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp:log_path=$logs/ubsan"
  run_step "asan: unit tests" "$dir/unit.log" "$dir/tests/bfly_unit_tests" --gtest_filter="$(unit_filter)"
  run_step "asan: concurrency tests" "$dir/concurrency.log" \
    env BFLY_STRESS_ITERATIONS="${ASAN_ITERATIONS:-30}" "$dir/tests/bfly_concurrency_tests"
  stress_totals "$dir/concurrency.log"
  run_step "asan: CLI tests" "$dir/cli.log" /usr/bin/python3 tests/cli/test_cli.py --bfly "$dir/apps/bfly/bfly"
  run_step "asan: CLI application tests" "$dir/cli-apps.log" \
    /usr/bin/python3 tests/cli/test_apps_cli.py --bfly "$dir/apps/bfly/bfly"
  # Python itself is not instrumented: the ASan runtime must be loaded
  # before it (LD_PRELOAD), with libstdc++ (python does not link it, and
  # ASan finds the real __cxa_throw, which it wraps, only in libraries
  # loaded at its start: without it the first C++ exception aborts with
  # "CHECK failed ... real___cxa_throw"). Leak checking is off there, since
  # the interpreter keeps most of its objects to the end on purpose
  # (interned strings, modules, type caches) and LeakSanitizer would list
  # thousands of those, none of them bfly's: the C++ tests above check
  # bfly's leaks.
  run_step "asan: Python package tests" "$dir/python.log" \
    env PYTHONPATH="$package" LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)" \
    ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
    "$py" -c "import sys, bfly, pytest; assert bfly.__file__.startswith('$package'), bfly.__file__; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '$root/python/tests']))"
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
  count_reports "$logs" "asan"
  note "asan: tests $((SECONDS - start))s"
}

run_tsan() {
  local dir=build-tsan logs=$root/build-tsan/sanitizer-logs
  local start=$SECONDS
  echo "== tsan: configure and build $dir"
  mkdir -p "$dir"
  configure "$dir" "-fsanitize=thread" -DBFLY_BUILD_APPS=OFF || { fail "tsan: configure failed"; return; }
  if ! cmake --build "$dir" -j"$(nproc)" --target bfly_concurrency_tests bfly_unit_tests > "$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log"
    fail "tsan: build failed ($dir/build.log)"
    return
  fi
  note "tsan: configure and build $((SECONDS - start))s"
  start=$SECONDS
  rm -rf "$logs"
  mkdir -p "$logs"
  export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:suppressions=$supp/tsan.supp:log_path=$logs/tsan"
  run_step "tsan: concurrency tests" "$dir/concurrency.log" \
    env BFLY_STRESS_ITERATIONS="${TSAN_ITERATIONS:-30}" "$dir/tests/bfly_concurrency_tests"
  stress_totals "$dir/concurrency.log"
  run_step "tsan: kernel cache and NVRTC tests" "$dir/kernel-cache.log" \
    "$dir/tests/bfly_unit_tests" --gtest_filter='KernelCache*:NvrtcCompiler.ConcurrentCompiles'
  unset TSAN_OPTIONS
  count_reports "$logs" "tsan"
  note "tsan: tests $((SECONDS - start))s"
}

[ "$mode" = asan ] || [ "$mode" = all ] && run_asan
[ "$mode" = tsan ] || [ "$mode" = all ] && run_tsan

echo
echo "== sanitize.sh $mode: summary"
printf '%s\n' "${summary[@]}"
exit $status
