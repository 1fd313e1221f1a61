"""Shared fixtures: the frameworks present on this machine, random data, and
the comparison with numpy.fft computed in double precision."""
import os

import numpy as np
import pytest


def frameworks():
    """(name, to_framework, to_numpy) for every framework with a CUDA device here, numpy first."""
    found = [("numpy", lambda a: a, lambda a: a)]
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            found.append(("cupy", cupy.asarray, cupy.asnumpy))
    except Exception:
        pass
    try:
        import torch
        if torch.cuda.is_available():
            found.append(("torch", lambda a: torch.from_numpy(np.ascontiguousarray(a)).cuda(),
                          lambda a: a.cpu().numpy()))
    except Exception:
        pass
    try:
        import jax
        if any(d.platform == "gpu" for d in jax.devices()):
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)  # else JAX makes float64 data float32
            found.append(("jax", lambda a: jnp.asarray(a), lambda a: np.asarray(a)))
    except Exception:
        pass
    return found


FRAMEWORKS = frameworks()
DEVICE_FRAMEWORKS = [f for f in FRAMEWORKS if f[0] != "numpy"]


@pytest.fixture(params=FRAMEWORKS, ids=[f[0] for f in FRAMEWORKS])
def framework(request):
    return request.param


@pytest.fixture
def rng(request):
    # A fresh seed per test, printed on failure through the test id.
    return np.random.default_rng(abs(hash(request.node.nodeid)) % (2 ** 32))


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), shape).astype(dtype)


def tolerance(result_dtype):
    """Relative L2 error allowed against numpy's result in double precision."""
    real = np.empty(0, result_dtype).real.dtype
    return {2: 3e-3, 4: 5e-6, 8: 1e-13}.get(real.itemsize, 1e-13)


def assert_close(got, want, dtype=None):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"shape {got.shape} != numpy's {want.shape}"
    if dtype is not None:
        assert got.dtype == dtype, f"dtype {got.dtype} != {dtype}"
    assert np.all(np.isfinite(got)), "non-finite values in the result (unwritten elements?)"
    scale = np.linalg.norm(want.astype(np.complex128).ravel())
    error = np.linalg.norm((got.astype(np.complex128) - want.astype(np.complex128)).ravel())
    assert error <= tolerance(got.dtype) * max(scale, 1e-30), f"relative error {error / max(scale, 1e-30):.3g}"


def reference(name, x, **kwargs):
    """numpy.fft's result computed in double (or long double) precision."""
    x = np.asarray(x)
    if x.dtype.kind == "c" and x.dtype.itemsize < 16:
        x = x.astype(np.complex128)
    elif x.dtype.kind == "f" and x.dtype.itemsize < 8:
        x = x.astype(np.float64)
    return getattr(np.fft, name)(x, **kwargs)


@pytest.fixture(autouse=True, scope="session")
def _device_note():
    import bfly
    spec = os.environ.get("BFLY_DEVICE", "auto")
    print(f"\nbfly {bfly.__version__} on BFLY_DEVICE={spec}; devices: {[d['spec'] for d in bfly.devices()]}")
    yield
