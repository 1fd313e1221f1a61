"""CuPy, PyTorch and JAX arrays on the GPU: transformed where they lie, on
the caller's stream, with no host round trip, returned in the caller's
framework. (The numpy.fft comparisons of test_numpy_api.py also run on
each of these frameworks through the `framework` fixture.) Skipped where
there is no CUDA device."""
import tracemalloc

import bfly
import numpy as np
import pytest
from conftest import DEVICE_FRAMEWORKS, assert_close, random_array

pytestmark = pytest.mark.skipif(not DEVICE_FRAMEWORKS, reason="no CUDA framework (CuPy, PyTorch, JAX) with a GPU")
FRAMEWORK_NAMES = [f[0] for f in DEVICE_FRAMEWORKS]


def cupy_or_skip():
    return pytest.importorskip("cupy") if "cupy" in FRAMEWORK_NAMES else pytest.skip("no CuPy")


def torch_or_skip():
    return pytest.importorskip("torch") if "torch" in FRAMEWORK_NAMES else pytest.skip("no PyTorch")


@pytest.mark.parametrize("fw", DEVICE_FRAMEWORKS, ids=FRAMEWORK_NAMES)
def test_result_type_and_no_host_copy(rng, fw):
    name, to_fw, to_np = fw
    x = random_array(rng, (16, 1 << 16), np.complex64)  # 8 MB
    dx, dr = to_fw(x), to_fw(x.real.copy())
    bfly.fft.fft(dx), bfly.fft.rfftn(dr, axes=(0, 1))  # plans outside the measurement
    tracemalloc.start()
    y = bfly.fft.fft(dx)
    fftn = bfly.fft.rfftn(dr, axes=(0, 1))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1 << 20, f"{peak} bytes allocated on the host for a device transform"
    assert type(y).__module__.split(".")[0] == type(dx).__module__.split(".")[0]
    assert_close(to_np(y), np.fft.fft(x.astype(np.complex128)))
    assert_close(to_np(fftn), np.fft.rfftn(x.real.astype(np.float64)))


def test_cupy_in_place_and_streams(rng):
    cupy = cupy_or_skip()
    x = random_array(rng, (8, 4096), np.complex64)
    want = np.fft.fft(x.astype(np.complex128))
    d = cupy.asarray(x)
    assert bfly.fft.fft(d, out=d).data.ptr == d.data.ptr  # in place: the caller's memory
    assert_close(cupy.asnumpy(d), want)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        d = cupy.asarray(x)
        y = bfly.fft.fft(d)
        z = y * 2  # used at once on the same stream: ordered after bfly's kernels
    stream.synchronize()
    assert_close(cupy.asnumpy(z) / 2, want)
    other = cupy.cuda.Stream(non_blocking=True)
    d = cupy.asarray(x)
    cupy.cuda.get_current_stream().synchronize()
    y = bfly.fft.ifft(bfly.fft.fft(d, stream=other), stream=other)
    other.synchronize()
    assert_close(cupy.asnumpy(y), x)


def test_torch_in_place_and_streams(rng):
    torch = torch_or_skip()
    x = random_array(rng, (8, 4096), np.complex64)
    want = np.fft.fft(x.astype(np.complex128))
    d = torch.from_numpy(x).cuda()
    pointer = d.data_ptr()
    assert bfly.fft.fft(d, out=d).data_ptr() == pointer
    assert_close(d.cpu().numpy(), want)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        d = torch.from_numpy(x).cuda(non_blocking=True)
        y = bfly.fft.fft(d)
        z = y * 2
    stream.synchronize()
    assert_close(z.cpu().numpy() / 2, want)
    # Views torch makes without copying: transposed, sliced, with a storage offset.
    base = torch.from_numpy(random_array(rng, (64, 48), np.complex128)).cuda()
    for view in (base.t(), base[3:40:2, 5:], base[:, 1:]):
        assert_close(bfly.fft.fft2(view).cpu().numpy(), np.fft.fft2(view.cpu().numpy()))
    r = torch.randn(7, 100, device="cuda", dtype=torch.float32)
    assert_close(bfly.fft.rfft(r).cpu().numpy(), np.fft.rfft(r.cpu().numpy().astype(np.float64)))
    assert bfly.fft.rfft(r).dtype == torch.complex64


def test_jax_arrays(rng):
    if "jax" not in FRAMEWORK_NAMES:
        pytest.skip("no JAX with a GPU")
    import jax
    import jax.numpy as jnp
    x = random_array(rng, (5, 300), np.complex64)
    y = bfly.fft.fft(jnp.asarray(x))
    assert isinstance(y, jax.Array)
    assert_close(np.asarray(y), np.fft.fft(x.astype(np.complex128)))
    assert_close(np.asarray(bfly.fft.irfft(jnp.asarray(x))), np.fft.irfft(x.astype(np.complex128)))
    assert_close(np.asarray(jnp.abs(bfly.fft.ihfft(jnp.asarray(x.real)))),
                 np.abs(np.fft.ihfft(x.real.astype(np.float64))))


def test_dlpack_and_cuda_array_interface_producers(rng):
    cupy = cupy_or_skip()
    x = random_array(rng, (6, 256), np.complex64)
    d = cupy.asarray(x)

    class OnlyDLPack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None, **kwargs):
            return self.a.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    class OnlyCAI:
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    for wrapped in (OnlyDLPack(d), OnlyCAI(d)):
        y = bfly.fft.fft(wrapped)
        assert isinstance(y, bfly.DeviceArray)
        assert_close(cupy.asnumpy(cupy.asarray(y)), np.fft.fft(x.astype(np.complex128)))
    with pytest.raises(TypeError):
        bfly.fft.fft(OnlyDLPack(cupy.asarray(x.real.copy())), n=300)  # needs padding: not for foreign arrays


def test_another_device_is_refused(rng):
    cupy = cupy_or_skip()
    d = cupy.asarray(random_array(rng, (64,), np.complex64))
    with pytest.raises(ValueError, match="on cuda:0"):
        bfly.fft.fft(d, device="cpu")
    with pytest.raises(TypeError, match="out is a numpy array"):
        bfly.fft.fft(d, out=np.empty(64, np.complex64))
    if cupy.cuda.runtime.getDeviceCount() > 1:
        with cupy.cuda.Device(1):
            other = cupy.empty(64, np.complex64)
        with pytest.raises(ValueError):
            bfly.fft.fft(d, out=other)


def test_numpy_on_the_gpu(rng):
    x = random_array(rng, (4, 1000), np.complex128)
    assert_close(bfly.fft.fft(x, device="cuda:0"), np.fft.fft(x))


@pytest.mark.parametrize("fw", DEVICE_FRAMEWORKS, ids=FRAMEWORK_NAMES)
def test_odd_offsets_and_repeated_calls(rng, fw):
    # Real views at odd element offsets: the kernels read reals in pairs, so
    # bfly copies such an input (and writes such an output through a new array).
    name, to_fw, to_np = fw
    r = random_array(rng, (5, 101), np.float32)
    d = to_fw(r)
    for _ in range(3):  # the second and third calls take the fast path
        assert_close(to_np(bfly.fft.rfft(d[:, 1:])), np.fft.rfft(r[:, 1:].astype(np.float64)))
    c = random_array(rng, (4, 51), np.complex64)
    if name != "jax":
        out = to_fw(np.full((4, 101), np.nan, np.float32))
        bfly.fft.irfft(to_fw(c), n=100, out=out[:, 1:])
        assert_close(to_np(out)[:, 1:], np.fft.irfft(c.astype(np.complex128), n=100))
    for _ in range(3):  # fresh data through a cached plan each time
        x = random_array(rng, (3, 640), np.complex64)
        assert_close(to_np(bfly.fft.fft(to_fw(x))), np.fft.fft(x.astype(np.complex128)))
