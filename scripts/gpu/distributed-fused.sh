#!/usr/bin/env bash
# The stages that store their exchange's send blocks (issue 43,
# src/distributed/fused_stage.hpp) on every GPU of the machine, one process
# (MultiDevicePlan over NCCL), with the prebuilt CLI (gpu/prebuilt.sh;
# carry [".deps/onebin"]): slabs, pencils on both grids, R2C slabs, fp64
# slabs; each row with the bare all-to-all of the same bytes timed in the
# same run (eff = (local + bound) / total). Rows to $OUT/distributed-fused.txt.
#   bash scripts/gpu/distributed-fused.sh [SHAPE]     (default 1024x1024x1024)
source "$(dirname "$0")/device-env.sh"
nccl=$(python3 -c "import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], 'lib'))" 2>/dev/null)
[ -n "$nccl" ] && export LD_LIBRARY_PATH=$nccl:$LD_LIBRARY_PATH
export NCCL_NVLS_ENABLE=0
b=${BFLY:-.deps/onebin/bfly}
shape=${1:-1024x1024x1024}
gpus=$(nvidia-smi -L | wc -l)
log="$out/distributed-fused.txt"
status=0
for config in "c2c single slabs" "c2c single pencils" "c2c single pencils 1x$gpus" "r2c single slabs" \
  "c2c double slabs"; do
  read -r kind precision decomposition grid <<< "$config"
  echo "== $config" >> "$log"
  timeout 100 "$b" bench --distributed --devices all --reps 10 --kind "$kind" --precision "$precision" \
    --decomposition "$decomposition" ${grid:+--grid "$grid"} --verbose "$shape" >> "$log" 2>&1 || status=1
done
cat "$log"
exit $status
