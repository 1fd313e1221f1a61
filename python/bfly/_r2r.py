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
and any strides work. NumPy arrays only: they run on $BFLY_DEVICE (else
auto) through host copies.
"""
import numpy as np

from . import _core
from ._engine import default_device, plan_cache


class _Entry:
    """A cached R2R plan (bfly._engine.plan_cache's entries name their problems)."""

    def __init__(self, device, token):
        self.plan = _core.CorePlan(device, token)
        self.token = token

    def tokens(self):
        return [self.token]


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


def _fix_length(x, axis, n):
    """x with `axis` cropped or zero-padded to n (scipy keeps the leading points)."""
    m = x.shape[axis]
    if m == n:
        return x
    if m > n:
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, n)
        return x[tuple(index)]
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - m)
    return np.pad(x, pad)


def _real(x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    device = default_device()
    precision = "f32" if x.dtype == np.float32 else "f64"
    norm = "backward" if norm is None else norm
    for axis, n in zip(axes, lengths):
        x = np.ascontiguousarray(_fix_length(x, axis, n))
        if x.size == 0:
            continue
        outer = int(np.prod(x.shape[:axis], dtype=np.int64))
        inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
        token = (f"{family}{kind}_{precision}_{'inv' if inverse else 'fwd'}_{outer}x{n}x{inner}_b1_oop_{norm}_ax1"
                 + ("_orth" if orthogonalize else ""))
        entry = plan_cache.get(("r2r", token, id(device)), lambda token=token: _Entry(device, token))
        out = np.empty_like(x)
        entry.plan.execute_host(x.ctypes.data, out.ctypes.data)
        x = out
    return x


def transform(x, family, kind, inverse, axes, lengths, norm, orthogonalize):
    """The DCT or DST (family "dct" or "dst") of type `kind` of x over `axes`
    (non-negative, unique), each cropped or padded to its entry of
    `lengths`; scipy's norm and orthogonalize (None: norm == "ortho")."""
    if kind not in (1, 2, 3, 4):
        raise ValueError(f"invalid {'DCT' if family == 'dct' else 'DST'} type {kind!r} (expected 1, 2, 3 or 4)")
    if family == "dct" and kind == 1 and any(n < 2 for n in lengths):
        # scipy's pocketfft refuses it (its DCT-I is an FFT of 2 (n - 1) points).
        raise RuntimeError("zero-length FFT requested")
    x, returned = _as_float(x)
    if np.iscomplexobj(x):
        default = norm == "ortho"
        part = [_real(np.ascontiguousarray(p), family, kind, inverse, axes, lengths, norm, default)
                for p in (x.real, x.imag)]
        out = np.empty(part[0].shape, x.dtype)
        out.real, out.imag = part
    else:
        out = _real(x, family, kind, inverse, axes, lengths, norm,
                    norm == "ortho" if orthogonalize is None else bool(orthogonalize))
    return out.astype(returned, copy=False)
