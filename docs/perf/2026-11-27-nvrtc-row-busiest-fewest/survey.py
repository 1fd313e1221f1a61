"""NVRTC survey of row_busiest=2 against 1 (issue 39, 2026-11-27).

Here, not on a GPU: 150 random smooth lengths 1024-16384; where the planned
launch differs, each launch's registers and spills from `bfly plan --nvrtc`.
  python3 survey.py SEED single|double
"""

import random
import re
import subprocess
import sys

BFLY = "build/apps/bfly/bfly"


def smooth(n):
    for p in (2, 3, 5, 7, 11, 13):
        while n % p == 0:
            n //= p
    return n == 1


def launch(n, value, precision, nvrtc=False):
    args = [BFLY, "plan", "--limits", "hopper", "--shape", str(n), "--batch", "100", "--precision", precision]
    if nvrtc:
        args += ["--nvrtc", "sm_90"]
    env = {"BFLY_LIMITS": "row_busiest=%d" % value}
    out = subprocess.run(args, capture_output=True, text=True, env=env).stdout.splitlines()
    threads = [line for line in out if "threads," in line]
    shape = threads[0].split("groups of")[1].split("bytes local")[0].strip() if threads else ""
    resources = [line for line in out if "registers" in line or "relaunched" in line]
    kernels = [re.sub(r"stack.*", "", line).split(": ", 1)[-1] for line in resources]
    return shape, kernels


def main():
    rng = random.Random(int(sys.argv[1]))
    precision = sys.argv[2]
    candidates = [n for n in range(1024, 16385) if smooth(n)]
    changed = 0
    lengths = rng.sample(candidates, 150)
    for n in lengths:
        old, _ = launch(n, 1, precision)
        new, _ = launch(n, 2, precision)
        if old != new:
            changed += 1
            _, old_kernels = launch(n, 1, precision, True)
            _, new_kernels = launch(n, 2, precision, True)
            print(n, "| old", old, old_kernels, "| new", new, new_kernels, flush=True)
    print("changed", changed, "of", len(lengths))


if __name__ == "__main__":
    main()
