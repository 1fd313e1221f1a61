"""Half storage (issue 42): half= reads and writes 16-bit arrays as they
are, computed in float32, against numpy.fft in double on the rounded input
(the library's bars, tests/accuracy/test_half.cpp: relative L2 4e-4 for
float16, 3e-3 for bfloat16). bfloat16 runs here as uint16 arrays of raw bits
with half="bfloat16" (NumPy has no bfloat16 dtype), and as ml_dtypes,
PyTorch and CuPy arrays where those are installed (a GPU for the last two).
NumPy's rule stays the default: float16 input returns complex64."""
import bfly
import numpy as np
import pytest

BARS = {"float16": 4e-4, "bfloat16": 3e-3}


# --- bfloat16 as bits (round to nearest even, the library's rounding) -------

def bf16_bits(x):
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_values(bits):
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


def to_half(x, fmt):
    """x (float64) rounded to `fmt`: (the array bfly takes, its values as float64)."""
    if fmt == "float16":
        h = x.astype(np.float16)
        return h, h.astype(np.float64)
    bits = bf16_bits(x)
    return bits, bf16_values(bits).astype(np.float64)


def values(y, fmt):
    return (y if fmt == "float16" else bf16_values(y)).astype(np.float64)


def as_complex(pairs):
    return pairs[..., 0] + 1j * pairs[..., 1]


def check(got, want, fmt):
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    assert got.shape == want.shape, f"shape {got.shape} != numpy's {want.shape}"
    assert np.all(np.isfinite(got)), "non-finite values in the result"
    error = np.linalg.norm((got - want).ravel()) / max(np.linalg.norm(want.ravel()), 1e-30)
    assert error <= BARS[fmt], f"relative error {error:.3g} > {BARS[fmt]}"


def random_values(rng, shape, complex_):
    """Normal values of `shape`, with a trailing axis of 2 for complex ones."""
    return rng.standard_normal(shape + ((2,) if complex_ else ()))


@pytest.fixture
def rng(request):
    return np.random.default_rng(abs(hash(request.node.nodeid)) % (2 ** 32))


# --- NumPy arrays (host memory, through execute_host) ----------------------

LENGTHS = [16, 1024, 105, 1009, 4099]  # powers of two, 3 * 5 * 7, a prime (Rader), Bluestein's


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", LENGTHS)
def test_c2c(rng, fmt, n):
    x, xv = to_half(random_values(rng, (3, n), True), fmt)
    y = bfly.fft.fft(x, half=fmt)
    assert y.dtype == x.dtype and y.shape == x.shape
    check(as_complex(values(y, fmt)), np.fft.fft(as_complex(xv)), fmt)
    z = bfly.fft.ifft(x, norm="ortho", half=fmt)
    check(as_complex(values(z, fmt)), np.fft.ifft(as_complex(xv), norm="ortho"), fmt)


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [16, 1024, 1009, 4099, 1000])
def test_r2c_c2r(rng, fmt, n):
    x, xv = to_half(random_values(rng, (2, n), False), fmt)
    y = bfly.fft.rfft(x, half=fmt)
    assert y.dtype == x.dtype and y.shape == (2, n // 2 + 1, 2)
    check(as_complex(values(y, fmt)), np.fft.rfft(xv), fmt)
    spectrum, sv = to_half(random_values(rng, (2, n // 2 + 1), True), fmt)
    z = bfly.fft.irfft(spectrum, n, half=fmt)
    assert z.dtype == x.dtype and z.shape == (2, n)
    check(values(z, fmt), np.fft.irfft(as_complex(sv), n), fmt)


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_2d_and_axes(rng, fmt):
    x, xv = to_half(random_values(rng, (48, 60), True), fmt)
    check(as_complex(values(bfly.fft.fft2(x, half=fmt), fmt)), np.fft.fft2(as_complex(xv)), fmt)
    check(as_complex(values(bfly.fft.ifftn(x, axes=(0,), half=fmt), fmt)),
          np.fft.ifftn(as_complex(xv), axes=(0,)), fmt)
    r, rv = to_half(random_values(rng, (4, 32, 50), False), fmt)
    y = bfly.fft.rfft2(r, half=fmt)
    check(as_complex(values(y, fmt)), np.fft.rfft2(rv), fmt)
    z = bfly.fft.irfft2(y, s=(32, 50), half=fmt)
    check(values(z, fmt), np.fft.irfft2(as_complex(values(y, fmt)), s=(32, 50)), fmt)
    check(as_complex(values(bfly.fft.rfftn(r, axes=(0, 2), norm="forward", half=fmt), fmt)),
          np.fft.rfftn(rv, axes=(0, 2), norm="forward"), fmt)


def test_layouts_crop_pad_and_out(rng):
    x, xv = to_half(random_values(rng, (64, 12), True), "float16")
    # axis 0 of a C-ordered array, a transposed view, n cropping and padding
    check(as_complex(bfly.fft.fft(x, axis=0, half=True)), np.fft.fft(as_complex(xv), axis=0), "float16")
    t = x.transpose(1, 0, 2)
    check(as_complex(bfly.fft.fft(t, half=True)), np.fft.fft(as_complex(xv).T), "float16")
    check(as_complex(bfly.fft.fft(x, n=7, axis=0, half=True)), np.fft.fft(as_complex(xv), n=7, axis=0), "float16")
    check(as_complex(bfly.fft.fft(x, n=100, axis=0, half=True)), np.fft.fft(as_complex(xv), n=100, axis=0),
          "float16")
    r, rv = to_half(random_values(rng, (5, 30), False), "float16")
    check(as_complex(bfly.fft.rfft(r, n=40, half=True)), np.fft.rfft(rv, n=40), "float16")
    out = np.empty((5, 8, 2), np.float16)
    assert bfly.fft.rfft(r[:, ::2], out=out, half=True) is out
    check(as_complex(out), np.fft.rfft(rv[:, ::2]), "float16")
    y = x.copy()
    assert bfly.fft.fft(y, axis=0, out=y, half=True) is y  # in place
    check(as_complex(y), np.fft.fft(as_complex(xv), axis=0), "float16")
    assert np.array_equal(x, to_half(xv, "float16")[0])  # the input left as it was


def test_hermitian_and_window(rng):
    x, xv = to_half(random_values(rng, (4, 33), True), "float16")
    check(bfly.fft.hfft(x, half=True), np.fft.hfft(as_complex(xv)), "float16")
    r, rv = to_half(random_values(rng, (4, 64), False), "float16")
    check(as_complex(bfly.fft.ihfft(r, half=True)), np.fft.ihfft(rv), "float16")
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(64) / 64)
    check(as_complex(bfly.fft.rfft(r, window="hann", half=True)), np.fft.rfft(rv * hann), "float16")


def test_plan(rng):
    x, xv = to_half(random_values(rng, (8, 256), True), "float16")
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="fft", half=True)
    assert "c2c_f16_fwd_256_b8" in plan.describe()
    check(as_complex(plan(x)), np.fft.fft(as_complex(xv)), "float16")
    assert np.array_equal(plan(x), bfly.fft.fft(x, half=True))
    bits, bv = to_half(random_values(rng, (8, 256), False), "bfloat16")
    rplan = bfly.Plan(bits.shape, np.uint16, axes=(0, 1), kind="rfft", s=(8, 200), half="bfloat16", norm="ortho")
    want = np.fft.rfftn(bv, s=(8, 200), axes=(0, 1), norm="ortho")
    check(as_complex(values(rplan(bits), "bfloat16")), want, "bfloat16")
    with pytest.raises(ValueError, match="shape"):
        plan(x[:4])
    with pytest.raises(ValueError, match="trailing axis of 2"):
        bfly.Plan((8, 256), np.float16, kind="fft", half=True)
    assert not plan.matches("fft", x.shape, (-1,), None, None)  # scipy's plan= never takes it


def test_repeated_calls(rng):
    x, xv = to_half(random_values(rng, (8, 300), True), "float16")
    first = bfly.fft.fft(x, half=True)
    hits = bfly.plan_cache.hits
    again = bfly.fft.fft(x, half=True)  # the fast path: the same plan launched, nothing worked out again
    assert bfly.plan_cache.hits > hits and np.array_equal(first, again) and again is not first
    bits = bfly.fft.fft(x.view(np.uint16), half="float16")  # the same bits, another signature
    assert bits.dtype == np.uint16 and np.array_equal(bits.view(np.float16), first)
    check(as_complex(bfly.fft.fft(x, half=True, window="hann")),
          np.fft.fft(as_complex(xv) * (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(300) / 300))), "float16")
    r = to_half(random_values(rng, (8, 300), False), "float16")[0]
    for _ in range(2):
        y = bfly.fft.ihfft(r, half=True)  # conjugated after the launch: never the fast path
        check(as_complex(y), np.fft.ihfft(r.astype(np.float64)), "float16")


def test_overflow_is_inf():
    y = bfly.fft.rfft(np.full(1024, 1e4, np.float16), half=True)
    assert np.isinf(y[0, 0]) and y[0, 1] == 0 and np.all(y[1:] == 0)  # 1.024e7 is past float16's 65504
    z = bfly.fft.fft(np.full((1024, 2), 1e4, np.float16), half=True)
    assert np.all(np.isinf(z[0])) and np.all(z[1:] == 0)
    assert np.all(np.isfinite(bfly.fft.fft(np.full((1024, 2), 1e4, np.float16), norm="forward", half=True)))


def test_default_is_numpys_rule(rng):
    x = rng.standard_normal((4, 64)).astype(np.float16)
    assert bfly.fft.fft(x).dtype == np.complex64
    assert bfly.fft.rfft(x).dtype == np.complex64
    assert bfly.fft.rfft(x).shape == (4, 33)
    assert bfly.fft.irfft(x).dtype == np.float16  # numpy's irfft of float16
    assert bfly.fft.fft(x, half=False).dtype == np.complex64


def test_errors(rng):
    x = np.zeros((8, 2), np.float16)
    with pytest.raises(TypeError, match="float16"):
        bfly.fft.fft(np.zeros((8, 2), np.float32), half=True)
    with pytest.raises(TypeError, match="raw bits"):
        bfly.fft.fft(np.zeros((8, 2), np.uint16), half=True)
    with pytest.raises(TypeError, match="bfloat16"):
        bfly.fft.fft(x, half="bfloat16")
    with pytest.raises(ValueError, match="half="):
        bfly.fft.fft(x, half="float32")
    with pytest.raises(ValueError, match="trailing axis of 2"):
        bfly.fft.fft(np.zeros((8, 3), np.float16), half=True)
    with pytest.raises(ValueError, match="at most 3 axes"):
        bfly.fft.fftn(np.zeros((2, 2, 2, 2, 2), np.float16), half=True)
    with pytest.raises(ValueError, match="distinct"):
        bfly.fft.fftn(x[None], axes=(1, 1), half=True)
    with pytest.raises(TypeError, match="dtype"):
        bfly.fft.fft(x, out=np.empty((8, 2), np.float32), half=True)
    with pytest.raises(ValueError, match="wrong shape"):
        bfly.fft.fft(x, out=np.empty((8,), np.float16), half=True)
    with pytest.raises(ValueError, match="store"):  # a real store in half storage: the library refuses it
        bfly.Plan((64,), np.float16, kind="rfft", store="power", half=True)


# --- ml_dtypes.bfloat16 ----------------------------------------------------

def test_ml_dtypes_bfloat16(rng):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bits, bv = to_half(random_values(rng, (3, 1009), False), "bfloat16")
    x = bits.view(ml_dtypes.bfloat16)
    y = bfly.fft.rfft(x, half=True)
    assert y.dtype == x.dtype and y.shape == (3, 505, 2)
    check(as_complex(y.astype(np.float64)), np.fft.rfft(bv), "bfloat16")
    assert np.array_equal(y.view(np.uint16), bfly.fft.rfft(bits, half="bfloat16"))
    wide = bfly.fft.rfft(x)  # NumPy's rule: widened, complex64
    assert wide.dtype == np.complex64
    np.testing.assert_allclose(wide, np.fft.rfft(bv), rtol=0, atol=1e-3 * np.abs(wide).max())


# --- PyTorch and CuPy ------------------------------------------------------

def _torch(cuda):
    torch = pytest.importorskip("torch")
    if cuda and not torch.cuda.is_available():
        pytest.skip("no CUDA device for PyTorch")
    return torch


@pytest.mark.parametrize("cuda", [True, False], ids=["cuda", "cpu"])
def test_torch(rng, cuda):
    torch = _torch(cuda)
    device = "cuda" if cuda else "cpu"
    r, rv = to_half(random_values(rng, (4, 1000), False), "float16")
    t = torch.from_numpy(r).to(device)
    y = bfly.fft.rfft(t, half=True)
    assert y.dtype == torch.complex32 and y.device == t.device and tuple(y.shape) == (4, 501)
    check(as_complex(torch.view_as_real(y).cpu().numpy()), np.fft.rfft(rv), "float16")
    z = bfly.fft.irfft(y, n=1000, half=True)
    assert z.dtype == torch.float16 and tuple(z.shape) == (4, 1000)
    check(z.cpu().numpy(), rv, "float16")
    c = bfly.fft.fft(y, half=True)  # complex32 in, complex32 out
    assert c.dtype == torch.complex32
    want = np.fft.fft(as_complex(torch.view_as_real(y).cpu().numpy().astype(np.float64)))
    check(as_complex(torch.view_as_real(c).cpu().numpy()), want, "float16")
    bits, bv = to_half(random_values(rng, (6, 1009), True), "bfloat16")
    b = torch.from_numpy(bits.view(np.int16)).to(device).view(torch.bfloat16)  # complex bfloat16: pairs
    yb = bfly.fft.fft(b, half=True)
    assert yb.dtype == torch.bfloat16 and tuple(yb.shape) == (6, 1009, 2)
    check(as_complex(yb.float().cpu().numpy()), np.fft.fft(as_complex(bv)), "bfloat16")
    plan = bfly.Plan(tuple(y.shape), torch.complex32, axes=(-1,), kind="ifft", half=True)
    check(as_complex(torch.view_as_real(plan(y)).cpu().numpy()),
          np.fft.ifft(as_complex(torch.view_as_real(y).cpu().numpy().astype(np.float64))), "float16")


def test_torch_default_is_numpys_rule(rng):
    torch = _torch(True)
    x = torch.randn(4, 1000, dtype=torch.complex64, device="cuda")
    for half in (x.to(torch.complex32), x.real.to(torch.bfloat16)):
        wide = half.to(torch.complex64) if half.is_complex() else half.float()
        want = np.fft.fft(wide.cpu().numpy().astype(np.complex128))
        for _ in range(2):  # the second call takes the fast path: it must widen too
            y = bfly.fft.fft(half)
            assert y.dtype == torch.complex64
            np.testing.assert_allclose(y.cpu().numpy(), want, rtol=0, atol=1e-4 * np.abs(want).max())


def test_torch_streams_and_out(rng):
    torch = _torch(True)
    x, xv = to_half(random_values(rng, (8, 4096), True), "float16")
    t = torch.view_as_complex(torch.from_numpy(x).cuda())
    out = torch.empty_like(t)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        assert bfly.fft.fft(t, out=out, half=True) is out
        snapshot = out.clone()  # used at once on the same stream: ordered after bfly's kernels
    stream.synchronize()
    check(as_complex(torch.view_as_real(snapshot).cpu().numpy()), np.fft.fft(as_complex(xv)), "float16")
    assert bfly.fft.fft(t, out=t, half=True) is t  # in place
    check(as_complex(torch.view_as_real(t).cpu().numpy()), np.fft.fft(as_complex(xv)), "float16")


def test_cupy(rng):
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("no CUDA device for CuPy")
    except Exception:
        pytest.skip("no CUDA device for CuPy")
    r, rv = to_half(random_values(rng, (16, 4099), False), "float16")
    d = cupy.asarray(r)
    y = bfly.fft.rfft(d, half=True)
    assert isinstance(y, cupy.ndarray) and y.dtype == np.float16 and y.shape == (16, 2050, 2)
    check(as_complex(cupy.asnumpy(y)), np.fft.rfft(rv), "float16")
    z = bfly.fft.fft2(y, half=True)
    check(as_complex(cupy.asnumpy(z)), np.fft.fft2(as_complex(cupy.asnumpy(y).astype(np.float64))), "float16")
    assert bfly.fft.fft(d).dtype == np.complex64  # NumPy's rule by default


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_multi_pass_on_gpu(rng, fmt):
    torch = _torch(True)
    x, xv = to_half(random_values(rng, (2, 1 << 20), True), fmt)
    dtype = torch.float16 if fmt == "float16" else torch.bfloat16
    t = torch.from_numpy(x.view(np.int16)).cuda().view(dtype)
    y = bfly.fft.fft(t, half=True)
    check(as_complex(values(y.view(torch.int16).cpu().numpy().view(x.dtype), fmt)), np.fft.fft(as_complex(xv)), fmt)
    r, rv = to_half(random_values(rng, (3, 3 << 19), False), fmt)
    t = torch.from_numpy(r.view(np.int16)).cuda().view(dtype)
    y = bfly.fft.rfft(t, half=True)
    spectrum = torch.view_as_real(y) if y.is_complex() else y
    check(as_complex(values(spectrum.view(torch.int16).cpu().numpy().view(r.dtype), fmt)), np.fft.rfft(rv), fmt)


# --- JAX -------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_jax(rng, fmt):
    # JAX's float16 and bfloat16 arrays as they are, results as JAX arrays
    # (complex ones as pairs: JAX has no complex half dtype); on a GPU
    # through PyTorch's DLPack, where both are installed.
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    dtype = jnp.float16 if fmt == "float16" else jnp.bfloat16
    devices = [d for d in jax.devices() if d.platform == "cpu"] if jax.devices()[0].platform == "cpu" else \
        jax.devices()
    for device in devices[:1]:
        r, rv = to_half(random_values(rng, (3, 1000), False), fmt)
        x = jax.device_put(jnp.asarray(r.view(np.uint16)).view(dtype), device)
        y = bfly.fft.rfft(x, half=True)
        assert isinstance(y, jax.Array) and y.dtype == dtype and y.shape == (3, 501, 2)
        got = values(np.asarray(y.view(jnp.uint16)).view(r.dtype), fmt)
        check(as_complex(got), np.fft.rfft(rv), fmt)
        again = bfly.fft.rfft(x, half=True)  # the fast path: the same bits
        assert np.array_equal(np.asarray(again.view(jnp.uint16)), np.asarray(y.view(jnp.uint16)))
        c, cv = to_half(random_values(rng, (4, 96), True), fmt)
        pairs = jax.device_put(jnp.asarray(c.view(np.uint16)).view(dtype), device)
        z = bfly.fft.fft(pairs, half=True)
        check(as_complex(values(np.asarray(z.view(jnp.uint16)).view(c.dtype), fmt)), np.fft.fft(as_complex(cv)), fmt)
        with pytest.raises(TypeError, match="immutable"):
            bfly.fft.fft(pairs, out=pairs, half=True)
