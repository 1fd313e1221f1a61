#!/usr/bin/env bash
# Nsight Compute on every kernel of one bench run per shape, bfly's and the
# peers' alike (after `bash scripts/gpu/run.sh none` built bfly): launch shape,
# registers, shared memory, occupancy, time and DRAM bytes of each, to
# $OUT/ncu-peers-<precision>.txt. Shows how cuFFT and VkFFT launch a size.
#
#   BFLY_NCU_SHAPES="1048576 16777216" bash scripts/gpu/ncu-peers.sh
# BFLY_NCU_SECTIONS="WarpStateStats MemoryWorkloadAnalysis" adds those
# sections (stall reasons, shared-memory and cache traffic) to the raw
# output, $OUT/ncu-peers-raw-<precision>-<shape>.txt.
# BFLY_BENCH_PRECISION (single), BFLY_BENCH_KIND (c2c) and BFLY_BENCH_POINTS
# (2^26) as in ab-many.sh; $BFLY, where set, is the CLI run (gpu/prebuilt.sh).
source "$(dirname "$0")/device-env.sh"
log="$out/ncu-peers-$precision.txt"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size
metrics+=,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static
metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,launch__cluster_dim_x
sections=()
for section in ${BFLY_NCU_SECTIONS:-}; do sections+=(--section "$section"); done
status=0
for shape in ${BFLY_NCU_SHAPES:-1048576}; do
  echo "== $shape ($precision)" >> "$log"
  timeout "${BFLY_NCU_SECONDS:-150}" ncu --metrics "$metrics" "${sections[@]}" --launch-count "${BFLY_NCU_LAUNCHES:-40}" \
    "${BFLY:-build-gpu/apps/bfly/bfly}" bench --shape "$shape" --kind "${BFLY_BENCH_KIND:-c2c}" --precision "$precision" \
    --device cuda:0 --quiet \
    --repetitions 1 --points "${BFLY_BENCH_POINTS:-67108864}" > "$out/ncu-one.txt" 2>&1 || status=1
  cp "$out/ncu-one.txt" "$out/ncu-peers-raw-$precision-$shape.txt"
  # One line a kernel: its header (name, grid x block), then its metrics.
  awk '/^  [^ =\[].*\)x\(/ { if (line) print line; line = substr($0, 3, 160); next }
       /^    [a-z_]+__/ { line = line " | " $1 "=" $NF (NF >= 3 ? " " $(NF-1) : "") }
       END { if (line) print line }' "$out/ncu-one.txt" >> "$log"
done
rm -f "$out/ncu-one.txt"
cat "$log"
exit $status
