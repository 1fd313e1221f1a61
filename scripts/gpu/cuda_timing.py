"""CUDA-event timing shared by the GPU benchmark scripts (python-bench.py,
spectrum-peers.py)."""
import statistics


def event_time(lib, fn, x, calls, repetitions):
    """Median ms per call over repetitions of `calls` calls, by CUDA events on the current stream."""
    times = []
    for _ in range(repetitions):
        if lib == "torch":
            import torch
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                fn(x)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) / calls)
        else:
            import cupy
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            for _ in range(calls):
                fn(x)
            stop.record()
            stop.synchronize()
            times.append(cupy.cuda.get_elapsed_time(start, stop) / calls)
    return statistics.median(times)
