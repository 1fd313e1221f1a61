#!/usr/bin/env bash
# Builds the bfly tool alone (no tests, no Python) for an A/B run, from the
# working tree into build-gpu and, where ab-old/ holds an earlier revision
# (made before the device call: `rm -rf ab-old && mkdir ab-old && git
# archive REV | tar -x -C ab-old`; untracked, so it travels), from there
# into ab-old/build-gpu, both at once. Then suite-ab.sh's configs name the
# old one as bin=ab-old/build-gpu/apps/bfly/bfly.
source "$(dirname "$0")/device-env.sh"
build() {
  cmake -S "$1" -B "$1/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/usr" \
    -DBFLY_VKFFT_INCLUDE_DIR="$root/usr/include" -DBFLY_BUILD_TESTS=OFF -DBFLY_BUILD_PYTHON=OFF \
    > "$out/configure-$2.log" 2>&1 &&
    cmake --build "$1/build-gpu" -j "$(( $(nproc) / 2 ))" --target bfly_cli > "$out/build-$2.log" 2>&1 ||
    { grep -E "error|FAILED" "$out/build-$2.log" "$out/configure-$2.log" | head -20; return 1; }
}
status=0
build . new & new=$!
if [ -d ab-old ]; then build ab-old old & old=$!; wait $old || status=1; fi
wait $new || status=1
exit $status
