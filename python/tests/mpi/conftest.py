"""The cases run under mpirun (test_distributed.py): no device note per rank
(python/tests/conftest.py's opens bfly._core's device on every rank)."""
import pytest


@pytest.fixture(autouse=True, scope="session")
def _device_note():
    yield
