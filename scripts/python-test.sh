#!/usr/bin/env bash
# Builds and installs the Python package into a virtual environment
# (build/pyvenv, NumPy 2 and the test tools from PyPI) and runs its tests on
# the default device (PoCL's CPU device on a machine without a GPU).
#   bash scripts/python-test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build/pyvenv
if [ ! -x "$venv/bin/python" ]; then
  py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, whose headers python3-dev installs
  "$py" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "numpy>=2" scipy pytest pytest-xdist hypothesis nanobind scikit-build-core ml_dtypes \
  mpi4py
# bfly.distributed's interop tests (python/tests/mpi): mpi4py-fft, built from
# its sdist against libfftw3-dev (14 s once, then pip's wheel cache); where
# it does not build, those two tests skip.
"$venv/bin/python" -m pip install -q mpi4py-fft || echo "python-test: mpi4py-fft not installed: its tests skip"
# The compiler the main build used (scikit-build would take Python's, another
# name for it), so that ccache gives the library's objects already compiled.
if [ -z "${CXX:-}" ] && [ -f build/CMakeCache.txt ]; then
  CXX=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' build/CMakeCache.txt)
  export CXX
fi
# No build isolation: the tools above are the build's (nothing else is fetched).
"$venv/bin/python" -m pip install -q --no-build-isolation .
source scripts/pytest-parallel.sh "$venv/bin/python"
cd python/tests
"../../$venv/bin/python" -m pytest -q -p no:cacheprovider "${parallel[@]}" "$@" .
cd ../..
bash scripts/numpy-fft-suite.sh "$venv/bin/python"
bash scripts/scipy-fft-suite.sh "$venv/bin/python"
bash scripts/scipy-r2r-suite.sh "$venv/bin/python"
