"""Load and store callbacks: ops fused into a transform's first loads (of its
input) or last stores (of its output), issue 42.

The library's bfly::Callback (include/bfly/bfly.hpp, docs/CALLBACKS.md) reads
a comma-separated chain of ops, applied in turn to each element as it is
loaded or stored: "scale:S", the windows "hann", "hamming", "blackman",
"kaiser:BETA" (scipy.signal.get_window's, periodic, along every transformed
axis), "window" and "mask" (times the caller's values), "code" (a function
body the caller writes, once for CUDA and OpenCL C), and on stores
"magnitude", "power", "db" (|X|, |X|^2, 10 log10 |X|^2: the output then holds
reals). The library checks the chain and refuses a bad one by name when the
plan is made; this module only carries a Callback to each plan: its values
laid out by the offsets of the arrays the plan runs on (a mask), or in the
order of the plan's axes (a window), and its data on the plan's device.
"""
import numpy as np

from . import _core
from ._arrays import framework_of

# The ops that end a store chain in a real (the output then holds reals of
# the working precision): the library's EndOps::real_result, which the plan
# confirms (CorePlan.output_reals).
_REAL_RESULTS = ("magnitude", "power", "db")


class Callback:
    """Ops fused into a transform's loads (``load=``, its input) or stores
    (``store=``, its output).

    Callback(ops=None, *, code=None, values=None, data=None)

    ops: a comma-separated chain applied in turn to each element: "scale:S",
    "hann", "hamming", "blackman", "kaiser:BETA" (scipy.signal.get_window's
    periodic windows, along every transformed axis: their product over
    several), "window" (times `values`: one window per transformed axis),
    "mask" (times `values`, one per element), "code" (default where `code`
    is given), and on stores "magnitude", "power" or "db" (last: the output
    then holds reals, float32 or float64, of the output's shape).
    code: the body of a function of v (the element: .x and .y of a complex
    one, a real on a real side), o (its offset in its array, in elements:
    its flat index in a C-ordered array), data and cdata (`data`'s values
    as reals and as complex points) that returns the new v; one text for
    CUDA and OpenCL C (cmake, cmul, conj, sqrt, ... are there), e.g.
    ``"return cmake(v.x * 2, -v.y);"``.
    values: floats. For "mask", an array of the side's shape (the input's
    for loads, the output's for stores). For "window", one per transformed
    axis: a 1D array for one axis, a sequence of 1D arrays (or their
    concatenation) for several, in the order of the transform's axes.
    data: an array the code (or a mask or window, instead of `values`)
    reads: a NumPy array, copied to the plan's device when the plan is
    made, or a CUDA array (CuPy, PyTorch, DLPack) read where it lies, kept
    alive by the plan (ready before the plan runs: nothing orders it).
    Cast to the working precision (float32/complex64 for single).

    Anywhere a Callback is taken, a string is Callback(ops=string) and a
    dict is Callback(**dict).
    """

    def __init__(self, ops=None, *, code=None, values=None, data=None):
        if ops is None:
            if code is None:
                raise ValueError("a bfly.Callback needs ops (such as 'hann' or 'mask') or code")
            ops = "code"
        if not isinstance(ops, str):
            raise TypeError(f"a Callback's ops are a string such as 'hann,scale:0.5', not {type(ops).__name__}")
        if code is not None and not isinstance(code, str):
            raise TypeError(f"a Callback's code is a string, not {type(code).__name__}")
        self.ops = ops
        self.code = code
        self.values = values
        self.data = data

    @property
    def names(self):
        """The chain's op names, in order ("kaiser:8.6" -> "kaiser")."""
        return [op.split(":", 1)[0].strip() for op in self.ops.split(",")]

    @property
    def real_result(self):
        """Whether the chain ends in magnitude, power or db (a store of reals)."""
        return self.names[-1] in _REAL_RESULTS

    def key(self):
        """What plans are cached by: the text, and the object where it carries arrays."""
        if self.values is None and self.data is None:
            return (self.ops, self.code)
        return (self.ops, self.code, id(self))

    def __repr__(self):
        parts = [repr(self.ops)]
        if self.code is not None:
            parts.append(f"code={self.code!r}")
        if self.values is not None:
            parts.append(f"values=<{np.size(self.values)} values>")
        if self.data is not None:
            parts.append(f"data=<{type(self.data).__name__} of shape {tuple(getattr(self.data, 'shape', ()))}>")
        return f"bfly.Callback({', '.join(parts)})"


def as_callback(spec, side):
    """A Callback, or None, from what `load=` and `store=` take."""
    if spec is None or isinstance(spec, Callback):
        return spec
    if isinstance(spec, str):
        return Callback(spec) if spec.strip() else None
    if isinstance(spec, dict):
        return Callback(**spec)
    raise TypeError(f"{side}= takes None, a string of ops, a dict or a bfly.Callback, not {type(spec).__name__}")


def key(callback):
    return None if callback is None else callback.key()


def stores_reals(store):
    return store is not None and store.real_result


class Side:
    """One side of an array transform as a callback on it sees it: the
    array's shape and element strides, and the transform's axes."""
    __slots__ = ("shape", "strides", "axes")

    def __init__(self, shape, strides, axes):
        self.shape, self.strides, self.axes = tuple(shape), tuple(strides), list(axes)


def core_callback(callback, side, problem_side, problem_axes, device, single, keep):
    """The _core.CoreCallback of `callback` on one side of one plan.

    side: the array's Side; problem_side: (shape, strides, extent) of the
    plan's problem on that side (_core.problem_sides); keep: a list that
    holds what the plan reads where it lies."""
    core = _core.CoreCallback()
    core.ops = callback.ops
    core.code = callback.code or ""
    names = callback.names
    if callback.values is not None:
        if "mask" in names:
            core.values = _mask_values(callback.values, side, problem_side[2])
        elif "window" in names:
            core.values = _window_values(callback.values, side, problem_side, problem_axes)
        else:  # the library refuses values where no op reads them, by name
            core.values = np.asarray(callback.values, np.float64).ravel().tolist()
    if callback.data is not None:
        _set_data(core, callback.data, device, single, keep)
    return core


def _mask_values(values, side, extent):
    """values (of the side's shape, or one per offset) laid out by the
    array's offsets: the library reads values[offset]."""
    values = np.asarray(values, np.float64)
    if values.ndim == 1 and values.size == extent:
        return values.tolist()
    size = int(np.prod(side.shape, dtype=np.int64))
    if values.size != size:
        return values.ravel().tolist()  # the library says how many it needs
    table = np.zeros(extent, np.float64)
    spread = np.lib.stride_tricks.as_strided(table, side.shape, [s * table.itemsize for s in side.strides])
    spread[...] = values.reshape(side.shape)
    return table.tolist()


def _window_values(values, side, problem_side, problem_axes):
    """The windows given in the order of the transform's axes, reordered into
    the problem's (its transformed axes ascending, each found by its stride
    and length in the array)."""
    lengths = [side.shape[a] for a in side.axes]
    if isinstance(values, (list, tuple)) and len(values) == len(lengths) and all(np.ndim(v) == 1 for v in values):
        windows = [np.asarray(v, np.float64) for v in values]
    else:
        flat = np.asarray(values, np.float64).ravel()
        if flat.size != sum(lengths):
            return flat.tolist()  # the library says how many it needs
        windows = np.split(flat, np.cumsum(lengths)[:-1])
    for axis, window, n in zip(side.axes, windows, lengths):
        if window.size != n:
            raise ValueError(f"the window for axis {axis} has {window.size} values; the axis has {n} points")
    shape, strides, _ = problem_side
    ordered, used = [], set()
    for d in problem_axes:
        for i, a in enumerate(side.axes):
            if i not in used and side.shape[a] == shape[d] and (side.strides[a] == strides[d] or shape[d] == 1):
                used.add(i)
                ordered.append(windows[i])
                break
        else:
            raise ValueError("bfly could not match the plan's axes with the array's to lay out the windows")
    return np.concatenate(ordered).tolist() if ordered else []


def _set_data(core, data, device, single, keep):
    real = np.dtype(np.float32 if single else np.float64)
    complex_ = np.dtype(np.complex64 if single else np.complex128)
    fw, x = framework_of(data)
    if fw.on_device:
        if not device.backend.lower().startswith("cuda"):
            raise ValueError(f"a callback's data on a GPU serves plans on CUDA devices; this plan runs on "
                             f"{device.spec}: pass a NumPy array")
        want = complex_ if np.dtype(fw.dtype(x)).kind == "c" else real
        if fw.dtype(x) != want:
            x = fw.astype(x, want)
        x = fw.contiguous(x)
        view = fw.view(x)
        spec = f"cuda:{view.device_id if view.device_id is not None else 0}"
        if spec != device.spec:
            raise ValueError(f"a callback's data is on {spec}, the plan on {device.spec}")
        keep.append(x)
        core.data = view.pointer
        core.data_bytes = int(np.prod(view.shape, dtype=np.int64)) * view.dtype.itemsize
        core.data_on_device = True
    else:
        host = np.asarray(x)
        host = np.ascontiguousarray(host, complex_ if host.dtype.kind == "c" else real)
        keep.append(host)  # (copied when the plan is made)
        core.data = host.__array_interface__["data"][0]
        core.data_bytes = host.nbytes
