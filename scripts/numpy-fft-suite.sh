#!/usr/bin/env bash
# NumPy's own numpy.fft tests (numpy/fft/tests/test_pocketfft.py of the
# installed NumPy) run against bfly.fft: a temporary copy with np.fft.X
# rewritten to bfly.fft.X. The two longdouble cases are left out: bfly
# computes longdouble in double precision (docs/PYTHON.md), and they ask for
# long double's accuracy.
# The quick tier (docs/TESTING.md: the default, CI) leaves out
# TestFFT1D::test_identity, a sweep of every length 1..511 through fft, ifft,
# rfft and irfft: some 2000 kernels, 7 of the suite's 8 minutes on PoCL with
# empty caches (2 cores, 2026-11-25); bfly's own tests sample those lengths.
# BFLY_TEST_TIER=exhaustive (scripts/exhaustive-tests.sh) runs it.
# TestFFTThreadSafe compares each thread's result bit for bit with a first
# call's. Under the default tier a new size's first calls run the generic
# kernels while its own compile, and later calls its own, which round
# differently (a few 1e-17 in irfft of 800 x 200, 2026-11-27: a CI run
# failed on that, timing-dependent); so it runs apart, in a process whose
# tier is the specialised kernels (BFLY_LIMITS=generic=0, docs/PYTHON.md).
#   bash scripts/numpy-fft-suite.sh [python]      (default: build/pyvenv/bin/python)
source "$(dirname "$0")/fft-suite-common.sh" numpy.fft.tests.test_pocketfft "$@"
{ echo "import bfly"; sed 's/np\.fft\./bfly.fft./g' "$source_file"; } > "$tmp/test_numpy_suite_on_bfly.py"
grep -q "bfly.fft.fft(" "$tmp/test_numpy_suite_on_bfly.py"  # the rewrite took
selection="not longdouble and not TestFFTThreadSafe"
[ "${BFLY_TEST_TIER:-quick}" = exhaustive ] || selection="$selection and not (TestFFT1D and test_identity and not long)"
(cd "$tmp" && "$py" -m pytest -q -p no:cacheprovider "${parallel[@]}" test_numpy_suite_on_bfly.py -k "$selection")
(cd "$tmp" && BFLY_LIMITS=generic=0 "$py" -m pytest -q -p no:cacheprovider test_numpy_suite_on_bfly.py \
  -k "TestFFTThreadSafe and not longdouble")
