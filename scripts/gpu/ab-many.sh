#!/usr/bin/env bash
# Several limits overrides (BFLY_LIMITS, plan/limits_override.hpp) over the
# same shapes, in one device call (after `bash scripts/gpu/run.sh none`
# built bfly): every table goes to one file, $OUT/ab-many-<precision>.txt,
# peers beside each run.
#
#   BFLY_AB_CONFIGS="BFLY_LIMITS=cluster=1;BFLY_LIMITS=columns=8,strided_occ=2;-" \
#     BFLY_AB_SHAPES=65536,1048576 bash scripts/gpu/ab-many.sh
# runs each ';'-separated set of assignments ("-": none, the defaults).
# BFLY_AB_SPECS="VAR=v1,v2 ..." runs each variable at each value (for a
# variable other than BFLY_LIMITS, whose own commas it would split).
# BFLY_BENCH_PRECISION (single) and BFLY_BENCH_POINTS (2^26) as in run.sh,
# BFLY_BENCH_KIND the transform (c2c; r2c, c2r);
# $BFLY, where set, is the CLI run (gpu/prebuilt.sh). BFLY_AB_PEERS=0
# times bfly alone: a knob against the defaults needs no peers, and VkFFT
# takes seconds a transform at some primes (97, 109, 197 in fp32: 4.4 s,
# 11 repetitions a config).
source "$(dirname "$0")/device-env.sh"
log="$out/ab-many-$precision.txt"
status=0
peers=
[ "${BFLY_AB_PEERS:-1}" = 0 ] && peers=--no-peers
# One bench run with the given VAR=value assignments (none: defaults).
run_one() {
  echo "== ${*:-defaults} ($precision)" >> "$log"
  env "$@" "${BFLY:-build-gpu/apps/bfly/bfly}" bench --shape "${BFLY_AB_SHAPES:-65536}" --kind "${BFLY_BENCH_KIND:-c2c}" --precision "$precision" \
    --device cuda:0 --quiet --repetitions 11 --points "${BFLY_BENCH_POINTS:-67108864}" ${peers:+"$peers"} > "$out/ab-one.txt" 2>&1 || status=1
  grep -E "^[0-9]|rror" "$out/ab-one.txt" >> "$log"
}
if [ -n "${BFLY_AB_CONFIGS:-}" ]; then
  IFS=';' read -ra configs <<< "$BFLY_AB_CONFIGS"
  for config in "${configs[@]}"; do
    [ "$config" = "-" ] && config=""
    # shellcheck disable=SC2086  # the assignments split on spaces
    run_one $config
  done
else
  for spec in ${BFLY_AB_SPECS:?name the knobs: VAR=v1,v2 ... or BFLY_AB_CONFIGS}; do
    var=${spec%%=*}
    for value in $(echo "${spec#*=}" | tr ',' ' '); do run_one "$var=$value"; done
  done
fi
rm -f "$out/ab-one.txt"
cat "$log"
exit $status
