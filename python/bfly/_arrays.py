"""Arrays of every framework behind one small interface.

bfly.fft takes NumPy arrays (and anything numpy.asarray takes), CuPy and
PyTorch arrays, JAX arrays, and any other producer of DLPack capsules or
``__cuda_array_interface__``. Each framework gets a `Framework` here that
answers the same questions: where the elements are (pointer, shape, strides
in bytes, dtype, device), which stream the caller is on, how to make a new
array, and how to crop, pad, cast and conjugate with the framework's own
operations (on the device, on the caller's stream). Nothing is copied to the
host for a device array.
"""
import numpy as np

_NP_DTYPES = {np.dtype(t).name: np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128)}


class View:
    """Where one array's elements are: the facts the engine plans from."""
    __slots__ = ("array", "pointer", "shape", "strides", "dtype", "device_id")

    def __init__(self, array, pointer, shape, strides, dtype, device_id):
        self.array = array          # the framework's array object
        self.pointer = pointer      # address of element (0, ..., 0)
        self.shape = shape          # tuple of ints
        self.strides = strides      # tuple of ints, in bytes
        self.dtype = dtype          # numpy dtype
        self.device_id = device_id  # CUDA ordinal, or None for host memory


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(strides))


def pad_or_crop(fw, x, lengths):
    """x with axis a cropped or zero-padded to lengths[a] (a dict), as numpy's n and s."""
    shape = tuple(x.shape)
    crop = tuple(slice(0, min(lengths.get(a, n), n)) for a, n in enumerate(shape))
    if all(lengths.get(a, n) <= n for a, n in enumerate(shape)):
        return x[crop] if any(lengths.get(a, n) != n for a, n in enumerate(shape)) else x
    full = tuple(lengths.get(a, n) for a, n in enumerate(shape))
    return fw.padded(x[crop], full)


class NumpyFramework:
    name = "numpy"
    on_device = False

    def view(self, x):
        return View(x, x.__array_interface__["data"][0], x.shape, x.strides, x.dtype, None)

    def dtype(self, x):
        return x.dtype

    # The fast path (bfly/_transform.py): a repeated call on arrays of one
    # signature skips everything but the allocation and the launch.
    def fast_signature(self, x):
        return (x.shape, x.strides, x.dtype)

    def copy(self, x):
        return x.copy()

    def fast_run(self, plan, out_shape, out_dtype, align, x):
        y = np.empty(out_shape, out_dtype)
        plan.execute_host(x.__array_interface__["data"][0], y.__array_interface__["data"][0])
        return y

    def empty(self, like, shape, dtype):
        return np.empty(shape, dtype)

    def astype(self, x, dtype):
        return x.astype(dtype, copy=False)

    def padded(self, x, shape):
        y = np.zeros(shape, x.dtype)
        y[tuple(slice(0, n) for n in x.shape)] = x
        return y

    def contiguous(self, x):
        return np.ascontiguousarray(x)

    def conj(self, x):
        return np.conjugate(x)

    def conj_inplace(self, y):
        np.conjugate(y, out=y)
        return y

    def copy_into(self, dst, src):
        np.copyto(dst, src, casting="same_kind")

    def wrap_result(self, y, like):
        return y


class CupyFramework(NumpyFramework):
    name = "cupy"
    on_device = True

    def __init__(self, cupy):
        self.cp = cupy

    def view(self, x):
        return View(x, x.data.ptr, x.shape, x.strides, x.dtype, x.device.id)

    def stream(self, view):
        return self.cp.cuda.get_current_stream().ptr

    def fast_signature(self, x):
        # The current device too: results are allocated there.
        return (x.shape, x.strides, x.dtype, x.data.device_id, self.cp.cuda.runtime.getDevice())

    def fast_run(self, plan, out_shape, out_dtype, align, x):
        pointer = x.data.ptr
        if pointer % align:
            return None
        y = self.cp.empty(out_shape, out_dtype)
        plan.execute(pointer, y.data.ptr, self.cp.cuda.get_current_stream().ptr)
        return y

    def empty(self, like, shape, dtype):
        if like.device.id != self.cp.cuda.runtime.getDevice():
            with like.device:
                return self.cp.empty(shape, dtype)
        return self.cp.empty(shape, dtype)

    def padded(self, x, shape):
        with x.device:
            y = self.cp.zeros(shape, x.dtype)
        y[tuple(slice(0, n) for n in x.shape)] = x
        return y

    def contiguous(self, x):
        with x.device:
            return self.cp.ascontiguousarray(x)

    def conj(self, x):
        with x.device:
            return self.cp.conjugate(x)

    def conj_inplace(self, y):
        with y.device:
            self.cp.conjugate(y, out=y)
        return y

    def copy_into(self, dst, src):
        with dst.device:
            self.cp.copyto(dst, src, casting="same_kind")

    def stream_context(self, stream):
        from_external = getattr(self.cp.cuda.Stream, "from_external", None)
        if from_external is None:  # CuPy < 14
            return self.cp.cuda.ExternalStream(stream)
        return from_external(_StreamHandle(stream))


class _StreamHandle:
    """A raw CUstream as the CUDA stream protocol (__cuda_stream__) hands it over."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class TorchFramework:
    name = "torch"
    on_device = True

    def __init__(self, torch):
        self.torch = torch
        t = torch
        self.to_numpy = {t.bool: np.dtype(np.bool_), t.uint8: np.dtype(np.uint8), t.int8: np.dtype(np.int8),
                         t.int16: np.dtype(np.int16), t.int32: np.dtype(np.int32), t.int64: np.dtype(np.int64),
                         t.float16: np.dtype(np.float16), t.bfloat16: np.dtype(np.float16),
                         t.float32: np.dtype(np.float32), t.float64: np.dtype(np.float64),
                         t.complex64: np.dtype(np.complex64), t.complex128: np.dtype(np.complex128)}
        self._widened = (t.bfloat16,)
        if hasattr(t, "complex32"):
            self.to_numpy[t.complex32] = np.dtype(np.complex64)
            self._widened += (t.complex32,)
        self._current_raw_stream = getattr(t._C, "_cuda_getCurrentRawStream", None)
        self.from_numpy = {np.dtype(np.float16): t.float16, np.dtype(np.float32): t.float32,
                           np.dtype(np.float64): t.float64, np.dtype(np.complex64): t.complex64,
                           np.dtype(np.complex128): t.complex128}

    def adopt(self, x):
        if x.is_cuda:
            return self, x
        host = HostWrappedFramework("torch-cpu", self.torch.from_numpy)
        return host, (x.detach().resolve_conj().numpy())

    def view(self, x):
        dtype = self.to_numpy.get(x.dtype)
        if dtype is None:
            raise TypeError(f"bfly cannot transform torch tensors of dtype {x.dtype}")
        if x.dtype in self._widened:
            # Not numpy types: computed in single precision, as float16 is.
            x = x.to(self.torch.complex64 if x.is_complex() else self.torch.float32)
            dtype = self.to_numpy[x.dtype]
        size = x.element_size()
        return View(x, x.data_ptr(), tuple(x.shape), tuple(s * size for s in x.stride()), dtype, x.device.index)

    def stream(self, view):
        return self.torch.cuda.current_stream(view.array.device).cuda_stream

    def fast_signature(self, x):
        # None for bfloat16 and complex32, which view() widens: the fast path
        # would hand a plan of float32 points their 16-bit memory.
        if not x.is_cuda or x.dtype in self._widened:
            return None
        return (x.shape, x.stride(), x.dtype, x.device)

    def fast_run(self, plan, out_shape, out_dtype, align, x):
        pointer = x.data_ptr()
        if pointer % align:
            return None
        device = x.device
        y = self.torch.empty(out_shape, dtype=self.from_numpy[out_dtype], device=device)
        plan.execute(pointer, y.data_ptr(), self._raw_stream(device.index))
        return y

    def copy(self, x):
        return x.clone()

    def _raw_stream(self, index):
        # torch's own fast query of the current stream where it has one.
        if self._current_raw_stream is not None:
            return self._current_raw_stream(index)
        return self.torch.cuda.current_stream(index).cuda_stream

    def dtype(self, x):
        dtype = self.to_numpy.get(x.dtype)
        if dtype is None:
            raise TypeError(f"bfly cannot transform torch tensors of dtype {x.dtype}")
        return dtype

    def empty(self, like, shape, dtype):
        return self.torch.empty(shape, dtype=self.from_numpy[np.dtype(dtype)], device=like.device)

    def astype(self, x, dtype):
        return x.to(self.from_numpy[np.dtype(dtype)])

    def padded(self, x, shape):
        y = self.torch.zeros(shape, dtype=x.dtype, device=x.device)
        y[tuple(slice(0, n) for n in x.shape)] = x
        return y

    def contiguous(self, x):
        return x.contiguous()

    def conj(self, x):
        return self.torch.conj_physical(x)

    def conj_inplace(self, y):
        return self.torch.conj_physical_(y)

    def copy_into(self, dst, src):
        dst.copy_(src)

    def wrap_result(self, y, like):
        return y

    def stream_context(self, stream):
        return self.torch.cuda.stream(self.torch.cuda.ExternalStream(stream))


class JaxFramework:
    """JAX arrays are immutable and JAX shares no stream: inputs are made ready
    first, results are written to memory bfly allocates, synchronised, and
    handed to JAX through DLPack."""
    name = "jax"
    on_device = True
    blocking = True

    def __init__(self, jax):
        import jax.numpy as jnp
        self.jax, self.jnp = jax, jnp

    def adopt(self, x):
        if next(iter(x.devices())).platform == "gpu":
            return self, x
        return HostWrappedFramework("jax-cpu", self.jnp.asarray), np.asarray(x)

    def view(self, x):
        x.block_until_ready()
        device = next(iter(x.devices()))
        dtype = np.dtype(x.dtype)
        return View(x, x.unsafe_buffer_pointer(), tuple(x.shape), c_strides(x.shape, dtype.itemsize), dtype,
                    device.id)

    def stream(self, view):
        return 0

    def dtype(self, x):
        return np.dtype(x.dtype)

    def empty(self, like, shape, dtype):
        from ._device_array import DeviceArray
        return DeviceArray(shape, dtype, next(iter(like.devices())).id)

    def astype(self, x, dtype):
        return x.astype(dtype)

    def padded(self, x, shape):
        return self.jnp.pad(x, [(0, n - m) for n, m in zip(shape, x.shape)])

    def contiguous(self, x):
        return x

    def copy(self, x):
        return x  # JAX owns its buffers, aligned

    def conj(self, x):
        return self.jnp.conjugate(x)

    def wrap_result(self, y, like):
        return self.jax.dlpack.from_dlpack(y) if not isinstance(y, self.jax.Array) else y


class ForeignFramework:
    """Any other CUDA array: DLPack (the capsule requested on the caller's
    stream) or __cuda_array_interface__. bfly transforms it in place where it
    lies; results are bfly DeviceArrays (which speak both protocols). Inputs
    needing a cast or padding are refused: bfly has no operations on them."""
    name = "foreign"
    on_device = True

    def __init__(self, core):
        self.core = core

    def adopt(self, x, stream=None):
        return self, ForeignArray(x, *self._view(x, stream))

    def view(self, x):
        return x.view if isinstance(x, ForeignArray) else self._view(x)[0]

    def _view(self, x, stream=None):
        """(View, whether the producer marks the array read-only)."""
        if hasattr(x, "__dlpack__"):
            # DLPack names the legacy default stream 1 (0 is ambiguous there).
            # DLPack 1.0's capsule (max_version) is the one with a read-only flag.
            stream = stream if stream not in (None, 0) else 1
            for kwargs in ({"stream": stream, "max_version": (1, 0)}, {"stream": stream}, {}):
                try:
                    capsule = x.__dlpack__(**kwargs)
                    break
                except TypeError:
                    if not kwargs:
                        raise
            pointer, shape, strides, dtype, device_type, device_id, read_only = self.core.dlpack_info(capsule)
            if device_type != 2:
                raise ValueError(f"a DLPack array on device type {device_type} (not CUDA memory) cannot be "
                                 "transformed by bfly without a copy; convert it to NumPy first")
            dtype = self._dtype(dtype)
            if strides is None:
                strides = c_strides(shape, dtype.itemsize)
            else:
                strides = tuple(s * dtype.itemsize for s in strides)
            return View(x, pointer, tuple(shape), strides, dtype, device_id), read_only
        cai = x.__cuda_array_interface__
        dtype = np.dtype(cai["typestr"])
        shape = tuple(cai["shape"])
        strides = cai.get("strides") or c_strides(shape, dtype.itemsize)
        # The interface names no device (its producers, such as Numba, use the
        # current one): None, so device= or CUDA device 0 runs it.
        return View(x, cai["data"][0], shape, tuple(strides), dtype, None), bool(cai["data"][1])

    @staticmethod
    def _dtype(name):
        if name not in _NP_DTYPES:
            raise TypeError(f"bfly cannot transform arrays of DLPack dtype {name}")
        return _NP_DTYPES[name]

    def stream(self, view):
        return 0

    def dtype(self, x):
        return x.dtype

    def empty(self, like, shape, dtype):
        from ._device_array import DeviceArray
        return DeviceArray(shape, dtype, like.view.device_id)

    def _refuse(self, *args):
        raise TypeError("bfly can transform this array type only as it is: give it complex64/complex128 "
                        "(or float32/float64 for rfft) without n or s, or convert it to CuPy or PyTorch")

    astype = padded = conj = conj_inplace = copy_into = _refuse

    def contiguous(self, x):
        self._refuse()

    def copy(self, x):
        self._refuse()

    def wrap_result(self, y, like):
        return y


class ForeignArray:
    """A producer's array with the facts its protocol gave (it may have no shape attribute)."""
    __slots__ = ("array", "view", "shape", "ndim", "dtype", "read_only")

    def __init__(self, array, view, read_only=False):
        self.array, self.view, self.read_only = array, view, read_only
        self.shape, self.ndim, self.dtype = view.shape, len(view.shape), view.dtype


def _is_device_array(x):
    from ._device_array import DeviceArray
    return isinstance(x, DeviceArray)


class HostWrappedFramework(NumpyFramework):
    """A framework's CPU arrays (PyTorch, JAX), computed as NumPy arrays and
    returned in the caller's framework."""

    def __init__(self, name, to_framework):
        self.name = name
        self.to_framework = to_framework

    def wrap_result(self, y, like):
        return self.to_framework(y)


_numpy = NumpyFramework()
_by_type = {np.ndarray: _numpy}


def framework_of(x):
    """(framework, array): the framework owning x, and x as that framework
    takes it; anything unknown goes through numpy.asarray."""
    fw = _by_type.get(type(x))
    if fw is _numpy:
        return fw, x
    if fw is None:
        fw = _discover(x)
        if fw is None:
            return _numpy, np.asarray(x)
        _by_type[type(x)] = fw
    return fw.adopt(x) if hasattr(fw, "adopt") else (fw, x)


def _discover(x):
    module = type(x).__module__.split(".")[0]
    if module == "cupy":
        import cupy
        return CupyFramework(cupy)
    if module == "torch" and hasattr(x, "is_cuda"):
        import torch
        return TorchFramework(torch)
    if module in ("jax", "jaxlib") and hasattr(x, "devices"):
        import jax
        return JaxFramework(jax)
    if isinstance(x, np.ndarray):
        return _numpy
    if hasattr(x, "__cuda_array_interface__") or (
            hasattr(x, "__dlpack_device__") and x.__dlpack_device__()[0] == 2):
        from . import _core
        return ForeignFramework(_core)
    return None
