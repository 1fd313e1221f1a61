#!/usr/bin/env bash
# A random suite one case a process, the peers beside (after run.sh or
# ab-build.sh built bfly): a transform that leaves the device in a sticky
# error costs its own case, not the rest of the run (every random-suite run
# on the H200 stopped part-way at cudaErrorIllegalAddress, docs/PERF.md).
# A case that fails runs again without peers, to say whose failure it was.
# The rows go to $OUT/suite-each-SEED-PRECISION.txt, then the geometric
# mean against each peer over the cases that ran (scripts/bench-summary.py).
#
#   bash scripts/gpu/suite-each.sh SEED [single|double] [device] [points]
# PART=i/n runs every n-th case from the i-th (a 40-case suite with peers
# takes about a device call's 600 s: two calls, PART=1/2 then PART=2/2,
# each writing its own log; bench-summary.py takes both).
source "$(dirname "$0")/device-env.sh"
seed=${1:?usage: suite-each.sh SEED [single|double] [device] [points]}
precision=${2:-single}
device=${3:-cuda:0}
points=${4:-67108864}
b=${BFLY:-build-gpu/apps/bfly/bfly}
part=${PART:-1/1}
log="$out/suite-each-$seed-$precision${PART:+-part${part%/*}}.txt"
$b bench --suite random --seed "$seed" --list > "$out/list.txt" 2>&1 || { cat "$out/list.txt"; exit 1; }
head -1 "$out/list.txt" > "$log"
status=0
while read -r shape _ rest; do
  kind=c2c
  case "$rest" in *r2c*) kind=r2c ;; *c2r*) kind=c2r ;; esac
  args=(bench --shape "$shape" --kind "$kind" --precision "$precision" --device "$device" --quiet
    --repetitions "${BFLY_BENCH_REPETITIONS:-5}" --points "$points")
  if timeout 300 "$b" "${args[@]}" > "$out/one.txt" 2>&1; then
    # A header wherever the columns change (1D, 2D and real cases differ).
    header=$(grep -E '^shape' "$out/one.txt" | head -1)
    [ "$header" = "${last_header:-}" ] || echo "$header" >> "$log"
    last_header=$header
    grep -E '^[0-9]' "$out/one.txt" >> "$log"
  else
    status=1
    if timeout 300 "$b" "${args[@]}" --no-peers > "$out/alone.txt" 2>&1; then whose="a peer's (bfly alone ran)"
    else whose="bfly's: $(tail -1 "$out/alone.txt")"; fi
    echo "FAILED $shape $kind: $(tail -1 "$out/one.txt"); $whose" >> "$log"
  fi
done < <(grep -E '^[0-9]' "$out/list.txt" | awk -v i="${part%/*}" -v n="${part#*/}" '(NR - i) % n == 0')
python3 "$(dirname "$0")/../bench-summary.py" "$log" | tee -a "$log"
exit $status
