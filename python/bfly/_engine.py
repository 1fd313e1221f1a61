"""From a transform over any axes of any strided array to bfly plans.

A bfly problem (the C++ Problem) covers at most 3 transformed axes of an
array of rank at most 4, plus a batch with a distance, with positive strides
in elements. An Executor maps a call onto such problems:

- axes not transformed are batch; unit ones are dropped, neighbours whose
  strides chain are merged, and any that still do not fit are looped over
  here (pointer offsets, one launch each);
- more than 3 transformed axes run as successive groups of at most 3, the
  later ones in place on the output (c2r: the complex groups first, into a
  temporary, then the real one);
- strides that are not positive multiples of the element size (negative,
  zero, unaligned) make the caller copy the input first (`NeedsCopy`).

Executors are cached by problem and device in `plan_cache` (an LRU bounded
by entry count); each holds its compiled plans, which hold their kernels and
device workspace.
"""
import os
import threading
from collections import OrderedDict

from . import _core

_devices = {}
_devices_lock = threading.Lock()


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
                    raise ValueError(f"cannot open bfly device {spec!r}: {e}") from None
                _devices[spec] = device
    return device


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


def _contiguous(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return list(reversed(strides))


class Step:
    """One bfly problem, launched once per offset pair."""
    __slots__ = ("plan", "offsets", "source", "target")

    def __init__(self, plan, offsets, source, target):
        self.plan, self.offsets, self.source, self.target = plan, offsets, source, target


def _group_problem(device, kind, precision, inverse, norm, real_shape, group, in_shape, in_strides, out_shape,
                   out_strides, in_place, source, target):
    """A Step for one group of <= 3 axes. Shapes are per side (the real side
    and the complex side of a real transform differ on the real axis);
    strides are in elements of each side."""
    rank = len(real_shape)
    batch_dims = [d for d in range(rank) if d not in group and real_shape[d] > 1]
    # Merge batch neighbours whose strides chain on both sides.
    merged = []  # [first dim, size, in stride, out stride, last dim]
    for d in batch_dims:
        last = merged[-1] if merged else None
        if last and not any(t in group for t in range(last[4] + 1, d)) and \
                in_strides[last[4]] == in_strides[d] * in_shape[d] and \
                out_strides[last[4]] == out_strides[d] * out_shape[d]:
            last[1] *= real_shape[d]
            last[2], last[3], last[4] = in_strides[d], out_strides[d], d
        else:
            merged.append([d, real_shape[d], in_strides[d], out_strides[d], d])
    room = 5 - len(group)  # shape slots left (rank <= 4) plus the batch
    looped, kept = merged[:max(0, len(merged) - room)], merged[max(0, len(merged) - room):]
    real_bytes = 4 if precision == "single" else 8
    in_bytes = real_bytes * (1 if kind == "r2c" else 2)
    out_bytes = real_bytes * (1 if kind == "c2r" else 2)
    offsets = [(0, 0)]  # in bytes
    for _, size, si, so, _ in looped:
        offsets = [(a + i * si * in_bytes, b + i * so * out_bytes) for a, b in offsets for i in range(size)]
    batch, in_distance, out_distance = 1, 0, 0
    if kept:
        _, batch, in_distance, out_distance, _ = kept[0]
        kept = kept[1:]
    dims = sorted([(g[0], "b", g) for g in kept] + [(d, "t", d) for d in group])
    shape, pin, pout, position = [], [], [], {}
    for _, what, g in dims:
        if what == "b":
            shape.append(g[1]), pin.append(g[2]), pout.append(g[3])
        else:
            position[g] = len(shape)
            shape.append(real_shape[g]), pin.append(in_strides[g]), pout.append(out_strides[g])
    axes = [position[g] for g in group]
    # Default layouts stay default, so the token and the planner see them so.
    side_shape = list(shape)
    if kind != "c2c":
        side_shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    in_side = shape if kind != "c2r" else side_shape
    out_side = shape if kind != "r2c" else side_shape
    pin_d, pout_d = _contiguous(in_side), _contiguous(out_side)
    if pin == pin_d and (batch == 1 or in_distance == pin_d[0] * in_side[0]):
        pin, in_distance = [], 0
    if pout == pout_d and (batch == 1 or out_distance == pout_d[0] * out_side[0]):
        pout, out_distance = [], 0
    if in_place:
        pout, out_distance = [], 0
    if batch == 1:
        in_distance = out_distance = 0
    if axes == list(range(len(shape))):
        axes = []  # all axes in order: the token's default
    plan = _core.CorePlan(device, kind, precision, inverse, norm, shape, axes, batch, pin, in_distance, pout,
                          out_distance, in_place)
    # The plan must stay inside the arrays it is launched on: a mismatch here
    # would be a bug of this module, caught before any launch.
    looped_dims = {d for g in looped for d in range(g[0], g[4] + 1)}

    def reach(side_shape, strides, itemsize):
        return (1 + sum((n - 1) * st for d, (n, st) in enumerate(zip(side_shape, strides))
                        if d not in looped_dims and n > 0)) * itemsize
    if plan.input_bytes > reach(in_shape, in_strides, in_bytes) or \
            plan.output_bytes > reach(out_shape, out_strides, out_bytes):
        raise RuntimeError(f"bfly internal error: plan {plan.token} reaches past its arrays "
                           f"(input {in_shape} strides {in_strides}, output {out_shape} strides {out_strides})")
    return Step(plan, offsets, source, target)


class Executor:
    """Every launch of one transform of one layout on one device."""

    def __init__(self, device, kind, precision, inverse, norm, in_shape, in_strides, in_itemsize, out_shape,
                 out_strides, out_itemsize, axes, in_place):
        self.steps = []
        self.temporary = None  # the shape of c2r's complex temporary over > 3 axes (C-contiguous)
        ins = _elements(in_strides, in_itemsize, in_shape, "input")
        outs = _elements(out_strides, out_itemsize, out_shape, "output")
        real_shape = list(in_shape if kind != "c2r" else out_shape)
        groups = [list(axes[max(0, k - 3):k]) for k in range(len(axes), 0, -3)]  # the last group first
        if kind == "c2r":
            # The complex axes first (c2c inverse, into a C-contiguous temporary), then c2r.
            if len(groups) > 1:
                self.temporary = tuple(in_shape)
                tmp = _contiguous(in_shape)
                for i, g in enumerate(groups[1:]):
                    self.steps.append(_group_problem(device, "c2c", precision, True, norm, list(in_shape), g, in_shape,
                                                     ins if i == 0 else tmp, in_shape, tmp, i > 0,
                                                     "in" if i == 0 else "tmp", "tmp"))
                self.steps.append(_group_problem(device, "c2r", precision, True, norm, real_shape, groups[0],
                                                 in_shape, tmp, out_shape, outs, False, "tmp", "out"))
            else:
                self.steps.append(_group_problem(device, "c2r", precision, True, norm, real_shape, groups[0],
                                                 in_shape, ins, out_shape, outs, False, "in", "out"))
            return
        first = _group_problem(device, kind, precision, inverse, norm, real_shape, groups[0], in_shape, ins,
                               out_shape, outs, in_place, "in", "out")
        self.steps.append(first)
        for g in groups[1:]:
            self.steps.append(_group_problem(device, "c2c", precision, inverse, norm, list(out_shape), g, out_shape,
                                             outs, out_shape, outs, True, "out", "out"))

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
        return [s.plan.token for s in self.steps]

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
