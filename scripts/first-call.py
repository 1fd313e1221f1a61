#!/usr/bin/env python3
"""A new size's first call, as a user meets it (issue 40): from the CLI and
from Python, each shape in a process of its own whose caches hold the
generic tier's kernels (made once per machine, as `bfly cache warm
--generic` makes them) but nothing for that shape.

    python3 scripts/first-call.py --bfly build/apps/bfly/bfly \
        [--python build/pyvenv/bin/python] [--shapes 1000,64x64x64] [--out FILE]

CLI: the wall time of `bfly fft IN OUT` (the default tier, at-hand) and of
`bfly fft --tier specialised`, process start to exit. Python: in a fresh
interpreter with bfly imported and the input made, the time of the first
`bfly.fft.fftn(x)` of the shape (the default tier, auto) and of a second
call, beside numpy.fft's. Prints a table and the medians; not a test.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

# Shapes of the gpu, 2d, 3d, prime and random suites' kinds: powers of two,
# smooth lengths, primes (Bluestein, Rader), 2D and 3D.
DEFAULT_SHAPES = ("256,4096,65536,1000,10000,7056,1009,4099,65537,300007,"
                  "1000x1000,512x512,640x480,64x64x64,100x100x100,2053,11025,26244")

PYTHON_FIRST = r"""
import sys, time, json
import numpy as np
import bfly
shape = tuple(int(n) for n in sys.argv[1].split("x"))
rng = np.random.default_rng(1)
x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
t0 = time.perf_counter(); y = bfly.fft.fftn(x); t1 = time.perf_counter()
y2 = bfly.fft.fftn(x); t2 = time.perf_counter()
want = np.fft.fftn(x.astype(np.complex128)); t3 = time.perf_counter()
np.fft.fftn(x); t4 = time.perf_counter()
error = float(np.linalg.norm(y - want) / np.linalg.norm(want))
print(json.dumps({"first_ms": (t1 - t0) * 1e3, "second_ms": (t2 - t1) * 1e3,
                  "numpy_ms": (t4 - t3) * 1e3, "error": error}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bfly", required=True, help="the bfly binary")
    parser.add_argument("--python", default="", help="a Python with bfly installed (none: the CLI only)")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES, help="comma-separated, as 1000 or 64x64x64")
    parser.add_argument("--device", default="", help="passed as --device to the CLI, BFLY_DEVICE to Python")
    parser.add_argument("--out", default="", help="also write the table here")
    o = parser.parse_args()
    bfly = os.path.abspath(o.bfly)
    shapes = [s for s in o.shapes.split(",") if s]
    device = ["--device", o.device] if o.device else []
    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    with tempfile.TemporaryDirectory(prefix="bfly_first_") as work:
        # Caches holding the generic tier's kernels alone, copied for each shape.
        warmed = os.path.join(work, "warmed")
        env = dict(os.environ, BFLY_CACHE_DIR=os.path.join(warmed, "bfly"),
                   POCL_CACHE_DIR=os.path.join(warmed, "pocl"), CUDA_CACHE_PATH=os.path.join(warmed, "cuda"))
        if o.device:
            env["BFLY_DEVICE"] = o.device
        subprocess.run([bfly, "cache", "warm", "--generic"] + device, env=env, check=True, capture_output=True)

        def fresh_env(tag):
            root = os.path.join(work, tag)
            shutil.copytree(warmed, root)
            return dict(env, BFLY_CACHE_DIR=os.path.join(root, "bfly"), POCL_CACHE_DIR=os.path.join(root, "pocl"),
                        CUDA_CACHE_PATH=os.path.join(root, "cuda"))

        header = f"{'shape':>14} {'CLI s':>7} {'CLI spec. s':>11}"
        if o.python:
            header += f" {'py first ms':>11} {'py 2nd ms':>9} {'numpy ms':>8} {'rel.err':>8}"
        say(header)
        cli, spec, first = [], [], []
        for shape in shapes:
            dims = tuple(int(n) for n in shape.split("x"))
            rng = np.random.default_rng(0)
            x = (rng.standard_normal(dims) + 1j * rng.standard_normal(dims)).astype(np.complex64)
            path = os.path.join(work, f"in_{shape}.npy")
            np.save(path, x)
            row = f"{shape:>14}"
            for tier, times in (("at-hand", cli), ("specialised", spec)):
                e = fresh_env(f"{shape}-{tier}")
                start = time.perf_counter()
                r = subprocess.run([bfly, "fft", "--tier", tier, path, os.path.join(work, "out.npy")] + device,
                                   env=e, capture_output=True, text=True)
                seconds = time.perf_counter() - start
                if r.returncode != 0:
                    sys.exit(f"bfly fft {shape} ({tier}) failed: {r.stderr.strip()}")
                times.append(seconds)
                row += f" {seconds:>{7 if tier == 'at-hand' else 11}.2f}"
            if o.python:
                e = fresh_env(f"{shape}-python")
                r = subprocess.run([o.python, "-c", PYTHON_FIRST, shape], env=e, capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(f"python first call {shape} failed: {r.stderr.strip()[-400:]}")
                import json
                p = json.loads(r.stdout.strip().splitlines()[-1])
                first.append(p["first_ms"])
                row += f" {p['first_ms']:>11.1f} {p['second_ms']:>9.2f} {p['numpy_ms']:>8.2f} {p['error']:>8.1e}"
            say(row)
        say(f"median: CLI {statistics.median(cli):.2f} s (at-hand), {statistics.median(spec):.2f} s (specialised)" +
            (f"; Python first call {statistics.median(first):.1f} ms (auto), worst {max(first):.1f} ms"
             if first else ""))
    if o.out:
        with open(o.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
