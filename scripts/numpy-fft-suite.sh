#!/usr/bin/env bash
# NumPy's own numpy.fft tests (numpy/fft/tests/test_pocketfft.py of the
# installed NumPy) run against bfly.fft: a temporary copy with np.fft.X
# rewritten to bfly.fft.X. The two longdouble cases are left out: bfly
# computes longdouble in double precision (docs/PYTHON.md), and they ask for
# long double's accuracy.
#   bash scripts/numpy-fft-suite.sh [python]      (default: build/pyvenv/bin/python)
source "$(dirname "$0")/fft-suite-common.sh" numpy.fft.tests.test_pocketfft "$@"
{ echo "import bfly"; sed 's/np\.fft\./bfly.fft./g' "$source_file"; } > "$tmp/test_numpy_suite_on_bfly.py"
grep -q "bfly.fft.fft(" "$tmp/test_numpy_suite_on_bfly.py"  # the rewrite took
(cd "$tmp" && "$py" -m pytest -q -p no:cacheprovider test_numpy_suite_on_bfly.py -k "not longdouble")
