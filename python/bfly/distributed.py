"""bfly.distributed: 2D and 3D FFTs of one global array spread over the ranks
of an MPI communicator (mpi4py), on bfly::distributed (docs/DISTRIBUTED.md).

    from mpi4py import MPI
    import bfly.distributed as bd
    comm = MPI.COMM_WORLD
    plan = bd.Plan(comm, (64, 64, 64), np.complex64, kind="fft", decomposition="pencils")
    y = plan(plan.local_input(x))        # x: the whole array; y: this rank's part of fftn(x)
    bd.fftn(x_local, comm, (64, 64, 64)) # the same, the plan kept for the next call

Each rank passes its part of the global array: the elements of its input
box (Plan.input_box, a tuple of slices of the global array), row-major over
the box, and receives those of its output box. Every call is collective:
every rank makes the same calls in the same order. An error on any rank
(a bad argument, an array that does not fit its box) is raised on every
rank, the same, instead of leaving the others waiting.

The decompositions are the C++ layer's, by its names: "slabs" (input split
along axis 0, output along axis 1), "slabs-transposed-in" (the way back:
input along axis 1, output along axis 0), "pencils" (3D: input axis 0 over
P0 and axis 1 over P1 of a P0 x P1 grid, output axis 1 over P0 and axis 2
over P1), "pencils-transposed-in" (the way back). Forward transforms
default to "slabs", inverse ones to "slabs-transposed-in", so that
ifftn(fftn(x)) takes the forward's output boxes and returns the forward's
input boxes. Real transforms keep the real side's last axis whole: rfftn
takes "slabs" or "pencils" (3D also "slabs-transposed-in"), irfftn
"slabs-transposed-in" or "pencils-transposed-in" (3D also "slabs").

NumPy arrays run through host memory (copied to the plan's device and
back); CUDA arrays (CuPy, PyTorch, JAX, DLPack) on their device, without a
copy, ordered on the caller's stream as bfly.fft's calls are.
"""
import atexit
import importlib.util
from collections import OrderedDict
from contextlib import nullcontext
from functools import partial

import numpy as np

from . import _core, _layout
from ._arrays import c_strides, framework_of
from ._layout import KINDS as _KINDS
from ._layout import box_shape as _box_shape
from ._layout import precision as _precision
from ._layout import slices as _slices
from ._transform import _device_spec, _device_view, _is_device_array, _stream_handle, norm_name, working_dtypes

if importlib.util.find_spec(f"{__package__}._distributed") is None:
    raise ImportError("bfly.distributed: this bfly was built without MPI support (no bfly._distributed module): "
                      "install an MPI (Debian: apt-get install libopenmpi-dev openmpi-bin) and reinstall bfly")
try:
    from . import _distributed
except ImportError as e:
    raise ImportError(f"bfly.distributed: bfly._distributed, built with MPI, does not load: {e}") from None
try:
    from mpi4py import MPI
except ImportError:
    raise ImportError("bfly.distributed needs mpi4py, whose communicators it takes (pip install mpi4py)") from None


def _same_mpi():
    # The communicator crosses as a Fortran handle: it means the same
    # communicator only where mpi4py runs on the MPI library bfly linked.
    ours = _distributed.mpi_library_version().strip()
    theirs = MPI.Get_library_version().strip()
    if ours != theirs:
        raise ImportError(f"bfly.distributed: mpi4py runs on another MPI ({theirs.splitlines()[0]!r}) than the "
                          f"one bfly was built with ({ours.splitlines()[0]!r}); install mpi4py for bfly's MPI "
                          "(mpi4py's wheel picks the system's libmpi: check with "
                          "python -c 'from mpi4py import MPI; print(MPI.Get_library_version())')")


_same_mpi()

DECOMPOSITIONS = tuple(_distributed.decompositions())
TRANSPORTS = tuple(_distributed.transports())
EXCHANGES = ("alltoallv", "alltoall", "p2p", "auto")

_ERRORS = {e.__name__: e for e in (ValueError, TypeError, NotImplementedError, MemoryError, RuntimeError,
                                   IndexError, OverflowError)}


def _agree(comm, failure, value=None, extra=None):
    """Collective: where any rank failed (failure: its exception, None where
    it did not), raises on every rank the lowest failing rank's error, named
    "rank R: ..." unless every rank failed alike; else where the ranks'
    `value`s differ, a ValueError naming them. Returns every rank's `extra`
    (one allgather of them all: microseconds, where a transform's exchanges
    move the array)."""
    report = None if failure is None else (type(failure).__name__, str(failure))
    reports = comm.allgather((report, value, extra))
    failed = [(rank, r) for rank, (r, _, _) in enumerate(reports) if r is not None]
    if failed:
        rank, (name, text) = failed[0]
        error = _ERRORS.get(name, RuntimeError)
        if len(failed) == len(reports) and all(r == failed[0][1] for _, r in failed):
            raise error(text)
        raise error(f"rank {rank}: {text}")
    values = [v for _, v, _ in reports]
    differ = [rank for rank, v in enumerate(values) if v != values[0]]
    if differ:
        raise ValueError(f"bfly.distributed: the ranks disagree on the transform (global shape, kind, precision, "
                         f"norm, decomposition, grid, transport): rank{'s' if len(differ) > 1 else ''} "
                         f"{', '.join(map(str, differ[:8]))} differ{'' if len(differ) > 1 else 's'} from rank 0 "
                         f"(every rank must pass the same)")
    return [e for _, _, e in reports]


def _communicator(comm):
    """An mpi4py intracommunicator (None: MPI.COMM_WORLD). Checked on this
    rank alone: a bad one has no ranks to agree with."""
    if comm is None:
        comm = MPI.COMM_WORLD
    if not isinstance(comm, MPI.Intracomm):
        raise TypeError(f"bfly.distributed: comm must be an mpi4py intracommunicator (such as MPI.COMM_WORLD), "
                        f"not {type(comm).__name__}")
    if comm == MPI.COMM_NULL:
        raise ValueError("bfly.distributed: comm is MPI.COMM_NULL")
    if not _distributed.mpi_initialized():
        raise RuntimeError("bfly.distributed: MPI is not initialised (or already finalised)")
    return comm


_global_shape = partial(_layout.global_shape, who="bfly.distributed")
_choose = partial(_layout.choose, who="bfly.distributed")
_grid = partial(_layout.grid, who="bfly.distributed")


def _pipeline(pipeline):
    if isinstance(pipeline, bool) or not isinstance(pipeline, int) or not 0 <= pipeline <= 1024:
        raise ValueError(f"bfly.distributed: pipeline {pipeline!r} is not a chunk count from 0 (the default) to 1024")
    return pipeline


def _timeout(timeout):
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout >= 0:
        raise ValueError(f"bfly.distributed: timeout {timeout!r} is not a number of seconds >= 0 (0: wait forever)")
    return float(timeout)


class Plan:
    """One distributed transform, planned once (collectively) and run many times.

    Plan(comm, shape, dtype, kind="fft", *, decomposition=None, grid=None, norm=None, transport="auto",
         exchange="alltoallv", pipeline=0, timeout=600.0, device=None, tier=None,
         input_box=None, output_box=None)

    comm: an mpi4py intracommunicator (None: MPI.COMM_WORLD). shape: the
    global array's shape (2 or 3 axes; for "irfft" the real output's).
    dtype: the input's (its precision picks single or double, as bfly.fft
    does; "rfft" takes reals, the others complex). kind: "fft", "ifft",
    "rfft" or "irfft", over every axis. decomposition, grid: the layout
    (the module's doc; grid (P0, P1) for pencils, None: the most square).
    norm: numpy's, over the whole global array. transport: "auto", "mpi" or
    "nccl". exchange: how MPI moves the blocks ("alltoallv", "alltoall"
    padded, "p2p", or "auto": the three timed when the plan is made, the
    fastest kept). pipeline: with NCCL, the first stage in this many
    chunks overlapping the exchange (0: the default, 4; 1: none). timeout:
    seconds a rank waits for the others at each agreement before it raises
    (0: forever).
    device: the device this rank runs on (None: $BFLY_DEVICE, else auto,
    one GPU a rank on hosts of several); CUDA arrays must be on it.
    tier: which kernels (bfly.set_tier's names; None: bfly.set_tier's).
    input_box, output_box: this rank's own boxes, both or neither, as tuples
    of slices of the global arrays (as plan.input_box gives them) or
    ((lower, ...), (upper, ...)): any tiling of each side over the ranks
    (heFFTe's bricks); the plan reshapes them to and from the
    decomposition's (docs/DISTRIBUTED.md, "Any boxes").

    ``plan(x_local, out=None, stream=None)`` transforms this rank's part:
    x_local of shape ``plan.input_shape`` (the input box's), the result of
    shape ``plan.output_shape``. The boxes are ``plan.input_box`` and
    ``plan.output_box`` (tuples of slices of the global arrays; every
    rank's in ``input_boxes`` and ``output_boxes``);
    ``plan.local_input(x)`` cuts this rank's part out of a whole array.
    """

    def __init__(self, comm, shape, dtype, kind="fft", *, decomposition=None, grid=None, norm=None,
                 transport="auto", exchange="alltoallv", pipeline=0, timeout=600.0, device=None, tier=None,
                 input_box=None, output_box=None):
        comm = _communicator(comm)

        def checked():
            if kind not in _KINDS:
                raise ValueError(f"bfly.distributed: kind {kind!r} is not one of {', '.join(map(repr, _KINDS))}")
            bkind, inverse = _KINDS[kind]
            work_in, work_out, result = working_dtypes(dtype, bkind)
            default = "slabs-transposed-in" if inverse else "slabs"
            return (_global_shape(shape), bkind, inverse, work_in, work_out, result,
                    _choose("decomposition", default if decomposition is None else decomposition,
                            DECOMPOSITIONS + ("auto",)),
                    _grid(grid), norm_name(norm), _choose("transport", transport, TRANSPORTS),
                    _choose("exchange", exchange, EXCHANGES), _pipeline(pipeline), _timeout(timeout),
                    _device_spec(device) or "", _core.tier() if tier is None else str(tier),
                    _boxes(input_box, output_box, len(_global_shape(shape))))

        try:
            args, failure = checked(), None
        except Exception as e:
            args, failure = None, e
        _agree(comm, failure)
        (self.shape, self._bkind, inverse, self._work_in, self._work_out, self._result, self.decomposition,
         grid, self.norm, transport, exchange, pipeline, timeout, spec, tier, boxes) = args
        self.comm = comm
        self.kind = kind
        self._core = _distributed.DistributedPlan(comm.py2f(), spec, list(self.shape), self._bkind,
                                                  _precision(self._work_in), inverse, self.norm, self.decomposition,
                                                  grid, transport, exchange, pipeline, timeout, tier, *boxes)
        self.decomposition = self._core.decomposition  # "auto" resolved
        self.input_box = _slices(self._core.input_box)
        self.output_box = _slices(self._core.output_box)
        self.input_shape = _box_shape(self.input_box)
        self.output_shape = _box_shape(self.output_box)
        self.device = self._core.device_spec
        self._cuda_id = int(self.device.split(":")[1]) if self._core.device_backend == "cuda" else None

    # What the plan is: fixed once made, the same on every rank but the boxes.
    @property
    def input_boxes(self):
        """Every rank's input box (tuples of slices), indexed by rank."""
        return [_slices(b) for b in self._core.input_boxes]

    @property
    def output_boxes(self):
        return [_slices(b) for b in self._core.output_boxes]

    @property
    def global_input_shape(self):
        """The whole input's shape (irfft: the half spectrum's, n/2 + 1 along the last axis)."""
        return self._half_shape() if self._bkind == "c2r" else self.shape

    @property
    def global_output_shape(self):
        return self._half_shape() if self._bkind == "r2c" else self.shape

    def _half_shape(self):
        return self.shape[:-1] + (self.shape[-1] // 2 + 1,)

    @property
    def grid(self):
        """The process grid (P0, P1) in use; (ranks, 1) for slabs."""
        return tuple(self._core.grid)

    @property
    def transport(self):
        """"mpi" or "nccl" (auto resolved)."""
        return self._core.transport

    @property
    def token(self):
        return self._core.token

    @property
    def workspace_bytes(self):
        """Device memory the plan holds on this rank."""
        return self._core.workspace_bytes

    def describe(self):
        """The plan in words: the problem, this rank's boxes, exchanges and local plans."""
        return self._core.describe()

    def local_input(self, x):
        """This rank's part of a whole input array `x` (the global input
        shape): ``x[plan.input_box]``, contiguous, what ``plan()`` takes."""
        return self._part(x, self.input_box, self.global_input_shape, "input")

    def local_output(self, y):
        """This rank's part of a whole output array (to compare with what ``plan()`` gave)."""
        return self._part(y, self.output_box, self.global_output_shape, "output")

    @staticmethod
    def _part(x, box, shape, side):
        if tuple(x.shape) != tuple(shape):
            raise ValueError(f"bfly.distributed: the whole {side} has shape {tuple(shape)}, not {tuple(x.shape)}")
        fw, part = framework_of(x[box])
        return fw.contiguous(part) if fw.on_device else np.ascontiguousarray(part)

    def __call__(self, x, out=None, stream=None):
        """This rank's output box of the transform (collective: every rank calls it)."""
        try:
            launch, failure = self._prepare(x, out, stream), None
        except Exception as e:
            launch, failure = None, e
        _agree(self.comm, failure)
        return launch()

    execute = __call__

    def _prepare(self, x, out, stream):
        """Checks this rank's arrays and returns the launch (run after the ranks agreed)."""
        fw, x = framework_of(x)
        dtype = fw.dtype(x)
        work_in, _, _ = working_dtypes(dtype, self._bkind)
        if work_in != self._work_in:
            raise ValueError(f"bfly.distributed: this plan takes {self._work_in} input ({self.kind}), not {dtype}")
        if tuple(x.shape) != self.input_shape:
            raise ValueError(f"bfly.distributed: the input has shape {tuple(x.shape)} where this rank's input box "
                             f"{_box_text(self.input_box)} has {self.input_shape}")
        if dtype != work_in:
            x = fw.astype(x, work_in)
        if not fw.on_device:
            return self._host_launch(fw, np.ascontiguousarray(x), out)
        return self._device_launch(fw, x, out, stream)

    def _host_launch(self, fw, x, out):
        y = out
        if y is None:
            y = np.empty(self.output_shape, self._work_out)
        elif not (isinstance(y, np.ndarray) and y.shape == self.output_shape and y.dtype == self._work_out
                  and y.flags.c_contiguous and y.flags.writeable):
            raise ValueError(f"bfly.distributed: out must be a writeable C-contiguous NumPy array of shape "
                             f"{self.output_shape} and dtype {self._work_out}")

        def launch():
            self._core.execute_host(x.ctypes.data, y.ctypes.data)
            if out is None and self._result != self._work_out:
                return fw.wrap_result(y.astype(self._result), x)
            return y if out is not None else fw.wrap_result(y, x)
        return launch

    def _device_launch(self, fw, x, out, stream):
        if out is not None:
            raise ValueError("bfly.distributed: out= takes NumPy arrays only")
        view = fw.view(x)
        if self._cuda_id is None or (view.device_id is not None and view.device_id != self._cuda_id):
            raise ValueError(f"bfly.distributed: the array is on cuda:{view.device_id}, the plan on {self.device}: "
                             f"make the plan with device='cuda:{view.device_id}'")
        stream = _stream_handle(stream)
        blocking = getattr(fw, "blocking", False) or fw.name == "foreign"
        # New arrays on the stream named, as bfly.fft makes them (_transform.run).
        context = fw.stream_context(stream) if stream is not None and hasattr(fw, "stream_context") else nullcontext()
        with context:
            if tuple(view.strides) != c_strides(view.shape, view.dtype.itemsize):
                x = fw.contiguous(x)
                view = fw.view(x)
            y = fw.empty(x, self.output_shape, self._work_out)
        out_view = _device_view(y) if _is_device_array(y) else fw.view(y)
        if stream is None:
            stream = 0 if blocking else fw.stream(view)

        def launch():
            self._core.execute_device(view.pointer, out_view.pointer, stream)
            if blocking:  # (JAX shares no stream; a DeviceArray is handed out complete)
                self._core.synchronize(stream)
            return fw.wrap_result(y, x)
        return launch

    def __repr__(self):
        return (f"bfly.distributed.Plan({self.token!r}, rank {self.comm.Get_rank()} of {self.comm.Get_size()}, "
                f"input box {_box_text(self.input_box)}, output box {_box_text(self.output_box)}, "
                f"device={self.device!r})")


def _box_flat(box, ndim, name):
    """A box given as slices or as (lower, upper): lower then upper, flat."""
    try:
        if all(isinstance(b, slice) for b in box):
            lower = [0 if b.start is None else int(b.start) for b in box]
            upper = [int(b.stop) for b in box]
        else:
            lower, upper = ([int(v) for v in side] for side in box)
    except (TypeError, ValueError):
        raise ValueError(f"bfly.distributed: {name}={box!r} is not a box (slices, or (lower, upper))") from None
    if len(lower) != ndim or len(upper) != ndim:
        raise ValueError(f"bfly.distributed: {name}={box!r} has not the array's {ndim} axes")
    return lower + upper


def _boxes(input_box, output_box, ndim):
    """The caller's boxes for the binding: both or neither."""
    if (input_box is None) != (output_box is None):
        raise ValueError("bfly.distributed: give input_box and output_box together, or neither")
    if input_box is None:
        return [], []
    return _box_flat(input_box, ndim, "input_box"), _box_flat(output_box, ndim, "output_box")


def _box_text(box):
    return " x ".join(f"[{s.start}, {s.stop})" for s in box)


# The plans fftn, ifftn, rfftn and irfftn keep: by communicator (the entry
# holds it, so its id stays its own) and transform, least recently used out
# past _PLANS_KEPT. The ranks agree on each call's transform first, and on
# whether every rank found its plan, so they make new plans together.
_PLANS_KEPT = 8
_plans = OrderedDict()


def clear_plan_cache():
    """Drops the plans fftn, ifftn, rfftn and irfftn keep (collective where
    the communicators are shared: call it on every rank)."""
    _plans.clear()


atexit.register(clear_plan_cache)  # before mpi4py's MPI_Finalize: a plan frees its communicators


def _cached_call(kind, x, comm, shape, decomposition, grid, norm, transport, device, stream):
    comm = _communicator(comm)

    def transform():
        fw, xa = framework_of(x)
        work_in, _, _ = working_dtypes(fw.dtype(xa), _KINDS[kind][0])
        spec = _device_spec(device)
        if fw.on_device:
            view = fw.view(xa)
            if view.device_id is not None:
                own = f"cuda:{view.device_id}"
                if spec is not None and spec != own:
                    raise ValueError(f"bfly.distributed: the array is on {own}, not on the device {spec} asked for")
                spec = own
        return (kind, _global_shape(shape), work_in.name, decomposition, None if grid is None else tuple(grid),
                norm_name(norm), transport), work_in, spec
    try:
        (agreed, work_in, spec), failure = transform(), None
    except Exception as e:
        agreed, work_in, spec, failure = None, None, None, e
    key = (id(comm), agreed, spec, _core.tier())  # (the device may differ between ranks: one GPU each)
    plan = _plans.get(key)
    found = _agree(comm, failure, agreed, plan is not None)
    if not all(found):  # made again where any rank has none, so that every rank plans
        plan = Plan(comm, shape, work_in, kind, decomposition=decomposition, grid=grid, norm=norm,
                    transport=transport, device=spec)
        _plans[key] = plan
        while len(_plans) > _PLANS_KEPT:
            _plans.popitem(last=False)
    _plans.move_to_end(key)
    return plan(x, stream=stream)


def _signature(kind, what):
    def transform(x_local, comm, shape, *, decomposition=None, grid=None, norm=None, transport="auto", device=None,
                  stream=None):
        return _cached_call(kind, x_local, comm, shape, decomposition, grid, norm, transport, device, stream)
    transform.__name__ = transform.__qualname__ = {"fft": "fftn", "ifft": "ifftn", "rfft": "rfftn",
                                                   "irfft": "irfftn"}[kind]
    transform.__doc__ = what
    return transform


fftn = _signature("fft", """The n-dimensional FFT of a global array spread over the ranks of `comm`.

    fftn(x_local, comm, shape, *, decomposition=None, grid=None, norm=None, transport="auto", device=None,
         stream=None)

    x_local: this rank's input box of the global array of `shape` (Plan's
    arguments; decomposition default "slabs"). Returns this rank's output
    box of numpy.fft.fftn(x) (complex; the plan is kept for the next call).""")

ifftn = _signature("ifft", """The inverse of fftn, as numpy.fft.ifftn (decomposition default
    "slabs-transposed-in": the output boxes of fftn's "slabs" in, its input boxes out).

    ifftn(x_local, comm, shape, *, decomposition=None, grid=None, norm=None, transport="auto", device=None,
          stream=None)""")

rfftn = _signature("rfft", """The n-dimensional FFT of a real global array, as numpy.fft.rfftn: the half
    spectrum, shape[-1] // 2 + 1 points along the last axis.

    rfftn(x_local, comm, shape, *, decomposition=None, grid=None, norm=None, transport="auto", device=None,
          stream=None)

    shape: the real array's. decomposition: "slabs" (default) or "pencils"
    (3D also "slabs-transposed-in"): the last axis stays whole on input.""")

irfftn = _signature("irfft", """The inverse of rfftn, as numpy.fft.irfftn with s=shape: a real global
    array of `shape` from its half spectrum.

    irfftn(x_local, comm, shape, *, decomposition=None, grid=None, norm=None, transport="auto", device=None,
           stream=None)

    x_local: this rank's box of the half spectrum (shape[:-1] + (shape[-1]
    // 2 + 1,)). decomposition: "slabs-transposed-in" (default) or
    "pencils-transposed-in" (3D also "slabs"), which take rfftn's "slabs"
    and "pencils" outputs.""")

__all__ = ["Plan", "fftn", "ifftn", "rfftn", "irfftn", "clear_plan_cache", "DECOMPOSITIONS", "TRANSPORTS"]
