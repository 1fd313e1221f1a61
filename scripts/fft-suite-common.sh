# Sourced by numpy-fft-suite.sh and scipy-fft-suite.sh, which run a
# library's own FFT tests on bfly: from the repository root, sets `py` (the
# python to test with, default build/pyvenv/bin/python, made absolute: the
# suites run from a temporary folder), `source_file` (the installed test
# file of MODULE), `tmp` (a temporary folder, removed on exit) and
# `parallel` (pytest-xdist's arguments: scripts/pytest-parallel.sh).
#   source scripts/fft-suite-common.sh MODULE [python]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${2:-build/pyvenv/bin/python}
case "$py" in */*) py=$(cd "$(dirname "$py")" && pwd)/$(basename "$py") ;; esac
source_file=$("$py" -c "import $1 as t; print(t.__file__)")
source scripts/pytest-parallel.sh "$py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
