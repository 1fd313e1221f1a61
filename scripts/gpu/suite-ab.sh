#!/usr/bin/env bash
# One suite under several planner settings, in one device call (after
# `bash scripts/gpu/run.sh none` built bfly): each ';'-separated config is
# words, those of the form BFLY_*=value set in the environment, bin=PATH the
# bfly to run (an A/B build; default build-gpu's), the rest
# passed to `bfly bench`; the first config runs beside the peers, the others
# alone. One JSON per config, suite-ab-<suite>-<precision>-<i>.json, for
# scripts/bench-compare.py, all in $OUT/suite-ab.tgz (a device call returns
# at most 8 files) beside the summary $OUT/suite-ab.txt.
#
#   BFLY_AB_CONFIGS="-;--tuning off;BFLY_LIMITS=row_values=12 --tuning off" \
#     BFLY_AB_SUITES="smooth random" BFLY_AB_SEED=7 bash scripts/gpu/suite-ab.sh
# ("-": the defaults; the suite "shapes" takes BFLY_AB_SHAPES, as --shape). BFLY_BENCH_PRECISION (single) and BFLY_BENCH_POINTS
# (2^26) as in run.sh; BFLY_AB_REPS timed repetitions (7).
source "$(dirname "$0")/device-env.sh"
status=0
mkdir -p "$out/ab"
IFS=';' read -ra configs <<< "${BFLY_AB_CONFIGS:--}"
for suite in ${BFLY_AB_SUITES:-smooth}; do
  cases=(--suite "$suite")
  [ "$suite" = random ] && cases+=(--seed "${BFLY_AB_SEED:-1}")
  [ "$suite" = shapes ] && cases=(--shape "${BFLY_AB_SHAPES:?suite shapes: name them in BFLY_AB_SHAPES}")
  for i in "${!configs[@]}"; do
    envs=() args=() bin=build-gpu/apps/bfly/bfly
    for word in ${configs[$i]}; do
      case $word in
        -) ;;
        bin=*) bin=${word#bin=} ;;
        BFLY_*=*) envs+=("$word") ;;
        *) args+=("$word") ;;
      esac
    done
    peers=()
    [ "$i" -gt 0 ] && peers=(--no-peers)
    name="ab/suite-ab-$suite-$precision-$i"
    echo "== $suite $precision [$i] ${configs[$i]}" | tee -a "$out/suite-ab.txt"
    env "${envs[@]}" "$bin" bench "${cases[@]}" --precision "$precision" \
      --device cuda:0 --quiet --repetitions "${BFLY_AB_REPS:-7}" --points "${BFLY_BENCH_POINTS:-67108864}" \
      "${peers[@]}" "${args[@]}" --out "$out/$name.json" > "$out/$name.txt" 2>&1 || status=1
    grep -E "^geometric|rror" "$out/$name.txt" | tee -a "$out/suite-ab.txt"
  done
done
tar -czf "$out/suite-ab.tgz" -C "$out" ab && rm -rf "$out/ab"
exit $status
