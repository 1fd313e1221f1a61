# Shared by the device scripts (run.sh, python.sh, ab-many.sh, ncu-peers.sh,
# ...): where results go, the precision, the carried Debian libraries
# (unpacked here on a fresh machine) and the kernel cache. Sourced, not run.
set -uo pipefail
out=${OUT:-/tmp/bfly-gpu-out}
precision=${BFLY_BENCH_PRECISION:-single}
root=$PWD/.deps/root
# The carried .deb files, unpacked once per machine (nothing is installed).
if [ -d .deps/debs ] && [ ! -d "$root/usr" ]; then
  mkdir -p "$root"
  for deb in .deps/debs/*.deb; do dpkg -x "$deb" "$root"; done
fi
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
# A prebuilt CLI carried from the build machine (gpu/prebuilt.sh), its libraries.
[ -d .deps/onebin/lib ] && export LD_LIBRARY_PATH=$PWD/.deps/onebin/lib:$LD_LIBRARY_PATH
export BFLY_CACHE_DIR=${BFLY_CACHE_DIR:-$PWD/build-gpu/kernel-cache}
