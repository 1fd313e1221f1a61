"""The cases run under mpirun (test_distributed.py): no device note per rank
(python/tests/conftest.py's opens bfly._core's device on every rank)."""
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _device_note():
    yield


def pytest_sessionfinish(session, exitstatus):
    # Each rank's outcome in a file of its own (test_distributed.py reads
    # them): the ranks' terminal summaries interleave on mpirun's output.
    results = os.environ.get("BFLY_TEST_RESULTS")
    if results:
        from mpi4py import MPI

        with open(os.path.join(results, f"rank{MPI.COMM_WORLD.Get_rank()}.txt"), "w") as f:
            f.write(f"{int(exitstatus)} {session.testscollected} {session.testsfailed}\n")
