#!/usr/bin/env bash
# Several knobs, each at several values, over the same shapes, in one device
# call (after `bash scripts/gpu/run.sh none` built bfly): every table goes
# to one file, $OUT/ab-many-<precision>.txt, peers beside each run.
#
#   BFLY_AB_SPECS="BFLY_CLUSTER=1,8 BFLY_COLUMNS=8,16" BFLY_AB_SHAPES=65536,1048576 \
#     bash scripts/gpu/ab-many.sh
# BFLY_BENCH_PRECISION (single) and BFLY_BENCH_POINTS (2^26) as in run.sh.
source "$(dirname "$0")/device-env.sh"
log="$out/ab-many-$precision.txt"
status=0
for spec in ${BFLY_AB_SPECS:?name the knobs: VAR=v1,v2 ...}; do
  var=${spec%%=*}
  for value in $(echo "${spec#*=}" | tr ',' ' '); do
    echo "== $var=$value ($precision)" >> "$log"
    env "$var=$value" build-gpu/apps/bfly/bfly bench --shape "${BFLY_AB_SHAPES:-65536}" --precision "$precision" \
      --device cuda:0 --quiet --repetitions 11 --points "${BFLY_BENCH_POINTS:-67108864}" > "$out/ab-one.txt" 2>&1 || status=1
    grep -E "^[0-9]|rror" "$out/ab-one.txt" >> "$log"
  done
done
rm -f "$out/ab-one.txt"
cat "$log"
exit $status
