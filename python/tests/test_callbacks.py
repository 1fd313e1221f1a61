"""Load and store callbacks (issue 42) from Python: bfly.Plan's load= and
store=, bfly.fft's window= and bfly.fft.spectrum, against numpy.fft in double
precision on input multiplied by scipy.signal.get_window's windows (numpy's
formulas where scipy is missing); the output dtype of stores of reals; masks
and windows of the caller's values laid out by the arrays' strides; user
code with and without data; and the errors a bad callback gets."""
import bfly
import numpy as np
import pytest
from conftest import FRAMEWORKS

# Single precision's bar against numpy in double (the C++ accuracy suite's,
# tests/accuracy/test_callbacks.cpp); dB is compared as the power it says.
SINGLE = 2e-6
DOUBLE = 1e-12


def window(name, n):
    """scipy.signal.get_window(name, n): the periodic window."""
    try:
        from scipy.signal import get_window
        return get_window(name, n)
    except ImportError:
        pass
    if n == 1:
        return np.ones(1)
    # numpy's windows are symmetric: the periodic one is n of n + 1 points.
    if isinstance(name, tuple):
        return np.kaiser(n + 1, name[1])[:-1]
    return {"hann": np.hanning, "hamming": np.hamming, "blackman": np.blackman}[name](n + 1)[:-1]


def windowed(x, axes, name):
    """x times the product of the window along each of `axes`, in double."""
    x = np.asarray(x)
    x = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    for axis in axes:
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        x = x * window(name, x.shape[axis]).reshape(shape)
    return x


def relative_error(got, want):
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    return np.linalg.norm((got - want).ravel()) / max(np.linalg.norm(want.ravel()), 1e-300)


def assert_close(got, want, bar=SINGLE):
    got = np.asarray(got)
    assert got.shape == np.shape(want), f"shape {got.shape} != {np.shape(want)}"
    assert np.all(np.isfinite(got)), "non-finite values in the result"
    error = relative_error(got, want)
    assert error <= bar, f"relative error {error:.3g} > {bar:g}"


def as_spectrum(values, mode):
    """numpy's |X|, |X|^2 or |X|^2 again from bfly's dB (compared as power)."""
    values = np.asarray(values, np.float64)
    return 10 ** (values / 10) if mode == "db" else values


def reference_spectrum(spectrum, mode):
    return np.abs(spectrum) if mode == "magnitude" else np.abs(spectrum) ** 2


WINDOWS = [("hann", "hann"), ("hamming", "hamming"), ("blackman", "blackman"), ("kaiser:8.6", ("kaiser", 8.6))]


@pytest.mark.parametrize("ops,name", WINDOWS, ids=[w[0] for w in WINDOWS])
@pytest.mark.parametrize("kind", ["fft", "rfft"])
def test_windows_on_loads(rng, ops, name, kind):
    dtype = np.complex64 if kind == "fft" else np.float32
    x = (rng.standard_normal((3, 1000)) + (1j * rng.standard_normal((3, 1000)) if kind == "fft" else 0)).astype(dtype)
    want = getattr(np.fft, kind)(windowed(x, [1], name))
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind=kind, load=ops)
    assert_close(plan(x), want)
    # bfly.fft's window= (names as scipy.signal.get_window's).
    assert_close(getattr(bfly.fft, kind)(x, window=name), want)


@pytest.mark.parametrize("mode", ["magnitude", "power", "db"])
@pytest.mark.parametrize("kind", ["fft", "rfft"])
def test_stores_of_reals(rng, mode, kind):
    dtype = np.complex64 if kind == "fft" else np.float32
    x = (rng.standard_normal((5, 1024)) + (1j * rng.standard_normal((5, 1024)) if kind == "fft" else 0)).astype(dtype)
    want = reference_spectrum(getattr(np.fft, kind)(windowed(x, [1], "hann")), mode)
    y = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind=kind, load="hann", store=mode)(x)
    assert y.dtype == np.float32, "a store chain ending in a real stores float32"
    assert_close(as_spectrum(y, mode), want)
    s = bfly.fft.spectrum(x, window="hann", mode=mode)
    assert s.dtype == np.float32
    assert_close(as_spectrum(s, mode), want)


# Rows long enough for several passes (the four-step's columns first): the
# real side's callbacks (an R2C's loads, a C2R's stores) then see its reals
# as complex points, two reals each.
LONG_ROWS = [
    pytest.param("rfft", 16384, "hann", "db", id="rfft-16384-hann-db"),
    pytest.param("irfft", 32768, "hann", "scale:0.5", id="irfft-32768-hann-scale"),
    pytest.param("rfft", 65536, None, "power", id="rfft-65536-power"),
    pytest.param("irfft", 16384, "hann", None, id="irfft-16384-hann"),
    pytest.param("fft", 1 << 18, "blackman", "magnitude", id="fft-262144-blackman-magnitude"),
]


@pytest.mark.parametrize("kind,n,load,store", LONG_ROWS)
def test_long_rows(rng, kind, n, load, store):
    m = n // 2 + 1 if kind == "irfft" else n
    x = rng.standard_normal((2, m))
    if kind != "rfft":
        x = x + 1j * rng.standard_normal((2, m))
    x = x.astype(np.float32 if kind == "rfft" else np.complex64)
    y = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind=kind, load=load, store=store, s=(n,))(x)
    want = getattr(np.fft, kind)(windowed(x, [1], load) if load else x.astype(np.complex128 if kind != "rfft"
                                                                               else np.float64), n)
    if store == "scale:0.5":
        want = want * 0.5
    elif store in ("magnitude", "power", "db"):
        want = reference_spectrum(want, store)
        y = as_spectrum(y, store)
    assert_close(y, want)


def test_double_precision_and_scale(rng):
    x = rng.standard_normal((2, 360))
    y = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", load="hann,scale:0.5", store="power")(x)
    assert y.dtype == np.float64
    assert_close(y, np.abs(np.fft.rfft(windowed(x, [1], "hann") * 0.5)) ** 2, DOUBLE)
    c = (rng.standard_normal(256) + 1j * rng.standard_normal(256)).astype(np.complex64)
    assert_close(bfly.Plan(c.shape, c.dtype, load="blackman", store="scale:0.25")(c),
                 np.fft.fft(windowed(c, [0], "blackman")) * 0.25)


def test_norm_then_store(rng):
    x = rng.standard_normal((4, 512)).astype(np.float32)
    got = bfly.fft.spectrum(x, norm="ortho", mode="power")
    assert_close(got, np.abs(np.fft.rfft(x.astype(np.float64), norm="ortho")) ** 2)


def test_windows_2d(rng):
    x = rng.standard_normal((48, 64)).astype(np.float32)
    want = np.fft.rfft2(windowed(x, [0, 1], "hann"))
    assert_close(bfly.fft.rfft2(x, window="hann"), want)
    assert_close(bfly.Plan(x.shape, x.dtype, axes=(0, 1), kind="rfft", load="hann")(x), want)
    c = (rng.standard_normal((4, 30, 40)) + 1j * rng.standard_normal((4, 30, 40))).astype(np.complex64)
    assert_close(bfly.fft.fftn(c, axes=(1, 2), window="hamming"), np.fft.fftn(windowed(c, [1, 2], "hamming"),
                                                                              axes=(1, 2)))
    # Along a strided axis alone: columns.
    assert_close(bfly.fft.fft(c, axis=1, window="blackman"), np.fft.fft(windowed(c, [1], "blackman"), axis=1))


def test_window_after_padding(rng):
    x = rng.standard_normal((3, 100)).astype(np.float32)
    got = bfly.fft.rfft(x, n=128, window="hann")
    padded = np.zeros((3, 128))
    padded[:, :100] = x
    assert_close(got, np.fft.rfft(padded * window("hann", 128)))


def test_zero_padding_op(rng):
    # pad:N reads the points at N or past as zero, whatever the array holds
    # there (NaN here), along each transformed axis.
    x = rng.standard_normal((3, 1000)).astype(np.float32)
    x[:, 700:] = np.nan
    kept = np.where(np.isnan(x), 0, x)
    assert_close(bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", load="pad:700")(x), np.fft.rfft(kept))
    c = (rng.standard_normal((40, 50)) + 1j * rng.standard_normal((40, 50))).astype(np.complex64)
    c[30:, :] = np.nan
    c[:, 45:] = np.nan
    kept = np.where(np.isnan(c), 0, c)
    assert_close(bfly.Plan(c.shape, c.dtype, axes=(0, 1), load="pad:30x45")(c), np.fft.fft2(kept))
    with pytest.raises(ValueError, match="'pad' is a load op"):
        bfly.Plan(c.shape, c.dtype, store="pad:10")


def test_window_of_values(rng):
    x = (rng.standard_normal((3, 384)) + 1j * rng.standard_normal((3, 384))).astype(np.complex64)
    w = 1 + 0.01 * (np.arange(384) % 17)
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), load=bfly.Callback("window", values=w))
    assert_close(plan(x), np.fft.fft(x.astype(np.complex128) * w))
    # Several axes: one window each, in the order of the plan's axes.
    y = rng.standard_normal((24, 40)).astype(np.float32)
    w0, w1 = np.linspace(0.5, 1.5, 24), np.cos(np.linspace(0, 3, 40))
    want = np.fft.fft2(y.astype(np.float64) * np.outer(w0, w1))
    assert_close(bfly.Plan(y.shape, np.complex64, axes=(0, 1), load=bfly.Callback("window", values=[w0, w1]))(y),
                 want)
    assert_close(bfly.Plan(y.shape, np.complex64, axes=(1, 0), load={"ops": "window", "values": [w1, w0]})(y), want)
    with pytest.raises(ValueError, match="'window' has 5 values; it needs 384"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load=bfly.Callback("window", values=np.ones(5)))


def test_masks(rng):
    x = rng.standard_normal((4, 1024)).astype(np.float32)
    keep = (np.arange(513) % 3 != 0).astype(np.float64) * np.linspace(0.5, 2, 4)[:, None]
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", store=bfly.Callback("mask", values=keep))
    want = np.fft.rfft(x.astype(np.float64)) * keep
    assert_close(plan(x), want)
    # Into a strided out=: the values stay with their elements, not their offsets.
    wide = np.full((4, 1026), np.nan, np.complex64)
    assert plan(x, out=wide[:, ::2]) is not None
    assert_close(wide[:, ::2], want)
    assert np.all(np.isnan(wide[:, 1::2])), "elements out= skips were written"
    # On loads, and before a store of reals.
    c = (rng.standard_normal((2, 256)) + 1j * rng.standard_normal((2, 256))).astype(np.complex64)
    gate = (np.arange(512).reshape(2, 256) % 5 != 0).astype(np.float64)
    got = bfly.Plan(c.shape, c.dtype, axes=(-1,), load=bfly.Callback("mask", values=gate), store="magnitude")(c)
    assert got.dtype == np.float32
    assert_close(got, np.abs(np.fft.fft(c.astype(np.complex128) * gate)))
    with pytest.raises(ValueError, match="'mask' has 7 values; it needs 2052"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", store=bfly.Callback("mask", values=np.ones(7)))


def test_user_code(rng):
    c = (rng.standard_normal((2, 256)) + 1j * rng.standard_normal((2, 256))).astype(np.complex64)
    plan = bfly.Plan(c.shape, c.dtype, axes=(-1,), load=bfly.Callback(code="return cmake(v.x * 2, -v.y);"))
    assert_close(plan(c), np.fft.fft(2 * c.real.astype(np.float64) - 1j * c.imag))
    # The offset: a flat index in a C-ordered array; the caller's reals as data.
    x = rng.standard_normal((3, 210)).astype(np.float32)
    factors = np.arange(1, 8, dtype=np.float64)  # cast to float32 for the plan
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft",
                     load=bfly.Callback(code="return v * data[o % 7];", data=factors))
    flat = np.arange(x.size).reshape(x.shape)
    assert_close(plan(x), np.fft.rfft(x.astype(np.float64) * factors[flat % 7]))
    # Complex data on stores (cdata), code after a window.
    spin = np.exp(2j * np.pi * rng.random(c.shape))
    plan = bfly.Plan(c.shape, c.dtype, axes=(-1,), load="hann",
                     store={"ops": "code", "code": "return cmul(v, cdata[o]);", "data": spin})
    assert_close(plan(c), np.fft.fft(windowed(c, [1], "hann")) * spin)


def test_fast_path_keeps_calls_apart(rng):
    # The repeated-call table is keyed by window too: a plain call after a
    # windowed one (and back) gets its own plan.
    x = rng.standard_normal((2, 512)).astype(np.float32)
    plain, hann = np.fft.rfft(x.astype(np.float64)), np.fft.rfft(windowed(x, [1], "hann"))
    for _ in range(3):
        assert_close(bfly.fft.rfft(x), plain)
        assert_close(bfly.fft.rfft(x, window="hann"), hann)
        assert_close(as_spectrum(bfly.fft.spectrum(x, mode="db"), "db"), np.abs(plain) ** 2)


def test_out_of_a_store_of_reals(rng):
    x = rng.standard_normal((2, 256)).astype(np.float32)
    out = np.empty((2, 129), np.float32)
    got = bfly.fft.spectrum(x, out=out, mode="power", window="hann")
    assert got is out
    assert_close(out, np.abs(np.fft.rfft(windowed(x, [1], "hann"))) ** 2)
    # A complex spectrum's n points for complex input.
    c = (rng.standard_normal(100) + 1j * rng.standard_normal(100)).astype(np.complex64)
    got = bfly.fft.spectrum(c, mode="magnitude")
    assert got.shape == (100,) and got.dtype == np.float32
    assert_close(got, np.abs(np.fft.fft(c.astype(np.complex128))))


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=[f[0] for f in FRAMEWORKS])
def test_frameworks(rng, framework):
    name, to_fw, to_np = framework
    x = rng.standard_normal((8, 4096)).astype(np.float32)
    xd = to_fw(x)
    db = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", load="hann", store="db")(xd)
    assert type(db) is type(xd), f"{name} in, {type(db).__name__} out"
    assert_close(as_spectrum(to_np(db), "db"), np.abs(np.fft.rfft(windowed(x, [1], "hann"))) ** 2)
    assert_close(to_np(bfly.fft.rfft(xd, window="hann")), np.fft.rfft(windowed(x, [1], "hann")))
    if name in ("cupy", "torch"):  # data where it lies
        factors = to_fw(np.arange(1, 8, dtype=np.float32))
        plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft",
                         load=bfly.Callback(code="return v * data[o % 7];", data=factors))
        flat = np.arange(x.size).reshape(x.shape)
        assert_close(to_np(plan(xd)), np.fft.rfft(x.astype(np.float64) * (flat % 7 + 1)))


def test_bad_callbacks():
    x = np.ones((2, 64), np.complex64)
    with pytest.raises(ValueError, match="load callback: unknown op 'hanning'"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load="hanning")
    with pytest.raises(ValueError, match="store callback: unknown op 'decibels'"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), store="decibels")
    with pytest.raises(ValueError, match="bad number 'x' in 'scale:x'"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load="scale:x")
    with pytest.raises(ValueError, match="'power' is a store op"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load="power")
    with pytest.raises(ValueError, match="after magnitude, power or db"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), store="power,scale:2")
    with pytest.raises(ValueError, match="needs a complex output"):
        bfly.Plan((2, 64), np.complex64, axes=(-1,), kind="irfft", store="db")
    with pytest.raises(ValueError, match="the code never returns"):
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load=bfly.Callback(code="v.x += 1;"))
    # Code the compiler refuses: its message, at the code's line (OpenCL's
    # compilers say "load callback:2:5: ...", NVRTC "load callback line 2: ...").
    with pytest.raises(RuntimeError, match="load callback(:| line )2") as refused:
        bfly.Plan(x.shape, x.dtype, axes=(-1,), load=bfly.Callback(code="cpx w = v;\nw = not_declared(w);\nreturn w;"))
    assert "not_declared" in str(refused.value)
    # The Python side's own refusals.
    with pytest.raises(ValueError, match="window 'hanning' is not one of"):
        bfly.fft.fft(x, window="hanning")
    with pytest.raises(ValueError, match="mode 'psd' is not one of"):
        bfly.fft.spectrum(x, mode="psd")
    with pytest.raises(TypeError, match="load= takes None, a string of ops"):
        bfly.Plan(x.shape, x.dtype, load=3)
    with pytest.raises(ValueError, match="needs ops"):
        bfly.Callback()
    with pytest.raises(ValueError, match="not 'hfft'"):
        bfly.Plan(x.shape, x.dtype, kind="hfft", store="power")
    with pytest.raises(ValueError, match="window= needs distinct axes"):
        bfly.fft.fftn(x, axes=(1, 1), window="hann")
    with pytest.raises(ValueError, match="one launch"):
        bfly.fft.fftn(np.ones((2, 3, 4, 5), np.complex64), window="hann")


def test_scipy_plan_with_callbacks_is_not_taken():
    scipy_fft = pytest.importorskip("scipy.fft")
    x = np.ones((2, 64), np.complex64)
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), load="hann")
    assert not plan.matches("fft", x.shape, [-1], None, None)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True), pytest.raises(ValueError, match="not made for this call"):
        scipy_fft.fft(x, plan=plan)
