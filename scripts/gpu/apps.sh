#!/usr/bin/env bash
# The applications on the device's GPU (after `bash scripts/gpu/run.sh none`
# built bfly): their tests on cuda:0 (the accuracy suite's Convolve and
# Exact instances, and tests/cli/test_apps_cli.py), then the benchmarks:
# bench --app convolve with the product fused and as a pass of its own
# (--product pass), CuPy's fftconvolve on the same cases, and bench
# --app bigmul beside GMP. Logs to $OUT/apps-*.txt.
#   BFLY_APPS_PARTS="tests convolve bigmul" (default: all three)
#   BFLY_BIGMUL_DIGITS_LIST=1e4,1e5,1e6,1e7,1e8
#   BFLY_CONVOLVE_SIZES=3,7,15,31,63,127,255
source "$(dirname "$0")/device-env.sh"
parts=${BFLY_APPS_PARTS:-tests convolve bigmul}
bfly=build-gpu/apps/bfly/bfly
status=0
has() { [[ " $parts " == *" $1 "* ]]; }
if has tests; then
  build-gpu/tests/bfly_accuracy_tests --gtest_filter='*Convolve*/cuda:*Exact*/cuda' > "$out/apps-tests.txt" 2>&1 || status=1
  python3 tests/cli/test_apps_cli.py --bfly "$bfly" --device cuda:0 >> "$out/apps-tests.txt" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED)|FAIL |passed, .* failed|product fused|SKIP" "$out/apps-tests.txt" | sort | uniq -c | head -40
fi
if has convolve; then
  sizes=${BFLY_CONVOLVE_SIZES:-3,7,15,31,63,127,255}
  for fuse in ${BFLY_FUSE_MODES:-auto stores pass}; do
    $bfly bench --app convolve --product $fuse --device cuda:0 --kernel-sizes "$sizes" --repetitions 11 \
      > "$out/apps-convolve-fuse$fuse.txt" 2>&1 || status=1
    cat "$out/apps-convolve-fuse$fuse.txt"
  done
  python3 scripts/gpu/convolve-peers.py --kernel-sizes "$sizes" > "$out/apps-convolve-cupy.txt" 2>&1 || status=1
  cat "$out/apps-convolve-cupy.txt"
fi
if has bigmul; then
  $bfly bench --app bigmul --device cuda:0 --digits "${BFLY_BIGMUL_DIGITS_LIST:-1e4,1e5,1e6,1e7,1e8}" --repetitions 5 \
    > "$out/apps-bigmul.txt" 2>&1 || status=1
  cat "$out/apps-bigmul.txt"
fi
exit $status
