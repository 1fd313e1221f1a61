"""One transform call, from any array to its result: dtype rules, n/s, axes,
out=, devices and streams. bfly.fft, bfly.scipy_fft and bfly.Plan all end
here."""
import operator
import warnings

import numpy as np

from . import _callbacks, _engine, _memory
from ._arrays import _by_type, framework_of, pad_or_crop

try:
    AxisError = np.exceptions.AxisError
except AttributeError:  # NumPy < 1.25
    AxisError = np.AxisError

_NORMS = {None: "backward", "backward": "backward", "ortho": "ortho", "forward": "forward"}
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def norm_name(norm):
    try:
        return _NORMS[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".') from None


def swap_norm(norm):
    return _SWAP[norm_name(norm)]


def working_dtypes(dtype, kind):
    """(working input dtype, working output dtype, the result dtype numpy 2 gives).

    Single precision for float16/float32/complex64 (and bfloat16), double for
    the rest; integers and bools promote to double, as numpy does. float16
    and longdouble results are computed in single and double precision and
    returned in numpy's dtype (float16 for irfft and hfft; clongdouble and
    longdouble), as numpy's values are. ml_dtypes' bfloat16 (a dtype NumPy
    has no promotion rule for: it says float64) is computed and returned as
    float32 and complex64. Half storage (16 bits in and out) is bfly/_half.py's."""
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":
        dtype = np.dtype(np.float32)
    if dtype.kind not in "biufc":
        raise TypeError(f"bfly cannot transform arrays of dtype {dtype} (numbers only)")
    if kind == "r2c" and dtype.kind == "c":
        raise TypeError(f"a real transform (rfft, ihfft) takes real input; got {dtype}")
    real = np.result_type(dtype.char.lower() if dtype.kind == "c" else dtype, 1.0) \
        if dtype.kind != "c" else np.empty(0, dtype).real.dtype
    single = real.itemsize <= 4
    work_real = np.dtype(np.float32 if single else np.float64)
    work_complex = np.dtype(np.complex64 if single else np.complex128)
    result_complex = np.result_type(real, np.complex64)
    if kind == "c2c":
        return work_complex, work_complex, result_complex
    if kind == "r2c":
        return work_real, work_complex, result_complex
    return work_complex, work_real, real


def check_n(n):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"the number of FFT data points must be an integer, not {type(n).__name__}") from None
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def normalize_axis(axis, ndim):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"an axis must be an integer, not {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def cook_nd_args(shape, s, axes, inverse_real=False, warn=True):
    """numpy's _cook_nd_args: (s, axes) as lists, axes normalised (repeats
    kept), with NumPy 2's deprecation warnings (warn=False: scipy's rules)."""
    ndim = len(shape)
    if s is None:
        if axes is None:
            axes = list(range(ndim))
        axes = [normalize_axis(a, ndim) for a in axes]
        s = [shape[a] for a in axes]
        if inverse_real and axes:
            s[-1] = (shape[axes[-1]] - 1) * 2
    else:
        s = list(s)
        if axes is None:
            if warn:
                warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0): "
                              "pass a sequence [0, ..., k-1] to `axes` for an array of dimension k", DeprecationWarning,
                              stacklevel=4)
            axes = list(range(ndim - len(s), ndim))
            if len(s) > ndim:
                raise ValueError(f"s has {len(s)} entries for an array of {ndim} dimensions")
        axes = [normalize_axis(a, ndim) for a in axes]
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        if None in s:
            if warn:
                warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0: pass "
                              "the length the 1-D transform takes by default instead", DeprecationWarning, stacklevel=4)
            # None: the 1-D transform's default n (irfftn's last: 2 * (m - 1)).
            last = len(s) - 1
            s = [n if n is not None else (shape[a] - 1) * 2 if inverse_real and i == last else shape[a]
                 for i, (n, a) in enumerate(zip(s, axes))]
        s = [shape[a] if n == -1 else n for n, a in zip(s, axes)]
    return [check_n(n) for n in s], axes


def _stream_handle(stream):
    if stream is None or isinstance(stream, int):
        return stream
    for attribute in ("ptr", "cuda_stream", "handle"):
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    raise TypeError(f"stream must be an int (a CUstream) or a CuPy or PyTorch stream, not {type(stream).__name__}")


def _device_spec(device):
    if device is None:
        return None
    if isinstance(device, str):
        return device
    spec = getattr(device, "spec", None)
    if isinstance(spec, str):
        return spec
    raise TypeError(f"device must be a spec string such as 'cuda:0' or 'cpu', not {type(device).__name__}")


def fast_call(a, key, out=None, device=None, stream=None):
    """The result of a call seen before on an array of the same signature
    (framework, shape, strides, dtype, device), else None: the cached plan
    is launched on a new result with nothing else worked out again. Calls
    with out=, device= or stream= (and keys that are not hashable, None)
    take the full path."""
    if key is None or out is not None or device is not None or stream is not None:
        return None
    fw = _by_type.get(type(a))
    if fw is None or not hasattr(fw, "fast_signature"):
        return None
    signature = fw.fast_signature(a)
    if signature is None:
        return None
    cache = _engine.plan_cache
    entry = cache.fast.get((key, signature))
    if entry is None:
        return None
    cache.hits += 1
    return fw.fast_run(entry[0], entry[1], entry[2], entry[3], a)


def run(a, kind, axes, lengths, inverse, norm, out=None, n_out=None, conj_in=False, conj_out=False,
        device=None, stream=None, cache=None, fast_key=None, load=None, store=None):
    """The transform of `a` over distinct `axes` (the real one last):
    kind "c2c", "r2c" or "c2r"; lengths: {axis: n} to crop or pad the input
    to; n_out: the real length of c2r's last axis; norm a bfly name; load,
    store: bfly.Callbacks fused into its loads and stores (None: none)."""
    fw, x = framework_of(a)
    if x.ndim == 0 and axes:
        raise AxisError(axes[0], 0)
    dtype = fw.dtype(x)
    work_in, work_out, result = working_dtypes(dtype, kind)
    if kind == "c2r" and len(axes) > 1:
        # numpy's irfftn is ifft over all but the last axis, then irfft of
        # that complex result: float16 comes back float32, as complex64's irfft.
        result = np.empty(0, np.result_type(result, np.complex64)).real.dtype
    if _callbacks.stores_reals(store):  # |X|, |X|^2 or dB: reals of the working precision
        work_out, result = _real_dtype(work_out), _real_dtype(result)
    stream = _stream_handle(stream)
    if fw.name == "foreign" and stream is not None:
        fw, x = fw.adopt(x.array, stream)  # the capsule asked for again, ready on the caller's stream
    context = fw.stream_context(stream) if stream is not None and hasattr(fw, "stream_context") else None
    if context is not None:
        with context:
            return _run(fw, x, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device,
                        stream, work_in, work_out, result, cache, None, load, store)
    eligible = fast_key is not None and out is None and device is None and cache is None and not conj_in \
        and not conj_out and hasattr(fw, "fast_signature") and type(x) is type(a)
    return _run(fw, x, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device, stream,
                work_in, work_out, result, cache, fast_key if eligible else None, load, store)


def _real_dtype(dtype):
    return np.empty(0, dtype).real.dtype


def _out_shape(kind, in_shape, axes, n_out):
    out_shape = list(in_shape)
    if kind == "r2c":
        out_shape[axes[-1]] = in_shape[axes[-1]] // 2 + 1
    elif kind == "c2r":
        out_shape[axes[-1]] = n_out
    return tuple(out_shape)


def _run(fw, x, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device, stream, work_in,
         work_out, result, cache, fast_key, load=None, store=None):
    cache = _engine.plan_cache if cache is None else cache
    original = x
    in_shape = tuple(lengths.get(a, n) for a, n in enumerate(x.shape))
    out_shape = _out_shape(kind, in_shape, axes, n_out)
    caller_out = out
    if out is not None:
        out = _check_out(fw, out, out_shape, result)
    # Where the work runs.
    if fw.on_device:
        view = fw.view(x)
        spec = f"cuda:{view.device_id if view.device_id is not None else 0}"
        wanted = _device_spec(device)
        if wanted is not None and view.device_id is None:
            spec = wanted
        elif wanted is not None and wanted != spec:
            raise ValueError(f"the array is on {spec}, not on the device {wanted} asked for; "
                             "move it first (bfly transforms device arrays where they lie)")
        core = _engine.open_device(spec)
    else:
        wanted = _device_spec(device)
        core = _engine.open_device(wanted) if wanted is not None else _engine.default_device()
        view = None
    arrays, staging, largest = _call_bytes(fw, x, out, in_shape, out_shape, work_in, work_out, result, kind, axes,
                                           conj_in)
    _check_memory(core, fw, arrays, staging, largest)
    if fw.dtype(x) != work_in:
        x = fw.astype(x, work_in)
    if conj_in:
        x = fw.conj(x)
    if lengths:
        x = pad_or_crop(fw, x, lengths)
    if not fw.on_device and not x.flags.c_contiguous:
        # Host arrays reach the device through a copy anyway: made C-ordered
        # first, every layout of the same values takes the same plan and
        # gives the same bits (numpy's own tests ask for that).
        x = np.ascontiguousarray(x)
    if x is not original:
        view = None
    if 0 in out_shape:  # nothing to compute (numpy returns the empty result too)
        return _finish(fw, x, fw.empty(x, out_shape, work_out), out, caller_out, result, False)
    # The output: the caller's out= where its dtype and layout serve, else new.
    y = None
    if out is not None and fw.dtype(out) == work_out:
        y = out
    if y is None:
        y = fw.empty(x, out_shape, work_out)
    in_place = False
    if view is None:
        view = fw.view(x)
    # Kernels read whole points (a real transform's reals in pairs): device
    # memory must be aligned to them, as views at odd offsets are not.
    in_align = _alignment(kind, "in", view.dtype) if fw.on_device else 1
    if view.pointer % in_align:
        x = fw.copy(x)
        view = fw.view(x)
    out_view = fw.view(y) if not _is_device_array(y) else _device_view(y)
    if fw.on_device and out_view.pointer % _alignment(kind, "out", out_view.dtype):
        y = fw.empty(x, out_shape, work_out)
        out_view = fw.view(y)
    if None not in (out_view.device_id, view.device_id) and out_view.device_id != view.device_id:
        raise ValueError(f"out is on cuda:{out_view.device_id} but the input on cuda:{view.device_id}")
    if kind == "c2c" and out_view.pointer == view.pointer:
        if out_view.strides == view.strides:
            in_place = True
        else:  # the same memory in another order: through a new array
            y = fw.empty(x, out_shape, work_out)
            out_view = fw.view(y)
    elif _overlaps(view, out_view):
        y = fw.empty(x, out_shape, work_out)
        out_view = fw.view(y)
    callbacks = (load, store)
    executor = _executor(cache, core, kind, work_in, inverse, norm, view, out_view, axes, in_place, callbacks)
    if executor is None:  # the input's layout is not one bfly takes: a contiguous copy
        x = fw.contiguous(x)
        view = fw.view(x)
        executor = _executor(cache, core, kind, work_in, inverse, norm, view, out_view, axes, in_place, callbacks)
        if executor is None:
            y = fw.empty(x, out_shape, work_out)
            out_view = fw.view(y)
            executor = _executor(cache, core, kind, work_in, inverse, norm, view, out_view, axes, False, callbacks)
    planned = executor.device_bytes(staged=not fw.on_device)
    if planned > staging:  # workspace, or a plan a group of axes: known now, allocated at the first launch
        _check_memory(core, fw, arrays, planned)
    pointers = {"in": view.pointer, "out": out_view.pointer}
    tmp = None
    if executor.temporary is not None:
        tmp = fw.empty(x, executor.temporary, work_in)
        pointers["tmp"] = (fw.view(tmp) if not _is_device_array(tmp) else _device_view(tmp)).pointer
    if not fw.on_device:
        executor.run("host", pointers, None)
    elif getattr(fw, "blocking", False) or fw.name == "foreign":
        executor.run("blocking", pointers, stream if stream is not None else 0)
    else:
        executor.run("stream", pointers, stream if stream is not None else fw.stream(view))
    del tmp  # stream-ordered frameworks free it after the launches
    if fast_key is not None and x is original and not in_place and result == work_out:
        plan = executor.single_launch()
        signature = fw.fast_signature(x)
        if plan is not None and signature is not None and cache.max_size > 0:
            cache.fast[(fast_key, signature)] = (plan, out_shape, work_out, in_align)
    return _finish(fw, x, y, out, caller_out, result, conj_out)


def _call_bytes(fw, x, out, in_shape, out_shape, work_in, work_out, result, kind, axes, conj_in):
    """(arrays, buffers, largest buffer): the bytes of the arrays a call makes
    (copies of its input, its output, the cast of its result, c2r's
    temporary over > 3 axes: host memory for host arrays, device memory for
    device arrays) and of the device buffers its plans stage host arrays in,
    before the plans are known."""
    size = _memory.size
    arrays = 0
    if fw.dtype(x) != work_in:
        arrays += size(x.shape, work_in)
    if conj_in:
        arrays += size(x.shape, work_in)
    if any(n > m for n, m in zip(in_shape, x.shape)):
        arrays += size(in_shape, work_in)  # padded
    elif not fw.on_device and (tuple(x.shape) != in_shape or not x.flags.c_contiguous):
        arrays += size(in_shape, work_in)  # cropped or reordered: a C-ordered copy
    if out is None or fw.dtype(out) != work_out:
        arrays += size(out_shape, work_out)
    if out is None and result != work_out:
        arrays += size(out_shape, result)
    if kind == "c2r" and len(axes) > 3:
        arrays += size(in_shape, work_in)
    if fw.on_device:
        return arrays, 0, 0
    staged_in, staged_out = size(in_shape, work_in), size(out_shape, work_out)
    return arrays, staged_in + staged_out, max(staged_in, staged_out)


def _check_memory(core, fw, arrays, buffers, largest=0):
    if fw.on_device:
        _memory.check(core, 0, arrays + buffers, largest)
    else:
        _memory.check(core, arrays, buffers, largest)


def _finish(fw, x, y, out, caller_out, result, conj_out):
    if fw.name == "jax":
        z = fw.wrap_result(y, x)
        if conj_out:
            z = fw.jnp.conjugate(z)
        return z.astype(result) if np.dtype(z.dtype) != result and result.itemsize <= 16 else z
    if conj_out:
        y = fw.conj_inplace(y)
    if out is not None:
        if y is not out:
            fw.copy_into(out, y)
        return caller_out
    if fw.dtype(y) != result:
        y = fw.astype(y, result)
    return fw.wrap_result(y, x)


def _check_out(fw, out, shape, result):
    """out as the framework writes into it (a torch CPU tensor as its NumPy view)."""
    if not hasattr(out, "shape") or not hasattr(out, "dtype"):
        raise TypeError(f"return arrays must be of ArrayType (out= got a {type(out).__name__})")
    ofw, adopted = framework_of(out)
    if ofw.name != fw.name:
        raise TypeError(f"out is a {ofw.name.split('-')[0]} array but the input is a {fw.name.split('-')[0]} one")
    if fw.name.startswith("jax"):
        raise TypeError("JAX arrays are immutable: out= cannot be a JAX array")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"output array has wrong shape: {tuple(out.shape)}, expected {tuple(shape)}")
    if _read_only(adopted):
        raise ValueError("output array is read-only")
    odt = fw.to_numpy[out.dtype] if fw.name == "torch" else np.dtype(out.dtype)
    if not np.can_cast(result, odt, casting="same_kind"):
        raise TypeError(f"Cannot cast the {result} result to out's dtype {odt} with casting rule 'same_kind'")
    return adopted


def _read_only(x):
    """Whether the array says it must not be written: NumPy's flag (writing a
    read-only memmap segfaulted), or the read-only bit of a DLPack 1.0
    capsule or of __cuda_array_interface__. CuPy and PyTorch arrays carry
    no such flag."""
    if isinstance(x, np.ndarray):
        return not x.flags.writeable
    return getattr(x, "read_only", False)


def _alignment(kind, side, dtype):
    real_side = (kind == "r2c" and side == "in") or (kind == "c2r" and side == "out")
    return dtype.itemsize * (2 if real_side else 1)


def _is_device_array(y):
    from ._device_array import DeviceArray
    return isinstance(y, DeviceArray)


def _device_view(y):
    from ._arrays import View
    return View(y, y.pointer, y.shape, y.strides, y.dtype, y.device_id)


def _overlaps(a, b):
    def span(v):
        lo = hi = v.pointer
        for n, s in zip(v.shape, v.strides):
            if n > 1:
                if s < 0:
                    lo += (n - 1) * s
                else:
                    hi += (n - 1) * s
        return lo, hi + v.dtype.itemsize
    (alo, ahi), (blo, bhi) = span(a), span(b)
    return alo < bhi and blo < ahi


def _executor(cache, core, kind, work_in, inverse, norm, view, out_view, axes, in_place, callbacks=(None, None)):
    precision = "single" if work_in in (np.complex64, np.float32) else "double"
    load, store = callbacks
    key = (core.spec, kind, precision, inverse, norm, view.shape, view.strides, out_view.shape, out_view.strides,
           tuple(axes), in_place, view.dtype.itemsize, out_view.dtype.itemsize, _callbacks.key(load),
           _callbacks.key(store))
    try:
        return cache.get(key, lambda: _engine.Executor(
            core, kind, precision, inverse, norm, view.shape, view.strides, view.dtype.itemsize, out_view.shape,
            out_view.strides, out_view.dtype.itemsize, list(axes), in_place, load, store))
    except _engine.NeedsCopy:
        return None


def warm(cache, kind, axes, lengths, inverse, norm, shape, dtype, n_out=None, device=None, load=None, store=None):
    """Compiles the plans of a call on a C-contiguous array of `shape` and
    `dtype` on `device` (a NumPy array's device) without running them."""
    from ._arrays import View, c_strides
    work_in, work_out, _ = working_dtypes(dtype, kind)
    if _callbacks.stores_reals(store):
        work_out = _real_dtype(work_out)
    in_shape = tuple(lengths.get(a, n) for a, n in enumerate(shape))
    out_shape = _out_shape(kind, in_shape, axes, n_out)
    if 0 in in_shape or 0 in out_shape:
        return
    spec = _device_spec(device)
    core = _engine.open_device(spec) if spec is not None else _engine.default_device()
    # What running it on host arrays will hold on the device.
    staged_in, staged_out = _memory.size(in_shape, work_in), _memory.size(out_shape, work_out)
    _memory.check(core, 0, staged_in + staged_out, max(staged_in, staged_out))
    view = View(None, 0, in_shape, c_strides(in_shape, work_in.itemsize), work_in, None)
    out_view = View(None, 0, out_shape, c_strides(out_shape, work_out.itemsize), work_out, None)
    executor = _executor(cache, core, kind, work_in, inverse, norm, view, out_view, axes, False, (load, store))
    _memory.check(core, 0, executor.device_bytes(staged=True))
