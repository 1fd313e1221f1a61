"""bfly.Plan: one transform, planned and compiled once, run many times."""
import numpy as np

from . import _engine, _half
from ._callbacks import as_callback
from ._transform import cook_nd_args, norm_name, run, swap_norm, warm, working_dtypes

# kind -> (bfly kind, inverse, conjugate the input, conjugate the output, swap the norm)
_KINDS = {
    "fft": ("c2c", False, False, False, False), "ifft": ("c2c", True, False, False, False),
    "rfft": ("r2c", False, False, False, False), "irfft": ("c2r", True, False, False, False),
    "hfft": ("c2r", True, True, False, True), "ihfft": ("r2c", False, False, True, True),
}


class Plan:
    """A transform of arrays of one shape and dtype, reusable.

    Plan(shape, dtype, axes=None, kind="fft", norm=None, device=None, s=None, load=None, store=None, half=False)

    kind: "fft", "ifft", "rfft", "irfft", "hfft" or "ihfft", over `axes`
    (all by default; the last of them is the real one for the real kinds),
    as numpy.fft's n-dimensional functions: ``Plan(x.shape, x.dtype,
    axes=(-1,), kind="rfft")(x)`` equals ``numpy.fft.rfft(x)``. `s` gives
    the output lengths along the axes, as numpy's (crop or pad); for irfft
    and hfft its last entry is the real length (default 2 * (m - 1)).
    device: where NumPy arrays run ("cuda:0", "cpu", ...; default
    $BFLY_DEVICE, else auto). Device arrays (CuPy, PyTorch, JAX) run on
    their own device, which must be the plan's when `device` is given.

    The kernels are compiled here, for C-contiguous arrays; other layouts
    of the same shape are planned on first use and kept in the plan.
    ``plan(x, out=None, stream=None)`` runs it. scipy.fft's `plan=`
    keyword takes a Plan too (one without callbacks).

    load, store: ops fused into the transform's loads of its input (after
    the crop or pad to `s`) and stores of its output, for the kinds fft,
    ifft, rfft and irfft: a string of built-in ops ("hann",
    "hann,scale:0.5", "db"), a bfly.Callback (values, user code, data) or
    a dict of its arguments. A store chain that ends in "magnitude",
    "power" or "db" makes the result real (float32 or float64) of the
    output's shape: ``Plan(x.shape, np.float32, axes=(-1,), kind="rfft",
    load="hann", store="db")(x)`` is ``10 * log10(abs(rfft(x *
    scipy.signal.get_window("hann", n))) ** 2)``.

    half: True, "float16" or "bfloat16" (default False: NumPy's rule): half
    storage, the arrays read and written as they are (16 bits a value),
    computed in float32 (bfly.fft's half=). dtype: float16, bfloat16
    (ml_dtypes', torch's), torch.complex32, or uint16 for raw bits (with
    half naming the format). For the kinds that read complex input, a real
    16-bit dtype means pairs: `shape` ends in the axis of 2 (real,
    imaginary), and axes and s count the axes before it;
    ``Plan(x.shape, x.dtype, kind="fft", half=True)(x)`` holds either way.
    """

    def __init__(self, shape, dtype, axes=None, kind="fft", norm=None, device=None, s=None, load=None, store=None,
                 half=False):
        if kind not in _KINDS:
            raise ValueError(f"kind {kind!r} is not one of {', '.join(_KINDS)}")
        self.load = as_callback(load, "load")
        self.store = as_callback(store, "store")
        if (self.load is not None or self.store is not None) and kind in ("hfft", "ihfft"):
            raise ValueError(f"load and store callbacks are for the kinds fft, ifft, rfft and irfft, not {kind!r}")
        self.shape = tuple(int(n) for n in shape)
        self.half = half or False
        logical = self.shape
        if self.half:  # (the dtype may be torch's)
            self.dtype = dtype
            self._format, logical = _half.plan_shape(self.shape, dtype, half, _KINDS[kind][0])
        else:
            self.dtype = np.dtype(dtype)
        self._logical = logical
        self.kind = kind
        self.norm = norm_name(norm)
        self.device = device
        bkind, self._inverse, self._conj_in, self._conj_out, swap = _KINDS[kind]
        self._bkind = bkind
        self._norm = swap_norm(self.norm) if swap else self.norm
        inverse_real = bkind == "c2r"
        self.s, self.axes = cook_nd_args(logical, s, axes, inverse_real=inverse_real)
        if not self.axes:
            raise ValueError("a Plan needs at least one axis")
        if len(set(self.axes)) != len(self.axes):
            raise ValueError(f"a Plan's axes must be distinct (got {tuple(axes)}); use bfly.fft.fftn for repeats")
        self._lengths = dict(zip(self.axes, self.s))
        self._n_out = None
        if inverse_real:
            self._n_out = self.s[-1]
            self._lengths[self.axes[-1]] = self.s[-1] // 2 + 1
        self._cache = _engine.PlanCache(max_size=16)
        # Compile now, for C-contiguous arrays of this shape (what device
        # arrays on that device and NumPy arrays reuse).
        if self.half:
            _half.warm(self._cache, bkind, self.axes, self._lengths, self._inverse, self._norm, logical,
                       self._format, n_out=self._n_out, device=device, load=self.load, store=self.store)
            return
        working_dtypes(self.dtype, bkind)  # refuses a dtype the kind cannot take
        warm(self._cache, bkind, self.axes, self._lengths, self._inverse, self._norm, self.shape, self.dtype,
             n_out=self._n_out, device=device, load=self.load, store=self.store)

    def __call__(self, x, out=None, stream=None):
        if self.half:
            h = _half.adopt(x, self.half, self._bkind != "r2c")
            if h.fmt != self._format or h.shape != self._logical:
                raise ValueError(f"this plan takes {self.dtype} arrays of shape {self.shape}, not "
                                 f"{getattr(x, 'dtype', '?')} of shape {tuple(x.shape)}")
            return _half.run(h, self._bkind, self.axes, self._lengths, self._inverse, self._norm, out,
                             n_out=self._n_out, conj_in=self._conj_in, conj_out=self._conj_out, device=self.device,
                             stream=stream, cache=self._cache, load=self.load, store=self.store)
        shape = tuple(getattr(x, "shape", np.shape(x)))
        if shape != self.shape:
            raise ValueError(f"this plan takes arrays of shape {self.shape}, not {shape}")
        return run(x, self._bkind, self.axes, self._lengths, self._inverse, self._norm, out, n_out=self._n_out,
                   conj_in=self._conj_in, conj_out=self._conj_out, device=self.device, stream=stream,
                   cache=self._cache, load=self.load, store=self.store)

    def matches(self, kind, shape, axes, s, norm):
        """Whether this plan computes `kind` over `axes` with lengths `s` for arrays of `shape`
        (never where it has callbacks or half storage: it computes something else)."""
        if self.load is not None or self.store is not None or self.half:
            return False
        if kind != self.kind or tuple(shape) != self.shape or norm_name(norm) != self.norm:
            return False
        try:
            s2, axes2 = cook_nd_args(self.shape, s, axes, inverse_real=self._bkind == "c2r")
        except (ValueError, TypeError, IndexError):
            return False
        return list(s2) == list(self.s) and list(axes2) == list(self.axes)

    def describe(self):
        """The bfly problems and passes behind this plan."""
        return "\n".join(tok for e in self._cache._entries.values() for tok in e.tokens())

    def __repr__(self):
        callbacks = "".join(f", {name}={value!r}" for name, value in (("load", self.load), ("store", self.store),
                                                                      ("half", self.half or None))
                            if value is not None)
        return (f"bfly.Plan(shape={self.shape}, dtype={self.dtype}, axes={tuple(self.axes)}, kind={self.kind!r}, "
                f"norm={self.norm!r}, device={self.device!r}{callbacks})")


_INPUT_IS_REAL = {"rfft", "ihfft"}


def warmup(shapes, kinds=("fft",), precisions=("single",), axes=None, device=None):
    """Compiles the kernels of these transforms ahead of their first call.

    warmup(shapes, kinds=("fft",), precisions=("single",), axes=None, device=None)

    shapes: lengths or shape tuples; kinds as Plan's; precisions "single"
    and/or "double" (the input dtype follows the kind: float32/float64 for
    rfft and ihfft, complex64/complex128 otherwise). A size new to the
    device compiles here rather than at its first call, and the kernel
    cache keeps the kernels for later processes too (as ``bfly cache warm``
    does from the command line). Returns the number of plans made.
    """
    names = {"single": (np.complex64, np.float32), "double": (np.complex128, np.float64)}
    for precision in precisions:
        if precision not in names:
            raise ValueError(f"precision {precision!r} is not 'single' or 'double'")
    for kind in kinds:
        if kind not in _KINDS:
            raise ValueError(f"kind {kind!r} is not one of {', '.join(_KINDS)}")
    made = 0
    for shape in shapes:
        shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
        for precision in precisions:
            for kind in kinds:
                complex_dtype, real_dtype = names[precision]
                Plan(shape, real_dtype if kind in _INPUT_IS_REAL else complex_dtype, axes=axes, kind=kind,
                     device=device)
                made += 1
    return made
