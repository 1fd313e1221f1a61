"""bfly.fft from Python beside cupy.fft and torch.fft (both cuFFT), on the
same device arrays, in one process; and the per-call overhead of a cached
plan on small sizes.

    python3 scripts/gpu/python-bench.py --out results.json      (after pip install .)

Times are medians of CUDA-event timings over --repetitions rounds of
--calls back-to-back calls each (the Python call included: this is what a
user's loop sees). Every bfly result is checked against the peer's.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cuda_timing import event_time  # noqa: E402

GPU_SUITE = [1 << k for k in range(6, 25)] + [120, 1000, 1536, 2187, 2401, 3000, 3125, 4000, 10000, 100000]
SUITE_2D = [(120, 120), (512, 512), (1000, 1000), (2048, 2048), (3000, 3000), (480, 640), (7, 4096), (4096, 7),
            (4096, 4096)]


def relative_error(a, b):
    a, b = np.asarray(a, np.complex128).ravel(), np.asarray(b, np.complex128).ravel()
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def bench_shapes(args, lib, shapes, points):
    import bfly
    rows = []
    for shape in shapes:
        n = int(np.prod(shape))
        batch = max(1, points // n)
        full = (batch,) + tuple(shape)
        axes = tuple(range(1, len(full)))
        rng = np.random.default_rng(n)
        host = (rng.standard_normal(full) + 1j * rng.standard_normal(full)).astype(np.complex64)
        if lib == "cupy":
            import cupy
            x = cupy.asarray(host)
            peer = (lambda a, axes=axes: cupy.fft.fftn(a, axes=axes)) if len(shape) > 1 else cupy.fft.fft
            to_np = cupy.asnumpy
            sync = cupy.cuda.get_current_stream().synchronize
        else:
            import torch
            x = torch.from_numpy(host).cuda()
            peer = (lambda a, axes=axes: torch.fft.fftn(a, dim=axes)) if len(shape) > 1 else torch.fft.fft

            def to_np(a):
                return a.cpu().numpy()
            sync = torch.cuda.synchronize
        ours = (lambda a, axes=axes: bfly.fft.fftn(a, axes=axes)) if len(shape) > 1 else bfly.fft.fft
        error = relative_error(to_np(ours(x)), to_np(peer(x)))
        sync()
        calls = max(3, min(50, int(2e8 // (n * batch))))
        t_bfly = event_time(lib, ours, x, calls, args.repetitions)
        t_peer = event_time(lib, peer, x, calls, args.repetitions)
        row = {"library": lib, "shape": list(shape), "batch": batch, "bfly_ms": t_bfly, "peer_ms": t_peer,
               "peer_over_bfly": t_peer / t_bfly, "relative_error_vs_peer": error}
        rows.append(row)
        print(f"{lib:5s} {'x'.join(map(str, shape)):>10s} b{batch:<8d} bfly {t_bfly:8.4f} ms  "
              f"{lib}.fft {t_peer:8.4f} ms  peer/bfly {t_peer / t_bfly:5.2f}x  err {error:.1e}", flush=True)
        del x
    return rows


def bench_overhead(args, lib):
    """Wall time per call for small cached transforms, launches back to back (CPU-bound)."""
    import bfly
    rows = []
    for n in (16, 256, 4096):
        rng = np.random.default_rng(n)
        host = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        if lib == "cupy":
            import cupy
            x, peer, sync = cupy.asarray(host), cupy.fft.fft, cupy.cuda.get_current_stream().synchronize
        else:
            import torch
            x, peer, sync = torch.from_numpy(host).cuda(), torch.fft.fft, torch.cuda.synchronize
        result = {}
        for name, fn in (("bfly", bfly.fft.fft), (lib, peer)):
            for _ in range(200):
                fn(x)
            sync()
            walls = []
            for _ in range(args.repetitions):
                t0 = time.perf_counter()
                for _ in range(2000):
                    fn(x)
                sync()
                walls.append((time.perf_counter() - t0) / 2000 * 1e6)
            result[name] = statistics.median(walls)
        # The GPU time of one transform: events around many launches of a large batch divided out.
        gpu_us = event_time(lib, bfly.fft.fft, x, 2000, 3) * 1e3
        rows.append({"library": lib, "n": n, "bfly_us_per_call": result["bfly"], "peer_us_per_call": result[lib],
                     "bfly_event_us_per_call": gpu_us})
        print(f"{lib:5s} n={n:<6d} wall per call: bfly {result['bfly']:6.1f} us, {lib}.fft {result[lib]:6.1f} us",
              flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--libs", default="cupy,torch")
    parser.add_argument("--points", type=int, default=1 << 25)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--suites", default="overhead,gpu,2d")
    parser.add_argument("--out", default="python-bench.json")
    args = parser.parse_args()
    import bfly
    report = {"date": time.strftime("%Y-%m-%d"), "bfly": bfly.__version__, "devices": bfly.devices(),
              "python": sys.version.split()[0], "points": args.points, "rows": []}
    for lib in args.libs.split(","):
        try:
            module = __import__(lib)
            report[lib] = module.__version__
        except ImportError:
            print(f"{lib}: not installed, skipped")
            continue
        if "overhead" in args.suites:
            report["rows"] += bench_overhead(args, lib)
        if "gpu" in args.suites:
            report["rows"] += bench_shapes(args, lib, [(n,) for n in GPU_SUITE], args.points)
        if "2d" in args.suites:
            report["rows"] += bench_shapes(args, lib, SUITE_2D, args.points)
    with open(args.out + ".tmp", "w") as f:
        json.dump(report, f, indent=1)
    import os
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
