"""bfly.distributed's cases, run by every rank under mpirun (test_distributed.py
launches ``mpirun -np N python -m pytest`` on this file for N = 1..4).

Every rank runs every test in the same order, and every check compares
values reduced over the ranks (or an error every rank raised), so the ranks
pass or fail each test together. The global arrays come from one seed on
every rank; each rank transforms its box and the errors against
numpy.fft over the whole array are summed over the ranks.
"""
import os

import numpy as np
import pytest
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()

# Each rank's own PoCL kernel cache, set before any device opens (Debian's
# PoCL 3.1 fails builds when processes compile into one cache at once:
# docs/DISTRIBUTED.md, tests/distributed/mpi_main.cpp).
if os.environ.get("BFLY_TEST_POCL_CACHE"):
    os.environ["POCL_CACHE_DIR"] = os.path.join(os.environ["BFLY_TEST_POCL_CACHE"], f"np{size}-rank{rank}")

import bfly  # noqa: E402
import bfly.distributed as bd  # noqa: E402

# Kernels that take the length as an argument: a rank compiles a few once
# rather than the specialised ones of every box of every case (the C++
# tests' choice, docs/DISTRIBUTED.md). The distribution is the subject here.
bfly.set_tier("generic")

TOLERANCE = {np.dtype(np.complex64): 5e-6, np.dtype(np.float32): 5e-6,
             np.dtype(np.complex128): 1e-13, np.dtype(np.float64): 1e-13}


def random_global(shape, dtype, seed):
    rng = np.random.default_rng(seed)  # the same on every rank
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def relative_error(got, want):
    """||got - want|| / ||want|| over every rank's part (the same on every rank)."""
    got = np.asarray(got)
    assert got.shape == want.shape, f"rank {rank}: shape {got.shape} != {want.shape}"
    finite = bool(np.all(np.isfinite(got)))
    local = np.array([np.sum(np.abs(got.astype(np.complex128) - want) ** 2), np.sum(np.abs(want) ** 2),
                      0.0 if finite else 1.0])
    total = np.zeros(3)
    comm.Allreduce(local, total)
    assert total[2] == 0, "non-finite values in the result"
    return float(np.sqrt(total[0] / max(total[1], 1e-300)))


def raised_everywhere(error, call):
    """Runs `call` on every rank, expecting `error`; returns the message,
    checked to be the same on every rank."""
    with pytest.raises(error) as info:
        call()
    messages = comm.allgather(str(info.value))
    assert all(m == messages[0] for m in messages), messages
    return messages[0]


# (shape, dtype): uneven splits at np 3 (8, 10), empty boxes at np 4 (3),
# an odd real length (9).
C2C_SLABS = [((8, 10), np.complex128), ((3, 5, 4), np.complex64), ((10, 3, 6), np.complex128)]


@pytest.mark.parametrize("shape,dtype", C2C_SLABS, ids=lambda v: str(v) if isinstance(v, tuple) else None)
def test_fftn_slabs_round_trip(shape, dtype):
    x = random_global(shape, dtype, 1)
    plan = bd.Plan(comm, shape, dtype, "fft")
    y = bd.fftn(plan.local_input(x), comm, shape)
    assert y.dtype == dtype and y.shape == plan.output_shape
    assert relative_error(y, plan.local_output(np.fft.fftn(x.astype(np.complex128)))) < TOLERANCE[np.dtype(dtype)]
    # The way back: "slabs-transposed-in" by default takes fftn's output boxes.
    z = bd.ifftn(y, comm, shape)
    assert relative_error(z, plan.local_input(x)) < 10 * TOLERANCE[np.dtype(dtype)]


@pytest.mark.parametrize("norm", ["ortho", "forward"])
def test_norms(norm):
    shape = (6, 10)
    x = random_global(shape, np.complex128, 2)
    plan = bd.Plan(comm, shape, np.complex128, "ifft", norm=norm, decomposition="slabs")
    y = plan(plan.local_input(x))
    assert relative_error(y, plan.local_output(np.fft.ifftn(x, norm=norm))) < 1e-13


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(8, 9), (5, 4, 6)])
def test_rfftn_irfftn_slabs(shape, dtype):
    x = random_global(shape, dtype, 3)
    forward = bd.Plan(comm, shape, dtype, "rfft")
    complex_dtype = np.result_type(dtype, np.complex64)
    y = bd.rfftn(forward.local_input(x), comm, shape)
    assert y.dtype == complex_dtype and y.shape == forward.output_shape
    want = np.fft.rfftn(x.astype(np.float64))
    assert forward.global_output_shape == want.shape
    assert relative_error(y, forward.local_output(want)) < TOLERANCE[np.dtype(dtype)]
    back = bd.irfftn(y, comm, shape)
    assert back.dtype == dtype and back.shape == forward.input_shape
    assert relative_error(back, forward.local_input(x)) < 10 * TOLERANCE[np.dtype(dtype)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fftn_pencils(dtype):
    shape = (6, 5, 7)  # uneven on every grid of 2..4 ranks
    x = random_global(shape, dtype, 4)
    plan = bd.Plan(comm, shape, dtype, decomposition="pencils")
    assert plan.grid == {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2)}[size]
    y = plan(plan.local_input(x))
    assert relative_error(y, plan.local_output(np.fft.fftn(x.astype(np.complex128)))) < TOLERANCE[np.dtype(dtype)]
    back = bd.ifftn(y, comm, shape, decomposition="pencils-transposed-in")
    assert relative_error(back, plan.local_input(x)) < 10 * TOLERANCE[np.dtype(dtype)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfftn_pencils(dtype):
    shape = (6, 5, 7)
    x = random_global(shape, dtype, 5)
    y = bd.rfftn(x[bd.Plan(comm, shape, dtype, "rfft", decomposition="pencils").input_box], comm, shape,
                 decomposition="pencils")
    plan = bd.Plan(comm, shape, dtype, "rfft", decomposition="pencils")
    assert relative_error(y, plan.local_output(np.fft.rfftn(x.astype(np.float64)))) < TOLERANCE[np.dtype(dtype)]
    back = bd.irfftn(y, comm, shape, decomposition="pencils-transposed-in")
    assert relative_error(back, plan.local_input(x)) < 10 * TOLERANCE[np.dtype(dtype)]


def test_pencils_explicit_grid_empty_boxes():
    # 1 x np over an axis 1 of 3: ranks past it hold nothing.
    shape = (3, 3, 2)
    x = random_global(shape, np.complex128, 6)
    plan = bd.Plan(comm, shape, np.complex128, decomposition="pencils", grid=(1, size))
    assert plan.grid == (1, size)
    y = plan(plan.local_input(x))
    assert relative_error(y, plan.local_output(np.fft.fftn(x))) < 1e-13


def test_boxes_tile_the_array():
    shape = (7, 4, 5)
    for decomposition in bd.DECOMPOSITIONS:
        plan = bd.Plan(comm, shape, np.complex64, decomposition=decomposition)
        assert plan.input_box == plan.input_boxes[rank] and plan.output_box == plan.output_boxes[rank]
        for boxes in (plan.input_boxes, plan.output_boxes):
            cover = np.zeros(shape, int)
            for box in boxes:
                assert all(isinstance(s, slice) for s in box)
                cover[box] += 1
            assert np.all(cover == 1), decomposition
        assert plan.token in plan.describe() and f"rank {rank} of {size}" in plan.describe()
        # NCCL where every rank has a CUDA device of its own, else host-staged MPI.
        assert plan.transport in ("mpi", "nccl") and plan.decomposition == decomposition
        assert plan.transport == "mpi" or plan.device.startswith("cuda:")


def test_exchange_methods_and_chunks():
    # Every MPI exchange method (and chunks, which only NCCL uses) gives numpy's numbers.
    shape = (6, 5, 4)
    x = random_global(shape, np.complex128, 11)
    want = np.fft.fftn(x)
    for exchange, pipeline in (("alltoall", 0), ("p2p", 3), ("alltoallv", 1), ("auto", 0)):
        plan = bd.Plan(comm, shape, np.complex128, decomposition="pencils", transport="mpi", exchange=exchange,
                       pipeline=pipeline)
        assert relative_error(plan(plan.local_input(x)), plan.local_output(want)) < 1e-13, exchange
    with pytest.raises(ValueError, match="pipeline -2 is not a chunk count"):
        bd.Plan(comm, shape, np.complex128, pipeline=-2)
    with pytest.raises(ValueError, match="exchange"):
        bd.Plan(comm, shape, np.complex128, exchange="alltoallw")
    with pytest.raises(ValueError, match="timeout -1 is not a number of seconds"):
        bd.Plan(comm, shape, np.complex128, timeout=-1)


def slab_of(shape, axis):
    """This rank's part of `shape` split along `axis` (the C++ layer's rule), as slices."""
    n = shape[axis]
    q, m = divmod(n, size)
    first = rank * q + min(rank, m)
    cut = slice(first, first + q + (1 if rank < m else 0))
    return tuple(cut if k == axis else slice(0, shape[k]) for k in range(len(shape)))


def test_given_boxes_any_tiling():
    # The caller's own boxes (any tiling of each side), reshaped to and from the decomposition's.
    shape = (6, 8, 10)
    x = random_global(shape, np.complex128, 21)
    plan = bd.Plan(comm, shape, np.complex128, input_box=slab_of(shape, 2), output_box=slab_of(shape, 1))
    assert plan.input_box == slab_of(shape, 2) and plan.output_box == slab_of(shape, 1)
    assert relative_error(plan(plan.local_input(x)), plan.local_output(np.fft.fftn(x))) < 1e-13
    real = random_global(shape, np.float32, 22)
    half = (6, 8, 6)
    plan = bd.Plan(comm, shape, np.float32, "rfft", input_box=slab_of(shape, 2), output_box=slab_of(half, 2))
    assert relative_error(plan(plan.local_input(real)), plan.local_output(np.fft.rfftn(real))) < 5e-6
    with pytest.raises(ValueError, match="give input_box and output_box together"):
        bd.Plan(comm, shape, np.complex128, input_box=slab_of(shape, 2))
    everything = tuple(slice(0, n) for n in shape)
    if size > 1:
        message = raised_everywhere(ValueError, lambda: bd.Plan(comm, shape, np.complex128, input_box=everything,
                                                                 output_box=slab_of(shape, 1)))
        assert "input boxes of ranks 0 and 1 overlap" in message


def test_auto_decomposition_round_trips():
    # slabs where every rank holds planes, else pencils; the inverse takes the way back on the same boxes.
    for shape in ((6, 5, 4), (2, 6, 4), (6, 4)):
        there = bd.Plan(comm, shape, np.complex128, decomposition="auto")
        back = bd.Plan(comm, shape, np.complex128, kind="ifft", decomposition="auto")
        slabs = len(shape) == 2 or size <= min(shape[:2])
        assert there.decomposition == ("slabs" if slabs else "pencils"), (shape, there.decomposition)
        assert back.decomposition == there.decomposition + "-transposed-in"
        x = random_global(shape, np.complex128, 5)
        assert relative_error(back(there(there.local_input(x))), back.local_output(x)) < 1e-13


def test_plan_executes_many_and_out():
    shape = (4, 6)
    plan = bd.Plan(comm, shape, np.complex64)
    out = np.empty(plan.output_shape, np.complex64)
    for seed in (7, 8):
        x = random_global(shape, np.complex64, seed)
        got = plan(plan.local_input(x), out=out)
        assert got is out
        assert relative_error(out, plan.local_output(np.fft.fftn(x.astype(np.complex128)))) < 5e-6


def test_input_cast_to_the_plan_precision():
    # Reals to a complex plan and integers to a double one, as numpy.fft.fftn does.
    shape = (5, 4)
    x = np.arange(20.0).reshape(shape)
    y = bd.fftn(x.astype(np.int64)[bd.Plan(comm, shape, np.complex128).input_box], comm, shape)
    assert y.dtype == np.complex128
    plan = bd.Plan(comm, shape, np.complex128)
    assert relative_error(y, plan.local_output(np.fft.fftn(x))) < 1e-13


def test_bad_arguments_raise_the_same_everywhere():
    shape = (4, 6)
    message = raised_everywhere(ValueError, lambda: bd.Plan(comm, shape, np.complex64, decomposition="slab"))
    assert "'slab'" in message and "slabs-transposed-in" in message
    message = raised_everywhere(ValueError, lambda: bd.Plan(comm, shape, np.complex64, kind="dct"))
    assert "'dct'" in message
    message = raised_everywhere(ValueError, lambda: bd.Plan(comm, (4,), np.complex64))
    assert "(4,)" in message
    message = raised_everywhere(ValueError, lambda: bd.Plan(comm, shape, np.complex64, norm="half"))
    assert "'half'" in message
    message = raised_everywhere(TypeError, lambda: bd.rfftn(np.zeros((1, 1), np.complex64), comm, shape))
    assert "complex64" in message
    # The C++ layer's refusals, agreed there: c2r cannot split its real axis.
    message = raised_everywhere(NotImplementedError,
                                lambda: bd.Plan(comm, (4, 6, 8), np.complex64, "irfft", decomposition="pencils"))
    assert "c2r" in message
    message = raised_everywhere(ValueError, lambda: bd.Plan(comm, (4, 6, 8), np.complex64, decomposition="pencils",
                                                            grid=(size + 1, 1)))
    assert "grid" in message


def test_one_rank_wrong_raises_everywhere():
    shape = (4, 6)
    plan = bd.Plan(comm, shape, np.complex64)
    x = np.zeros(plan.input_shape, np.complex64)
    last = size - 1
    if rank == last:
        x = np.zeros((plan.input_shape[0] + 1,) + plan.input_shape[1:], np.complex64)
    message = raised_everywhere(ValueError, lambda: plan(x))
    if size > 1:
        assert message.startswith(f"rank {last}: ") and "input box" in message
    # Ranks that disagree on the transform (one passes another global shape).
    wrong = (4, 7) if rank == last and size > 1 else shape
    if size > 1:
        message = raised_everywhere(ValueError, lambda: bd.fftn(np.zeros((1, 1), np.complex64), comm, wrong))
        assert "disagree" in message
    # The plan still works after all that.
    y = plan(np.ones(plan.input_shape, np.complex64))
    assert relative_error(y, plan.local_output(np.fft.fftn(np.ones(shape)))) < 5e-6


def test_mpi4py_fft_runs_on_bfly_fft():
    # bfly's serial transforms as mpi4py-fft's (its `transforms`: numpy's
    # signature), on mpi4py-fft's own distribution and exchanges.
    mpi4py_fft = pytest.importorskip("mpi4py_fft")
    shape = (6, 5, 7)
    transforms = {(2,): (bfly.fft.rfftn, bfly.fft.irfftn), (1,): (bfly.fft.fftn, bfly.fft.ifftn),
                  (0,): (bfly.fft.fftn, bfly.fft.ifftn)}
    fft = mpi4py_fft.PFFT(comm, shape, dtype=np.float64, backend="numpy", transforms=transforms)
    x = random_global(shape, np.float64, 9)
    u = mpi4py_fft.newDistArray(fft, False)
    u[:] = x[fft.local_slice(False)]
    u_hat = fft.forward(u, normalize=False)
    assert relative_error(u_hat, np.fft.rfftn(x)[fft.local_slice(True)]) < 1e-13
    back = fft.backward(u_hat, normalize=True)
    assert relative_error(back, x[fft.local_slice(False)]) < 1e-13


def test_pencils_are_mpi4py_fft_pencils():
    # bfly.distributed's pencils are mpi4py-fft's default distribution of a
    # 3D real transform (z-pencils in, x-pencils of the half spectrum out,
    # the grid MPI_Dims_create's): the same boxes, the same numbers.
    mpi4py_fft = pytest.importorskip("mpi4py_fft")
    shape = (6, 5, 7)
    fft = mpi4py_fft.PFFT(comm, shape, dtype=np.float64, backend="numpy")
    plan = bd.Plan(comm, shape, np.float64, "rfft", decomposition="pencils")
    assert plan.input_box == fft.local_slice(False) and plan.output_box == fft.local_slice(True)
    u = mpi4py_fft.newDistArray(fft, False)
    u[:] = random_global(shape, np.float64, 10)[fft.local_slice(False)]
    u_hat = plan(np.asarray(u))
    assert relative_error(u_hat, fft.forward(u, normalize=False)) < 1e-13
    back = bd.irfftn(u_hat, comm, shape, decomposition="pencils-transposed-in")
    assert relative_error(back, np.asarray(u)) < 1e-13


def _cuda_frameworks():
    """(name, to_framework(array, device index), to_numpy) for each framework seeing a GPU."""
    found = []
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            def to_cupy(a, index):
                with cupy.cuda.Device(index):
                    return cupy.asarray(a)
            found.append(("cupy", to_cupy, cupy.asnumpy))
    except Exception:
        pass
    try:
        import torch
        if torch.cuda.is_available():
            found.append(("torch", lambda a, index: torch.from_numpy(np.ascontiguousarray(a)).to(f"cuda:{index}"),
                          lambda a: a.cpu().numpy()))
    except Exception:
        pass
    try:
        import jax
        gpus = [d for d in jax.devices() if d.platform == "gpu"]
        if gpus:
            jax.config.update("jax_enable_x64", True)
            found.append(("jax", lambda a, index: jax.device_put(a, gpus[index]), np.asarray))
    except Exception:
        pass
    return found


CUDA_FRAMEWORKS = _cuda_frameworks()


@pytest.mark.skipif(not CUDA_FRAMEWORKS, reason="no CuPy, PyTorch or JAX seeing a GPU")
@pytest.mark.parametrize("framework", CUDA_FRAMEWORKS, ids=[f[0] for f in CUDA_FRAMEWORKS])
@pytest.mark.parametrize("decomposition,shape", [("slabs", (3, 6, 5)), ("pencils", (6, 5, 7))])
def test_device_arrays(framework, decomposition, shape):
    # CUDA arrays run on their device through the device-buffer execute, and
    # come back in their framework; (3, 6, 5) leaves rank 3 of 4 empty.
    name, to_framework, to_numpy = framework
    for dtype, kind in ((np.complex64, "fft"), (np.float64, "rfft")):
        x = random_global(shape, dtype, 11)
        plan = bd.Plan(comm, shape, dtype, kind, decomposition=decomposition)
        assert plan.device.startswith("cuda:"), plan.device
        index = int(plan.device.split(":")[1])
        y = plan(to_framework(plan.local_input(x), index))
        assert type(y).__module__.split(".")[0] in (name, "jaxlib", "bfly"), type(y)
        want = np.fft.fftn(x) if kind == "fft" else np.fft.rfftn(x)
        assert relative_error(to_numpy(y), plan.local_output(want)) < TOLERANCE[np.dtype(dtype)]
        # The way back through the functions (a plan made on the array's device).
        inverse = {"fft": bd.ifftn, "rfft": bd.irfftn}[kind]
        back = inverse(y, comm, shape, decomposition=decomposition.replace("slabs", "slabs-transposed-in")
                       .replace("pencils", "pencils-transposed-in"))
        assert relative_error(to_numpy(back), plan.local_input(x)) < 10 * TOLERANCE[np.dtype(dtype)]


@pytest.mark.skipif(not any(f[0] == "torch" for f in CUDA_FRAMEWORKS), reason="no PyTorch seeing a GPU")
def test_device_arrays_on_the_callers_stream():
    import torch
    shape = (8, 6, 4)
    x = random_global(shape, np.complex128, 12)
    plan = bd.Plan(comm, shape, np.complex128)
    device = torch.device(plan.device)
    stream = torch.cuda.Stream(device)
    with torch.cuda.stream(stream):
        x_local = torch.from_numpy(plan.local_input(x)).to(device)
        y = plan(x_local)  # on torch's current stream: `stream`
    again = plan(x_local, stream=stream)  # or named
    stream.synchronize()
    want = plan.local_output(np.fft.fftn(x))
    assert relative_error(y.cpu().numpy(), want) < 1e-13
    assert relative_error(again.cpu().numpy(), want) < 1e-13
