#!/usr/bin/env python3
"""The DCT and DST on a GPU beside cupyx.scipy.fft's (issue 41), from Python
on CuPy arrays: the same data, the same process, times interleaved.

    python3 scripts/dct-bench.py [--precision single|double] [--points 2**26]
        [--types 2,3,1,4] [--shapes 1024,1000,64x64x64] [--out FILE.json]

Each case is a batch of arrays (about --points points in all) transformed
over every axis but the batch's (dctn over the array's axes). Columns, as
medians of CUDA-event times: bfly.scipy_fft's dct/dst (norm None), cupyx's
where it has the type (2 and 3), bfly's rfftn of the same arrays (the
yardstick for types 1 and 4), and a plain device copy of the same bytes
(the floor: one read and one write). Each result is checked against
scipy.fft in float64 on the host (the first arrays, up to 2^22 points).
Not a test: figures for docs/PERF.md.
"""
import argparse
import json
import math
import statistics
import sys

import numpy as np

REAL_SUITE = ("256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,"
              "8388608,16777216,1000,4097,1024x1024,4096x4096,1000x1000,513x511,64x64x64,256x256x256,64x64x63")
ODD_AND_PRIME = "1001,1025,2047,4099,9999,12289,19683,30011,65537,100003"


def timed(cp, fn, calls):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(calls):
        fn()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / calls


def bench(cp, contenders, repetitions):
    """{name: median ms}, repetitions interleaved; each sample >= ~2 ms."""
    calls = {}
    for name, fn in contenders.items():
        fn(), fn()
        once = max(timed(cp, fn, 1), 1e-3)
        calls[name] = int(min(max(math.ceil(2.0 / once), 1), 1000))
    samples = {name: [] for name in contenders}
    for _ in range(repetitions):
        for name, fn in contenders.items():
            samples[name].append(timed(cp, fn, calls[name]))
    return {name: statistics.median(s) for name, s in samples.items()}


def contenders_for(cp, bfly, x, copy_out, ours, theirs, kind, axes):
    """The calls timed on one case: bfly's transform, its rfftn, a copy, cupyx's (where it has the type)."""
    calls = {"bfly": lambda: ours(x, type=kind, axes=axes),
             "rfftn": lambda: bfly.fft.rfftn(x, axes=axes),
             "copy": lambda: cp.copyto(copy_out, x)}
    if theirs is not None:
        calls["cupyx"] = lambda: theirs(x, type=kind, axes=axes)
    return calls


def relative_error(got, want):
    return float(np.linalg.norm((got - want).ravel()) / max(np.linalg.norm(want.ravel()), 1e-300))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--precision", choices=("single", "double"), default="single")
    parser.add_argument("--points", type=lambda s: int(eval(s, {})), default=1 << 26)
    parser.add_argument("--types", default="2,3,1,4")
    parser.add_argument("--families", default="dct,dst")
    parser.add_argument("--shapes", default=REAL_SUITE + "," + ODD_AND_PRIME)
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--out")
    a = parser.parse_args()

    import bfly
    import cupy as cp
    import cupyx.scipy.fft as cufft
    import scipy.fft

    # The specialised kernels, whose speed a benchmark is after (as `bfly
    # bench`): the default tier would run rfftn's first calls on the generic one.
    bfly.set_tier("specialised")
    dtype = np.float32 if a.precision == "single" else np.float64
    limit = 5e-7 if a.precision == "single" else 2e-15
    rng = np.random.default_rng()
    rows = []
    print(f"bfly {bfly.__version__}, CuPy {cp.__version__}, {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}"
          f", {a.precision} precision, ~{a.points} points a case; ms (median), x = cupyx / bfly")
    print(f"{'case':>24} {'bfly':>9} {'cupyx':>9} {'x':>6} {'rfftn':>9} {'/rfftn':>7} {'floor':>6} "
          f"{'err bfly':>9} {'err cupyx':>9}")
    for text in a.shapes.split(","):
        shape = tuple(int(n) for n in text.split("x"))
        size = math.prod(shape)
        batch = max(1, a.points // size)
        x = cp.asarray(rng.standard_normal((batch,) + shape).astype(dtype))
        axes = tuple(range(1, 1 + len(shape)))
        copy_out = cp.empty_like(x)
        for family in a.families.split(","):
            for kind in (int(t) for t in a.types.split(",")):
                ours = getattr(bfly.scipy_fft, family + "n")
                theirs = getattr(cufft, family + "n", None)
                contenders = contenders_for(cp, bfly, x, copy_out, ours, theirs if kind in (2, 3) else None, kind,
                                            axes)
                try:
                    times = bench(cp, contenders, a.repetitions)
                except Exception as e:  # noqa: BLE001  (a row that says why, not the end of the run)
                    print(f"{text + ' ' + family + str(kind):>24} failed: {e}")
                    continue
                check = max(1, min(batch, (1 << 22) // size))
                want = getattr(scipy.fft, family + "n")(cp.asnumpy(x[:check]).astype(np.float64), type=kind,
                                                        axes=axes)
                errors = {"bfly": relative_error(cp.asnumpy(ours(x[:check], type=kind, axes=axes)), want)}
                if "cupyx" in times:
                    errors["cupyx"] = relative_error(cp.asnumpy(theirs(x[:check], type=kind, axes=axes)), want)
                floor = times["copy"] / times["bfly"]
                ratio = times["cupyx"] / times["bfly"] if "cupyx" in times else None
                row = dict(shape=text, batch=batch, family=family, type=kind, precision=a.precision, ms=times,
                           errors=errors, floor_fraction=floor, over_cupyx=ratio,
                           over_rfftn=times["bfly"] / times["rfftn"])
                rows.append(row)
                flag = "" if errors["bfly"] <= limit else "  FAIL"
                print(f"{text + ' ' + family + str(kind):>24} {times['bfly']:9.4f} "
                      f"{times.get('cupyx', float('nan')):9.4f} {ratio or float('nan'):6.2f} {times['rfftn']:9.4f} "
                      f"{row['over_rfftn']:7.2f} {floor:6.2f} {errors['bfly']:9.2e} "
                      f"{errors.get('cupyx', float('nan')):9.2e}{flag}", flush=True)
        del x, copy_out
        cp.get_default_memory_pool().free_all_blocks()
    for family in a.families.split(","):
        for kind in (int(t) for t in a.types.split(",")):
            mine = [r for r in rows if r["family"] == family and r["type"] == kind]
            if not mine:
                continue
            geo = lambda v: math.exp(statistics.mean(math.log(t) for t in v)) if v else float("nan")  # noqa: E731
            over = [r["over_cupyx"] for r in mine if r["over_cupyx"]]
            print(f"{family}{kind}: {len(mine)} cases; geomean {geo(over):.2f}x cupyx ({len(over)} cases); "
                  f"median floor {statistics.median(r['floor_fraction'] for r in mine):.2f}; "
                  f"geomean time / rfftn {geo([r['over_rfftn'] for r in mine]):.2f}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
