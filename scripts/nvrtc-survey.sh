#!/usr/bin/env bash
# Registers and spills of the kernels bfly plans for the random suite's
# cases (`bfly bench --suite random --seed S`) on an H100 (`--limits
# hopper`), compiled by NVRTC here: no GPU needed, only the CUDA toolkit.
# The CPU-side check of a planner's register budget on sizes nobody chose
# (issue 39): run it before and after a change, on seeds drawn after it.
#
#   bash scripts/nvrtc-survey.sh [--precision single|double] SEED [SEED ...] [-- PLAN OPTIONS]
#
# PLAN OPTIONS go to each `bfly plan` (e.g. -- --tuning off, to see the
# model without the tuning table); BFLY_LIMITS applies as everywhere.
#
# Prints one line a kernel (seed, case, kernel, registers, spill bytes) and a
# summary a seed; BFLY is the binary (default build/apps/bfly/bfly).
set -euo pipefail
bfly=${BFLY:-build/apps/bfly/bfly}
precision=single
if [ "${1:-}" = "--precision" ]; then
  precision=$2
  shift 2
fi
seeds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  seeds+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
extra=("$@")
[ ${#seeds[@]} -gt 0 ] || { echo "usage: $0 [--precision single|double] SEED [SEED ...] [-- PLAN OPTIONS]" >&2; exit 2; }
[ -x "$bfly" ] || { echo "$0: no bfly binary at $bfly (build first, or set BFLY)" >&2; exit 2; }
for seed in "${seeds[@]}"; do
  kernels=0 spilling=0 max_registers=0 registers_sum=0
  while read -r shape batch kind; do
    args=(plan --shape "$shape" --batch "${batch#b}" --precision "$precision" --limits hopper --nvrtc sm_90 "${extra[@]}")
    [ "$kind" = r2c ] && args+=(--kind r2c)
    while read -r name registers spills; do
      echo "seed $seed  $shape ${kind:-c2c}  $name  $registers registers, spills $spills bytes"
      kernels=$((kernels + 1))
      registers_sum=$((registers_sum + registers))
      [ "$registers" -gt "$max_registers" ] && max_registers=$registers
      [ "${spills%%/*}" != 0 ] && spilling=$((spilling + 1))
    done < <("$bfly" "${args[@]}" | sed -n 's/^  \(bfly_[^:]*\): \([0-9]*\) registers, spills \([0-9]*\/[0-9]*\) bytes.*/\1 \2 \3/p')
  done < <("$bfly" bench --suite random --seed "$seed" --list | grep -v '^random suite')
  echo "seed $seed ($precision): $kernels kernels, $spilling spilling, registers mean $((registers_sum / (kernels > 0 ? kernels : 1))), max $max_registers"
done
