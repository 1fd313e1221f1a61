"""A scipy.fft backend: scipy.fft (and what calls it, such as
scipy.signal.fftconvolve) on bfly.

    import scipy.fft, scipy.signal, bfly
    with scipy.fft.set_backend(bfly.scipy_fft):
        y = scipy.signal.fftconvolve(a, b)
    scipy.fft.register_backend(bfly.scipy_fft)   # or for the whole program

The 18 complex, real and Hermitian functions are implemented with every
scipy keyword: `overwrite_x` (bfly never writes to its input), `workers`
(accepted; the transform runs on the device) and `plan` (a bfly.Plan made for
the same call; any other plan object is left to the next backend). So are
the DCT and DST, dct, idct, dst, idst, dctn, idctn, dstn and idstn, with
`type`, `n`/`s`, `axis`/`axes`, `norm`, `overwrite_x`, `workers` and
`orthogonalize` (bfly/_r2r.py; device arrays too). Anything else (fht, ...)
returns NotImplemented, so scipy falls back to its own backend. dtypes
follow scipy: float16 is computed and returned in single precision,
longdouble in double precision (returned as longdouble). Bad arguments
raise what scipy raises, in its words (its tests match them).
NumPy arrays run on $BFLY_DEVICE (else auto); CuPy, PyTorch and JAX arrays on
their own device and stream.
"""
import logging
import operator
import os

import numpy as np

from . import _r2r
from . import fft as _fft
from ._arrays import framework_of
from ._engine import ForkedChildError
from ._plan import Plan
from ._transform import normalize_axis, run, swap_norm

__ua_domain__ = "numpy.scipy.fft"


def _scipy_dtype(x):
    # scipy computes float16 in float32 and returns float32 / complex64.
    if getattr(x, "dtype", None) == np.float16:
        return x.astype(np.float32)
    return x


def _shape(x):
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def _check_workers(workers):
    if workers is not None and not isinstance(workers, (int, np.integer)):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if workers == 0:
        raise ValueError("workers must not be zero")
    cpus = os.cpu_count() or 1
    if workers is not None and workers < -cpus:  # scipy counts -1 as every core, -cpus as one
        raise ValueError(f"workers value out of range; got {workers}, must not be less than {-cpus}")


# scipy's own checks and wording (scipy/fft/_pocketfft/helper.py and
# basic.py), which its tests match: they differ from numpy's.

def _check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or "forward"')


def _check_real(x):
    fw, array = framework_of(x)
    if fw.dtype(array).kind == "c":
        raise TypeError("x must be a real sequence")


def _ints(value, name):
    if isinstance(value, (int, np.integer)):
        value = (value,)
    try:
        return [operator.index(a) for a in value]
    except TypeError:
        raise ValueError(f"{name} must be a scalar or iterable of integers") from None


def _one_axis_n(kind, shape, n, axis):
    """scipy's check of a 1-D call's n (or of the axis's length when n is None)."""
    if kind in ("irfft", "hfft"):
        if n is None:
            length = (shape[axis] - 1) * 2
            if length < 1:
                raise ValueError(f"Invalid number of data points ({length}) specified")
            return
    elif n is None:
        n = shape[axis]
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")


def _nd_args(shape, s, axes):
    """scipy's _init_nd_shape_and_axes: (s, axes) as lists, axes unique and
    non-negative, s's -1 entries the axis's length."""
    ndim = len(shape)
    if axes is not None:
        axes = [a + ndim if a < 0 else a for a in _ints(axes, "axes")]
        if any(a >= ndim or a < 0 for a in axes):
            raise ValueError("axes exceeds dimensionality of input")
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is not None:
        s = _ints(s, "shape")
        if axes and len(axes) != len(s):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        if axes is None:
            if len(s) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(s), ndim))
        s = [shape[a] if n == -1 else n for n, a in zip(s, axes)]
    elif axes is None:
        s, axes = list(shape), list(range(ndim))
    else:
        s = [shape[a] for a in axes]
    if any(n < 1 for n in s):
        raise ValueError(f"invalid number of data points ({s}) specified")
    return s, axes


def _with_plan(kind, name):
    """A scipy signature over one of bfly.fft's functions, `plan=` handled."""
    one_axis = name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
    default_axes = (-2, -1) if name.endswith("2") else None
    real_input = kind in ("rfft", "ihfft")

    if one_axis:
        function = getattr(_fft, name)

        def one(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
            _check_workers(workers)
            _check_norm(norm)
            if real_input:
                _check_real(x)
            shape = _shape(x)
            if len(shape) > 0:
                _one_axis_n(kind, shape, n, normalize_axis(axis, len(shape)))
            x = _scipy_dtype(x)
            if plan is not None:
                return _run_plan(plan, kind, x, None if n is None else [n], [axis], norm)
            return function(x, n, axis, norm)
        one.__name__ = name
        return one

    def many(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _check_workers(workers)
        if real_input:
            _check_real(x)
        shape = _shape(x)
        no_s = s is None
        s, axes = _nd_args(shape, s, axes)
        if not axes:
            if kind in ("fft", "ifft"):
                return x  # scipy returns its input as it is when no axis is transformed
            raise ValueError("at least 1 axis must be transformed")
        _check_norm(norm)
        if kind in ("irfft", "hfft") and no_s:
            s[-1] = (shape[axes[-1]] - 1) * 2  # the real length, by default
            if s[-1] < 1:
                raise ValueError(f"invalid number of data points ({s[-1]}) specified")
        x = _scipy_dtype(x)
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


def _hfftn(x, s, axes, norm):
    # scipy's hfftn: the forward transform of a Hermitian spectrum, irfftn of
    # its conjugate with the normalisation swapped (s and axes as _nd_args
    # made them, s[-1] the real length).
    lengths = dict(zip(axes, s))
    lengths[axes[-1]] = s[-1] // 2 + 1
    return run(x, "c2r", axes, lengths, True, swap_norm(norm), n_out=s[-1], conj_in=True)


def _ihfftn(x, s, axes, norm):
    return run(x, "r2c", axes, dict(zip(axes, s)), False, swap_norm(norm), conj_out=True)


_nd = {"fft": _fft.fftn, "ifft": _fft.ifftn, "rfft": _fft.rfftn, "irfft": _fft.irfftn,
       "hfft": _hfftn, "ihfft": _ihfftn}

_functions = {}
for _kind in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    for _suffix in ("", "2", "n"):
        _functions[_kind + _suffix] = _with_plan(_kind, _kind + _suffix)
del _kind, _suffix


def _with_r2r(family, inverse, name):
    """scipy's signature of a DCT or DST (scipy/fft/_realtransforms.py)."""
    if not name.endswith("n"):
        def one(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None):
            _check_workers(workers)
            _check_norm(norm)
            shape = _shape(x)
            axis = normalize_axis(axis, len(shape))
            n = shape[axis] if n is None else operator.index(n)
            if n < 1:
                raise ValueError(f"invalid number of data points ({n}) specified")
            return _r2r.transform(x, family, type, inverse, [axis], [n], norm, orthogonalize)
        one.__name__ = name
        return one

    def many(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None):
        _check_workers(workers)
        s, axes = _nd_args(_shape(x), s, axes)
        if not axes:
            return x  # scipy returns its input as it is when no axis is transformed
        _check_norm(norm)
        return _r2r.transform(x, family, type, inverse, axes, s, norm, orthogonalize)
    many.__name__ = name
    return many


for _family in ("dct", "dst"):
    for _inverse in (False, True):
        for _suffix in ("", "n"):
            _name = ("i" if _inverse else "") + _family + _suffix
            _functions[_name] = _with_r2r(_family, _inverse, _name)
del _family, _inverse, _suffix, _name

# The module-level functions, for calling directly.
globals().update(_functions)


def next_fast_len(target, real=False):
    """scipy.fft.next_fast_len's question answered for bfly (bfly.next_fast_len):
    scipy does not dispatch it to a backend, so code planning sizes for bfly
    calls this one."""
    from . import next_fast_len as for_bfly

    return for_bfly(target, real)


_log = logging.getLogger("bfly")
_said_forked = False


def _scipy_own(method, args, kwargs):
    """What scipy's own backend (pocketfft; ducc from SciPy 1.18) returns for the call."""
    try:
        from scipy.fft._backend import _ScipyBackend
    except ImportError:  # a SciPy that moved it: the next backend, if any
        return NotImplemented
    return _ScipyBackend.__ua_function__(method, args, kwargs)


def __ua_function__(method, args, kwargs):
    function = _functions.get(method.__name__)
    if function is None:
        return NotImplemented
    try:
        return function(*args, **kwargs)
    except ForkedChildError as e:
        # A forked child of a process that used the device (a
        # multiprocessing pool's worker, say) cannot use it: scipy's own
        # code computes here, as it would without bfly, so a pool forked
        # after bfly ran still gets its answers. Said once, in the log.
        global _said_forked
        if not _said_forked:
            _said_forked = True
            _log.warning("bfly.scipy_fft: %s; scipy's own FFT computes in this process", e)
        return _scipy_own(method, args, kwargs)


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
