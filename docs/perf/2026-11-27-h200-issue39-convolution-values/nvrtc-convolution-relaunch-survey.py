"""NVRTC survey of the spilling convolutions' relaunch (issue 39, 2026-11-27).

Here, not on a GPU: random primes (C2C) and odd real lengths with a prime
factor above 31 (R2C), both precisions; prints each case whose kernels spill
at the model's launch, with the relaunch `bfly plan --nvrtc` names.
  python3 nvrtc-convolution-relaunch-survey.py SEED
"""

import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BFLY = "build/apps/bfly/bfly"


def is_prime(n):
    return n > 1 and all(n % p for p in range(2, int(n**0.5) + 1))


def largest_factor(n):
    m, f, big = n, 2, 1
    while f * f <= m:
        while m % f == 0:
            big = max(big, f)
            m //= f
        f += 1
    return max(big, m)


def run(case):
    kind, precision, n = case
    args = [BFLY, "plan", "--limits", "hopper", "--nvrtc", "sm_90", "--shape", str(n), "--batch", "1000"]
    args += ["--kind", kind, "--precision", precision]
    out = subprocess.run(args, capture_output=True, text=True).stdout.splitlines()
    keep = ("registers", "relaunched", "no other")
    return case, [line for line in out if any(k in line for k in keep)]


def main():
    rng = random.Random(int(sys.argv[1]))
    primes = [p for p in range(67, 4097) if is_prime(p)]
    odds = [n for n in range(67, 8193, 2) if not is_prime(n) and largest_factor(n) > 31]
    cases = [("c2c", "single", p) for p in rng.sample(primes, 70)]
    cases += [("c2c", "double", p) for p in rng.sample([p for p in primes if p <= 2048], 50)]
    cases += [("r2c", "single", n) for n in rng.sample(odds, 50)]
    cases += [("r2c", "double", n) for n in rng.sample([n for n in odds if n <= 4096], 30)]
    with ThreadPoolExecutor(2) as pool:
        for case, lines in pool.map(run, cases):
            spill = [x for x in lines if re.search(r"spills [1-9]", x) or "relaunch" in x or "no other" in x]
            if spill:
                print(case, "\n   " + "\n   ".join(re.sub(r"stack.*", "", line).strip() for line in spill), flush=True)
    print("done", len(cases))


if __name__ == "__main__":
    main()
