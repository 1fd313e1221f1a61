"""Refusing a transform the machine cannot hold before allocating any of it.

A call adds up what it will allocate (copies of its input, its output, the
cast of its result, its plans' device buffers) and compares that with what
the host has left and with the device's limits. Past them it raises
MemoryError naming both numbers. Without the check, such a call was
OOM-killed, or PoCL (whose buffers are host memory, taken at first use)
aborted the interpreter on an allocation that failed.
"""
import math

from . import _core

# Calls needing less than this skip the look at /proc (about 30 us a file):
# they cost less than the look, and a host this short of memory fails anyway.
_CHECKED_FROM = 16 << 20


def size(shape, dtype):
    """Bytes of an array of `shape` and `dtype` (Python ints: no overflow)."""
    return math.prod(int(n) for n in shape) * dtype.itemsize


def host_available():
    """Bytes this process can still allocate and what bounds them, or
    (None, "") where nothing does. Read by the library as the CLI reads it:
    /proc/meminfo's MemAvailable, the address-space and data limits (ulimit
    -v, -d) and the memory cgroup, the least of them."""
    return _core.host_memory()


def _gib(n):
    return f"{n} bytes ({n / 2 ** 30:.1f} GiB)"


def check(core, host_bytes, device_bytes, largest_buffer=0):
    """Raises MemoryError if a call's new host arrays (host_bytes) and device
    buffers (device_bytes, the largest one largest_buffer) do not fit: a CPU
    device's buffers are host memory, so they count against the host's room
    (not its reported global memory, which PoCL takes from the host's free
    memory when it starts: 5.3 to 12.6 GB on one 24 GB machine); a GPU's
    against its memory."""
    if core.max_allocation_bytes and largest_buffer > core.max_allocation_bytes:
        raise MemoryError(f"bfly: the transform needs a device buffer of {_gib(largest_buffer)}; the largest "
                          f"allocation on {core.spec} is {_gib(core.max_allocation_bytes)}")
    if core.is_cpu:
        host_bytes += device_bytes
    elif core.global_memory_bytes and device_bytes > core.global_memory_bytes:
        raise MemoryError(f"bfly: the transform needs {_gib(device_bytes)} of memory on {core.spec}; it has "
                          f"{_gib(core.global_memory_bytes)}")
    if host_bytes < _CHECKED_FROM:
        return
    available, bound = host_available()
    if available is not None and host_bytes > available:
        raise MemoryError(f"bfly: the transform needs {_gib(host_bytes)} of host memory (input copies, output, "
                          f"device buffers); {_gib(available)} are available ({bound})")
