"""A package, so that its conftest.py is mpi.conftest and does not shadow python/tests/conftest.py."""
