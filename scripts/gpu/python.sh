#!/usr/bin/env bash
# The Python package on a GPU machine: pip install (no build isolation: the
# machine has nanobind and scikit-build-core, and no network), its tests on
# CuPy, PyTorch and JAX arrays, and bfly.fft beside cupy.fft and torch.fft.
#   device run: bash scripts/gpu/python.sh [test|bench|dct|spectrum|all]     with carry [".deps"]
# Env: BFLY_PYTHON (default: python3 on PATH), BFLY_PYTEST_ARGS, BFLY_PYBENCH_ARGS.
set -uo pipefail
what=${1:-all}
source "$(dirname "$0")/device-env.sh"
py=${BFLY_PYTHON:-python3}
# Pure-Python test tools (pytest, hypothesis) carried as wheels
# (scripts/gpu/fetch-debs.sh), used for the tests only where the machine lacks them.
testpath=${PYTHONPATH:-}
if ! $py -c "import pytest, hypothesis" 2>/dev/null && [ -d .deps/wheels ]; then
  mkdir -p .deps/pylib
  for w in .deps/wheels/*.whl; do $py -m zipfile -e "$w" .deps/pylib; done
  testpath=$PWD/.deps/pylib:$testpath
fi
$py - <<'PY'
import importlib
for m in ("numpy", "scipy", "cupy", "torch", "jax", "nanobind", "scikit_build_core", "pytest", "hypothesis"):
    try:
        mod = importlib.import_module(m); print(m, getattr(mod, "__version__", "?"))
    except Exception as e:
        print(m, "missing:", e)
PY
status=0
$py -m pip install --no-build-isolation --no-deps -q \
  -C cmake.define.CMAKE_PREFIX_PATH="$root/usr" . > "$out/pip-install.log" 2>&1 || { tail -40 "$out/pip-install.log"; exit 1; }
tail -3 "$out/pip-install.log"
if [ "$what" = test ] || [ "$what" = all ]; then
  (cd python/tests && PYTHONPATH=$testpath timeout ${BFLY_PYTEST_TIMEOUT:-420} $py -m pytest -q -p no:cacheprovider ${BFLY_PYTEST_ARGS:-} . ) > "$out/pytest.log" 2>&1 || status=1
  tail -25 "$out/pytest.log"
  PYTHONPATH=$testpath bash scripts/numpy-fft-suite.sh "$py" > "$out/numpy-suite.log" 2>&1 || status=1
  tail -3 "$out/numpy-suite.log"
  PYTHONPATH=$testpath bash scripts/scipy-fft-suite.sh "$py" > "$out/scipy-suite.log" 2>&1 || status=1
  tail -3 "$out/scipy-suite.log"
  PYTHONPATH=$testpath bash scripts/scipy-r2r-suite.sh "$py" > "$out/scipy-r2r-suite.log" 2>&1 || status=1
  tail -3 "$out/scipy-r2r-suite.log"
fi
if [ "$what" = dct ]; then  # the DCT/DST beside cupyx.scipy.fft (BFLY_DCT_ARGS: scripts/dct-bench.py's)
  $py scripts/dct-bench.py --out "$out/dct-bench.json" ${BFLY_DCT_ARGS:-} > "$out/dct-bench.txt" 2>&1 || status=1
  cat "$out/dct-bench.txt"
fi
if [ "$what" = spectrum ] || [ "$what" = all ]; then  # callbacks (issue 42): their tests on cuda:0, the dB spectrum vs CuPy
  (cd python/tests && PYTHONPATH=$testpath $py -m pytest -q -p no:cacheprovider test_callbacks.py) > "$out/pytest-callbacks.log" 2>&1 || status=1
  tail -3 "$out/pytest-callbacks.log"
  $py scripts/gpu/spectrum-peers.py --out "$out/spectrum-peers.json" > "$out/spectrum-peers.txt" 2>&1 || status=1
  cat "$out/spectrum-peers.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  $py scripts/gpu/python-bench.py --out "$out/python-bench.json" ${BFLY_PYBENCH_ARGS:-} > "$out/python-bench.txt" 2>&1 || status=1
  cat "$out/python-bench.txt"
fi
exit $status
