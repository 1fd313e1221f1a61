"""bfly.scipy_fft against scipy.fft, through scipy's own dispatch
(scipy.fft.set_backend(bfly.scipy_fft, only=True): nothing falls back)."""
import numpy as np
import pytest

scipy_fft = pytest.importorskip("scipy.fft")
signal = pytest.importorskip("scipy.signal")

import bfly  # noqa: E402  (after the skips: without SciPy nothing here runs)
from conftest import assert_close, random_array  # noqa: E402

FUNCTIONS = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
             "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"]
REAL_INPUT = {"rfft", "rfft2", "rfftn", "ihfft", "ihfft2", "ihfftn"}


def scipy_reference(name, x, **kwargs):
    x = x.astype(np.float64 if x.dtype.kind == "f" else np.complex128)
    return getattr(scipy_fft, name)(x, **kwargs)


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("single", [True, False])
def test_every_function_through_set_backend(rng, name, norm, single):
    if name in REAL_INPUT:
        dtype = np.float32 if single else np.float64
    else:
        dtype = np.complex64 if single else np.complex128
    x = random_array(rng, (6, 10, 9), dtype)
    kwargs = {"norm": norm}
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        got = getattr(scipy_fft, name)(x, **kwargs)
    want = scipy_reference(name, x, **kwargs)
    assert_close(got, want)
    assert got.dtype == getattr(scipy_fft, name)(x, **kwargs).dtype  # scipy's own dtype


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_axis_keywords(rng, name):
    x = random_array(rng, (5, 12), np.float64 if name in REAL_INPUT else np.complex128)
    for kwargs in ({"n": 7}, {"n": 16, "axis": 0}, {"overwrite_x": True, "workers": 4}, {"workers": -1}):
        with scipy_fft.set_backend(bfly.scipy_fft, only=True):
            got = getattr(scipy_fft, name)(x, **kwargs)
        assert_close(got, scipy_reference(name, x, **kwargs))


@pytest.mark.parametrize("name", ["fftn", "rfftn", "irfftn", "hfftn", "ihfftn"])
def test_nd_keywords(rng, name):
    x = random_array(rng, (4, 6, 5, 3), np.float64 if name in REAL_INPUT else np.complex128)
    for kwargs in ({"s": (5, 8), "axes": (0, 2)}, {"axes": (3, 1)}, {"s": (3, 4, 6), "axes": (1, 2, 3)}):
        with scipy_fft.set_backend(bfly.scipy_fft, only=True):
            got = getattr(scipy_fft, name)(x, **kwargs)
        assert_close(got, scipy_reference(name, x, **kwargs))


def test_float16_as_scipy():
    x = np.arange(16, dtype=np.float16)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        assert scipy_fft.rfft(x).dtype == np.complex64
        assert scipy_fft.irfft(x.astype(np.complex64)).dtype == np.float32


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("shapes", [((300,), (31,)), ((64, 50), (9, 7)), ((20, 18, 16), (3, 5, 4))])
def test_fftconvolve_runs_on_bfly(rng, mode, shapes):
    a, k = random_array(rng, shapes[0], np.float64), random_array(rng, shapes[1], np.float64)
    before = bfly.plan_cache.info()["misses"] + bfly.plan_cache.info()["hits"]
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        got = signal.fftconvolve(a, k, mode=mode)
    assert bfly.plan_cache.info()["misses"] + bfly.plan_cache.info()["hits"] > before  # bfly did the work
    assert_close(got, signal.fftconvolve(a, k, mode=mode))
    c = random_array(rng, shapes[0], np.complex64)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        got = signal.fftconvolve(c, k.astype(np.complex64), mode=mode)
    assert_close(got, signal.fftconvolve(c.astype(np.complex128), k, mode=mode))


def test_what_bfly_lacks_falls_back():
    # (The DCT and DST are bfly's now: test_scipy_dct.py. The fast Hankel transform is not.)
    x = np.linspace(0.1, 1.0, 8)
    with scipy_fft.set_backend(bfly.scipy_fft):
        assert np.allclose(scipy_fft.fht(x, 0.1, 0), scipy_fft.fht(x, 0.1, 0))  # scipy's own
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        with pytest.raises(Exception, match="[Nn]o selected backends had an implementation|BackendNotImplemented"):
            scipy_fft.fht(x, 0.1, 0)


def test_plan_keyword(rng):
    x = random_array(rng, (4, 32), np.complex64)
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="fft")
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        assert_close(scipy_fft.fft(x, plan=plan), scipy_fft.fft(x.astype(np.complex128)))
        with pytest.raises(ValueError, match="not made for this call"):
            scipy_fft.ifft(x, plan=plan)
    r = random_array(rng, (6, 8, 10), np.float64)
    plan = bfly.Plan(r.shape, r.dtype, axes=(0, 2), kind="rfft")
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        assert_close(scipy_fft.rfftn(r, axes=(0, 2), plan=plan), scipy_fft.rfftn(r, axes=(0, 2)))


def test_global_backend(rng):
    x = random_array(rng, (16,), np.complex128)
    scipy_fft.set_global_backend(bfly.scipy_fft, only=True)
    try:
        assert_close(scipy_fft.fft(x), np.fft.fft(x))
    finally:
        scipy_fft.set_global_backend("scipy")


SCIPY_ERRORS = [  # (function, args, kwargs, exception, message): scipy's own, which its tests match
    ("rfft", (np.zeros(10, np.complex64),), {}, TypeError, "x must be a real sequence"),
    ("rfftn", (np.zeros(10, np.complex64),), {}, TypeError, "x must be a real sequence"),
    ("ihfft2", (np.zeros((2, 4), np.complex128),), {}, TypeError, "x must be a real sequence"),
    ("fft", ([],), {}, ValueError, r"invalid number of data points \(0\) specified"),
    ("rfft", ([[1, 1], [2, 2]], -5), {}, ValueError, r"invalid number of data points \(-5\) specified"),
    ("irfft", (np.ones(1, np.complex128),), {}, ValueError, r"Invalid number of data points \(0\) specified"),
    ("fftn", ([[]],), {}, ValueError, r"invalid number of data points \(\[1, 0\]\) specified"),
    ("irfftn", ([[1, 1], [2, 2]], (4, -3)), {}, ValueError, r"invalid number of data points \(\[4, -3\]\) specified"),
    ("ifft", (np.arange(10.0),), {"norm": "o"}, ValueError,
     'Invalid norm value \'o\', should be "backward", "ortho" or "forward"'),
    ("irfftn", (np.arange(10.0),), {"norm": "o"}, ValueError, "Invalid norm value 'o', should be"),
    ("rfftn", ([],), {"axes": []}, ValueError, "at least 1 axis must be transformed"),
    ("irfftn", ([],), {"axes": []}, ValueError, "at least 1 axis must be transformed"),
    ("fftn", (np.zeros((4, 4, 2)),), {"s": (8, 8, 2, 1)}, ValueError, "shape requires more axes than are present"),
    ("fftn", (np.zeros((4, 4)),), {"axes": (0, 0)}, ValueError, "all axes must be unique"),
    ("hfftn", (np.zeros((4, 4)),), {"axes": (0, -2)}, ValueError, "all axes must be unique"),
    ("fftn", (np.zeros((4, 4)),), {"axes": (2,)}, ValueError, "axes exceeds dimensionality of input"),
    ("fftn", (np.zeros((4, 4)),), {"s": (4, 4), "axes": (0,)}, ValueError,
     "when given, axes and shape arguments have to be of the same length"),
]


@pytest.mark.parametrize("name,args,kwargs,exception,message", SCIPY_ERRORS)
def test_errors_are_scipys(name, args, kwargs, exception, message):
    with pytest.raises(exception, match=message):
        getattr(scipy_fft, name)(*args, **kwargs)  # scipy's own: the case is right for this scipy
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        with pytest.raises(exception, match=message):
            getattr(scipy_fft, name)(*args, **kwargs)


def test_no_axes_returns_the_input():
    x = np.arange(8.0).reshape(2, 4)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        assert scipy_fft.fftn(x, axes=[]) is x and scipy_fft.ifftn(x, axes=()) is x
