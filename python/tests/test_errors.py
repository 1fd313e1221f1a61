"""Bad input raises the Python exception numpy raises, with a clear message,
and never crashes."""
import os
import subprocess
import sys

import bfly
import numpy as np
import pytest
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


def test_bad_device_from_the_environment_names_the_variable():
    # In a child: the default device is opened once per process.
    code = "import numpy, bfly; bfly.fft.fft(numpy.ones(4))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=dict(os.environ, BFLY_DEVICE="banana"), timeout=120)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "ValueError" in last and "BFLY_DEVICE=banana" in last, result.stderr


def test_bad_plan_arguments():
    with pytest.raises(ValueError, match="kind"):
        bfly.Plan((8,), np.complex64, kind="dct")
    plan = bfly.Plan((8,), np.complex64, kind="fft")
    with pytest.raises(ValueError, match="shape"):
        plan(np.ones(9, np.complex64))
    with pytest.raises(ValueError, match="max_size"):
        bfly.plan_cache.max_size = -1


def _child(code, address_space=None):
    """Runs `code` in a fresh interpreter (a crash there fails the test, not
    the session); address_space caps it (ulimit -v) once bfly has opened
    its device. Returns (exit status, stdout + stderr)."""
    import subprocess
    import sys
    import textwrap
    prelude = "import resource, numpy as np, bfly\nbfly._engine.default_device()\n"
    if address_space is not None:
        prelude += ("vm = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024\n"
                    f"resource.setrlimit(resource.RLIMIT_AS, (vm + {address_space}, resource.RLIM_INFINITY))\n")
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_read_only_out_is_refused():
    x = np.ones((4, 8), np.complex64)
    r = np.ones((4, 8), np.float32)
    cases = [(bfly.fft.fft, x, (4, 8), np.complex64), (bfly.fft.ifftn, x, (4, 8), np.complex64),
             (bfly.fft.rfft, r, (4, 5), np.complex64), (bfly.fft.irfft, x, (4, 14), np.float32),
             (bfly.fft.hfft, x, (4, 14), np.float32), (bfly.fft.ihfft, r, (4, 5), np.complex64),
             (bfly.fft.fft, x, (4, 8), np.complex128)]  # out of another dtype: a copy into it
    for function, a, shape, dtype in cases:
        out = np.zeros(shape, dtype)
        out.flags.writeable = False
        with pytest.raises(ValueError, match="output array is read-only"):
            function(a, out=out)
        assert not out.any(), f"{function.__name__} wrote into a read-only out"
    plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="fft")
    out = np.zeros(x.shape, x.dtype)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="output array is read-only"):
        plan(x, out=out)
    x.flags.writeable = False  # in place on a read-only input
    with pytest.raises(ValueError, match="output array is read-only"):
        bfly.fft.fft(x, out=x)


def test_read_only_memmap_out_does_not_crash(tmp_path):
    # Writing a read-only memmap (PROT_READ) segfaulted the interpreter.
    path = tmp_path / "out.npy"
    np.save(path, np.zeros((4, 8), np.complex64))
    status, output = _child(f"""
        out = np.load({str(path)!r}, mmap_mode="r")
        x = np.ones((4, 8), np.complex64)
        for call in (lambda: bfly.fft.fft(x, out=out), lambda: bfly.fft.fftn(x, out=out),
                     lambda: bfly.fft.rfft(np.ones((4, 14), np.float32), out=out),
                     lambda: bfly.Plan(x.shape, x.dtype)(x, out=out)):
            try:
                call()
                print("written")
            except ValueError as e:
                print(e)
        """)
    assert status == 0, output
    assert output.split("\n")[:4] == ["output array is read-only"] * 4, output
    assert not np.load(path).any()


def _capsule_producer(read_only):
    """A CUDA complex64 array of shape (8,) that exists only as DLPack 1.0
    capsules (no GPU needed: bfly reads the capsule, then refuses)."""
    import ctypes

    class Tensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                    ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64)]

    class Versioned(ctypes.Structure):
        _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                    ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", Tensor)]

    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype, new_capsule.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

    class Producer:
        shape, dtype, ndim = (8,), np.dtype(np.complex64), 1

        def __init__(self):
            self._shape = (ctypes.c_int64 * 1)(8)
            self._managed = Versioned(1, 0, None, None, int(read_only),
                                      Tensor(0x10000, 2, 0, 1, 5, 64, 1, self._shape, None, 0))
            self._name = b"dltensor_versioned"

        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, stream=None, max_version=None):
            assert max_version is not None and max_version[0] >= 1, "bfly must ask for a DLPack 1.0 capsule"
            return new_capsule(ctypes.addressof(self._managed), self._name, None)

    return Producer()


class _CudaArrayInterface:
    shape, dtype, ndim = (8,), np.dtype(np.complex64), 1

    def __init__(self, read_only):
        self.__cuda_array_interface__ = {"shape": (8,), "typestr": "<c8", "data": (0x10000, read_only),
                                         "version": 3, "strides": None}


def test_read_only_device_out_is_refused():
    # The producer's own read-only flag (a DLPack 1.0 capsule's, or
    # __cuda_array_interface__'s), refused before any device is opened.
    for make in (_capsule_producer, _CudaArrayInterface):
        with pytest.raises(ValueError, match="output array is read-only"):
            bfly.fft.fft(make(False), out=make(True))


def test_too_large_raises_memory_error():
    # Refused from the shapes, before any allocation: one line naming both numbers.
    small = np.random.default_rng(0).random(8)
    for call in (lambda: bfly.fft.fft(small, n=2 ** 40), lambda: bfly.fft.rfft(small, n=2 ** 40),
                 lambda: bfly.fft.irfft(small, n=2 ** 40), lambda: bfly.fft.fftn(small, s=(2 ** 40,), axes=(0,)),
                 lambda: bfly.Plan((2 ** 40,), np.complex64), lambda: bfly.Plan((2 ** 20, 2 ** 20), np.float32,
                                                                                kind="rfft")):
        with pytest.raises(MemoryError, match=r"bfly: the transform needs .*\d+ bytes.* \d+ bytes") as error:
            call()
        assert "\n" not in str(error.value)
    # bfly's own OutOfMemory (here a buffer past the device's largest
    # allocation) is a MemoryError too, not a RuntimeError.
    with pytest.raises(MemoryError, match="bytes"):
        bfly._core.CorePlan(bfly._engine.default_device(), "c2c", "single", False, "backward", [2 ** 40], [], 1, [],
                            0, [], 0, False)


def test_just_past_host_memory_raises_memory_error():
    # A transform needing a little more than the host has left (here capped
    # by ulimit -v, so nothing big is ever touched): MemoryError from the
    # shapes, where it was a PoCL assertion that aborted the interpreter.
    status, output = _child("""
        def available():
            meminfo = int(open('/proc/meminfo').read().split('MemAvailable:')[1].split()[0]) * 1024
            vm = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024
            return min(meminfo, resource.getrlimit(resource.RLIMIT_AS)[0] - vm)
        # fft(x, n) of complex64 holds the padded input and the output, 16
        # bytes a point, and on a CPU device the device's copies of both
        # (host memory too): 32. (n a multiple of 2^20: a quick plan where
        # the check is missing.)
        per_point = 32 if bfly._engine.default_device().is_cpu else 16
        n = (int(available() * 1.1) // per_point >> 20) + 1 << 20
        try:
            bfly.fft.fft(np.ones(8, np.complex64), n=n)
            print("ran")
        except MemoryError as e:
            print("MemoryError:", e)
        """, address_space=1 << 30)
    assert status == 0 and output.startswith("MemoryError: bfly: the transform needs"), output
