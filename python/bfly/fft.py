"""numpy.fft on bfly: the same functions, arguments and results as NumPy 2.

Every function takes NumPy arrays (and anything numpy.asarray takes), and
CuPy, PyTorch and JAX arrays, or any CUDA array that speaks DLPack or
__cuda_array_interface__. Device arrays are transformed where they lie, with
no copy, on the caller's stream (CuPy's and PyTorch's current stream, or
`stream=`), and the result is an array of the caller's framework. NumPy
arrays run on `device=` (a spec such as "cuda:0", "cpu", "opencl:0:0";
default: $BFLY_DEVICE, else "auto": a CUDA GPU, else OpenCL) and return NumPy.

dtypes follow NumPy 2: float32 and complex64 stay in single precision,
float64 and complex128 in double; bool and integers promote to double.
float16 (and PyTorch's bfloat16) is computed in single precision and
longdouble in double precision; their results have NumPy's dtypes
(complex64; float16 for irfft, hfft and irfftn over one axis, float32 for
irfftn over more; clongdouble and longdouble).

Half storage (beyond numpy): every function but spectrum takes `half=`.
half=True reads and writes 16-bit arrays as they are, computed in float32:
float16, bfloat16 (torch's, ml_dtypes') and torch.complex32 in, the same
format out. A complex half array of NumPy or CuPy, or of torch's bfloat16,
is the 16-bit dtype with a trailing axis of 2 (real, imaginary), input and
output; axes and s count the logical axes, without it. half="float16" or
"bfloat16" names the format (uint16 arrays of raw bits need it).

Beyond numpy: fft, rfft, fft2, rfft2, fftn and rfftn take `window=`
("hann", "hamming", "blackman" or ("kaiser", beta): scipy.signal.get_window's
periodic windows of the transform's lengths, their product over several
axes), fused into the transform's loads; `spectrum` is the windowed
magnitude, power or dB spectrum, fused into its stores (bfly.Callback).

Plans are built on first use and kept in `bfly.plan_cache`.
"""
import numbers

from numpy.fft import fftfreq, fftshift, ifftshift, rfftfreq

from . import _half
from ._arrays import framework_of
from ._callbacks import Callback
from ._transform import AxisError, check_n, cook_nd_args, fast_call, norm_name, normalize_axis, run, swap_norm

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "spectrum"]

_WINDOWS = ("hann", "hamming", "blackman")
_MODES = ("magnitude", "power", "db")


def _window_ops(window):
    """The load op of `window=`, or None."""
    if window is None:
        return None
    if isinstance(window, str) and window in _WINDOWS:
        return window
    if isinstance(window, tuple) and len(window) == 2 and window[0] == "kaiser" \
            and isinstance(window[1], numbers.Real):
        return f"kaiser:{float(window[1])!r}"
    raise ValueError(f"window {window!r} is not one of 'hann', 'hamming', 'blackman' or ('kaiser', beta); for "
                     "other windows, bfly.Plan(..., load=bfly.Callback('window', values=w))")


def _load(window_ops):
    return None if window_ops is None else Callback(window_ops)


def _shape_of(a):
    shape = getattr(a, "shape", None)
    if shape is None:
        fw, x = framework_of(a)
        shape = x.shape
    return tuple(shape)


def _one_axis(a, n, axis):
    shape = _shape_of(a)
    if len(shape) == 0:
        raise AxisError(axis, 0)
    axis = normalize_axis(axis, len(shape))
    return axis, check_n(shape[axis] if n is None else n), shape


def fft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, window=None, half=False):
    """numpy.fft.fft: the 1D discrete Fourier transform along `axis`.

    window: "hann", "hamming", "blackman" or ("kaiser", beta), of n points,
    fused into the loads (after the crop or pad to n)."""
    ops = _window_ops(window)
    if half:
        return _half.call("fft", a, n, axis, norm, out, device, stream, half, ops)
    y = fast_call(a, ("fft", n, axis, norm, ops), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "c2c", [axis_], {axis_: n_}, False, norm_name(norm), out, device=device, stream=stream,
               fast_key=("fft", n, axis, norm, ops), load=_load(ops))


def ifft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.ifft: the 1D inverse transform along `axis` (scaled by 1/n by default)."""
    if half:
        return _half.call("ifft", a, n, axis, norm, out, device, stream, half)
    y = fast_call(a, ("ifft", n, axis, norm), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "c2c", [axis_], {axis_: n_}, True, norm_name(norm), out, device=device, stream=stream,
               fast_key=("ifft", n, axis, norm))


def rfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, window=None, half=False):
    """numpy.fft.rfft: the transform of real input, n // 2 + 1 points along `axis`.

    window: "hann", "hamming", "blackman" or ("kaiser", beta), of n points,
    fused into the loads (after the crop or pad to n)."""
    ops = _window_ops(window)
    if half:
        return _half.call("rfft", a, n, axis, norm, out, device, stream, half, ops)
    y = fast_call(a, ("rfft", n, axis, norm, ops), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "r2c", [axis_], {axis_: n_}, False, norm_name(norm), out, device=device, stream=stream,
               fast_key=("rfft", n, axis, norm, ops), load=_load(ops))


def irfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.irfft: n real points from n // 2 + 1 (default n = 2 * (m - 1))."""
    if half:
        return _half.call("irfft", a, n, axis, norm, out, device, stream, half)
    y = fast_call(a, ("irfft", n, axis, norm), out, device, stream)
    if y is not None:
        return y
    shape = _shape_of(a)
    if len(shape) == 0:
        raise AxisError(axis, 0)
    axis_ = normalize_axis(axis, len(shape))
    n_ = check_n((shape[axis_] - 1) * 2 if n is None else n)
    return run(a, "c2r", [axis_], {axis_: n_ // 2 + 1}, True, norm_name(norm), out, n_out=n_, device=device,
               stream=stream, fast_key=("irfft", n, axis, norm))


def hfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.hfft: the real spectrum of a Hermitian-symmetric signal (irfft of its conjugate)."""
    if half:
        return _half.call("hfft", a, n, axis, norm, out, device, stream, half)
    shape = _shape_of(a)
    if len(shape) == 0:
        raise AxisError(axis, 0)
    axis = normalize_axis(axis, len(shape))
    n = check_n((shape[axis] - 1) * 2 if n is None else n)
    return run(a, "c2r", [axis], {axis: n // 2 + 1}, True, swap_norm(norm), out, n_out=n, conj_in=True,
               device=device, stream=stream)


def ihfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.ihfft: the inverse of hfft (the conjugate of rfft, scaled by 1/n by default)."""
    if half:
        return _half.call("ihfft", a, n, axis, norm, out, device, stream, half)
    axis, n, shape = _one_axis(a, n, axis)
    return run(a, "r2c", [axis], {axis: n}, False, swap_norm(norm), out, conj_out=True, device=device,
               stream=stream)


def _repeated(axes):
    return len(set(axes)) != len(axes)


def _sequential(function, a, s, axes, norm, out, device, stream, order):
    """numpy's own loop over one axis at a time (repeated axes)."""
    for i in order:
        a = function(a, s[i], axes[i], norm, out, device=device, stream=stream)
    return a


def _nd_key(name, s, axes, norm, ops=None):
    try:
        return (name, None if s is None else tuple(s), None if axes is None else tuple(axes), norm, ops)
    except TypeError:
        return None


def _no_repeats_with(window, axes):
    if window is not None:
        raise ValueError(f"window= needs distinct axes (got {tuple(axes)})")


def fftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None, window=None, half=False):
    """numpy.fft.fftn: the transform over `axes` (all by default), inputs cropped or padded to `s`.

    window: as fft's, along each of `axes` (their product)."""
    ops = _window_ops(window)
    if half:
        return _half.call("fftn", a, s, axes, norm, out, device, stream, half, ops)
    key = _nd_key("fftn", s, axes, norm, ops)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes)
    if not axes:
        return a  # numpy returns its input as it is when no axis is transformed
    if _repeated(axes):
        _no_repeats_with(window, axes)
        return _sequential(fft, a, s, axes, norm, out, device, stream, reversed(range(len(axes))))
    return run(a, "c2c", axes, dict(zip(axes, s)), False, norm_name(norm), out, device=device, stream=stream,
               fast_key=key, load=_load(ops))


def ifftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.ifftn."""
    if half:
        return _half.call("ifftn", a, s, axes, norm, out, device, stream, half)
    key = _nd_key("ifftn", s, axes, norm)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes)
    if not axes:
        return a  # numpy returns its input as it is when no axis is transformed
    if _repeated(axes):
        return _sequential(ifft, a, s, axes, norm, out, device, stream, reversed(range(len(axes))))
    return run(a, "c2c", axes, dict(zip(axes, s)), True, norm_name(norm), out, device=device, stream=stream,
               fast_key=key)


def rfftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None, window=None, half=False):
    """numpy.fft.rfftn: rfft over the last of `axes`, then fft over the others.

    window: as rfft's, along each of `axes` (their product)."""
    ops = _window_ops(window)
    if half:
        return _half.call("rfftn", a, s, axes, norm, out, device, stream, half, ops)
    key = _nd_key("rfftn", s, axes, norm, ops)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes)
    if not axes:
        raise ValueError("rfftn needs at least one axis")
    if _repeated(axes):
        _no_repeats_with(window, axes)
        a = rfft(a, s[-1], axes[-1], norm, device=device, stream=stream)
        return _sequential(fft, a, s, axes, norm, out, device, stream, range(len(axes) - 2, -1, -1))
    return run(a, "r2c", axes, dict(zip(axes, s)), False, norm_name(norm), out, device=device, stream=stream,
               fast_key=key, load=_load(ops))


def irfftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.irfftn: ifft over all but the last of `axes`, then irfft over it."""
    if half:
        return _half.call("irfftn", a, s, axes, norm, out, device, stream, half)
    key = _nd_key("irfftn", s, axes, norm)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes, inverse_real=True)
    if not axes:
        raise ValueError("irfftn needs at least one axis")
    if _repeated(axes):
        for i in range(len(axes) - 1):
            a = ifft(a, s[i], axes[i], norm, device=device, stream=stream)
        return irfft(a, s[-1], axes[-1], norm, out, device=device, stream=stream)
    lengths = dict(zip(axes, s))
    lengths[axes[-1]] = s[-1] // 2 + 1
    return run(a, "c2r", axes, lengths, True, norm_name(norm), out, n_out=s[-1], device=device, stream=stream,
               fast_key=key)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None, window=None,
          half=False):
    """numpy.fft.fft2 (window: as fftn's)."""
    return fftn(a, s, axes, norm, out, device=device, stream=stream, window=window, half=half)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.ifft2."""
    return ifftn(a, s, axes, norm, out, device=device, stream=stream, half=half)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None, window=None,
          half=False):
    """numpy.fft.rfft2 (window: as rfftn's)."""
    return rfftn(a, s, axes, norm, out, device=device, stream=stream, window=window, half=half)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None, half=False):
    """numpy.fft.irfft2."""
    return irfftn(a, s, axes, norm, out, device=device, stream=stream, half=half)



def spectrum(a, n=None, axis=-1, norm=None, out=None, *, window=None, mode="power", device=None, stream=None):
    """The spectrum of `a` along `axis` as reals, in one transform: rfft's
    n // 2 + 1 points for real input, fft's n for complex input, stored as
    mode "magnitude" (|X|), "power" (|X|^2) or "db" (10 log10 |X|^2),
    `window` (as rfft's) applied to the input on the way in. float32 for
    single precision input, float64 for double; no scaling beyond `norm`:
    ``spectrum(x, window="hann", mode="db")`` is ``10 * log10(abs(rfft(x *
    scipy.signal.get_window("hann", n))) ** 2)``."""
    if mode not in _MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(map(repr, _MODES))}")
    ops = _window_ops(window)
    fw, x = framework_of(a)
    kind, name = ("c2c", "fft") if fw.dtype(x).kind == "c" else ("r2c", "rfft")
    key = ("spectrum", name, n, axis, norm, ops, mode)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, kind, [axis_], {axis_: n_}, False, norm_name(norm), out, device=device, stream=stream,
               fast_key=key, load=_load(ops), store=Callback(mode))
