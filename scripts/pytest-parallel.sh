# Sourced by the scripts that run pytest: sets `parallel`, the arguments that
# spread a pytest run over the machine's cores (pytest-xdist, which
# python-test.sh installs), or none where xdist is missing (the GPU
# machine's Python). Kernels compile one at a time in a process, so one
# process a core is what keeps a cold run from leaving a core idle. At most
# 4 workers: each opens the device and its own compiler.
#   source scripts/pytest-parallel.sh PYTHON
parallel=()
if "$1" -c "import xdist" 2>/dev/null; then
  jobs=$(nproc)
  [ "$jobs" -gt 4 ] && jobs=4
  [ "$jobs" -gt 1 ] && parallel=(-n "$jobs")
fi
