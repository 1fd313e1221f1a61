#!/usr/bin/env bash
# Downloads (does not install) the Debian packages scripts/gpu/run.sh carries to
# a GPU machine that cannot reach any package registry. Run on Debian 12.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deps/debs
grep -qx "/.deps/" .git/info/exclude 2>/dev/null || { mkdir -p .git/info; echo "/.deps/" >> .git/info/exclude; }
cd .deps/debs
apt-get download libcli11-dev nlohmann-json3-dev libvkfft-dev libgtest-dev \
  libfftw3-dev libfftw3-double3 libfftw3-single3 libfftw3-long3 \
  libgmp-dev libgmp10 libgmpxx4ldbl \
  libpng-dev libpng16-16 zlib1g-dev  # GMP: the exact products' test oracle; libpng: bfly filter
# Open MPI and what its libraries and plugins load, for the distributed
# runs (scripts/gpu/distributed.sh relocates it with OPAL_PREFIX).
apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libevent-core-2.1-7 \
  libevent-pthreads-2.1-7 libevent-2.1-7 libhwloc15 libhwloc-dev libpmix2 libfabric1 libucx0 libibverbs1 \
  librdmacm1 libpsm2-2 libpsm-infinipath1 libnl-3-200 libnl-route-3-200 libmunge2 libnuma1 libltdl7 \
  libxnvctrl0 libpciaccess0 libgfortran5 libfftw3-mpi3 libfftw3-mpi-dev

# The Python tests' pure-Python tools, for GPU machines whose Python lacks
# them (scripts/gpu/python.sh uses them only then).
cd ../..
mkdir -p .deps/wheels
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 -d .deps/wheels \
  pytest pluggy iniconfig packaging hypothesis sortedcontainers attrs
