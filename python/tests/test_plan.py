"""bfly.Plan and the plan cache behind bfly.fft."""
import bfly
import numpy as np
import pytest
from conftest import assert_close, random_array


@pytest.mark.parametrize("kind,dtype,axes", [("fft", np.complex64, (-1,)), ("ifft", np.complex128, None),
                                             ("rfft", np.float32, (0, 2)), ("irfft", np.complex128, (1, 2)),
                                             ("hfft", np.complex64, (-1,)), ("ihfft", np.float64, (2,))])
def test_plan_equals_numpy_and_is_reusable(rng, kind, dtype, axes):
    shape = (4, 6, 10)
    plan = bfly.Plan(shape, dtype, axes=axes, kind=kind)
    numpy_name = kind + ("n" if kind in ("fft", "ifft", "rfft", "irfft") else "")
    for _ in range(3):
        x = random_array(rng, shape, dtype)
        if kind in ("hfft", "ihfft"):
            want = getattr(np.fft, kind)(x.astype(np.complex128 if kind == "hfft" else np.float64), axis=axes[0])
        else:
            wide = x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
            want = getattr(np.fft, numpy_name)(wide, axes=axes)
        assert_close(plan(x), want)
    x = random_array(rng, shape, dtype)[:, ::-1]  # another layout of the same shape
    assert plan(np.ascontiguousarray(x)).shape == plan(x).shape


def test_plan_out_and_norm(rng):
    x = random_array(rng, (8, 16), np.complex64)
    plan = bfly.Plan(x.shape, x.dtype, kind="ifft", norm="ortho")
    out = np.full(x.shape, np.nan, np.complex64)
    assert plan(x, out=out) is out
    assert_close(out, np.fft.ifftn(x.astype(np.complex128), norm="ortho"))
    assert "c2c_f32_inv_8x16" in plan.describe()


def test_cache_bound_and_clear(rng):
    bfly.plan_cache.clear()
    old = bfly.plan_cache.max_size
    try:
        bfly.plan_cache.max_size = 3
        for n in (8, 9, 10, 11, 12):
            bfly.fft.fft(random_array(rng, (n,), np.complex64))
        assert len(bfly.plan_cache) == 3
        info = bfly.plan_cache.info()
        assert info["size"] == 3 and any("_12_" in t for t in info["plans"])
        hits = info["hits"]
        bfly.fft.fft(random_array(rng, (12,), np.complex64))
        assert bfly.plan_cache.info()["hits"] == hits + 1
        bfly.plan_cache.clear()
        assert len(bfly.plan_cache) == 0
        bfly.plan_cache.max_size = 0  # no caching at all: still correct
        x = random_array(rng, (20,), np.complex128)
        assert_close(bfly.fft.fft(x), np.fft.fft(x))
        assert len(bfly.plan_cache) == 0
    finally:
        bfly.plan_cache.max_size = old


def test_threads_share_the_cache(rng):
    from concurrent.futures import ThreadPoolExecutor
    xs = [random_array(rng, (4, n), np.complex64) for n in (16, 24, 16, 24, 30, 16) * 3]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(bfly.fft.fft, xs))
    for x, y in zip(xs, results):
        assert_close(y, np.fft.fft(x.astype(np.complex128)))


def test_a_plan_that_compiles_says_so_through_logging(rng, caplog):
    """A size new to the device and the kernel cache compiles first: past a
    second, the plan logs why it waits (logger "bfly", INFO) and when its
    kernels are made, and never prints; a faster compile logs nothing."""
    caplog.set_level("INFO", logger="bfly")
    n = 4111 + 2 * int(rng.integers(0, 1000))  # odd, and likely new to this process
    x = random_array(rng, (n,), np.complex64)
    assert_close(bfly.fft.fft(x), np.fft.fft(x.astype(np.complex128)))
    told = [r for r in caplog.records if r.name == "bfly"]
    assert all(r.levelname == "INFO" for r in told)
    assert len(told) in (0, 2), [r.getMessage() for r in told]
    if told:
        assert told[0].getMessage().startswith("compiling ") and f"_{n}_" in told[0].getMessage()
        assert " made in " in told[1].getMessage()


def test_warmup_compiles_ahead_and_refuses_bad_names(rng):
    """bfly.warmup plans each shape, kind and precision (the input dtype
    following the kind), so the first call after it compiles nothing new."""
    assert bfly.warmup([60, (3, 40)], kinds=("fft", "rfft"), precisions=("single", "double")) == 8
    x = random_array(rng, (3, 40), np.float64)
    assert_close(bfly.fft.rfftn(x), np.fft.rfftn(x))
    with pytest.raises(ValueError, match="sideways"):
        bfly.warmup([8], kinds=("sideways",))
    with pytest.raises(ValueError, match="half"):
        bfly.warmup([8], precisions=("half",))


@pytest.mark.parametrize("tier", ["generic", "tiered"])
def test_set_tier_runs_new_sizes_by_the_generic_tier(rng, tier):
    """bfly.set_tier("generic") plans every new size by the fixed kernels
    (nothing compiled for it) and "tiered" answers by them while the
    specialised ones are made; results match numpy either way, in both
    precisions and for real transforms; a bad name is refused by name."""
    try:
        bfly.set_tier(tier)
        for n, dtype in [(4099, np.complex128), (1536, np.complex64), (245, np.float32)]:
            x = random_array(rng, (2, n), dtype)
            want = np.fft.rfft(x.astype(np.float64)) if dtype == np.float32 else np.fft.fft(x.astype(np.complex128))
            got = bfly.fft.rfft(x) if dtype == np.float32 else bfly.fft.fft(x)
            assert_close(got, want)
        from bfly import _core, _engine
        described = _core.CorePlan(_engine.default_device(), "c2c_f32_fwd_4111_b2_oop_none").describe()
        assert "generic tier" in described or tier == "tiered", described
        with pytest.raises(ValueError, match="sideways"):
            bfly.set_tier("sideways")
    finally:
        bfly.set_tier("default")
