"""The arrays half storage takes (bfly/_half.py), as 16-bit bit patterns.

Half storage's values are 16 bits: IEEE float16 ("f16") or bfloat16 ("bf16",
the top half of a float32). A complex point is two of them, real part first
(torch.complex32's layout). NumPy and CuPy have no complex half dtype: there
a complex array is an array of the 16-bit dtype with a trailing axis of 2
(real, imaginary), as torch.view_as_real gives, and so is a complex bfloat16
tensor (torch has no such dtype); torch.complex32 is taken and given as it
is. Whatever the dtype (float16, ml_dtypes.bfloat16, torch's, or uint16 and
int16 arrays of raw bits), this module handles the values as uint16 (int16
in PyTorch) bit patterns: crops, zero pads (0 is +0.0 in both formats),
copies and the conjugate (the sign bit of each imaginary part) are exact
and need no arithmetic in a format the framework may lack.
"""
import numpy as np

from ._arrays import View

_SIGN = 0x8000  # a 16-bit value's sign bit, in both formats
_POINT = np.dtype(np.uint32)  # the View dtype of a complex side: a point is 4 bytes
_REAL = np.dtype(np.uint16)


class HalfArray:
    """A caller's array in half storage: its bits (a trailing axis of 2
    where it holds complex points), its format, its logical shape (the
    complex array's, without that axis), and how results go back."""
    __slots__ = ("ops", "array", "bits", "fmt", "shape", "pairs", "dtype", "complex32")

    def __init__(self, ops, array, bits, fmt, pairs, dtype, complex32):
        if pairs and (bits.ndim == 0 or bits.shape[-1] != 2):
            raise ValueError(f"half storage: complex input is {_describe(ops, dtype)} with a trailing axis of 2 "
                             f"(real, imaginary){' or torch.complex32' if ops.name == 'torch' else ''}; got shape "
                             f"{tuple(bits.shape)}")
        self.ops, self.array, self.bits, self.fmt, self.pairs = ops, array, bits, fmt, pairs
        self.shape = tuple(bits.shape[:-1] if pairs else bits.shape)
        self.dtype = dtype          # the caller's 16-bit dtype, results are given in
        self.complex32 = complex32  # torch: complex results as complex32 (else pairs)


def _describe(ops, dtype):
    return f"a {ops.name} array of {str(dtype).replace('torch.', '')}"


class NumpyOps:
    """NumPy arrays (host memory, through execute_host); CupyOps is the same on the GPU."""
    name = "numpy"

    def __init__(self, xp=np):
        self.xp = xp

    def formats(self, dtype):
        """The format of a dtype: "f16", "bf16", None (raw bits: half= names it), or TypeError."""
        if dtype == np.float16:
            return "f16"
        if dtype.name == "bfloat16":  # ml_dtypes.bfloat16 (JAX's, TensorFlow's)
            return "bf16"
        if dtype in (np.uint16, np.int16):
            return None
        raise TypeError(f"half storage takes float16, bfloat16 (ml_dtypes) or uint16/int16 arrays of raw bits; "
                        f"got {dtype}")

    def adopt(self, x, complex_input):
        dtype = x.dtype
        fmt = self.formats(dtype)
        return HalfArray(self, x, x.view(self.xp.uint16), fmt, complex_input, dtype, False)

    def on(self, b):
        """Whether `b` is device memory (else host memory, run through execute_host)."""
        return False

    def signature(self, x):
        """What a call's fast path is keyed by besides its arguments (bfly/_half.py)."""
        return (x.shape, x.strides, x.dtype)

    def device_id(self, b):
        return None

    def out_bits(self, out, half, complex_side, shape):
        """The bits of the caller's out=, which must be the result as it would
        be returned: its dtype and shape (half storage casts nothing)."""
        if not isinstance(out, self.xp.ndarray):
            raise TypeError(f"out is a {type(out).__name__}, not a {self.name} array as the input")
        _check_out(out.dtype, half.dtype, tuple(out.shape), shape)
        if isinstance(out, np.ndarray) and not out.flags.writeable:
            raise ValueError("output array is read-only")
        return out.view(self.xp.uint16)

    def view(self, b, pairs):
        """The logical View of bits `b` (None where a point's two values are apart)."""
        return _logical(b, self._pointer(b), tuple(b.strides), pairs, None)

    @staticmethod
    def _pointer(b):
        return b.__array_interface__["data"][0]

    def empty(self, like, shape):
        return self.xp.empty(shape, self.xp.uint16)

    def zeros(self, like, shape):
        return self.xp.zeros(shape, self.xp.uint16)

    def contiguous(self, b):
        return self.xp.ascontiguousarray(b)

    def copy(self, b):
        return b.copy()

    def negate_imag(self, b):
        b[..., 1] ^= _SIGN

    def copy_into(self, dst, src):
        dst[...] = src

    def wrap(self, b, half, complex_side):
        return b.view(half.dtype)

    def stream(self, b):
        return None


class CupyOps(NumpyOps):
    name = "cupy"

    def __init__(self, cupy):
        super().__init__(cupy)
        self.cp = cupy

    def on(self, b):
        return True

    def signature(self, x):
        # The current device too: results are allocated there.
        return (x.shape, x.strides, x.dtype, x.data.device_id, self.cp.cuda.runtime.getDevice())

    def device_id(self, b):
        return b.device.id

    def view(self, b, pairs):
        return _logical(b, b.data.ptr, tuple(b.strides), pairs, b.device.id)

    def empty(self, like, shape):
        with like.device:
            return self.cp.empty(shape, self.cp.uint16)

    def zeros(self, like, shape):
        with like.device:
            return self.cp.zeros(shape, self.cp.uint16)

    def contiguous(self, b):
        with b.device:
            return self.cp.ascontiguousarray(b)

    def copy(self, b):
        with b.device:
            return b.copy()

    def stream(self, b):
        return self.cp.cuda.get_current_stream().ptr

    def stream_context(self, stream):
        from ._arrays import CupyFramework
        return CupyFramework(self.cp).stream_context(stream)


class TorchOps:
    """PyTorch tensors, on a CUDA device or in host memory."""
    name = "torch"

    def __init__(self, torch):
        self.torch = torch
        t = torch
        self.formats_of = {t.float16: "f16", t.bfloat16: "bf16", t.int16: None}
        if hasattr(t, "uint16"):
            self.formats_of[t.uint16] = None

    def adopt(self, x, complex_input):
        t = self.torch
        if x.device.type not in ("cuda", "cpu"):
            raise TypeError(f"half storage takes torch tensors on CUDA devices or the CPU, not {x.device.type}")
        array = x
        complex32 = x.dtype == getattr(t, "complex32", None)
        if complex32:
            if not complex_input:
                raise TypeError("a real transform (rfft, ihfft) takes real input; got torch.complex32")
            x = t.view_as_real(x.resolve_conj())  # float16 pairs, the same memory
        if x.dtype not in self.formats_of:
            raise TypeError(f"half storage takes torch.float16, torch.bfloat16 or torch.complex32 tensors (or "
                            f"int16 ones of raw bits); got {x.dtype}")
        fmt = self.formats_of[x.dtype]
        dtype = x.dtype
        # rfft of float16 gives complex32, as torch.fft.rfft does; pairs stay pairs.
        as_complex32 = complex32 or (dtype == t.float16 and not complex_input)
        return HalfArray(self, array, x.detach().view(t.int16), fmt, complex_input, dtype, as_complex32)

    def on(self, b):
        return b.is_cuda

    def signature(self, x):
        return (x.shape, x.stride(), x.dtype, x.device)

    def device_id(self, b):
        return b.device.index

    def out_bits(self, out, half, complex_side, shape):
        t = self.torch
        if not isinstance(out, t.Tensor):
            raise TypeError(f"out is a {type(out).__name__}, not a torch tensor as the input")
        if complex_side and half.complex32:
            _check_out(out.dtype, t.complex32, tuple(out.shape), shape[:-1])
            out = t.view_as_real(out)
        else:
            _check_out(out.dtype, half.dtype, tuple(out.shape), shape)
        return out.view(t.int16)

    def view(self, b, pairs):
        strides = tuple(2 * s for s in b.stride())
        return _logical(b, b.data_ptr(), strides, pairs, b.device.index if b.is_cuda else None)

    def empty(self, like, shape):
        return self.torch.empty(shape, dtype=self.torch.int16, device=like.device)

    def zeros(self, like, shape):
        return self.torch.zeros(shape, dtype=self.torch.int16, device=like.device)

    def contiguous(self, b):
        return b.contiguous()

    def copy(self, b):
        return b.clone()

    def negate_imag(self, b):
        b[..., 1] ^= -_SIGN  # int16: the sign bit is -32768

    def copy_into(self, dst, src):
        dst.copy_(src)

    def wrap(self, b, half, complex_side):
        y = b.view(half.dtype)
        if complex_side and half.complex32:
            y = self.torch.view_as_complex(y)
        return y

    def stream(self, b):
        return self.torch.cuda.current_stream(b.device).cuda_stream

    def stream_context(self, stream):
        return self.torch.cuda.stream(self.torch.cuda.ExternalStream(stream))


def _check_out(dtype, want_dtype, shape, want_shape):
    if dtype != want_dtype:
        raise TypeError(f"out= of half storage takes the result's dtype {want_dtype}, not {dtype} (it casts nothing)")
    if shape != want_shape:
        raise ValueError(f"output array has wrong shape: {shape}, expected {want_shape}")


def _logical(b, pointer, strides, pairs, device_id):
    """The View a bfly problem reads: the logical shape and strides (bytes),
    a point 4 bytes on a complex side (its two values adjacent), 2 on a real one."""
    if not pairs:
        return View(b, pointer, tuple(b.shape), strides, _REAL, device_id)
    if strides[-1] != 2:
        return None
    return View(b, pointer, tuple(b.shape[:-1]), strides[:-1], _POINT, device_id)


_numpy_ops = NumpyOps()
by_type = {np.ndarray: _numpy_ops}  # each array type's ops, made once


class _JaxSide:
    """JAX arrays through another framework's ops: NumPy's for arrays on the
    CPU (np.asarray shares their memory), PyTorch's through DLPack for
    arrays on a GPU (CuPy has no bfloat16). Results come back as JAX arrays;
    complex results as pairs (a trailing axis of 2: JAX has no complex
    half dtype). out= is refused: JAX arrays are immutable."""
    name = "jax"

    def __init__(self, delegate, back, signature):
        self.delegate, self.back, self.signature = delegate, back, signature

    def __getattr__(self, attr):
        return getattr(self.delegate, attr)

    def out_bits(self, out, half, complex_side, shape):
        raise TypeError("out= is not taken for JAX arrays (they are immutable): use the result")

    def wrap(self, b, half, complex_side):
        return self.back(self.delegate.wrap(b, half, complex_side))


class JaxOps:
    """JAX arrays (float16, bfloat16, or uint16/int16 raw bits): each
    array by the side its device calls for (_JaxSide)."""
    name = "jax"

    def __init__(self, jax):
        self.jax = jax
        self.cpu = _JaxSide(_numpy_ops, jax.numpy.asarray, self.signature)
        self.gpu = None

    @staticmethod
    def _device(x):
        return next(iter(x.devices()))

    def signature(self, x):
        return (x.shape, x.dtype, str(self._device(x)))

    def _side(self, x):
        if self._device(x).platform == "cpu":
            return self.cpu
        if self.gpu is None:
            try:
                import torch
            except ImportError:
                raise TypeError("half storage of JAX arrays on a GPU goes through PyTorch's DLPack: install torch, "
                                "or give bfly the array's bits as a CuPy array (float16)") from None
            self.gpu = _JaxSide(TorchOps(torch), self.jax.dlpack.from_dlpack, self.signature)
        return self.gpu

    def adopt(self, x, complex_input):
        side = self._side(x)
        inner = np.asarray(x) if side is self.cpu else side.delegate.torch.from_dlpack(x)
        h = side.delegate.adopt(inner, complex_input)
        h.ops, h.array, h.complex32 = side, x, False
        return h


def ops_of(x):
    """(ops, array) for an array of NumPy, CuPy, PyTorch or JAX; TypeError for others."""
    ops = by_type.get(type(x))
    if ops is not None:
        return ops, x
    if isinstance(x, np.ndarray):
        return _numpy_ops, x
    module = type(x).__module__.split(".")[0]
    if module == "cupy":
        import cupy
        ops = by_type[type(x)] = CupyOps(cupy)
        return ops, x
    if module == "torch" and hasattr(x, "is_cuda"):
        import torch
        ops = by_type[type(x)] = TorchOps(torch)
        return ops, x
    if module in ("jax", "jaxlib") and hasattr(x, "devices"):
        import jax
        ops = by_type[type(x)] = JaxOps(jax)
        return ops, x
    if hasattr(x, "__dlpack__") or hasattr(x, "__cuda_array_interface__"):
        raise TypeError(f"half storage takes NumPy, CuPy, PyTorch and JAX arrays, not {type(x).__name__}: give "
                        "it to torch.from_dlpack or cupy.from_dlpack first (no copy)")
    return _numpy_ops, np.asarray(x)

