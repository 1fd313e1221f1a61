#!/usr/bin/env bash
# The style checks CI runs before the build (.ci/run): clang-format 14 over
# every tracked C++ file (.clang-format; the golden kernel text and the
# finished experiments aside), and ruff over the Python (pyproject.toml's
# [tool.ruff]), from PyPI into build/lintvenv.
#   bash scripts/lint.sh          # check
#   bash scripts/lint.sh --fix    # rewrite the C++ in place, and ruff's safe fixes
set -euo pipefail
cd "$(dirname "$0")/.."
fix=${1:-}
mapfile -t cpp < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' | grep -v '^tests/golden/\|^bench/experiments/')
status=0
if [ "$fix" = --fix ]; then
  clang-format -i "${cpp[@]}"
else
  clang-format --dry-run --Werror "${cpp[@]}" || { echo "lint: C++ not as .clang-format says (bash scripts/lint.sh --fix)"; status=1; }
fi
venv=build/lintvenv
if [ ! -x "$venv/bin/ruff" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "ruff==0.17.6" || "$venv/bin/pip" install --quiet ruff
fi
mapfile -t py < <(git ls-files '*.py')
"$venv/bin/ruff" check ${fix:+--fix} "${py[@]}" || { echo "lint: Python (ruff check)"; status=1; }
[ "$status" -eq 0 ] && echo "lint: C++ (${#cpp[@]} files) and Python (${#py[@]} files) as configured"
exit $status
