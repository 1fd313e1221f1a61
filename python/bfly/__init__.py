"""bfly: Fast Fourier Transforms generated at run time for GPUs and CPUs.

    import bfly
    bfly.fft.fft(x)                  # numpy.fft, on NumPy, CuPy, PyTorch or JAX arrays
    with scipy.fft.set_backend(bfly.scipy_fft):
        scipy.signal.fftconvolve(a, b)   # scipy.fft on bfly
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft")
    plan(x)                          # planned once, run many times
    bfly.plan_cache.clear()          # the plans bfly.fft keeps (max_size: BFLY_PLAN_CACHE_SIZE, 64)
    bfly.devices()                   # what bfly can run on
    bfly.warmup([1000, (512, 512)])  # compile ahead of the first call
"""
from . import _core, fft
from ._device_array import DeviceArray
from ._engine import plan_cache
from ._plan import Plan, warmup

__version__ = _core.version()


def devices():
    """The devices bfly sees: a list of dicts (spec, backend, name, vendor, driver, is_gpu, memory_bytes)."""
    return _core.devices()


def __getattr__(name):
    # scipy is optional: bfly.scipy_fft imports it on first use.
    if name == "scipy_fft":
        import importlib
        return importlib.import_module(".scipy_fft", __name__)
    raise AttributeError(f"module 'bfly' has no attribute {name!r}")


__all__ = ["fft", "scipy_fft", "Plan", "warmup", "plan_cache", "devices", "DeviceArray", "__version__"]
