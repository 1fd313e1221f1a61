"""bfly.scipy_fft's DCT and DST (dct, idct, dst, idst, dctn, idctn, dstn,
idstn) against direct sums of scipy's definitions in float64, through
scipy's dispatch with only=True; dtypes and errors as scipy's."""
import numpy as np
import pytest

scipy_fft = pytest.importorskip("scipy.fft")

import bfly  # noqa: E402  (after the skip: without SciPy nothing here runs)


def matrix(name, kind, n, norm, orthogonalize):
    """scipy's dct / dst (idct / idst: the inverse) of type `kind` on n
    points as a matrix of the definitions, with the norm and orthogonalize."""
    family, inverse = name.rstrip("n").lstrip("i"), name.startswith("i")
    t = {2: 3, 3: 2}.get(kind, kind) if inverse else kind
    k, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    if family == "dct":
        m = {1: lambda: 2 * np.cos(np.pi * k * j / max(n - 1, 1)),
             2: lambda: 2 * np.cos(np.pi * k * (2 * j + 1) / (2 * n)),
             3: lambda: 2 * np.cos(np.pi * (2 * k + 1) * j / (2 * n)),
             4: lambda: 2 * np.cos(np.pi * (2 * k + 1) * (2 * j + 1) / (4 * n))}[t]()
        if t == 1:
            m[:, 0], m[:, -1] = 1, (-1.0) ** np.arange(n)
        if t == 3:
            m[:, 0] = 1
    else:
        m = {1: lambda: 2 * np.sin(np.pi * (k + 1) * (j + 1) / (n + 1)),
             2: lambda: 2 * np.sin(np.pi * (k + 1) * (2 * j + 1) / (2 * n)),
             3: lambda: 2 * np.sin(np.pi * (2 * k + 1) * (j + 1) / (2 * n)),
             4: lambda: 2 * np.sin(np.pi * (2 * k + 1) * (2 * j + 1) / (4 * n))}[t]()
        if t == 3:
            m[:, -1] = (-1.0) ** np.arange(n)
    if orthogonalize and (family == "dct" or t in (2, 3)):
        edge = [0, n - 1] if t == 1 else [0] if family == "dct" else [n - 1]
        if t in (1, 3):
            m[:, edge] *= np.sqrt(2)
        if t in (1, 2):
            m[edge, :] /= np.sqrt(2)
    length = {("dct", 1): 2 * (n - 1), ("dst", 1): 2 * (n + 1)}.get((family, kind), 2 * n)
    scale = {"ortho": length ** -0.5, "forward": 1.0 if inverse else 1.0 / length}.get(
        norm, 1.0 / length if inverse else 1.0)
    return m * scale


def reference(name, kind, x, axes, lengths, norm, orthogonalize):
    y = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    for axis, n in zip(axes, lengths):
        moved = np.moveaxis(y, axis, -1)
        padded = np.zeros(moved.shape[:-1] + (n,), moved.dtype)
        keep = min(n, moved.shape[-1])
        padded[..., :keep] = moved[..., :keep]
        y = np.moveaxis(padded @ matrix(name, kind, n, norm, orthogonalize).T, -1, axis)
    return y


def relative_error(got, want):
    return np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300)


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("kind", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_one_axis(rng, name, kind, norm):
    # Every length 2..40 once over the cases (odd, even, prime), alternating
    # precision, orthogonalize and the axis.
    for n in range(2 + kind, 41, 5):
        single = (n + kind) % 2 == 0
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32 if single else np.float64)
        orthogonalize = [None, True, False][n % 3]
        with scipy_fft.set_backend(bfly.scipy_fft, only=True):
            got = getattr(scipy_fft, name)(x, kind, axis=0, norm=norm, orthogonalize=orthogonalize)
        want = reference(name, kind, x, [0], [n], norm, norm == "ortho" if orthogonalize is None else orthogonalize)
        assert got.dtype == x.dtype
        assert relative_error(got, want) < (1e-6 if single else 1e-14)


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_nd_axes_and_s(rng, name, kind):
    x = rng.uniform(-1, 1, (4, 7, 5, 3))
    for s, axes in [(None, None), ((6, 9), (1, 3)), ((5,), None), (None, (0, -2))]:
        with scipy_fft.set_backend(bfly.scipy_fft, only=True):
            got = getattr(scipy_fft, name)(x, kind, s=s, axes=axes, norm="ortho")
        rank = x.ndim
        resolved = list(range(rank)) if axes is None and s is None else (
            [a % rank for a in axes] if axes is not None else list(range(rank - len(s), rank)))
        lengths = [x.shape[a] for a in resolved] if s is None else list(s)
        assert relative_error(got, reference(name, kind, x, resolved, lengths, "ortho", True)) < 1e-14


@pytest.mark.parametrize("dtype, returned", [(np.float16, np.float32), (np.int16, np.float64),
                                             (np.bool_, np.float64), (np.complex64, np.complex64),
                                             (np.dtype(">f8"), np.float64)])
def test_dtypes_as_scipy(rng, dtype, returned):
    x = (rng.uniform(-1, 1, 12) * (1 + 1j if np.dtype(dtype).kind == "c" else 10)).astype(dtype)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        got = scipy_fft.dst(x, 3, norm="ortho")
    assert got.dtype == returned
    want = scipy_fft.dst(x, 3, norm="ortho")  # scipy's own (complex: real and imaginary parts apart)
    assert relative_error(got, want) < (1e-6 if np.dtype(returned) in (np.float32, np.complex64) else 1e-14)


def test_errors_as_scipy():
    x = np.ones(4)
    with scipy_fft.set_backend(bfly.scipy_fft, only=True):
        with pytest.raises(ValueError, match="invalid number of data points"):
            scipy_fft.dct(x, n=0)
        with pytest.raises(ValueError, match="Invalid norm value"):
            scipy_fft.idst(x, norm="bad")
        with pytest.raises(ValueError, match="all axes must be unique"):
            scipy_fft.dctn(np.ones((2, 2)), axes=(0, 0))
        with pytest.raises(ValueError, match="type"):
            scipy_fft.dct(x, type=5)
        with pytest.raises(RuntimeError):
            scipy_fft.dct(np.ones(1), type=1)  # scipy: "zero-length FFT requested"
        assert scipy_fft.dst(np.ones(1), type=1)[0] == 2
        assert scipy_fft.dctn(x, axes=()) is x
