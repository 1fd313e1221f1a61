"""bfly.distributed under MPI: launches ``mpirun -np N python -m pytest
mpi/distributed_cases.py`` for N = 1..4 (3 splits unevenly, 4 leaves ranks
with empty boxes and makes the first square pencil grid), oversubscribed on
CI's 2 cores, and checks that every rank passed. Skipped where mpi4py,
mpirun or bfly._distributed (bfly built without MPI) is missing."""
import importlib.util
import os
import shutil
import subprocess
import sys
import time

import pytest

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi", "distributed_cases.py")


def _missing():
    if importlib.util.find_spec("mpi4py") is None:
        return "mpi4py is not installed (pip install mpi4py)"
    if shutil.which("mpirun") is None:
        return "no mpirun (apt-get install openmpi-bin)"
    if importlib.util.find_spec("bfly._distributed") is None:
        return "bfly was built without MPI (no bfly._distributed)"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")

# Open MPI's settings for this machine (tests/distributed/CMakeLists.txt says
# why each): CI runs as root; more ranks than cores; no CMA single copy
# (refused in containers); shared memory and self only; one PoCL thread a
# rank. Each rank's PoCL cache lives under BFLY_TEST_POCL_CACHE
# (distributed_cases.py), kept between runs.
MPI_ENVIRONMENT = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_btl": "self,vader", "POCL_MAX_PTHREAD_COUNT": "1",
}


def _pocl_cache():
    given = os.environ.get("POCL_CACHE_DIR")
    if given:
        return os.path.join(given, "bfly-distributed-py")
    return os.path.join(os.path.expanduser("~"), ".cache", "bfly", "pocl-distributed-py")


@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_distributed_under_mpirun(ranks, tmp_path):
    env = dict(os.environ, **MPI_ENVIRONMENT, BFLY_TEST_POCL_CACHE=_pocl_cache(), BFLY_TEST_RESULTS=str(tmp_path))
    command = ["mpirun", "-np", str(ranks), sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "no:xdist", "--color=no", CASES]
    start = time.monotonic()
    try:
        # A hang (the failure bfly.distributed's agreement exists to rule out) ends here.
        done = subprocess.run(command, env=env, cwd=os.path.dirname(CASES), capture_output=True, text=True,
                              timeout=240)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"mpirun -np {ranks} timed out (a hang?):\n{e.stdout or ''}{e.stderr or ''}")
    seconds = time.monotonic() - start
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"mpirun -np {ranks} exited {done.returncode}:\n{output}"
    # Every rank's pytest wrote how it went (mpi/conftest.py): each must have
    # run every case and failed none.
    results = [(tmp_path / f"rank{r}.txt") for r in range(ranks)]
    assert all(path.exists() for path in results), output
    outcomes = [tuple(int(v) for v in path.read_text().split()) for path in results]
    assert all(status == 0 and failed == 0 and collected > 0 for status, collected, failed in outcomes), output
    print(f"np {ranks}: {seconds:.1f} s; {outcomes[0][1]} cases a rank passed")
