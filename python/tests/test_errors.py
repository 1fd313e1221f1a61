"""Bad input raises the Python exception numpy raises, with a clear message,
and never crashes."""
import numpy as np
import pytest

import bfly
from bfly._transform import AxisError


def test_bad_n():
    x = np.ones(8, np.complex64)
    for n in (0, -3):
        with pytest.raises(ValueError, match=f"Invalid number of FFT data points \\({n}\\)"):
            bfly.fft.fft(x, n=n)
    with pytest.raises(ValueError, match="Invalid number"):
        bfly.fft.fftn(x, s=(0,), axes=(0,))
    with pytest.raises(ValueError, match="Invalid number of FFT data points \\(0\\)"):
        bfly.fft.irfft(np.ones(1, np.complex64))  # default n = 2 * (1 - 1)
    with pytest.raises(TypeError):
        bfly.fft.fft(x, n=2.5)


def test_axis_out_of_range():
    x = np.ones((4, 5))
    with pytest.raises(AxisError):
        bfly.fft.fft(x, axis=2)
    with pytest.raises(AxisError):
        bfly.fft.fftn(x, axes=(0, -3))
    with pytest.raises(AxisError):
        bfly.fft.fft(np.float32(3.0))
    assert issubclass(AxisError, ValueError) and issubclass(AxisError, IndexError)


def test_wrong_dtype():
    with pytest.raises(TypeError, match="dtype"):
        bfly.fft.fft(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="real input"):
        bfly.fft.rfft(np.ones(8, np.complex64))
    with pytest.raises(TypeError):
        bfly.fft.fft(np.array([object(), object()]))


def test_bad_norm_and_s():
    with pytest.raises(ValueError, match="Invalid norm value 'sideways'"):
        bfly.fft.fft(np.ones(4), norm="sideways")
    with pytest.raises(ValueError, match="different lengths"):
        bfly.fft.fftn(np.ones((4, 4)), s=(4, 4), axes=(0,))


def test_bad_out():
    x = np.ones((4, 8), np.complex64)
    with pytest.raises(ValueError, match="wrong shape"):
        bfly.fft.fft(x, out=np.empty((4, 7), np.complex64))
    with pytest.raises(TypeError, match="Cannot cast"):
        bfly.fft.fft(x, out=np.empty((4, 8), np.float32))


def test_bad_device():
    with pytest.raises(ValueError):
        bfly.fft.fft(np.ones(4), device="opencl:99:0")
    with pytest.raises(TypeError):
        bfly.fft.fft(np.ones(4), device=3.5)


def test_bad_plan_arguments():
    with pytest.raises(ValueError, match="kind"):
        bfly.Plan((8,), np.complex64, kind="dct")
    plan = bfly.Plan((8,), np.complex64, kind="fft")
    with pytest.raises(ValueError, match="shape"):
        plan(np.ones(9, np.complex64))
    with pytest.raises(ValueError, match="max_size"):
        bfly.plan_cache.max_size = -1
