"""bfly.multi_device: 2D and 3D FFTs of one array split over several devices
that this one process drives, on bfly::distributed::MultiDevicePlan
(include/bfly/multi_device.hpp; docs/PYTHON.md "One process, several
devices"). No MPI run: no mpi4py, no mpirun.

    import bfly.multi_device as bm
    y = bm.fftn(x, 4)                                   # on cuda:0 .. cuda:3
    plan = bm.Plan(x.shape, x.dtype, ["cuda:0", "cuda:1"], kind="rfft")
    y = plan(x)                                         # numpy.fft.rfftn(x)

Part r of the decomposition (bfly.distributed's names: "slabs", "pencils",
and their "-transposed-in" ways back; "auto" lets the plan choose) lives on
devices[r]. A call takes the whole array in host memory: each part's box is
copied to its device, the stages run there, the exchanges move the blocks
between the devices (NCCL where every device is a distinct CUDA GPU and
NCCL loads, else copies through host memory), and every output box comes
back into one new NumPy array. One device may stand for several parts (the
exchanges then go through the host): ["cpu"] * 3 runs three parts on the
OpenCL CPU device, as the tests do.
"""
import importlib.util
import numbers
import threading
from collections import OrderedDict

import numpy as np

from . import _core
from ._arrays import framework_of
from ._layout import KINDS, box_shape, choose, global_shape, precision, slices
from ._layout import grid as _grid
from ._transform import _device_spec, norm_name, working_dtypes

if importlib.util.find_spec(f"{__package__}._distributed") is None:
    raise ImportError("bfly.multi_device: this bfly was built without bfly._distributed, the module that binds "
                      "bfly::distributed (CMake found no MPI, which it links though this module calls none): install "
                      "an MPI (Debian: apt-get install libopenmpi-dev) and reinstall bfly")
try:
    from . import _distributed
except ImportError as e:
    raise ImportError(f"bfly.multi_device: bfly._distributed does not load: {e}") from None

WHO = "bfly.multi_device"
DECOMPOSITIONS = tuple(_distributed.decompositions())
# "mpi" is the C++ layer's name for copies through host memory (no MPI is called here).
TRANSPORTS = tuple(_distributed.transports())


def _devices(devices):
    """The device specs, one a part: a sequence of specs (or bfly devices), or
    N for the first N CUDA GPUs."""
    if isinstance(devices, numbers.Integral) and not isinstance(devices, bool):
        if devices < 1:
            raise ValueError(f"{WHO}: devices={devices} is not a positive number of CUDA GPUs")
        return tuple(f"cuda:{g}" for g in range(devices))
    if isinstance(devices, str) or not hasattr(devices, "__iter__"):
        raise TypeError(f"{WHO}: devices must be a list of device specs (such as ['cuda:0', 'cuda:1'] or "
                        f"['cpu'] * 2) or a number of CUDA GPUs, not {devices!r}")
    specs = []
    for i, device in enumerate(devices):
        try:
            spec = _device_spec(device)
        except TypeError:
            spec = None
        if not spec:
            raise TypeError(f"{WHO}: devices[{i}] = {device!r} is not a device spec such as 'cuda:0' or 'cpu'")
        specs.append(spec)
    if not specs:
        raise ValueError(f"{WHO}: devices is empty: give one device a part")
    return tuple(specs)


def _host_array(x):
    fw, x = framework_of(x)
    if fw.on_device:
        raise TypeError(f"{WHO}: takes the whole array in host memory (NumPy), not a {fw.name} array on a device")
    return np.asarray(x)


class Plan:
    """One transform of a whole array over several devices, planned once and run many times.

    Plan(shape, dtype, devices, kind="fft", norm=None, decomposition="auto", grid=None, transport="auto",
         *, tier=None)

    shape: the global array's (2 or 3 axes; for "irfft" the real output's).
    dtype: the input's (its precision picks single or double as bfly.fft
    does; "rfft" takes reals, the others complex). devices: one device spec
    a part (["cuda:0", "cuda:1"], ["cpu"] * 3), or N for cuda:0 .. cuda:N-1.
    kind: "fft", "ifft", "rfft" or "irfft", over every axis. norm: numpy's.
    decomposition: "auto" or one of DECOMPOSITIONS; grid: (P0, P1) for
    pencils (None: the most square). transport: "auto", "nccl" (an error
    unless every device is a distinct CUDA GPU with NCCL) or "mpi" (copies
    through host memory: no MPI is called). tier: which kernels
    (bfly.set_tier's names; None: bfly.set_tier's).

    ``plan(x)`` returns the whole result as a new NumPy array: x of shape
    ``plan.input_shape`` (irfft: the half spectrum), the result of shape
    ``plan.output_shape``, complex64 or complex128 (irfft: float32 or
    float64) as bfly.fft's rules give.
    """

    def __init__(self, shape, dtype, devices, kind="fft", norm=None, decomposition="auto", grid=None,
                 transport="auto", *, tier=None):
        if kind not in KINDS:
            raise ValueError(f"{WHO}: kind {kind!r} is not one of {', '.join(map(repr, KINDS))}")
        self._bkind, inverse = KINDS[kind]
        self._work_in, self._work_out, result = working_dtypes(dtype, self._bkind)
        if self._bkind == "c2r":  # numpy's irfftn over several axes: float16 comes back float32 (_transform.run)
            result = np.empty(0, np.result_type(result, np.complex64)).real.dtype
        self._result = result
        self.kind = kind
        self.shape = global_shape(shape, WHO)
        self.devices = _devices(devices)
        self.norm = norm_name(norm)
        self._core = _distributed.MultiDevicePlan(
            list(self.devices), list(self.shape), self._bkind, precision(self._work_in), inverse, self.norm,
            choose("decomposition", decomposition, DECOMPOSITIONS + ("auto",), WHO), _grid(grid, WHO),
            choose("transport", transport, TRANSPORTS, WHO), _core.tier() if tier is None else str(tier))
        half = self.shape[:-1] + (self.shape[-1] // 2 + 1,)
        self.input_shape = half if self._bkind == "c2r" else self.shape
        self.output_shape = half if self._bkind == "r2c" else self.shape
        self.decomposition = self._core.decomposition()  # "auto" resolved
        self.grid = tuple(self._core.grid())
        self.transport = self._core.transport()  # "nccl" or "mpi" (host copies)
        self.token = self._core.token()

    @property
    def input_boxes(self):
        """Each part's box of the input (a tuple of slices of the whole array), by part."""
        return [slices(b) for b in self._core.input_boxes()]

    @property
    def output_boxes(self):
        return [slices(b) for b in self._core.output_boxes()]

    @property
    def workspace_bytes(self):
        """Device memory the plan holds on each part's device, by part."""
        return self._core.workspace_bytes()

    def describe(self):
        """The plan in words: the problem, the transport, each part's device and local plans."""
        return self._core.describe()

    def __call__(self, x):
        x = _host_array(x)
        work_in, _, _ = working_dtypes(x.dtype, self._bkind)
        if work_in != self._work_in:
            raise ValueError(f"{WHO}: this plan takes {self._work_in} input ({self.kind}), not {x.dtype}")
        if x.shape != self.input_shape:
            half = f" (the half spectrum of the real shape {self.shape})" if self._bkind == "c2r" else ""
            raise ValueError(f"{WHO}: the input has shape {x.shape} where this plan takes {self.input_shape}{half}")
        x = np.ascontiguousarray(x, dtype=work_in)
        y = np.empty(self.output_shape, self._work_out)
        self._core.execute_host(x, y)
        return y if self._result == self._work_out else y.astype(self._result)

    execute = __call__

    def __repr__(self):
        if "_core" not in self.__dict__:  # (a traceback from a constructor that raised)
            return "bfly.multi_device.Plan(not made)"
        shapes = [box_shape(b) for b in self.input_boxes]
        return (f"bfly.multi_device.Plan({self.token!r}, {len(self.devices)} parts on {list(self.devices)}, "
                f"input parts {shapes}, transport {self.transport!r})")


# The plans fftn, ifftn, rfftn and irfftn keep, by transform and devices,
# least recently used out past _PLANS_KEPT: each holds device memory on
# every device (its boxes, and the whole array's parts after a call).
_PLANS_KEPT = 8
_plans = OrderedDict()
_plans_lock = threading.Lock()


def clear_plan_cache():
    """Drops the plans fftn, ifftn, rfftn and irfftn keep."""
    with _plans_lock:
        _plans.clear()


def _cached_call(kind, x, devices, shape, norm, decomposition, grid, transport):
    x = _host_array(x)
    work_in, _, _ = working_dtypes(x.dtype, KINDS[kind][0])
    shape = global_shape(x.shape if shape is None else shape, WHO)
    key = (kind, shape, work_in.name, _devices(devices), norm_name(norm),
           choose("decomposition", decomposition, DECOMPOSITIONS + ("auto",), WHO), tuple(_grid(grid, WHO)),
           choose("transport", transport, TRANSPORTS, WHO), _core.tier())
    with _plans_lock:
        plan = _plans.get(key)
        if plan is not None:
            _plans.move_to_end(key)
    if plan is None:  # planned outside the lock: threads asking for other transforms go on
        plan = Plan(shape, work_in, key[3], kind, norm, decomposition, grid, transport)
        with _plans_lock:
            _plans[key] = plan
            while len(_plans) > _PLANS_KEPT:
                _plans.popitem(last=False)
    return plan(x)


def fftn(x, devices, norm=None, *, decomposition="auto", grid=None, transport="auto"):
    """numpy.fft.fftn(x, norm=norm) over every axis of a 2D or 3D array, its
    parts on `devices` (Plan's arguments; the plan kept for the next call)."""
    return _cached_call("fft", x, devices, None, norm, decomposition, grid, transport)


def ifftn(x, devices, norm=None, *, decomposition="auto", grid=None, transport="auto"):
    """numpy.fft.ifftn(x, norm=norm) over every axis, on `devices` (as fftn)."""
    return _cached_call("ifft", x, devices, None, norm, decomposition, grid, transport)


def rfftn(x, devices, norm=None, *, decomposition="auto", grid=None, transport="auto"):
    """numpy.fft.rfftn(x, norm=norm) of a real array: the half spectrum,
    x.shape[-1] // 2 + 1 points along the last axis, on `devices`."""
    return _cached_call("rfft", x, devices, None, norm, decomposition, grid, transport)


def irfftn(x, devices, s=None, norm=None, *, decomposition="auto", grid=None, transport="auto"):
    """numpy.fft.irfftn(x, s, norm=norm) over every axis, on `devices`: the
    real array of shape `s` from its half spectrum x, whose shape must be
    s[:-1] + (s[-1] // 2 + 1,) (no cropping or padding). s=None: x.shape[:-1]
    + (2 * (x.shape[-1] - 1),), as numpy."""
    x = _host_array(x)
    if s is None and x.ndim > 0:
        s = x.shape[:-1] + (2 * (x.shape[-1] - 1),)
    return _cached_call("irfft", x, devices, s, norm, decomposition, grid, transport)


__all__ = ["Plan", "fftn", "ifftn", "rfftn", "irfftn", "clear_plan_cache", "DECOMPOSITIONS", "TRANSPORTS"]
