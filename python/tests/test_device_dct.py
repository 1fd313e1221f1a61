"""The DCT and DST on every framework's arrays (NumPy here; CuPy, PyTorch
and JAX where a GPU is): results in the caller's framework, equal to
scipy.fft's computed in double, with no host copy of a device array."""
import tracemalloc

import numpy as np
import pytest
from conftest import DEVICE_FRAMEWORKS, FRAMEWORKS, assert_close, random_array

scipy_fft = pytest.importorskip("scipy.fft")

import bfly  # noqa: E402  (after the skip)

NAMES = [f[0] for f in FRAMEWORKS]


def wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def module_of(y):
    return type(y).__module__.split(".")[0]


@pytest.mark.parametrize("fw", FRAMEWORKS, ids=NAMES)
@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_one_axis_every_type(rng, fw, name, kind):
    _, to_fw, to_np = fw
    for shape, axis, n, dtype, norm in [((6, 45), -1, None, np.float32, None),
                                        ((37, 5), 0, 40, np.float64, "ortho"),
                                        ((3, 17, 4), 1, 11, np.float32, "forward")]:
        x = random_array(rng, shape, dtype)
        y = getattr(bfly.scipy_fft, name)(to_fw(x), type=kind, n=n, axis=axis, norm=norm)
        assert module_of(y) == module_of(to_fw(x))
        want = getattr(scipy_fft, name)(wide(x), type=kind, n=n, axis=axis, norm=norm)
        assert_close(to_np(y), want, np.dtype(dtype))


@pytest.mark.parametrize("fw", FRAMEWORKS, ids=NAMES)
def test_many_axes_strided_complex_and_half(rng, fw):
    _, to_fw, to_np = fw
    x = random_array(rng, (12, 10, 9), np.float64)
    cases = [
        ("dctn", dict(type=2, axes=(0, 2), s=(16, 7), norm="ortho"), x),
        ("idstn", dict(type=3, axes=(1, 0)), x),
        ("dstn", dict(type=4, norm="forward", orthogonalize=True), x.astype(np.float32)),
        ("dct", dict(type=2, axis=1), random_array(rng, (5, 33), np.complex64)),
        ("idct", dict(type=1, axis=0, norm="ortho"), random_array(rng, (21, 4), np.complex128)),
    ]
    for name, kwargs, data in cases:
        y = getattr(bfly.scipy_fft, name)(to_fw(data), **kwargs)
        want = getattr(scipy_fft, name)(wide(data), **kwargs)
        assert_close(to_np(y), want, np.dtype(data.dtype))
    # A strided view (every other row, transposed) and float16, which comes back float32.
    half = random_array(rng, (8, 30), np.float16)
    y = bfly.scipy_fft.dst(to_fw(half)[::2].T, type=2, axis=0)
    assert_close(to_np(y), scipy_fft.dst(wide(half[::2].T), type=2, axis=0), np.dtype(np.float32))


@pytest.mark.skipif(not DEVICE_FRAMEWORKS, reason="no CUDA framework (CuPy, PyTorch, JAX) with a GPU")
@pytest.mark.parametrize("fw", DEVICE_FRAMEWORKS, ids=[f[0] for f in DEVICE_FRAMEWORKS])
def test_device_arrays_stay_on_the_device(rng, fw):
    _, to_fw, to_np = fw
    x = random_array(rng, (16, 1 << 16), np.float32)  # 4 MB
    dx = to_fw(x)
    bfly.scipy_fft.dct(dx), bfly.scipy_fft.dstn(dx, type=3)  # plans outside the measurement
    tracemalloc.start()
    y = bfly.scipy_fft.dct(dx)
    z = bfly.scipy_fft.dstn(dx, type=3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1 << 20, f"{peak} bytes allocated on the host for a device transform"
    assert_close(to_np(y), scipy_fft.dct(wide(x)), np.dtype(np.float32))
    assert_close(to_np(z), scipy_fft.dstn(wide(x), type=3), np.dtype(np.float32))


@pytest.mark.skipif(not DEVICE_FRAMEWORKS, reason="no CUDA framework (CuPy, PyTorch, JAX) with a GPU")
def test_through_scipy_dispatch_on_cupy(rng):
    if "cupy" not in [f[0] for f in DEVICE_FRAMEWORKS]:
        pytest.skip("no CuPy")
    import cupy
    x = random_array(rng, (4, 100), np.float64)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        y = scipy_fft.idct(cupy.asarray(x), type=3, norm="ortho")
    assert isinstance(y, cupy.ndarray)
    assert_close(cupy.asnumpy(y), scipy_fft.idct(x, type=3, norm="ortho"), np.dtype(np.float64))
