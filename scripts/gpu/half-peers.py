#!/usr/bin/env python3
"""Half storage from Python on the GPU (issue 42): bfly.fft with half=True
on torch float16 / complex32 and bfloat16 tensors beside bfly's float32
transform of the same shape, bfly under NumPy's rule (float16 widened to
complex64) and torch.fft on float16 (cuFFT's half transforms: powers of
two only). Medians of CUDA-event timings, in ms, the Python call
included. The issue's bar: fp16 C2C on powers of two >= 1.3x cuFFT's half.

    python3 scripts/gpu/half-peers.py      (after pip install . : scripts/gpu/python.sh)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cuda_timing import event_time  # noqa: E402

SHAPES = [((64, 1 << 16), "c2c"), ((16, 1 << 22), "c2c"), ((4096, 1024), "c2c"), ((64, 1 << 16), "r2c"),
          ((16, 1 << 22), "r2c")]


def main():
    import bfly
    import torch
    print(f"bfly {bfly.__version__}, torch {torch.__version__}; {torch.cuda.get_device_name(0)}")
    print(f"{'case':>22s} {'f32':>8s} {'f16 half':>9s} {'bf16 half':>9s} {'f16 rule':>9s} {'torch f16':>9s} "
          f"{'f16/f32':>8s} {'vs torch':>8s}")
    for shape, kind in SHAPES:
        if kind == "c2c":
            x32 = torch.randn(shape, dtype=torch.complex64, device="cuda")
            x16, xb = x32.to(torch.complex32), torch.view_as_real(x32).to(torch.bfloat16)
            fft, ours = torch.fft.fft, bfly.fft.fft
        else:
            x32 = torch.randn(shape, dtype=torch.float32, device="cuda")
            x16, xb = x32.half(), x32.bfloat16()
            fft, ours = torch.fft.rfft, bfly.fft.rfft
        def half(a, ours=ours):
            return ours(a, half=True)

        times = [event_time("torch", f, x, 10, 7) for f, x in ((ours, x32), (half, x16), (half, xb), (ours, x16),
                                                               (fft, x16))]
        f32, f16, bf16, rule, theirs = times
        print(f"{kind} {shape[0]}x{shape[1]:<12d} {f32:8.3f} {f16:9.3f} {bf16:9.3f} {rule:9.3f} {theirs:9.3f} "
              f"{f32 / f16:7.2f}x {theirs / f16:7.2f}x", flush=True)


if __name__ == "__main__":
    main()
