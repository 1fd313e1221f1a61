"""Refusing a transform the machine cannot hold before allocating any of it.

A call adds up what it will allocate (copies of its input, its output, the
cast of its result, its plans' device buffers) and compares that with what
the host has left and with the device's limits. Past them it raises
MemoryError naming both numbers. Without the check, such a call was
OOM-killed, or PoCL (whose buffers are host memory, taken at first use)
aborted the interpreter on an allocation that failed.
"""
import math
import os
import resource

# Calls needing less than this skip the look at /proc (about 30 us a file):
# they cost less than the look, and a host this short of memory fails anyway.
_CHECKED_FROM = 16 << 20


def size(shape, dtype):
    """Bytes of an array of `shape` and `dtype` (Python ints: no overflow)."""
    return math.prod(int(n) for n in shape) * dtype.itemsize


def _read_int(path, field=None):
    try:
        with open(path) as f:
            if field is None:
                text = f.read().strip()
                return None if text == "max" else int(text)
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024  # kB
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room():
    """What the process's memory cgroup (v2 or v1) has left, or None."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    for _, controllers, path in lines:
        if controllers == "":  # v2
            limit_file, usage_file = f"/sys/fs/cgroup{path}/memory.max", f"/sys/fs/cgroup{path}/memory.current"
        elif "memory" in controllers.split(","):  # v1
            base = f"/sys/fs/cgroup/memory{path}"
            limit_file, usage_file = f"{base}/memory.limit_in_bytes", f"{base}/memory.usage_in_bytes"
        else:
            continue
        limit, usage = _read_int(limit_file), _read_int(usage_file)
        if limit is not None and usage is not None and limit < 1 << 60:  # v1 writes "no limit" as ~2^63
            return max(limit - usage, 0)
    return None


def host_available():
    """Bytes this process can still allocate, or None where the system does
    not say: /proc/meminfo's MemAvailable (else sysconf's free pages), or
    less where the address-space limit (ulimit -v) or the memory cgroup
    leaves less."""
    room = [_read_int("/proc/meminfo", "MemAvailable:")]
    if room[0] is None:
        try:
            room[0] = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError):
            room[0] = None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        used = _read_int("/proc/self/status", "VmSize:")
        room.append(max(soft - (used or 0), 0))
    room.append(_cgroup_room())
    known = [r for r in room if r is not None]
    return min(known) if known else None


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
    available = host_available()
    if available is not None and host_bytes > available:
        raise MemoryError(f"bfly: the transform needs {_gib(host_bytes)} of host memory (input copies, output, "
                          f"device buffers); {_gib(available)} are available")
