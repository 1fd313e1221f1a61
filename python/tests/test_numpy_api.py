"""bfly.fft against numpy.fft: every function, n/s, axes, norms, dtypes,
strides, out= and in place, on NumPy arrays (and, where a GPU is present,
on CuPy, PyTorch and JAX arrays through the `framework` fixture)."""
import bfly
import numpy as np
import pytest
from conftest import assert_close, random_array, reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NUMPY2 = int(np.__version__.split(".")[0]) >= 2
NORMS = [None, "backward", "ortho", "forward"]
C2R = {"irfft", "hfft", "irfftn", "irfft2"}
R2C = {"rfft", "ihfft", "rfftn", "rfft2"}


def expected_dtype(name, dtype):
    """NumPy 2's result dtype."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        real = np.dtype(np.float64)
    elif dtype.kind == "c":
        real = np.empty(0, dtype).real.dtype
    else:
        real = dtype
    if name in C2R:
        return real
    return np.result_type(real, np.complex64)


def check(framework, name, x, dtype=None, **kwargs):
    _, to_fw, to_np = framework
    try:
        want = reference(name, x, **kwargs)
    except ValueError:  # numpy refuses the call (a default irfft length of 0): bfly must too
        with pytest.raises(ValueError):
            getattr(bfly.fft, name)(to_fw(x), **kwargs)
        return
    got = getattr(bfly.fft, name)(to_fw(x), **kwargs)
    got = to_np(got)
    assert_close(got, want, expected_dtype(name, x.dtype) if dtype is None else dtype)


@pytest.mark.parametrize("name", ["fft", "ifft"])
@pytest.mark.parametrize("length", [1, 2, 3, 7, 16, 60, 97, 128, 1000, 4099])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_c2c_lengths(framework, rng, name, length, dtype):
    check(framework, name, random_array(rng, (3, length), dtype))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 5, 8, 33])
def test_one_axis_n_and_norm(framework, rng, name, norm, n):
    dtype = np.float64 if name in R2C else np.complex128
    x = random_array(rng, (4, 12), dtype)
    check(framework, name, x, n=n, norm=norm)
    check(framework, name, x, n=n, norm=norm, axis=0)


@pytest.mark.parametrize("name", ["rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("length", [1, 2, 3, 9, 16, 31, 250])
@pytest.mark.parametrize("single", [True, False])
def test_real_lengths(framework, rng, name, length, single):
    if name in C2R and length == 1:
        pytest.skip("the default n = 2 * (m - 1) is 0 for m = 1")
    dtype = (np.float32 if single else np.float64) if name in R2C else (np.complex64 if single else np.complex128)
    check(framework, name, random_array(rng, (2, length), dtype))


ND_CASES = [
    ((6, 5), None, None), ((6, 5, 4), None, None), ((6, 5, 4), (0, 2), None), ((6, 5, 4), (2, 0), None),
    ((6, 5, 4), (1,), (9,)), ((6, 5, 4), (0, 1), (3, -1)), ((6, 5, 4, 3), None, None),
    ((3, 4, 5, 2, 3), None, None), ((3, 4, 5, 2, 3), (0, 2, 4), (4, 6, 2)), ((2, 3, 4, 5, 2, 3), (1, 3, 5), None),
    ((5, 4, 3), (1, 1), None), ((5, 4, 3), (0, 2, 0), (4, 3, 7)), ((1, 8, 1), None, None), ((7, 1), (1,), None),
]


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("shape,axes,s", ND_CASES)
def test_nd(framework, rng, name, shape, axes, s):
    dtype = np.float64 if name in R2C else np.complex128
    x = random_array(rng, shape, dtype)
    kwargs = {"axes": axes}
    if s is not None:
        kwargs["s"] = s
    check(framework, name, x, **kwargs)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("norm", NORMS)
def test_2d(framework, rng, name, norm):
    dtype = np.float32 if name in R2C else np.complex64
    x = random_array(rng, (3, 20, 18), dtype)
    check(framework, name, x, norm=norm)
    check(framework, name, x, norm=norm, s=(7, 10), axes=(0, 2))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64,
                                   np.float16, np.float32, np.float64, np.longdouble])
@pytest.mark.parametrize("name", ["fft", "rfft", "ihfft", "fftn"])
def test_real_input_dtypes(rng, name, dtype):
    x = random_array(rng, (5, 16), dtype)
    got = getattr(bfly.fft, name)(x)
    assert got.dtype == expected_dtype(name, dtype)
    if NUMPY2:
        assert got.dtype == getattr(np.fft, name)(x).dtype
    assert_close(got, reference(name, x.astype(np.float64)))


@pytest.mark.parametrize("dtype", [np.float16, np.complex64, np.complex128, np.clongdouble, np.int32])
@pytest.mark.parametrize("name", ["irfft", "hfft", "ifft"])
def test_complex_input_dtypes(rng, name, dtype):
    x = random_array(rng, (3, 9), dtype)
    got = bfly.fft.__dict__[name](x)
    assert got.dtype == expected_dtype(name, dtype)
    want = reference(name, x.astype(np.complex128))
    assert_close(got, want)


ALL_FUNCTIONS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2",
                 "irfft2", "rfftn", "irfftn"]


@pytest.mark.skipif(not NUMPY2, reason="NumPy 2's result dtypes")
@pytest.mark.parametrize("dtype", [np.float16, np.longdouble])
def test_every_function_has_numpys_result_dtype(dtype):
    # irfft2 / irfftn over 2+ axes is ifft then irfft of complex64:
    # float32 for float16, where irfft and a 1-axis irfftn keep float16.
    x = np.arange(24, dtype=dtype).reshape(4, 6)
    calls = [(name, {}) for name in ALL_FUNCTIONS] + [("irfftn", {"axes": (1,)}), ("irfftn", {"axes": (1, 0)}),
                                                       ("irfft2", {"s": (4, 6)}), ("rfftn", {"axes": (0,)})]
    for name, kwargs in calls:
        got, want = getattr(bfly.fft, name)(x, **kwargs), getattr(np.fft, name)(x, **kwargs)
        assert got.dtype == want.dtype, f"{name}({dtype.__name__}, {kwargs}): {got.dtype}, numpy {want.dtype}"
        assert_close(got, reference(name, x, **kwargs))  # (numpy's float16 ifft scales by a float16 1/n)
    plan = bfly.Plan(x.shape, x.dtype, axes=(0, 1), kind="irfft")
    assert plan(x).dtype == np.fft.irfftn(x, axes=(0, 1)).dtype


def strided_views(rng, dtype):
    base = random_array(rng, (12, 10, 8), dtype)
    yield "negative", base[::-1, :, ::-2]
    yield "transposed", base.transpose(2, 0, 1)
    yield "fortran", np.asfortranarray(base)
    yield "every other", base[::2, 1::3]
    yield "unit dims", base[:, 3:4, :][None]
    yield "broadcast", np.broadcast_to(base[0], (3, 10, 8))
    yield "unaligned real", np.frombuffer(base.tobytes()[base.itemsize:], base.dtype)[:799].reshape(17, 47)


@pytest.mark.parametrize("dtype", [np.complex64, np.float64])
@pytest.mark.parametrize("name", ["fft", "fftn", "ifft2", "rfftn", "irfft"])
def test_strides_and_orders(rng, name, dtype):
    if name in R2C and np.dtype(dtype).kind == "c":
        dtype = np.float32
    for what, x in strided_views(rng, dtype):
        got = getattr(bfly.fft, name)(x)
        try:
            assert_close(got, reference(name, x), expected_dtype(name, x.dtype))
        except AssertionError as e:
            raise AssertionError(f"{what} view {x.shape} strides {x.strides}: {e}") from None


def test_out_is_filled_and_returned(framework, rng):
    fw_name, to_fw, to_np = framework
    if fw_name == "jax":
        pytest.skip("JAX arrays are immutable")
    x = random_array(rng, (6, 40), np.complex64)
    out = to_fw(np.full((6, 40), np.nan + 1j * np.nan, np.complex64))
    got = bfly.fft.fft(to_fw(x), out=out)
    assert got is out
    assert_close(to_np(out), reference("fft", x))
    out = to_fw(np.full((6, 21), np.nan, np.complex128))  # a wider dtype: computed in single, cast
    assert bfly.fft.rfft(to_fw(x.real.copy()), out=out) is out
    assert_close(to_np(out).astype(np.complex64), reference("rfft", x.real))


def test_out_strided_and_in_place(rng):
    x = random_array(rng, (8, 32), np.complex128)
    want = reference("fftn", x)
    out = np.full((32, 8), np.nan, np.complex128).T  # a Fortran-ordered out
    assert bfly.fft.fftn(x, out=out) is out
    assert_close(out, want)
    y = x.copy()
    pointer = y.__array_interface__["data"][0]
    assert bfly.fft.fftn(y, out=y) is y
    assert y.__array_interface__["data"][0] == pointer
    assert_close(y, want)
    z = x.copy()
    bfly.fft.fft(z[:, ::2], out=z[:, 1::2])  # overlapping views of one buffer
    assert_close(z[:, 1::2], reference("fft", x[:, ::2]))


def test_list_input_and_no_axes():
    assert_close(bfly.fft.fft([1, 2, 3, 4]), np.fft.fft([1.0, 2, 3, 4]))
    x = np.arange(6.0).reshape(2, 3)
    assert bfly.fft.fftn(x, axes=()) is x
    assert_close(bfly.fft.fft(np.zeros((0, 4))), np.fft.fft(np.zeros((0, 4))))


def test_helpers_are_numpys():
    assert np.array_equal(bfly.fft.fftfreq(8, 0.5), np.fft.fftfreq(8, 0.5))
    assert np.array_equal(bfly.fft.rfftfreq(9), np.fft.rfftfreq(9))
    x = np.arange(10)
    assert np.array_equal(bfly.fft.fftshift(x), np.fft.fftshift(x))
    assert np.array_equal(bfly.fft.ifftshift(x), np.fft.ifftshift(x))


@st.composite
def nd_calls(draw):
    rank = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=rank, max_size=rank)))
    name = draw(st.sampled_from(["fftn", "ifftn", "rfftn", "irfftn", "fft", "ifft", "rfft", "irfft", "hfft",
                                 "ihfft"]))
    if name.endswith("n"):
        axes = draw(st.none() | st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank))
        count = rank if axes is None else len(axes)
        s = draw(st.none() | st.lists(st.integers(1, 12), min_size=count, max_size=count))
        if axes is None and s is not None:
            axes = list(range(rank))
        kwargs = {"axes": axes, "s": s}
    else:
        kwargs = {"axis": draw(st.integers(-rank, rank - 1)), "n": draw(st.none() | st.integers(1, 12))}
    kwargs["norm"] = draw(st.sampled_from(NORMS))
    single = draw(st.booleans())
    order = draw(st.sampled_from(["C", "F", "reversed"]))
    return name, shape, kwargs, single, order


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(call=nd_calls())
def test_random_calls(call):
    name, shape, kwargs, single, order = call
    rng = np.random.default_rng(len(shape) * 7919 + sum(shape))
    real_in = name in R2C
    dtype = (np.float32 if single else np.float64) if real_in else (np.complex64 if single else np.complex128)
    x = random_array(rng, shape, dtype)
    if order == "F":
        x = np.asfortranarray(x)
    elif order == "reversed":
        x = x[tuple(slice(None, None, -1) for _ in shape)]
    try:
        want = reference(name, x, **kwargs)
    except ValueError:  # numpy refuses (a default irfft length of 0): bfly must too
        with pytest.raises(ValueError):
            getattr(bfly.fft, name)(x, **kwargs)
        return
    got = getattr(bfly.fft, name)(x, **kwargs)
    assert_close(got, want, expected_dtype(name, dtype))


def test_repeated_calls_take_the_fast_path(rng):
    bfly.plan_cache.clear()
    for name, dtype in (("fft", np.complex64), ("rfft", np.float64), ("irfft", np.complex128), ("fftn", np.complex64)):
        for i in range(3):
            x = random_array(rng, (4, 30), dtype)
            before = len(bfly.plan_cache.fast)
            got = getattr(bfly.fft, name)(x)
            assert_close(got, reference(name, x), expected_dtype(name, dtype))
            if i > 0:
                assert len(bfly.plan_cache.fast) == before  # served from the table
        assert len(bfly.plan_cache.fast) >= 1
    x = random_array(rng, (4, 30), np.complex64)
    assert_close(bfly.fft.fft(x[:, ::-1]), reference("fft", x[:, ::-1]))  # another signature: the full path


@pytest.mark.parametrize("name", ["fftn", "rfftn", "ifft2"])
def test_layouts_give_identical_bits(rng, name):
    # A NumPy array's layout does not change its result, to the last bit.
    dtype = np.float64 if name in R2C else np.complex128
    x = random_array(rng, (8, 7, 13), dtype)
    for axes in ((0, 1), (1, 2), (0, 2), None):
        want = getattr(bfly.fft, name)(x, axes=axes)
        others = (np.asfortranarray(x), np.ascontiguousarray(x[::-1])[::-1], x.transpose(2, 0, 1).transpose(1, 2, 0))
        for other in others:
            assert np.array_equal(getattr(bfly.fft, name)(other, axes=axes), want)
