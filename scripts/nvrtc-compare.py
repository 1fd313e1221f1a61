#!/usr/bin/env python3
"""Registers and spills of two bfly CLIs' kernels for random primes, here.

A codegen change with no knob (issue 39: a convolution's second FFT from
registers) is compared by its CLI against the CLI before it: `bfly plan
--limits hopper --nvrtc sm_90` of each, on primes drawn at random (one-kernel
Bluestein and Rader convolutions, mostly). No GPU needed, only NVRTC.

  python3 scripts/nvrtc-compare.py --old /tmp/bfly-old --seed 28112011 \\
      [--precision double] [--count 30] [--low 40] [--high 8192]

Prints each prime whose first kernel's registers or spills differ (and the
runtime's relaunch where one is named), then how many kept, lost or gained
spill bytes.
"""
import argparse
import random
import re
import subprocess
import sys


def is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def resources(bfly, n, precision):
    out = subprocess.run(
        [bfly, "plan", "--limits", "hopper", "--nvrtc", "sm_90", "--shape", str(n), "--precision", precision],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    first = re.findall(r"(\d+) registers, spills (\d+)/(\d+)", out)
    relaunch = re.findall(r"relaunched as \S+: (\d+) registers, spills (\d+)", out)
    return (first[0] if first else None), relaunch


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="the CLI before the change")
    parser.add_argument("--new", default="build/apps/bfly/bfly", help="the CLI with it")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--precision", choices=["single", "double"], default="single")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--low", type=int, default=40)
    parser.add_argument("--high", type=int, default=8192)
    args = parser.parse_args()
    if args.count < 1 or args.low >= args.high:
        sys.exit(f"nvrtc-compare.py: need --count >= 1 and --low < --high (got {args.count}, {args.low}, {args.high})")
    primes = [p for p in range(args.low, args.high) if is_prime(p)]
    random.seed(args.seed)
    chosen = sorted(random.sample(primes, min(args.count, len(primes))))
    same = better = worse = 0
    for p in chosen:
        old = resources(args.old, p, args.precision)
        new = resources(args.new, p, args.precision)
        if old == new:
            same += 1
            continue
        print(p, "old", old, "new", new)
        spill_old = int(old[0][1]) if old[0] else 0
        spill_new = int(new[0][1]) if new[0] else 0
        worse += spill_new > spill_old
        better += spill_new < spill_old
    print(f"same {same}, spill better {better}, spill worse {worse} ({args.precision}, seed {args.seed})")


if __name__ == "__main__":
    main()
