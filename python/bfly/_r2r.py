"""scipy.fft's DCT and DST (dct, idct, dst, idst and their n-D forms) on
bfly's R2R problems (the C++ Kind::R2R: docs/ARCHITECTURE.md "DCT and DST").

scipy's rules, as scipy/fft/_pocketfft/realtransforms.py and helper.py have
them: float16 computes and returns float32, integers and bool float64,
longdouble is computed in double and returned as longdouble (as bfly's FFTs);
complex input is transformed as its real and imaginary parts (with the
default orthogonalize, as scipy, which does not pass it on for complex
input); each axis is cropped or zero-padded to its n first. The axes run one
at a time, each a problem of shape (outer, n, inner) over a C-contiguous
array (the transforms and every norm's factor are separable), so any rank
and any strides work.

NumPy arrays (and anything numpy.asarray takes) run on $BFLY_DEVICE (else
auto) through host copies. CuPy, PyTorch and JAX arrays on a GPU, and other
CUDA arrays (DLPack, __cuda_array_interface__), are transformed where they
lie, on the framework's current stream, and come back in their framework:
the crops, pads, casts and contiguous copies a call needs are the
framework's own operations on the device (bfly/_arrays.py).
"""
import numpy as np

from . import _core
from ._arrays import c_strides, framework_of, pad_or_crop
from ._engine import default_device, open_device, plan_cache


class _Entry:
    """A cached R2R plan (bfly._engine.plan_cache's entries name their problems)."""

    def __init__(self, device, token):
        self.plan = _core.CorePlan(device, token)
        self.token = token

    def tokens(self):
        return [self.token]


def _plan(device, family, kind, inverse, precision, outer, n, inner, norm, orthogonalize):
    token = (f"{family}{kind}_{precision}_{'inv' if inverse else 'fwd'}_{outer}x{n}x{inner}_b1_oop_{norm}_ax1"
             + ("_orth" if orthogonalize else ""))
    return plan_cache.get(("r2r", token, id(device)), lambda: _Entry(device, token)).plan


def _split(shape, axis):
    """(outer, inner): the points before and after `axis` of a C-ordered array."""
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    return outer, inner


def _as_float(x):
    """scipy's _asfarray, but longdouble to double: (array, dtype to return)."""
    x = np.asarray(x)
    if x.dtype == np.float16:
        return x.astype(np.float32), np.dtype(np.float32)
    if x.dtype.kind not in "fc":
        return x.astype(np.float64), np.dtype(np.float64)
    if x.dtype.itemsize > (16 if x.dtype.kind == "c" else 8):  # longdouble
        return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64), x.dtype
    return x.astype(x.dtype.newbyteorder("="), copy=False), x.dtype.newbyteorder("=")


def _real_host(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    device = default_device()
    precision = "f32" if x.dtype == np.float32 else "f64"
    for axis, n in zip(axes, lengths):
        x = np.ascontiguousarray(pad_or_crop(fw, x, {axis: n}))
        if x.size == 0:
            continue
        outer, inner = _split(x.shape, axis)
        plan = _plan(device, family, kind, inverse, precision, outer, n, inner, norm, orthogonalize)
        out = np.empty_like(x)
        plan.execute_host(x.ctypes.data, out.ctypes.data)
        x = out
    return x


def _host(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    x, returned = _as_float(x)
    if np.iscomplexobj(x):
        default = norm == "ortho"
        part = [_real_host(fw, np.ascontiguousarray(p), family, kind, inverse, axes, lengths, norm, default)
                for p in (x.real, x.imag)]
        out = np.empty(part[0].shape, x.dtype)
        out.real, out.imag = part
    else:
        out = _real_host(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize)
    return out.astype(returned, copy=False)


def _pointer(fw, y):
    """The address of an array the framework made (a bfly DeviceArray for JAX and foreign arrays)."""
    from ._device_array import DeviceArray
    return y.pointer if isinstance(y, DeviceArray) else fw.view(y).pointer


def _c_ordered(fw, x):
    """(x, its view) with x C-contiguous and aligned to two reals (the
    kernels may read reals in pairs): the framework's copy where it is not."""
    view = fw.view(x)
    size = view.dtype.itemsize
    contiguous = all(s == c or n == 1 for s, c, n in zip(view.strides, c_strides(view.shape, size), view.shape))
    if not contiguous:
        x = fw.contiguous(x)
        view = fw.view(x)
    if view.pointer % (2 * size):
        x = fw.copy(x)
        view = fw.view(x)
    return x, view


def _real_device(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    for axis, n in zip(axes, lengths):
        if x.shape[axis] != n:
            x = pad_or_crop(fw, x, {axis: n})
        shape = tuple(x.shape)
        if 0 in shape:
            continue
        x, view = _c_ordered(fw, x)
        device = open_device(f"cuda:{view.device_id if view.device_id is not None else 0}")
        precision = "f32" if view.dtype == np.float32 else "f64"
        outer, inner = _split(shape, axis)
        plan = _plan(device, family, kind, inverse, precision, outer, n, inner, norm, orthogonalize)
        y = fw.empty(x, shape, view.dtype)
        out_pointer = _pointer(fw, y)
        if getattr(fw, "blocking", False) or fw.name == "foreign":
            plan.execute_blocking(view.pointer, out_pointer, 0)
        else:
            plan.execute(view.pointer, out_pointer, fw.stream(view))
        x = fw.wrap_result(y, x)
    return x


def _device(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    dtype = fw.dtype(x)
    if fw.name == "foreign" and (dtype not in (np.float32, np.float64) or list(lengths) != [x.shape[a] for a in axes]):
        raise TypeError("bfly can transform this array type only as it is: give it float32 or float64 without "
                        "n or s, or convert it to CuPy or PyTorch")
    # scipy's working precision: float16 and complex64's parts in float32, all else in float64.
    work = np.dtype(np.float32 if dtype in (np.float16, np.float32, np.complex64) else np.float64)
    if dtype.kind == "c":
        default = norm == "ortho"
        re, im = (_real_device(fw, fw.astype(p, work) if fw.dtype(p) != work else p, family, kind, inverse, axes,
                               lengths, norm, default) for p in (x.real, x.imag))
        return re + im * 1j
    if dtype != work:
        x = fw.astype(x, work)
    return _real_device(fw, x, family, kind, inverse, axes, lengths, norm, orthogonalize)


def transform(x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    """The DCT or DST (family "dct" or "dst") of type `kind` of x over `axes`
    (non-negative, unique), each cropped or padded to its entry of
    `lengths`; scipy's norm and orthogonalize (None: norm == "ortho")."""
    if kind not in (1, 2, 3, 4):
        raise ValueError(f"invalid {'DCT' if family == 'dct' else 'DST'} type {kind!r} (expected 1, 2, 3 or 4)")
    if family == "dct" and kind == 1 and any(n < 2 for n in lengths):
        # scipy's pocketfft refuses it (its DCT-I is an FFT of 2 (n - 1) points).
        raise RuntimeError("zero-length FFT requested")
    norm = "backward" if norm is None else norm
    orthogonalize = norm == "ortho" if orthogonalize is None else bool(orthogonalize)
    fw, array = framework_of(x)
    if fw.on_device:
        return _device(fw, array, family, kind, inverse, axes, lengths, norm, orthogonalize)
    y = _host(fw, array, family, kind, inverse, axes, lengths, norm, orthogonalize)
    return fw.wrap_result(y, array)
