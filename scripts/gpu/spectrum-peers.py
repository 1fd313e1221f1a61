#!/usr/bin/env python3
"""A windowed power spectrum in dB of a batch of real rows (issue 42's
callback case): bfly's R2C plan with the Hann window fused into its loads
and 10 log10 |X|^2 into its stores (bfly.Plan(..., kind="rfft", load="hann",
store="db")), beside the same spectrum written with CuPy and PyTorch
(cuFFT underneath): 10 * log10(abs(rfft(x * w)) ** 2), one kernel an
operation, and CuPy with the window and the dB each one elementwise kernel
(the best a caller does without callbacks). float32, inputs on the GPU.
Column "rfft ms": bfly's plain rfft of the same rows (complex64 out, no
window), for what the fused callbacks cost.

    python3 scripts/gpu/spectrum-peers.py [--shapes 1024x65536,...] [--out spectrum-peers.json]
    (after pip install . on the GPU machine: scripts/gpu/python.sh installs it)

Times are medians of CUDA-event timings over --repetitions rounds of
--calls back-to-back calls each (the Python call included, results
allocated by each call, as a user's loop sees it), after warm-up calls.
Every result is checked against the spectrum computed in double precision
by CuPy: the relative L2 error of the power each one says (dB as 10^(dB/10)).
The bar (issue 42): bfly >= 2.5x CuPy's expression.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cuda_timing import event_time  # noqa: E402

SHAPES = "1024x65536,4096x16384,16x4194304,16384x4096,65536x1024"
BAR = 2.5  # bfly's speed-up over CuPy's expression that issue 42 asks for


def hann(n):
    """scipy.signal.get_window("hann", n): periodic."""
    try:
        from scipy.signal import get_window
        return get_window("hann", n)
    except ImportError:
        return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)


def power_error(cp, got, want, is_db):
    """Relative L2 error of the power `got` says against `want` (float64 power)."""
    got = got.astype(cp.float64)
    if is_db:
        got = 10 ** (got / 10)
    return float(cp.linalg.norm((got - want).ravel()) / max(float(cp.linalg.norm(want.ravel())), 1e-300))


def load_torch():
    try:
        import torch
    except ImportError:
        print("torch: not installed, skipped")
        return None
    if not torch.cuda.is_available():
        print("torch: no CUDA device, skipped")
        return None
    return torch


def peers(cp, torch, w_cp, w_torch):
    """(name, timing lib, function of the CuPy array) for every peer."""
    decibel = cp.ElementwiseKernel("complex64 z", "float32 y",
                                   "y = 10 * log10(z.real() * z.real() + z.imag() * z.imag())",
                                   "bfly_spectrum_decibel")
    windowed = cp.ElementwiseKernel("float32 x, raw float32 w, int64 n", "float32 y", "y = x * w[i % n]",
                                    "bfly_spectrum_window")
    n = w_cp.size
    found = [
        ("cupy", "cupy", lambda x: 10 * cp.log10(cp.abs(cp.fft.rfft(x * w_cp, axis=-1)) ** 2)),
        ("cupy-fused", "cupy", lambda x: decibel(cp.fft.rfft(windowed(x, w_cp, n), axis=-1))),
    ]
    if torch is not None:
        found.append(("torch", "torch",
                      lambda t: 10 * torch.log10(torch.abs(torch.fft.rfft(t * w_torch, dim=-1)) ** 2)))
    return found


def lto_callbacks(cp, w_cp, n):
    """cuFFT with LTO callbacks (cufftXtSetJITCallback through CuPy's
    set_cufft_callbacks, cb_ver="jit"): the window in the load callback,
    the dB in the store callback, written as floats over the first half of
    the complex output buffer (cuFFT's output is complex); a context to run
    the rfft in, and the reals of its result."""
    load = ("__device__ float bfly_window(void* in, unsigned long long offset, void* info, void* shared) {\n"
            f"  return ((const float*)in)[offset] * ((const float*)info)[offset % {n}ull];\n}}\n")
    store = ("__device__ void bfly_db(void* out, unsigned long long offset, float2 v, void* info, "
             "void* shared) {\n  ((float*)out)[offset] = 10.0f * log10f(v.x * v.x + v.y * v.y);\n}\n")

    def context():
        return cp.fft.config.set_cufft_callbacks(cb_load=load, cb_store=store, cb_load_name="bfly_window",
                                                 cb_store_name="bfly_db", cb_load_data=w_cp.data, cb_ver="jit")

    def reals(z):
        return z.ravel().view(cp.float32)[:z.size].reshape(z.shape)

    return context, reals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default=SHAPES, help="rows x length, comma-separated (default: %(default)s)")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--tier", default="specialised", help="bfly.set_tier before planning (default: %(default)s)")
    parser.add_argument("--out", default="spectrum-peers.json")
    args = parser.parse_args()

    import bfly
    import cupy as cp
    torch = load_torch()
    bfly.set_tier(args.tier)  # each size's own kernels, as a service past its warm-up runs
    report = {"date": time.strftime("%Y-%m-%d"), "bfly": bfly.__version__, "cupy": cp.__version__,
              "torch": None if torch is None else torch.__version__, "devices": bfly.devices(),
              "python": sys.version.split()[0], "calls": args.calls, "repetitions": args.repetitions,
              "bar": f">= {BAR}x cupy", "rows": []}
    print(f"bfly {bfly.__version__}, CuPy {cp.__version__}, "
          f"torch {'-' if torch is None else torch.__version__}; {cp.cuda.runtime.getDeviceProperties(0)['name']}")
    print("windowed power spectrum in dB of real rows, float32: bfly rfft load='hann' store='db' "
          "beside 10*log10(abs(rfft(x*w))**2)")
    names = ["cupy", "cupy-fused"] + ([] if torch is None else ["torch"]) + ["cufft-lto"]
    header = f"{'shape':>12s} {'bfly ms':>9s} {'rfft ms':>9s} " + \
        " ".join(f"{n + ' ms':>14s} {'x':>6s}" for n in names)
    print(header + f" {'bfly GB/s':>9s} {'err bfly':>9s} {'err cupy':>9s}")
    for text in args.shapes.split(","):
        rows, n = (int(v) for v in text.lower().split("x"))
        rng = cp.random.default_rng(rows * 7 + n)
        x = rng.standard_normal((rows, n), dtype=cp.float32)
        w64 = hann(n)
        w_cp = cp.asarray(w64, cp.float32)
        w_torch = None if torch is None else torch.as_tensor(w_cp, device="cuda")
        x_torch = None if torch is None else torch.as_tensor(x, device="cuda")
        plan = bfly.Plan(x.shape, x.dtype, axes=(-1,), kind="rfft", load="hann", store="db")
        # The power in double precision, the reference every result is checked against.
        want = cp.abs(cp.fft.rfft(x.astype(cp.float64) * cp.asarray(w64), axis=-1)) ** 2
        ours = plan(x)
        assert ours.dtype == cp.float32 and ours.shape == (rows, n // 2 + 1), (ours.dtype, ours.shape)
        err_bfly = power_error(cp, ours, want, True)
        err_cupy = power_error(cp, 10 * cp.log10(cp.abs(cp.fft.rfft(x * w_cp, axis=-1)) ** 2), want, True)
        del ours, want
        cp.get_default_memory_pool().free_all_blocks()
        row = {"shape": [rows, n], "points": rows * n, "relative_error_bfly": err_bfly,
               "relative_error_cupy": err_cupy}
        for _ in range(3):
            plan(x)
        row["bfly_ms"] = event_time("cupy", plan, x, args.calls, args.repetitions)
        # bfly's plain rfft (complex64 out, no window): what the callbacks cost or save.
        for _ in range(3):
            bfly.fft.rfft(x)
        row["bfly_rfft_ms"] = event_time("cupy", bfly.fft.rfft, x, args.calls, args.repetitions)
        cells = []
        for name, lib, fn in peers(cp, torch, w_cp, w_torch):
            arg = x_torch if lib == "torch" else x
            for _ in range(3):
                fn(arg)
            if lib == "torch":
                torch.cuda.synchronize()
            ms = event_time(lib, fn, arg, args.calls, args.repetitions)
            row[f"{name}_ms"] = ms
            row[f"{name}_over_bfly"] = ms / row["bfly_ms"]
            cells.append(f"{ms:14.3f} {ms / row['bfly_ms']:5.2f}x")
        # cuFFT with LTO callbacks, where CuPy and the toolkit have them.
        try:
            context, reals = lto_callbacks(cp, w_cp, n)
            with context():
                got = reals(cp.fft.rfft(x, axis=-1))
                want = cp.abs(cp.fft.rfft(x.astype(cp.float64) * cp.asarray(w64), axis=-1)) ** 2
                row["relative_error_cufft_lto"] = power_error(cp, got, want, True)
                del got, want
                for _ in range(3):
                    cp.fft.rfft(x, axis=-1)
                ms = event_time("cupy", lambda a: cp.fft.rfft(a, axis=-1), x, args.calls, args.repetitions)
            row["cufft-lto_ms"] = ms
            row["cufft-lto_over_bfly"] = ms / row["bfly_ms"]
            cells.append(f"{ms:14.3f} {ms / row['bfly_ms']:5.2f}x (err {row['relative_error_cufft_lto']:.1e})")
        except Exception as e:  # (no nvJitLink, an older CuPy: said, not fatal)
            row["cufft-lto"] = f"unavailable: {type(e).__name__}: {e}"
            cells.append(f"{'-':>14s} {'-':>6s}")
            print(f"cuFFT LTO callbacks: {row['cufft-lto'][:300]}", file=sys.stderr)
        # Compulsory traffic: the float32 input read once, the float32 dB written once.
        gbs = (rows * n + rows * (n // 2 + 1)) * 4 / (row["bfly_ms"] * 1e-3) / 1e9
        row["bfly_gb_per_s"] = gbs
        report["rows"].append(row)
        print(f"{text:>12s} {row['bfly_ms']:9.3f} {row['bfly_rfft_ms']:9.3f} " + " ".join(cells) +
              f" {gbs:9.0f} {err_bfly:9.1e} {err_cupy:9.1e}", flush=True)
        del x, x_torch, plan
        cp.get_default_memory_pool().free_all_blocks()
    ratios = [r["cupy_over_bfly"] for r in report["rows"]]
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        met = sum(r >= BAR for r in ratios)
        report["cupy_over_bfly_geomean"] = geomean
        print(f"bar (issue 42): bfly >= {BAR}x cupy: met on {met} of {len(ratios)} shapes "
              f"(geomean {geomean:.2f}x, least {min(ratios):.2f}x): {'MET' if met == len(ratios) else 'NOT MET'}")
        fused = [r["cupy-fused_over_bfly"] for r in report["rows"]]
        print(f"beside CuPy with the window and the dB each one fused kernel: geomean "
              f"{math.exp(sum(math.log(r) for r in fused) / len(fused)):.2f}x")
        lto = [r["cufft-lto_over_bfly"] for r in report["rows"] if "cufft-lto_over_bfly" in r]
        if lto:
            geo = math.exp(sum(math.log(r) for r in lto) / len(lto))
            print(f"bar (issue 42): bfly >= 2x cuFFT with LTO callbacks: geomean {geo:.2f}x over {len(lto)} shapes, "
                  f"least {min(lto):.2f}x: {'MET' if min(lto) >= 2 else 'NOT MET'}")
    with open(args.out + ".tmp", "w") as f:
        json.dump(report, f, indent=1)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
