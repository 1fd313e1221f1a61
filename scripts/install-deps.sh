#!/usr/bin/env bash
# Installs everything bfly needs to build, test and benchmark on Debian 12.
# Idempotent: apt-get skips what is already there.
set -euo pipefail
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
packages=(
  build-essential cmake ninja-build pkg-config git
  ccache            # the Python package's build reuses the main build's objects (CMakeLists.txt)
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo  # OpenCL + the CPU device
  libfftw3-dev      # test oracle (double) and CPU peer (single)
  libclfft-dev      # peer on the same OpenCL device
  libvkfft-dev      # peer on the same OpenCL device (header-only)
  libcli11-dev nlohmann-json3-dev libgtest-dev
  libpng-dev        # bfly filter's PNG images
  libopenmpi-dev openmpi-bin  # bfly::distributed (BFLY_MPI) and its tests under mpirun
  libfftw3-mpi-dev  # the distributed tests' second oracle (FFTW-MPI, double and single)
  python3 python3-numpy  # CLI tests compare with numpy.fft
  python3-dev python3-venv  # the Python package (scripts/python-test.sh builds it in a venv)
  clang libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer, ASan and UBSan (clang 14)
  clang-format      # scripts/lint.sh: the C++ style (.clang-format)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Test oracles only, without their recommends (python3-scipy's pull in Boost).
oracles=(
  python3-scipy  # the application tests compare with scipy.signal
  libgmp-dev     # the exact products' oracle (GMP), not their engine
  python3-skimage  # bfly filter's Butterworth masks against skimage.filters.butterworth
)
missing_oracles=()
for p in "${oracles[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_oracles+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_oracles[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -qq "${missing[@]}"
  [ ${#missing_oracles[@]} -eq 0 ] || $sudo apt-get install -y -qq --no-install-recommends "${missing_oracles[@]}"
fi
