"""Device memory bfly allocates for results that no framework allocated: JAX's
(JAX arrays are immutable, so bfly cannot write into one) and those of
producers that only hand over a pointer (DLPack or __cuda_array_interface__).
A DeviceArray speaks both protocols, so any framework can take it without a
copy: jax.dlpack.from_dlpack(a), cupy.asarray(a), torch.from_dlpack(a)."""
import numpy as np

from . import _core
from ._arrays import c_strides


class DeviceArray:
    """A C-contiguous array in CUDA device memory owned by bfly."""

    def __init__(self, shape, dtype, device_id):
        from ._engine import open_device
        self.shape = tuple(int(n) for n in shape)
        self.dtype = np.dtype(dtype)
        self.device_id = 0 if device_id is None else int(device_id)
        size = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self._memory = _core.DeviceMemory(open_device(f"cuda:{self.device_id}"), size, self.device_id)
        self.strides = c_strides(self.shape, self.dtype.itemsize)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def pointer(self):
        return self._memory.pointer

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.pointer, False),
                "version": 3, "strides": None, "stream": None}

    def __dlpack_device__(self):
        return (2, self.device_id)  # kDLCUDA

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        # bfly synchronised before handing this array out: any stream may read it.
        if copy:
            raise BufferError("bfly.DeviceArray exports its memory only (copy=True is not supported)")
        strides = [s // self.dtype.itemsize for s in self.strides]
        return self._memory.dlpack(list(self.shape), strides, self.dtype.name)

    def __repr__(self):
        return f"bfly.DeviceArray(shape={self.shape}, dtype={self.dtype}, device=cuda:{self.device_id})"

