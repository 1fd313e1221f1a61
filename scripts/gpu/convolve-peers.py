#!/usr/bin/env python3
"""CuPy's cupyx.scipy.signal.fftconvolve (cuFFT underneath) on the cases of
`bfly bench --app convolve`: a random 4096x4096 image (or --shape) with
square kernels of --kernel-sizes, mode same, inputs on the GPU, median of 11
after 2 warm-ups. Run on the GPU machine beside bfly's bench."""
import argparse
import time

import cupy as cp
import cupyx.scipy.signal as signal

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--shape", default="4096x4096")
parser.add_argument("--kernel-sizes", default="3,15,63,255")
parser.add_argument("--precision", default="single", choices=["single", "double"])
options = parser.parse_args()
h, w = (int(v) for v in options.shape.split("x"))
dtype = cp.float32 if options.precision == "single" else cp.float64
rng = cp.random.default_rng(1)
image = rng.random((h, w), dtype=dtype)
print(f"cupyx.scipy.signal.fftconvolve (CuPy {cp.__version__}): {h}x{w} {cp.dtype(dtype).name}, mode same")
for k in (int(v) for v in options.kernel_sizes.split(",")):
    kernel = rng.random((k, k), dtype=dtype)
    for _ in range(2):
        signal.fftconvolve(image, kernel, mode="same")
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(11):
        start = time.perf_counter()
        signal.fftconvolve(image, kernel, mode="same")
        cp.cuda.Device().synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    print(f"{k}x{k:<8} {times[5]:10.3f} ms")
