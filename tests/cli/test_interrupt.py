#!/usr/bin/env python3
"""An interrupted `bfly` run leaves no partial output.

Run as:  python3 tests/cli/test_interrupt.py --bfly PATH_TO_bfly [--rounds N]

`bfly fft` writes a 128 MiB result (a short input zero-padded with --n) to a
temporary beside the output and renames it into place. Each round sends
SIGINT, SIGTERM or SIGHUP at a different moment: early (planning, computing),
the instant the temporary appears (while the bytes are being written), or
after a random delay; half the rounds start with an older output file in
place. Afterwards the process must have died of that signal (or finished),
no temporary may remain, and the output must be either absent, the old file
unchanged, or the complete, correct result (the run finished, or the signal
came after the rename).
Prints one line per round and "N passed, M failed"; exits 1 on any failure,
77 if numpy is missing.
"""

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    print(f"SKIP all: numpy is not importable by {sys.executable}")
    print("0 passed, 0 failed")
    sys.exit(77)

LENGTH = 1 << 24  # complex64: 128 MiB written


def temporaries(directory):
    return [name for name in os.listdir(directory) if ".tmp." in name]


def run_round(bfly, work, in_path, expected, sig, moment, old_output, rng):
    out_path = os.path.join(work, "out.npy")
    if os.path.exists(out_path):
        os.remove(out_path)
    old = None
    if old_output:
        np.save(out_path, np.arange(5, dtype=np.complex64))
        with open(out_path, "rb") as f:
            old = f.read()
    process = subprocess.Popen([bfly, "fft", in_path, out_path, "--n", str(LENGTH)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    landed = "before the write"
    if moment == "early":
        time.sleep(0.02)
    elif moment == "random":
        time.sleep(rng.uniform(0.0, 1.5))
    else:  # the instant the temporary exists
        deadline = time.monotonic() + 120
        while process.poll() is None and not temporaries(work) and time.monotonic() < deadline:
            time.sleep(0.0002)
    if temporaries(work):
        landed = "during the write"
    process.send_signal(sig)
    _, stderr = process.communicate(timeout=120)
    code = process.returncode
    problems = []
    left = temporaries(work)
    if left:
        problems.append(f"temporaries left: {left}")
    if code not in (0, -sig):
        problems.append(f"exit {code}, expected death by {signal.Signals(sig).name}: {stderr.decode()[-300:]}")
    # The output is absent, the older file unchanged, or the whole result:
    # the run finished, or the signal came after the rename (the temporary
    # was gone when we looked, and the process died on its way out).
    whole = False
    if os.path.exists(out_path):
        with open(out_path, "rb") as f:
            now = f.read()
        if now != old:
            try:
                y = np.load(out_path)
                whole = y.shape == expected.shape and np.allclose(y, expected, rtol=1e-3, atol=1e-3)
            except Exception:
                whole = False
            if not whole:
                problems.append(f"a partial or wrong output of {len(now)} bytes" +
                                (" replaced the older one" if old_output else ""))
    if code == 0 and not whole:
        problems.append("finished without writing the whole result")
    if whole:
        landed = "after the run" if code == 0 else "after the rename"
    return problems, landed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bfly", required=True)
    parser.add_argument("--rounds", type=int, default=18)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print(f"seed {seed}")
    passed = failed = 0
    landings = {}
    with tempfile.TemporaryDirectory(prefix="bfly-interrupt-") as work:
        in_path = os.path.join(work, "in.npy")
        x = (np.random.default_rng(seed).standard_normal(1000) + 0j).astype(np.complex64)
        np.save(in_path, x)
        # One whole run first: compiles the kernels (the cache makes later
        # runs start at once) and gives the result a finished run must match.
        first = subprocess.run([args.bfly, "fft", in_path, os.path.join(work, "out.npy"), "--n", str(LENGTH)],
                               capture_output=True, text=True, timeout=900)
        if first.returncode != 0:
            print(f"FAIL the uninterrupted run: exit {first.returncode}: {first.stderr[-300:]}")
            print("0 passed, 1 failed")
            return 1
        expected = np.load(os.path.join(work, "out.npy"))
        signals = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
        moments = ["early", "writing", "writing", "random"]
        for k in range(args.rounds):
            sig = signals[k % len(signals)]
            moment = moments[k % len(moments)]
            old_output = (k // 2) % 2 == 1
            problems, landed = run_round(args.bfly, work, in_path, expected, sig, moment, old_output, rng)
            landings[landed] = landings.get(landed, 0) + 1
            name = f"round {k}: {signal.Signals(sig).name} {moment}{', older output' if old_output else ''} ({landed})"
            if problems:
                failed += 1
                print(f"FAIL {name}: {'; '.join(problems)}")
            else:
                passed += 1
                print(f"PASS {name}")
            sys.stdout.flush()
    print("signals landed: " + ", ".join(f"{n} {where}" for where, n in sorted(landings.items())))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
