"""bfly: Fast Fourier Transforms generated at run time for GPUs and CPUs.

    import bfly
    bfly.fft.fft(x)                  # numpy.fft, on NumPy, CuPy, PyTorch or JAX arrays
    with scipy.fft.set_backend(bfly.scipy_fft):
        scipy.signal.fftconvolve(a, b)   # scipy.fft on bfly
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft")
    plan(x)                          # planned once, run many times
    bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", load="hann", store="db")  # fused window and dB
    bfly.fft.rfft(x16, half=True)    # float16 in, float16 (real, imaginary) pairs out, computed in float32
    bfly.plan_cache.clear()          # the plans bfly.fft keeps (max_size: BFLY_PLAN_CACHE_SIZE, 64)
    bfly.devices()                   # what bfly can run on
    bfly.warmup([1000, (512, 512)])  # compile ahead of the first call
    bfly.set_tier("specialised")     # wait for each new size's own kernels (default "auto"; see set_tier)
    bfly.next_fast_len(1021)         # 1024: the next length bfly runs by its butterflies alone
"""
import operator

from . import _core, fft
from ._callbacks import Callback
from ._device_array import DeviceArray
from ._engine import ForkedChildError, plan_cache
from ._plan import Plan, warmup

__version__ = _core.version()


def set_tier(tier):
    """Which kernels the plans made from now on run (bfly::PlanOptions::tier):
    "specialised" (kernels made for each size, compiled the first time a
    device meets it: 0.2-2 s a kernel on a GPU, seconds on a CPU), "generic"
    (fixed kernels that take the size as an argument: nothing compiled for a
    new size, slower), "tiered" (generic at once, the specialised kernels
    made on a thread and used once made), "auto" (specialised where the
    size's kernels are at hand: made in this process, shipped with bfly or
    in the disk cache; else tiered), "at-hand" (specialised where at hand,
    else generic: never compiles) or "default" (BFLY_LIMITS's
    generic=0..4, else auto). Clears bfly.plan_cache, whose plans were made
    under the tier before."""
    _core.set_tier(str(tier))
    plan_cache.clear()


def next_fast_len(target, real=False):
    """The smallest length >= target that bfly transforms fastest (its
    butterflies alone: a product of 2, 3, 5 and 7; even where `real`, but
    1 for 1), as scipy.fft.next_fast_len answers for its own pocketfft.
    Takes what operator.index takes; a negative target raises ValueError."""
    target = operator.index(target)
    if target < 0:
        raise ValueError(f"Target length must be positive (got {target})")
    return _core.next_fast_len(target, bool(real))


def devices():
    """The devices bfly sees: a list of dicts (spec, backend, name, vendor, driver, is_gpu, memory_bytes)."""
    return _core.devices()


def __getattr__(name):
    # scipy is optional: bfly.scipy_fft imports it on first use.
    if name == "scipy_fft":
        import importlib
        return importlib.import_module(".scipy_fft", __name__)
    raise AttributeError(f"module 'bfly' has no attribute {name!r}")


__all__ = ["fft", "scipy_fft", "Plan", "Callback", "ForkedChildError", "warmup", "plan_cache", "set_tier",
           "next_fast_len", "devices", "DeviceArray", "__version__"]
