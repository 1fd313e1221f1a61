#!/usr/bin/env bash
# Here, not on the GPU machine: copies this machine's Release CLI (built by
# scripts/build.sh with the CUDA toolkit present, so NVRTC, the CUDA
# backend and the CUDA peers' plugin are in), the plugin and the non-system
# libraries they load into .deps/onebin (about 35 MB), so that a device call
# can skip the 200-250 s build: carry [".deps/onebin"] and
#   export BFLY=$PWD/.deps/onebin/bfly LD_LIBRARY_PATH=$PWD/.deps/onebin/lib
# before ab-many.sh or suite-each.sh (both run $BFLY where it is set).
# The GPU machine has the CUDA libraries the plugin links (/usr/local/cuda).
set -euo pipefail
build=${1:-build}
dest=.deps/onebin
mkdir -p "$dest/lib"
cp "$build/apps/bfly/bfly" "$dest/bfly"
[ -f "$build/apps/bfly/libbfly_cuda_peers.so" ] && cp "$build/apps/bfly/libbfly_cuda_peers.so" "$dest/"
# The accuracy suite too (11 MB; the libraries it loads are among the CLI's):
# BFLY_TEST_DEVICE=cuda:0 .deps/onebin/bfly_accuracy_tests runs it on the GPU.
[ -f "$build/tests/bfly_accuracy_tests" ] && cp "$build/tests/bfly_accuracy_tests" "$dest/"
# Every library ldd resolves outside glibc's own and the CUDA toolkit's.
ldd "$dest/bfly" | awk '/=> \// {print $3}' | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt)\.so' |
  grep -v '/cuda' | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
echo "$dest: $(du -sh "$dest" | cut -f1), from $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (uncommitted changes)')"
