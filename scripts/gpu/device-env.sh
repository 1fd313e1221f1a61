# Shared by the device scripts that run the built bfly (ab-many.sh,
# ncu-peers.sh): where results go, the precision, and the carried Debian
# libraries and kernel cache of scripts/gpu/run.sh. Sourced, not run.
set -uo pipefail
out=${OUT:-/tmp/bfly-gpu-out}
precision=${BFLY_BENCH_PRECISION:-single}
root=$PWD/.deps/root
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export BFLY_CACHE_DIR=${BFLY_CACHE_DIR:-$PWD/build-gpu/kernel-cache}
