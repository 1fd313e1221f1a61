"""Half storage from Python (issue 42): transforms that read and write 16-bit
arrays as they are, computed in float32.

`half=` on bfly.fft's functions and on bfly.Plan opts in; without it NumPy's
rule stays (float16 input is widened and returns complex64). The library
converts in the transform's first loads and last stores
(bfly::Problem::storage, docs/ARCHITECTURE.md "Half storage"): no widening
copy of the input and no narrowing one of the output, the norm's scale
applied in float32 before the store, a value past the format's range stored
as Inf (as a cast would). Its error against the exact transform of the
rounded input is the output's rounding: about 2.1e-4 (float16) and 1.7e-3
(bfloat16) relative L2 (PoCL, lengths 16 to 65536, Rader's and Bluestein's
included).

This module maps the caller's arrays (bfly/_half_arrays.py: bits, complex
points as a trailing axis of 2 or torch.complex32) onto the Executors every
call uses (bfly/_engine.py), with storage "f16" or "bf16". A transform must
be one problem (at most 3 axes): over more, the library would round to 16
bits between its groups of axes.
"""
import numpy as np

from . import _callbacks, _engine, _memory, _transform
from ._arrays import View, c_strides
from ._half_arrays import by_type, ops_of
from ._transform import AxisError, check_n, cook_nd_args, norm_name, normalize_axis, swap_norm

_POINT, _REAL = np.dtype(np.uint32), np.dtype(np.uint16)
_FORMATS = {"float16": "f16", "bfloat16": "bf16"}
_FORMAT_NAMES = {"f16": "float16", "bf16": "bfloat16"}

# bfly.fft's functions: (kind, inverse, conjugate the input, conjugate the output, swap the norm)
_NAMES = {"fft": ("c2c", False, False, False, False), "ifft": ("c2c", True, False, False, False),
          "rfft": ("r2c", False, False, False, False), "irfft": ("c2r", True, False, False, False),
          "hfft": ("c2r", True, True, False, True), "ihfft": ("r2c", False, False, True, True)}
_ONE_AXIS = tuple(_NAMES)
_NAMES.update({name + "n": _NAMES[name] for name in ("fft", "ifft", "rfft", "irfft")})


def requested(half):
    """half= as the format it asks for: "any" (True: the input's own), "f16" or "bf16"."""
    if half is True:
        return "any"
    if isinstance(half, str) and half in _FORMATS:
        return _FORMATS[half]
    raise ValueError(f"half={half!r}: give True (the input's 16-bit format), 'float16' or 'bfloat16' "
                     "(False: NumPy's rule, float16 input computed in and returned as single precision)")


def _reconcile(found, half, dtype):
    """The format of a dtype's `found` format (None: raw bits) under half=."""
    want = requested(half)
    if found is None:
        if want == "any":
            raise TypeError(f"half=True takes the format from the dtype; {dtype} arrays of raw bits need "
                            "half='float16' or half='bfloat16'")
        return want
    if want != "any" and want != found:
        raise TypeError(f"half={half!r} but the input is {_FORMAT_NAMES[found]}")
    return found


def adopt(a, half, complex_input):
    """The HalfArray of `a` (complex_input: whether the transform reads complex points)."""
    ops, x = ops_of(a)
    h = ops.adopt(x, complex_input)
    h.fmt = _reconcile(h.fmt, half, h.dtype)
    return h


def plan_shape(shape, dtype, half, kind):
    """(format, logical shape) of a bfly.Plan's shape and dtype with half=: a
    real 16-bit dtype where the transform reads complex points has the
    trailing axis of 2; torch.complex32's shape is the logical one."""
    torch_dtype = type(dtype).__module__.split(".")[0] == "torch"
    name = str(dtype).replace("torch.", "") if torch_dtype else np.dtype(dtype).name
    complex_input = kind != "r2c"
    if name == "complex32" and complex_input:
        return _reconcile("f16", half, dtype), tuple(shape)
    if name not in ("float16", "bfloat16", "uint16", "int16"):
        raise TypeError(f"half storage takes float16, bfloat16 (torch's, ml_dtypes'), torch.complex32 (complex "
                        f"kinds), or uint16/int16 raw bits; got {dtype}")
    fmt = _reconcile(_FORMATS.get(name), half, dtype)
    if complex_input:
        if not shape or shape[-1] != 2:
            raise ValueError(f"half storage: complex input of {name} has a trailing axis of 2 (real, imaginary); "
                             f"got shape {tuple(shape)}")
        return fmt, tuple(shape[:-1])
    return fmt, tuple(shape)


def call(name, a, s, axes, norm, out, device, stream, half, window=None):
    """bfly.fft's `name` with half= (s and axes: n and axis for the 1D
    functions; window: the load op of window=, or None)."""
    key = _fast_key(name, s, axes, norm, half, window)
    if key is not None and out is None and device is None and stream is None:
        y = _fast_call(a, key)
        if y is not None:
            return y
    kind, inverse, conj_in, conj_out, swap = _NAMES[name]
    h = adopt(a, half, kind != "r2c")
    if name in _ONE_AXIS:
        if not h.shape:
            raise AxisError(axes, 0)
        axes = [normalize_axis(axes, len(h.shape))]
        s = None if s is None else [check_n(s)]
    s, axes = cook_nd_args(h.shape, s, axes, inverse_real=kind == "c2r")
    if not axes:
        raise ValueError(f"{name} with half= needs at least one axis")
    if len(set(axes)) != len(axes):
        raise ValueError(f"half storage transforms distinct axes (got {tuple(axes)}): the library rounds to 16 "
                         "bits once, in the last store")
    lengths = dict(zip(axes, s))
    n_out = None
    if kind == "c2r":
        n_out = s[-1]
        lengths[axes[-1]] = n_out // 2 + 1
    norm = swap_norm(norm) if swap else norm_name(norm)
    load = None if window is None else _callbacks.Callback(window)
    return run(h, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device, stream, load=load,
               fast_key=key if out is None and device is None and stream is None else None)


def _fast_key(name, s, axes, norm, half, window):
    try:
        key = ("half", name, tuple(s) if isinstance(s, list) else s, tuple(axes) if isinstance(axes, list) else axes,
               norm, half, window)
        hash(key)
        return key
    except TypeError:
        return None


def _fast_call(a, key):
    """The result of a call seen before on an array of the same signature
    (as bfly/_transform.py's fast_call): the cached plan launched on a new
    result, nothing else worked out again; None where there is none."""
    ops = by_type.get(type(a))
    if ops is None:
        return None
    entry = _engine.plan_cache.fast.get((key, ops.signature(a)))
    if entry is None:
        return None
    plan, fmt, pairs_in, pairs_out, out_bits_shape = entry
    h = ops.adopt(a, pairs_in)
    h.fmt = fmt
    ops = h.ops  # (JAX's arrays run through another framework's ops)
    view = ops.view(h.bits, pairs_in)
    on = ops.on(h.bits)
    if view is None or (on and view.pointer % 4):
        return None
    _engine.plan_cache.hits += 1
    y = ops.empty(h.bits, out_bits_shape)
    out_pointer = ops.view(y, pairs_out).pointer
    if on:
        plan.execute(view.pointer, out_pointer, ops.stream(h.bits))
    else:
        plan.execute_host(view.pointer, out_pointer)
    return ops.wrap(y, h, pairs_out)


def run(h, kind, axes, lengths, inverse, norm, out=None, n_out=None, conj_in=False, conj_out=False, device=None,
        stream=None, cache=None, load=None, store=None, fast_key=None):
    """The transform of HalfArray `h` (as bfly/_transform.py's run, in half storage)."""
    stream = _transform._stream_handle(stream)
    args = (h, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device, stream,
            _engine.plan_cache if cache is None else cache, load, store, fast_key)
    if stream is not None and h.ops.on(h.bits):
        with h.ops.stream_context(stream):  # the framework's own copies and pads on that stream too
            return _run(*args)
    return _run(*args)


def _run(h, kind, axes, lengths, inverse, norm, out, n_out, conj_in, conj_out, device, stream, cache, load, store,
         fast_key):
    ops = h.ops
    b = h.bits
    if len(axes) > 3:
        _one_problem(None, axes)
    pairs_in, pairs_out = kind != "r2c", kind != "c2r"
    in_shape = tuple(lengths.get(a, n) for a, n in enumerate(h.shape))
    out_shape = _transform._out_shape(kind, in_shape, axes, n_out)
    out_bits_shape = out_shape + (2,) if pairs_out else out_shape
    on = ops.on(b)
    core = _device(ops, b, on, device)
    out_bits = None if out is None else ops.out_bits(out, h, pairs_out, out_bits_shape)
    in_bytes, out_bytes = _memory.size(in_shape, _item(pairs_in)), _memory.size(out_shape, _item(pairs_out))
    arrays = in_bytes * (int(in_shape != h.shape) + int(conj_in)) + (out_bytes if out is None else 0)
    staging = 0 if on else in_bytes + out_bytes
    _check_memory(core, on, arrays, staging, max(in_bytes, out_bytes))
    b = _pad_or_crop(ops, b, lengths, pairs_in)
    if conj_in:
        b = ops.copy(b)  # (the caller's input is left as it was)
        ops.negate_imag(b)
    if not on:
        # C-ordered on the host (its copy to the device is made anyway): every
        # layout of the same values takes the same plan and gives the same bits.
        b = ops.contiguous(b)
    view = ops.view(b, pairs_in)
    if view is None:  # a point's two values apart: a copy that brings them together
        b = ops.contiguous(b)
        view = ops.view(b, pairs_in)
    if on and view.pointer % 4:  # kernels read 32 bits at a time (a point, or a pair of reals)
        b = ops.copy(b)
        view = ops.view(b, pairs_in)
    if 0 in out_shape or 0 in in_shape:
        return _finish(h, ops.zeros(b, out_bits_shape), out, out_bits, pairs_out)
    y = out_view = None
    if out_bits is not None:
        out_view = ops.view(out_bits, pairs_out)
        if out_view is not None and not (on and out_view.pointer % 4):
            y = out_bits
    if y is None:
        y = ops.empty(b, out_bits_shape)
        out_view = ops.view(y, pairs_out)
    if ops.on(y) != on:
        raise ValueError(f"out is in {'device' if ops.on(y) else 'host'} memory but the input is not")
    if None not in (out_view.device_id, view.device_id) and out_view.device_id != view.device_id:
        raise ValueError(f"out is on cuda:{out_view.device_id} but the input on cuda:{view.device_id}")
    in_place = False
    if kind == "c2c" and out_view.pointer == view.pointer and out_view.strides == view.strides:
        in_place = True
    elif _transform._overlaps(view, out_view):
        y = ops.empty(b, out_bits_shape)
        out_view = ops.view(y, pairs_out)
    executor = _executor(cache, core, kind, h.fmt, inverse, norm, view, out_view, axes, in_place, load, store)
    if executor is None:  # a layout a bfly problem cannot take: a contiguous copy
        b = ops.contiguous(b)
        view = ops.view(b, pairs_in)
        in_place = False
        executor = _executor(cache, core, kind, h.fmt, inverse, norm, view, out_view, axes, False, load, store)
        if executor is None:
            y = ops.empty(b, out_bits_shape)
            out_view = ops.view(y, pairs_out)
            executor = _executor(cache, core, kind, h.fmt, inverse, norm, view, out_view, axes, False, load, store)
    _one_problem(executor, axes)
    planned = executor.device_bytes(staged=not on)
    if planned > staging:  # workspace: known now, allocated at the first launch
        _check_memory(core, on, arrays, planned)
    pointers = {"in": view.pointer, "out": out_view.pointer}
    if on:
        executor.run("stream", pointers, stream if stream is not None else ops.stream(b))
    else:
        executor.run("host", pointers, None)
    if conj_out:
        ops.negate_imag(y)
    elif fast_key is not None and b is h.bits and out is None and not in_place and cache.max_size > 0:
        plan = executor.single_launch()
        if plan is not None:
            cache.fast[(fast_key, ops.signature(h.array))] = (
                plan, h.fmt, pairs_in, pairs_out, out_bits_shape)
    return _finish(h, y, out, out_bits, pairs_out)


def _item(pairs):
    """The View dtype of a side: a complex point is 4 bytes, a real 2."""
    return _POINT if pairs else _REAL


def _finish(h, y, out, out_bits, pairs_out):
    if out is None:
        return h.ops.wrap(y, h, pairs_out)
    if y is not out_bits:
        h.ops.copy_into(out_bits, y)
    return out


def _device(ops, b, on, device):
    wanted = _transform._device_spec(device)
    if on:
        spec = f"cuda:{ops.device_id(b)}"
        if wanted is not None and wanted != spec:
            raise ValueError(f"the array is on {spec}, not on the device {wanted} asked for; "
                             "move it first (bfly transforms device arrays where they lie)")
        return _engine.open_device(spec)
    return _engine.open_device(wanted) if wanted is not None else _engine.default_device()


def _check_memory(core, on, arrays, buffers, largest=0):
    if on:
        _memory.check(core, 0, arrays + buffers, largest)
    else:
        _memory.check(core, arrays, buffers, largest)


def _pad_or_crop(ops, b, lengths, pairs):
    """b with its logical axes cropped or zero-padded to `lengths` (numpy's n and s)."""
    shape = tuple(b.shape[:-1] if pairs else b.shape)
    full = tuple(lengths.get(a, n) for a, n in enumerate(shape))
    if full == shape:
        return b
    b = b[tuple(slice(0, min(m, n)) for m, n in zip(full, shape))]
    if all(m <= n for m, n in zip(full, shape)):
        return b
    z = ops.zeros(b, full + ((2,) if pairs else ()))  # bits 0: +0.0 in both formats
    z[tuple(slice(0, n) for n in b.shape)] = b
    return z


def _executor(cache, core, kind, fmt, inverse, norm, view, out_view, axes, in_place, load, store):
    key = (core.spec, "half", fmt, kind, inverse, norm, view.shape, view.strides, out_view.shape, out_view.strides,
           tuple(axes), in_place, _callbacks.key(load), _callbacks.key(store))
    try:
        return cache.get(key, lambda: _engine.Executor(
            core, kind, "single", inverse, norm, view.shape, view.strides, view.dtype.itemsize, out_view.shape,
            out_view.strides, out_view.dtype.itemsize, list(axes), in_place, load, store, storage=fmt))
    except _engine.NeedsCopy:
        return None


def _one_problem(executor, axes):
    if executor is None or len(executor.steps) != 1 or executor.temporary is not None:
        raise ValueError(f"half storage transforms at most 3 axes in one call (here {len(axes)}): the library "
                         "rounds to 16 bits once, in the last store; transform the rest in a second call")


def warm(cache, kind, axes, lengths, inverse, norm, shape, fmt, n_out=None, device=None, load=None, store=None):
    """Compiles the plans of a half storage call on a C-contiguous array of
    logical `shape` on `device` (a host array's device) without running them."""
    in_shape = tuple(lengths.get(a, n) for a, n in enumerate(shape))
    out_shape = _transform._out_shape(kind, in_shape, axes, n_out)
    if len(axes) > 3:
        _one_problem(None, axes)
    if 0 in in_shape or 0 in out_shape:
        return
    spec = _transform._device_spec(device)
    core = _engine.open_device(spec) if spec is not None else _engine.default_device()
    views = []
    for side, pairs in ((in_shape, kind != "r2c"), (out_shape, kind != "c2r")):
        dtype = _item(pairs)
        views.append(View(None, 0, side, c_strides(side, dtype.itemsize), dtype, None))
    staged_in, staged_out = (_memory.size(v.shape, v.dtype) for v in views)
    _memory.check(core, 0, staged_in + staged_out, max(staged_in, staged_out))
    executor = _executor(cache, core, kind, fmt, inverse, norm, views[0], views[1], axes, False, load, store)
    _one_problem(executor, axes)
    _memory.check(core, 0, executor.device_bytes(staged=True))
