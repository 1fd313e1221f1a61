"""From a transform over any axes of any strided array to bfly plans.

The library maps a transform over any axes of an array of any rank onto
bfly problems (`_core.array_steps`, the C++ `bfly::array_steps` of
bfly/array.hpp, which the CLI uses too): groups of at most 3 axes, batch
axes merged where their strides chain, the rest looped over as offsets, and
a temporary for c2r past 3 axes. An Executor builds those problems' plans
and launches them at their offsets. Strides that are not positive multiples
of the element size (negative, zero, unaligned) make the caller copy the
input first (`NeedsCopy`).

Executors are cached by problem and device in `plan_cache` (an LRU bounded
by entry count); each holds its compiled plans, which hold their kernels and
device workspace.
"""
import os
import threading
import weakref
from collections import OrderedDict

from . import _callbacks, _core
from ._arrays import c_strides

_devices = {}
_devices_lock = threading.Lock()


class ForkedChildError(RuntimeError):
    """This process was forked after its parent had started the device's
    driver (PoCL's threads, a CUDA context): a forked child cannot use it.
    Start worker processes with multiprocessing's "spawn" or "forkserver"
    method, or use bfly in a process only after it forks."""
    __module__ = "bfly"


def open_device(spec):
    """The bfly device for a spec ("auto", "cpu", "cuda:1", "opencl:0:0"), opened once."""
    device = _devices.get(spec)
    if device is None:
        with _devices_lock:
            device = _devices.get(spec)
            if device is None:
                try:
                    device = _core.CoreDevice(spec)
                except (RuntimeError, ValueError) as e:
                    refusals = _core.fork_refusals()
                    if refusals:
                        raise ForkedChildError(f"cannot open bfly device {spec!r} in this process: "
                                               f"{refusals[0]}") from None
                    raise ValueError(f"cannot open bfly device {spec!r}: {e}") from None
                _devices[spec] = device
    return device


def _after_fork_in_child():
    # Runs in a forked child before anything else does. Locks another thread
    # held at the fork stay held here: new ones. The parent's devices and
    # plans cannot be used here (the C++ layer refuses them, and drops them
    # without releasing anything): forget them, so the next call opens the
    # device anew, or raises ForkedChildError where its driver cannot be.
    global _devices, _devices_lock
    _devices = {}
    _devices_lock = threading.Lock()
    for cache in list(_plan_caches):
        cache._forget_after_fork()


_plan_caches = weakref.WeakSet()
os.register_at_fork(after_in_child=_after_fork_in_child)


def default_device():
    spec = os.environ.get("BFLY_DEVICE")
    if not spec:
        return open_device("auto")
    try:
        return open_device(spec)
    except ValueError as e:  # the user may not know where the spec came from: say
        raise ValueError(f"BFLY_DEVICE={spec}: {e}") from None


class PlanCache:
    """The plans behind bfly.fft and bfly.scipy_fft, keyed by problem, layout
    and device: least recently used first out past `max_size` entries
    (BFLY_PLAN_CACHE_SIZE, default 64). Each entry holds compiled kernels
    and device memory (workspace, and staging buffers for host arrays)."""

    def __init__(self, max_size=None):
        self._entries = OrderedDict()
        self._lock = threading.Lock()
        self._max_size = int(os.environ.get("BFLY_PLAN_CACHE_SIZE", "64")) if max_size is None else int(max_size)
        self.hits = 0
        self.misses = 0
        # The fast path's table (bfly/_transform.py): a call's arguments and
        # array signature -> the executor and result to make. Bounded with the
        # entries, emptied with them.
        self.fast = {}
        _plan_caches.add(self)

    def _forget_after_fork(self):
        self._lock = threading.Lock()
        self._entries.clear()
        self.fast.clear()

    @property
    def max_size(self):
        return self._max_size

    @max_size.setter
    def max_size(self, value):
        value = int(value)
        if value < 0:
            raise ValueError(f"plan cache max_size {value} must be >= 0")
        with self._lock:
            self._max_size = value
            self._evict()

    def __len__(self):
        return len(self._entries)

    def clear(self):
        """Drops every cached plan (their kernels and device memory go with them)."""
        with self._lock:
            self._entries.clear()
            self.fast.clear()

    def info(self):
        """A dict: size, max_size, hits, misses, and the cached problems' tokens."""
        with self._lock:
            return {"size": len(self._entries), "max_size": self._max_size, "hits": self.hits,
                    "misses": self.misses,
                    "plans": [tok for e in self._entries.values() for tok in e.tokens()]}

    def get(self, key, build):
        entries = self._entries
        entry = entries.get(key)
        if entry is not None:
            self.hits += 1
            try:
                entries.move_to_end(key)
            except KeyError:  # cleared by another thread meanwhile
                pass
            return entry
        entry = build()  # outside the lock: compiling takes a while
        with self._lock:
            self.misses += 1
            if self._max_size > 0:
                entries[key] = entry
                self._evict()
        return entry

    def _evict(self):
        evicted = False
        while len(self._entries) > self._max_size:
            self._entries.popitem(last=False)
            evicted = True
        if evicted or len(self.fast) > self._max_size:
            self.fast.clear()


plan_cache = PlanCache()


class NeedsCopy(Exception):
    """The input's (or output's) layout is not one a bfly problem takes."""

    def __init__(self, side):
        super().__init__(side)
        self.side = side


def _elements(strides, itemsize, shape, side):
    out = []
    for s, n in zip(strides, shape):
        if n == 1:
            out.append(1)  # any stride serves a unit axis
        elif s <= 0 or s % itemsize:
            raise NeedsCopy(side)
        else:
            out.append(s // itemsize)
    return out


class Step:
    """One bfly problem, launched once per offset pair."""
    __slots__ = ("plan", "offsets", "source", "target")

    def __init__(self, plan, offsets, source, target):
        self.plan, self.offsets, self.source, self.target = plan, offsets, source, target


class Executor:
    """Every launch of one transform of one layout on one device.

    load, store: bfly.Callbacks (or None) fused into the first loads and
    the last stores; a transform with one needs one launch of one problem
    (its windows and masks are laid out by that problem's sides).
    storage: "native", or half storage's "f16" / "bf16" (16-bit buffers,
    precision "single"; bfly/_half.py)."""

    def __init__(self, device, kind, precision, inverse, norm, in_shape, in_strides, in_itemsize, out_shape,
                 out_strides, out_itemsize, axes, in_place, load=None, store=None, storage="native"):
        ins = _elements(in_strides, in_itemsize, in_shape, "input")
        outs = _elements(out_strides, out_itemsize, out_shape, "output")
        real_shape = list(in_shape if kind != "c2r" else out_shape)
        steps, temporary = _core.array_steps(kind, precision, inverse, norm, real_shape, list(axes), ins, outs,
                                             in_place, storage)
        self.temporary = temporary  # the shape of c2r's complex temporary over > 3 axes (C-contiguous)
        self._keep = []  # callback data the plans read where it lies
        self._callbacks = "".join(f" {name}={callback.ops!r}" for name, callback in (("load", load), ("store", store))
                                  if callback is not None)
        if load is None and store is None:
            self.steps = [Step(_core.CorePlan(device, token), offsets, source, target)
                          for token, source, target, offsets in steps]
            return
        if len(steps) != 1 or temporary is not None or steps[0][3] != [(0, 0)]:
            if ins != list(_elements(c_strides(in_shape, in_itemsize), in_itemsize, in_shape, "input")):
                raise NeedsCopy("input")
            if outs != list(_elements(c_strides(out_shape, out_itemsize), out_itemsize, out_shape, "output")):
                raise NeedsCopy("output")
            raise ValueError(f"load and store callbacks need a transform bfly makes in one launch (at most 3 axes "
                             f"of an array, here {len(axes)} of shape {tuple(real_shape)}): transform fewer axes "
                             f"at a time")
        token, source, target, offsets = steps[0]
        in_side, out_side, problem_axes = _core.problem_sides(token)
        single = precision == "single"
        cores = {}
        for name, callback, shape, strides, problem_side in (("load", load, in_shape, ins, in_side),
                                                             ("store", store, out_shape, outs, out_side)):
            if callback is not None:
                cores[name] = _callbacks.core_callback(callback, _callbacks.Side(shape, strides, axes), problem_side,
                                                       problem_axes, device, single, self._keep)
        plan = _core.CorePlan(device, token, cores.get("load"), cores.get("store"))
        if plan.output_reals != _callbacks.stores_reals(store):  # (the library reads the chain as this module)
            raise RuntimeError(f"bfly: store {store!r} read as {'reals' if plan.output_reals else 'complex'} "
                               f"by the library")
        self.steps = [Step(plan, offsets, source, target)]

    def single_launch(self):
        """The one plan of a transform that is one launch over its arrays as they are, else None."""
        if len(self.steps) == 1 and self.temporary is None and self.steps[0].offsets == [(0, 0)]:
            return self.steps[0].plan
        return None

    def device_bytes(self, staged):
        """Device memory its plans hold: workspace and, run on host arrays
        (staged), each plan's copies of its input and output."""
        return sum(s.plan.workspace_bytes + (s.plan.input_bytes + s.plan.output_bytes if staged else 0)
                   for s in self.steps)

    def tokens(self):
        return [s.plan.token + self._callbacks for s in self.steps]

    def run(self, mode, pointers, stream):
        """mode: "host", "stream" or "blocking"; pointers: {"in", "out", "tmp"} addresses."""
        for step in self.steps:
            plan = step.plan
            i0, o0 = pointers[step.source], pointers[step.target]
            for di, do in step.offsets:
                if mode == "stream":
                    plan.execute(i0 + di, o0 + do, stream)
                elif mode == "host":
                    plan.execute_host(i0 + di, o0 + do)
                else:
                    plan.execute_blocking(i0 + di, o0 + do, stream)
