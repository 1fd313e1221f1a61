#!/usr/bin/env bash
# A random suite's cases one process each (after scripts/gpu/ab-build.sh or
# run.sh built bfly), to find the case behind a failure that a whole-suite
# run reports without naming it; the first that fails runs again, smaller,
# under compute-sanitizer (its first errors to $OUT/sanitizer.txt).
#
#   bash scripts/gpu/each-case.sh SEED [single|double]
source "$(dirname "$0")/device-env.sh"
seed=${1:?usage: each-case.sh SEED [precision]}
precision=${2:-single}
b=build-gpu/apps/bfly/bfly
$b bench --suite random --seed "$seed" --list > "$out/list.txt" 2>&1
first=""
while read -r shape _ rest; do
  kind=c2c
  case "$rest" in *r2c*) kind=r2c ;; *c2r*) kind=c2r ;; esac
  if timeout 60 "$b" bench --shape "$shape" --kind "$kind" --precision "$precision" --device cuda:0 --no-peers --quiet \
    --repetitions 1 --points 67108864 > "$out/one.txt" 2>&1; then
    echo "ok $shape $kind $(grep -E '^[0-9]' "$out/one.txt" | head -1 | cut -c1-90)"
  else
    echo "FAIL $shape $kind: $(tail -1 "$out/one.txt")"
    [ -z "$first" ] && first="$shape $kind"
  fi
done < <(grep -E '^[0-9]' "$out/list.txt")
[ -z "$first" ] && exit 0
set -- $first
timeout 120 compute-sanitizer --print-limit 5 "$b" bench --shape "$1" --kind "$2" --precision "$precision" \
  --device cuda:0 --no-peers --quiet --repetitions 1 --points 4194304 > "$out/sanitizer.txt" 2>&1
head -60 "$out/sanitizer.txt"
exit 1
