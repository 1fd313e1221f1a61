#!/usr/bin/env bash
# Issue 39: one-pass rows under the model's launch and VkFFT's rule
# (BFLY_LIMITS=row_values=M), bfly alone (no peers), every config over the
# same lengths in one device call, for a rule that picks between them per
# length (fit on half the lengths, checked on the other half here).
#   ROW_SHAPES=1029,1050,... bash scripts/gpu/row-rule-sweep.sh [single|double]
source "$(dirname "$0")/device-env.sh"
b=${BFLY:-.deps/onebin/bfly}
precision=${1:-single}
for config in - row_values=12 row_values=8; do
  log="$out/rows-$precision-${config//=/}.txt"
  limits=$([ "$config" = - ] && echo "" || echo "$config")
  BFLY_LIMITS=$limits \
    "$b" bench --shape "${ROW_SHAPES:?}" --precision "$precision" --device cuda:0 --quiet --repetitions 11 \
    --points 67108864 --no-peers > "$log" 2>&1
  echo "$config: $(grep -cE '^[0-9]' "$log") rows"
done
