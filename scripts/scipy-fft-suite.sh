#!/usr/bin/env bash
# SciPy's own scipy.fft tests (scipy/fft/_pocketfft/tests/test_basic.py of
# the installed SciPy) run against bfly.scipy_fft: a temporary copy that
# takes the functions from scipy.fft instead of pocketfft, every test inside
# scipy.fft.set_backend(bfly.scipy_fft, only=True), so nothing falls back to
# pocketfft. Left out, as precisions bfly does not claim:
# - the four long double classes: bfly computes longdouble in double
#   precision (docs/PYTHON.md), and they ask for long double's accuracy;
# - TestSingleIFFT::test_djbfft: it asks bfly's complex64 ifft of
#   arange(8192) to equal pocketfft's complex64 result within 1e-4 on values
#   of up to 4096 (2.4e-8 of the scale, under float32's 6e-8). Against the
#   exact result the two are as accurate (relative L2 error 6.5e-8 and
#   6.2e-8, largest error 1.13e-4 and 1.14e-4); they round element 4097's
#   imaginary part (exact: 1.9e-4) to 2.4e-4 and 1.2e-4.
# On PoCL (2 cores, shared: load 6): 7 s with the kernels cached; the first
# run compiles them: 160 s of CPU, 5-6 minutes of wall time under that load,
# 40% of it in scipy's test_random_real and test_size_accuracy of irfft,
# whose odd lengths (2 n - 1 for n up to 8192) each compile their own plan.
# The quick tier (docs/TESTING.md) leaves out test_random_real and
# test_size_accuracy of the ifft and irfft classes (their odd lengths, above);
# BFLY_TEST_TIER=exhaustive runs them.
#   bash scripts/scipy-fft-suite.sh [python]      (default: build/pyvenv/bin/python)
# SciPy 1.18 moved its FFT (and these tests) from _pocketfft to _duccfft.
py_for_probe=${1:-build/pyvenv/bin/python}
module=scipy.fft._duccfft.tests.test_basic
(cd "$(dirname "$0")/.." && "$py_for_probe" -c "import $module" 2>/dev/null) || module=scipy.fft._pocketfft.tests.test_basic
source "$(dirname "$0")/fft-suite-common.sh" "$module" "$@"
test_file="$tmp/test_scipy_suite_on_bfly.py"
{
  cat <<'EOF'
import pytest
import scipy.fft
import bfly


@pytest.fixture(autouse=True)
def _on_bfly():
    with scipy.fft.set_backend(bfly.scipy_fft, only=True):
        yield


EOF
  sed -E 's/^from scipy\.fft\._(pocketfft|duccfft) import /from scipy.fft import /' "$source_file"
} > "$test_file"
grep -q "^from scipy.fft import (ifft" "$test_file"  # the rewrite took
skip=()
for case in TestLongDoubleFFT TestLongDoubleIFFT TestRFFTLongDouble TestIRFFTLongDouble TestSingleIFFT::test_djbfft; do
  skip+=(--deselect "test_scipy_suite_on_bfly.py::$case")
done
selection="not nothing"
[ "${BFLY_TEST_TIER:-quick}" = exhaustive ] || selection="not ((IFFT or IRFFT) and (test_random_real or test_size_accuracy))"
(cd "$tmp" && "$py" -m pytest -q -p no:cacheprovider "${parallel[@]}" test_scipy_suite_on_bfly.py "${skip[@]}" -k "$selection")
