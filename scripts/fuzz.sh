#!/usr/bin/env bash
# Fuzzes bfly's parsers of outside data with libFuzzer (fuzz/, issue 19):
#   scripts/fuzz.sh [SECONDS]     (default 60 seconds a target)
# Configures and builds build-fuzz/ with clang (BFLY_BUILD_FUZZERS=ON: the
# library and the CLI's commands instrumented for libFuzzer, ASan and UBSan,
# -O1 -g; cmake/fuzzing.cmake), then runs each target for SECONDS on a
# scratch copy of its seeds and regressions (fuzz/corpus/<target>/,
# fuzz/regressions/<target>/: the repository's corpus never grows). A crash,
# leak, timeout (10 s) or memory blow-up (2 GiB) is saved under
# build-fuzz/artifacts/<target>/ (emptied at each run); a summary table goes
# to build-fuzz/fuzz-summary.txt and stdout. Exit status 1 when any target
# found something: move the artifact into fuzz/regressions/<target>/ with the
# fix, and `ctest -R fuzz-replay` keeps it fixed.
# Environment: BFLY_FUZZ_CXX (default clang++), BFLY_FUZZ_TARGETS (default all).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
case "$seconds" in
  '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac
build=$root/build-fuzz
cxx=${BFLY_FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: no $cxx (scripts/install-deps.sh installs clang and libclang-rt-14-dev)" >&2
  exit 2
fi

# Inputs a target reads, at most: a little over the largest seed, room to grow.
declare -A max_len=(
  [npy]=16384 [png]=16384 [problem_tokens]=256 [cli_args]=512
  [kernel_cache]=4096 [tuning_table]=4096 [bigint_text]=2048
)
targets=(${BFLY_FUZZ_TARGETS:-npy png problem_tokens cli_args kernel_cache tuning_table bigint_text})

start=$(date +%s)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] && generator=()  # keep the generator it was made with
mkdir -p "$build"
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" -DBFLY_BUILD_FUZZERS=ON \
  -DBFLY_BUILD_TESTS=OFF -DBFLY_BUILD_PYTHON=OFF >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 2; }
cmake --build "$build" -j"$(nproc)" --target bfly_fuzzers
built=$(date +%s)
echo "fuzz.sh: build took $((built - start)) s"

# The targets' scratch files (fuzz_util.hpp): in memory where /dev/shm is,
# removed at the end whatever happens (a crashed target leaves its own).
if [ -w /dev/shm ]; then scratch=$(mktemp -d /dev/shm/bfly-fuzz.XXXXXX)
else mkdir -p "$build/tmp"; scratch=$(mktemp -d "$build/tmp/bfly-fuzz.XXXXXX"); fi
trap 'rm -rf "$scratch"' EXIT

summary=$build/fuzz-summary.txt
found_any=0
rows=()
for target in "${targets[@]}"; do
  binary=$build/fuzz/fuzz_$target
  if [ ! -x "$binary" ]; then
    rows+=("$(printf '%-16s %12s %8s %12s %8s  %s' "$target" - - - - "not built (its library is missing: see $build/configure.log)")")
    continue
  fi
  corpus=$build/corpus/$target
  artifacts=$build/artifacts/$target
  rm -rf "$corpus" "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  for dir in fuzz/corpus/$target fuzz/regressions/$target; do
    [ -d "$dir" ] && find "$dir" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$corpus/" \;
  done
  options=(-max_total_time="$seconds" -max_len="${max_len[$target]:-4096}" -timeout=10 -rss_limit_mb=2048
           -artifact_prefix="$artifacts/" -print_final_stats=1)
  [ -f "fuzz/dict/$target.dict" ] && options+=(-dict="fuzz/dict/$target.dict")
  log=$build/fuzz-$target.log
  echo "fuzz.sh: $target for $seconds s (log: $log)"
  status=0
  TMPDIR=$scratch "$binary" "${options[@]}" "$corpus" >"$log" 2>&1 || status=$?
  # libFuzzer's last status line ("#N ... cov: C ft: F ... exec/s: E") and
  # its final stats (absent after a crash: the status line then counts).
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  [ -n "$executions" ] || executions=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  [ -n "$rate" ] || rate=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$last")
  coverage=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  features=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  crashes=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  note=""
  if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
    found_any=1
    what=$(grep -m1 -E '^==[0-9]+==(ERROR|WARNING)|runtime error|fuzz property failed|ERROR: libFuzzer|uncaught exception|terminate called' "$log" || true)
    note="exit $status: ${what:0:90}"
  fi
  rows+=("$(printf '%-16s %12s %8s %12s %8s  %s' "$target" "${executions:-?}" "${rate:-?}" "${coverage:-?}/${features:-?}" "$crashes" "$note")")
done
finished=$(date +%s)

{
  echo "bfly fuzzing, $(date -u +%Y-%m-%dT%H:%MZ), $seconds s a target, $("$cxx" --version | head -n 1)"
  echo "build $((built - start)) s, whole run $((finished - start)) s; logs build-fuzz/fuzz-<target>.log"
  printf '%-16s %12s %8s %12s %8s  %s\n' target executions exec/s "cov/ft" crashes note
  printf '%s\n' "${rows[@]}"
} | tee "$summary"
if [ "$found_any" -ne 0 ]; then
  echo "fuzz.sh: found something: inputs in $build/artifacts/<target>/ (replay one: $build/fuzz/fuzz_<target> FILE)" >&2
  exit 1
fi
