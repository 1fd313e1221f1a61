"""A scipy.fft backend: scipy.fft (and what calls it, such as
scipy.signal.fftconvolve) on bfly.

    import scipy.fft, scipy.signal, bfly
    with scipy.fft.set_backend(bfly.scipy_fft):
        y = scipy.signal.fftconvolve(a, b)
    scipy.fft.register_backend(bfly.scipy_fft)   # or for the whole program

The 18 complex, real and Hermitian functions are implemented with every
scipy keyword: `overwrite_x` (bfly never writes to its input), `workers`
(accepted; the transform runs on the device) and `plan` (a bfly.Plan made for
the same call; any other plan object is left to the next backend). Anything
else (dct, dst, fht, ...) returns NotImplemented, so scipy falls back to its
own backend. dtypes follow scipy: float16 is computed and returned in single
precision, longdouble in double precision (returned as longdouble).
NumPy arrays run on $BFLY_DEVICE (else auto); CuPy, PyTorch and JAX arrays on
their own device and stream.
"""
import numpy as np

from . import fft as _fft
from ._arrays import framework_of
from ._plan import Plan
from ._transform import cook_nd_args, run, swap_norm

__ua_domain__ = "numpy.scipy.fft"


def _scipy_dtype(x):
    # scipy computes float16 in float32 and returns float32 / complex64.
    if getattr(x, "dtype", None) == np.float16:
        return x.astype(np.float32)
    return x


def _check_workers(workers):
    if workers is not None and not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if workers == 0:
        raise ValueError("workers must not be zero")


def _with_plan(kind, name):
    """A scipy signature over one of bfly.fft's functions, `plan=` handled."""
    one_axis = name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
    default_axes = (-2, -1) if name.endswith("2") else None

    if one_axis:
        function = getattr(_fft, name)

        def one(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
            _check_workers(workers)
            x = _scipy_dtype(x)
            if plan is not None:
                return _run_plan(plan, kind, x, None if n is None else [n], [axis], norm)
            return function(x, n, axis, norm)
        one.__name__ = name
        return one

    def many(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_workers(workers)
        x = _scipy_dtype(x)
        if s is not None and axes is None:  # scipy's rule (numpy deprecates it): the last len(s) axes
            axes = tuple(range(-len(s), 0))
        if plan is not None:
            return _run_plan(plan, kind, x, s, axes, norm)
        return _nd[kind](x, s, axes, norm)
    many.__name__ = name
    return many


def _run_plan(plan, kind, x, s, axes, norm):
    if not isinstance(plan, Plan):
        return NotImplemented  # another backend's plan
    if not plan.matches(kind, getattr(x, "shape", np.shape(x)), axes, s, norm):
        raise ValueError(f"{plan!r} was not made for this call ({kind} of shape "
                         f"{tuple(getattr(x, 'shape', np.shape(x)))}, axes {axes}, s {s}, norm {norm})")
    return plan(x)


def _hfftn(x, s=None, axes=None, norm=None):
    # scipy's hfftn: the forward transform of a Hermitian spectrum, irfftn of
    # its conjugate with the normalisation swapped.
    s, axes = cook_nd_args(tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape), s, axes,
                           inverse_real=True, warn=False)
    if len(set(axes)) != len(axes):
        raise ValueError("hfftn: repeated axes are not supported")
    lengths = dict(zip(axes, s))
    lengths[axes[-1]] = s[-1] // 2 + 1
    return run(x, "c2r", axes, lengths, True, swap_norm(norm), n_out=s[-1], conj_in=True)


def _ihfftn(x, s=None, axes=None, norm=None):
    s, axes = cook_nd_args(tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape), s, axes, warn=False)
    if len(set(axes)) != len(axes):
        raise ValueError("ihfftn: repeated axes are not supported")
    return run(x, "r2c", axes, dict(zip(axes, s)), False, swap_norm(norm), conj_out=True)


_nd = {"fft": _fft.fftn, "ifft": _fft.ifftn, "rfft": _fft.rfftn, "irfft": _fft.irfftn,
       "hfft": _hfftn, "ihfft": _ihfftn}

_functions = {}
for _kind in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    for _suffix in ("", "2", "n"):
        _functions[_kind + _suffix] = _with_plan(_kind, _kind + _suffix)
del _kind, _suffix

# The module-level functions, for calling directly.
globals().update(_functions)


def __ua_function__(method, args, kwargs):
    function = _functions.get(method.__name__)
    if function is None:
        return NotImplemented
    return function(*args, **kwargs)


def __ua_convert__(dispatchables, coerce):
    # Arrays of every framework bfly takes stay as they are (device arrays
    # are transformed where they lie); the rest goes through numpy.asarray.
    converted = []
    for d in dispatchables:
        value = d.value
        if value is None or d.type is not np.ndarray:
            converted.append(value)
            continue
        fw, array = framework_of(value)
        converted.append(array if fw.on_device else np.asarray(array) if fw.name == "numpy" else value)
    return converted
