#!/usr/bin/env bash
# SciPy's own DCT/DST tests (scipy/fft/tests/test_real_transforms.py of the
# installed SciPy, run where it lies, unedited) against bfly.scipy_fft: a
# pytest plugin puts every test inside scipy.fft.set_backend(bfly.scipy_fft,
# only=True), so nothing falls back to SciPy's own transforms (scipy.fftpack,
# which the file compares with, is not dispatched and stays SciPy's). The
# file's `xp` fixture comes from SciPy's conftest.py beside it (NumPy arrays
# unless SCIPY_ARRAY_API is set).
#   bash scripts/scipy-r2r-suite.sh [python]      (default: build/pyvenv/bin/python)
source "$(dirname "$0")/fft-suite-common.sh" scipy.fft.tests.test_real_transforms "$@"
cat > "$tmp/bfly_scipy_backend.py" <<'PLUGIN'
import pytest
import scipy.fft
import bfly


@pytest.fixture(autouse=True)
def _on_bfly():
    with scipy.fft.set_backend(bfly.scipy_fft, only=True):
        yield
PLUGIN
# --confcutdir: SciPy's conftest.py files from its package root down are
# loaded however far the file lies from this run's folder (a newer pytest
# stopped at the rootdir: "fixture 'xp' not found").
site=$(dirname "$(dirname "$(dirname "$(dirname "$source_file")")")")
(cd "$tmp" && PYTHONPATH="$tmp" "$py" -m pytest -q -p no:cacheprovider -p bfly_scipy_backend "${parallel[@]}" \
  --confcutdir "$site" "$source_file")
