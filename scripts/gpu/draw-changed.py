#!/usr/bin/env python3
"""Lengths drawn at random among those a BFLY_LIMITS override changes.

Here, not on the GPU: `bfly plan --limits hopper` with and without the
override; a length counts where the planned launches differ. For an A/B of
a planner rule on lengths nobody chose (issue 39: the rule against its
knob off, on lengths drawn after the rule was final).

  python3 scripts/gpu/draw-changed.py --seed 27112027 --override row_busiest=0 \\
      --kind smooth --low 1024 --high 16384 --count 12 [--precision double]

--kind smooth: 7-smooth lengths (every one in range, shuffled); --kind
smooth13: 13-smooth lengths with a factor 11 or 13 (the codelets past 7);
--kind prime:
primes, log-uniform; --kind odd: odd lengths with a prime factor above 31
(Rader's and Bluestein's), log-uniform; --kind smooth2d: R x C arrays of
7-smooth axes with low..high points. --transform r2c or c2r plans real
transforms (batch 2, so that rows pair). --nvrtc compares what the runtime
relaunches as well (slower: NVRTC compiles each kernel twice).
"""
import argparse
import math
import os
import random
import subprocess
import sys


def launches(bfly, n, precision, transform, override=None, nvrtc=False, names=False):
    env = dict(os.environ)
    env.pop("BFLY_LIMITS", None)
    if override:
        env["BFLY_LIMITS"] = override
    # (A batch of 2: real rows pair only where there are two. With --nvrtc,
    # the runtime's relaunch of a spilling kernel, which only NVRTC shows.)
    args = [bfly, "plan", "--limits", "hopper", "--shape", str(n), "--precision", precision, "--kind", transform,
            "--batch", "2"] + (["--nvrtc", "sm_90"] if nvrtc else [])
    run = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    keys = ("groups of", "solver", "relaunched as", "kept:", "no other launch") + (("    kernel ",) if names else ())
    return [line for line in run.stdout.splitlines() if any(k in line for k in keys)]


def smooth_lengths(low, high, primes=(2, 3, 5, 7)):
    out = {1}
    for p in primes:
        grown = set(out)
        for n in out:
            m = n * p
            while m <= high:
                grown.add(m)
                m *= p
        out = grown
    return sorted(n for n in out if n >= low)


def largest_prime_factor(n):
    largest, d = 1, 2
    while d * d <= n:
        while n % d == 0:
            largest, n = d, n // d
        d += 1
    return max(largest, n) if n > 1 else largest


def is_prime(n):
    return n > 1 and all(n % d for d in range(2, math.isqrt(n) + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--override", required=True, help="the BFLY_LIMITS value that restores the old rule")
    ap.add_argument("--kind", choices=["smooth", "smooth13", "prime", "odd", "smooth2d"], default="smooth")
    ap.add_argument("--low", type=int, required=True)
    ap.add_argument("--high", type=int, required=True)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--precision", choices=["single", "double"], default="single")
    ap.add_argument("--transform", choices=["c2c", "r2c", "c2r"], default="c2c")
    ap.add_argument("--bfly", default="build/apps/bfly/bfly")
    ap.add_argument("--nvrtc", action="store_true", help="compare the runtime's relaunches too (NVRTC, sm_90)")
    ap.add_argument("--names", action="store_true",
                    help="compare the kernels' names too (what changes no launch: computed twiddles, say)")
    a = ap.parse_args()
    if a.low < 2 or a.high < a.low:
        sys.exit(f"draw-changed: bad range {a.low}..{a.high}")
    rng = random.Random(a.seed)
    if a.kind == "smooth":
        pool = smooth_lengths(a.low, a.high)
        rng.shuffle(pool)
    elif a.kind == "smooth2d":
        # R x C arrays of 7-smooth axes (2..high each) whose points lie in
        # low..high, as the random suite's images are.
        axes = smooth_lengths(2, a.high)
        pool = [f"{r}x{c}" for r in axes for c in axes if a.low <= r * c <= a.high]
        rng.shuffle(pool)
    elif a.kind == "smooth13":
        pool = [n for n in smooth_lengths(a.low, a.high, (2, 3, 5, 7, 11, 13)) if n % 11 == 0 or n % 13 == 0]
        rng.shuffle(pool)
    else:
        wanted = is_prime if a.kind == "prime" else lambda n: n % 2 == 1 and largest_prime_factor(n) > 31
        pool = []
        for _ in range(200 * a.count):
            n = int(math.exp(rng.uniform(math.log(a.low), math.log(a.high))))
            if wanted(n) and n not in pool:
                pool.append(n)
    found = []
    for n in pool:
        before = launches(a.bfly, n, a.precision, a.transform, a.override, a.nvrtc, a.names)
        if launches(a.bfly, n, a.precision, a.transform, nvrtc=a.nvrtc, names=a.names) != before:
            found.append(n)
            if len(found) == a.count:
                break
    print(",".join(str(n) for n in sorted(found)))


if __name__ == "__main__":
    main()
