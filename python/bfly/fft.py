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

Plans are built on first use and kept in `bfly.plan_cache`.
"""
from numpy.fft import fftfreq, fftshift, ifftshift, rfftfreq

from ._arrays import framework_of
from ._transform import AxisError, check_n, cook_nd_args, fast_call, norm_name, normalize_axis, run, swap_norm

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


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


def fft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.fft: the 1D discrete Fourier transform along `axis`."""
    y = fast_call(a, ("fft", n, axis, norm), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "c2c", [axis_], {axis_: n_}, False, norm_name(norm), out, device=device, stream=stream,
               fast_key=("fft", n, axis, norm))


def ifft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.ifft: the 1D inverse transform along `axis` (scaled by 1/n by default)."""
    y = fast_call(a, ("ifft", n, axis, norm), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "c2c", [axis_], {axis_: n_}, True, norm_name(norm), out, device=device, stream=stream,
               fast_key=("ifft", n, axis, norm))


def rfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.rfft: the transform of real input, n // 2 + 1 points along `axis`."""
    y = fast_call(a, ("rfft", n, axis, norm), out, device, stream)
    if y is not None:
        return y
    axis_, n_, _ = _one_axis(a, n, axis)
    return run(a, "r2c", [axis_], {axis_: n_}, False, norm_name(norm), out, device=device, stream=stream,
               fast_key=("rfft", n, axis, norm))


def irfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.irfft: n real points from n // 2 + 1 (default n = 2 * (m - 1))."""
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


def hfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.hfft: the real spectrum of a Hermitian-symmetric signal (irfft of its conjugate)."""
    shape = _shape_of(a)
    if len(shape) == 0:
        raise AxisError(axis, 0)
    axis = normalize_axis(axis, len(shape))
    n = check_n((shape[axis] - 1) * 2 if n is None else n)
    return run(a, "c2r", [axis], {axis: n // 2 + 1}, True, swap_norm(norm), out, n_out=n, conj_in=True,
               device=device, stream=stream)


def ihfft(a, n=None, axis=-1, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.ihfft: the inverse of hfft (the conjugate of rfft, scaled by 1/n by default)."""
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


def _nd_key(name, s, axes, norm):
    try:
        return (name, None if s is None else tuple(s), None if axes is None else tuple(axes), norm)
    except TypeError:
        return None


def fftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.fftn: the transform over `axes` (all by default), inputs cropped or padded to `s`."""
    key = _nd_key("fftn", s, axes, norm)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes)
    if not axes:
        return a  # numpy returns its input as it is when no axis is transformed
    if _repeated(axes):
        return _sequential(fft, a, s, axes, norm, out, device, stream, reversed(range(len(axes))))
    return run(a, "c2c", axes, dict(zip(axes, s)), False, norm_name(norm), out, device=device, stream=stream,
               fast_key=key)


def ifftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.ifftn."""
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


def rfftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.rfftn: rfft over the last of `axes`, then fft over the others."""
    key = _nd_key("rfftn", s, axes, norm)
    y = fast_call(a, key, out, device, stream)
    if y is not None:
        return y
    s, axes = cook_nd_args(_shape_of(a), s, axes)
    if not axes:
        raise ValueError("rfftn needs at least one axis")
    if _repeated(axes):
        a = rfft(a, s[-1], axes[-1], norm, device=device, stream=stream)
        return _sequential(fft, a, s, axes, norm, out, device, stream, range(len(axes) - 2, -1, -1))
    return run(a, "r2c", axes, dict(zip(axes, s)), False, norm_name(norm), out, device=device, stream=stream,
               fast_key=key)


def irfftn(a, s=None, axes=None, norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.irfftn: ifft over all but the last of `axes`, then irfft over it."""
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


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.fft2."""
    return fftn(a, s, axes, norm, out, device=device, stream=stream)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.ifft2."""
    return ifftn(a, s, axes, norm, out, device=device, stream=stream)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.rfft2."""
    return rfftn(a, s, axes, norm, out, device=device, stream=stream)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None, *, device=None, stream=None):
    """numpy.fft.irfft2."""
    return irfftn(a, s, axes, norm, out, device=device, stream=stream)

