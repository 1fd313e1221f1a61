#!/usr/bin/env python3
"""End-to-end tests of bfly's application commands: `bfly convolve` against
scipy.signal.fftconvolve and scipy.signal.correlate (computed in float64 /
complex128 from the same inputs), every mode, broadcast axes, the swap of
'valid', odd and even lengths, 1D to 3D, real and complex, both precisions;
and the failure modes (one clear line on stderr, non-zero exit, no output
or temporary file left).

Run as:  python3 tests/cli/test_apps_cli.py --bfly PATH_TO_bfly [--device SPEC] [--seed N]

Ends with one line "N passed, M failed"; exits 1 if any check failed, 77
(CTest's SKIP_RETURN_CODE) if numpy or scipy is missing.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402  (numpy, the Checks and Bfly helpers, expect_failure)
from test_cli import Bfly, expect_failure, listing, random_array  # noqa: E402

np = test_cli.np
checks = test_cli.checks
try:
    import scipy.signal
except ImportError:
    print(f"SKIP all: scipy is not importable by {sys.executable}")
    print("0 passed, 0 failed")
    sys.exit(77)

# (signal shape, kernel shape, mode, axes or None, correlate, dtype of both)
CONVOLVE_CASES = [
    ((100,), (7,), "full", None, False, np.float32),
    ((100,), (8,), "same", None, False, np.float32),
    ((101,), (8,), "valid", None, False, np.float64),
    ((7,), (100,), "valid", None, False, np.float32),   # scipy swaps the inputs
    ((7,), (100,), "same", None, False, np.complex64),
    ((64,), (9,), "valid", None, True, np.complex128),
    ((100,), (7,), "full", None, True, np.float32),
    ((37, 64), (5, 8), "same", None, False, np.float32),
    ((37, 64), (5, 8), "valid", None, True, np.float64),
    ((37, 64), (1, 9), "same", (1,), False, np.complex64),
    ((1, 50), (6, 7), "full", (1,), False, np.float32),  # broadcast over the kernel's rows
    ((1, 50), (6, 7), "same", (-1,), False, np.float32),  # 'same' keeps the signal's 1 row, the middle one
    ((5, 1), (1, 6), "same", None, False, np.float64),  # no axis transformed: a broadcast product
    ((9, 10, 11), (3, 4, 2), "full", None, False, np.complex64),
    ((4, 16, 12), (4, 5, 5), "same", (1, 2), False, np.float32),
]


def tolerance(dtype):
    return 1e-13 if dtype in (np.float64, np.complex128) else 1e-6


def check_convolve(name, bfly, rng, work, a_shape, k_shape, mode, axes, correlate, dtype):
    tag = "".join(ch if ch.isalnum() else "_" for ch in name)
    a = random_array(rng, a_shape, dtype)
    k = random_array(rng, k_shape, dtype)
    a_path = os.path.join(work, "inputs", tag + "_a.npy")
    k_path = os.path.join(work, "inputs", tag + "_k.npy")
    out_path = os.path.join(work, "outputs", tag + ".npy")
    np.save(a_path, a)
    np.save(k_path, k)
    args = ["convolve", a_path, k_path, out_path, "--mode", mode]
    if axes is not None:
        args += ["--axes", ",".join(map(str, axes))]
    if correlate:
        args += ["--correlate"]
    result = bfly.run(args)
    if result.returncode != 0:
        checks.record(name, False, f"exit {result.returncode}: {test_cli.short(result.stderr)}")
        return
    y = np.load(out_path)
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    if correlate:
        expected = scipy.signal.correlate(a.astype(wide), k.astype(wide), mode=mode, method="fft")
    else:
        expected = scipy.signal.fftconvolve(a.astype(wide), k.astype(wide), mode=mode, axes=axes)
    problems = []
    if y.dtype != np.dtype(dtype):
        problems.append(f"dtype {y.dtype}, scipy's {np.dtype(dtype)}")
    if y.shape != expected.shape:
        problems.append(f"shape {y.shape}, scipy's {expected.shape}")
    else:
        error = np.linalg.norm(y.astype(expected.dtype) - expected) / max(np.linalg.norm(expected), 1e-300)
        if not np.all(np.isfinite(y)) or error > tolerance(dtype):
            problems.append(f"relative L2 error {error:.2e} > {tolerance(dtype):.0e}")
    checks.record(name, not problems, "; ".join(problems) if problems else f"shape {y.shape}")


def check_convolve_failures(bfly, rng, work):
    a = os.path.join(work, "inputs", "fail_a.npy")
    k2 = os.path.join(work, "inputs", "fail_k2.npy")
    k3 = os.path.join(work, "inputs", "fail_k3.npy")
    np.save(a, random_array(rng, (10, 12), np.float32))
    np.save(k2, random_array(rng, (4, 20), np.float32))
    np.save(k3, random_array(rng, (2, 2, 2), np.float32))
    text = os.path.join(work, "inputs", "not_npy.npy")
    with open(text, "w") as f:
        f.write("hello\n")
    out = os.path.join(work, "outputs", "fail.npy")
    expect_failure("convolve: ranks differ", bfly, ["convolve", a, k3, out], out, ["dimensions"])
    expect_failure("convolve: valid with neither larger", bfly, ["convolve", a, k2, out, "--mode", "valid"], out,
                   ["valid"])
    expect_failure("convolve: unknown mode", bfly, ["convolve", a, k2, out, "--mode", "middle"], out, ["middle"])
    expect_failure("convolve: axis out of range", bfly, ["convolve", a, k2, out, "--axes", "2"], out, ["2"])
    expect_failure("convolve: not an npy file", bfly, ["convolve", text, k2, out], out, ["not_npy.npy"])
    expect_failure("convolve: missing input", bfly, ["convolve", a + ".absent", k2, out], out, ["absent"])
    expect_failure("convolve: circular with a longer kernel", bfly, ["convolve", a, k2, out, "--circular"], out,
                   ["circular"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bfly", required=True, help="path to the bfly binary")
    parser.add_argument("--device", default="", help="passed as --device SPEC")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"bfly: {options.bfly}; device: {options.device or '(default)'}; seed: {seed}")
    rng = np.random.default_rng(seed)
    bfly = Bfly(os.path.abspath(options.bfly), options.device)
    with tempfile.TemporaryDirectory(prefix="bfly_apps_") as work:
        os.mkdir(os.path.join(work, "inputs"))
        os.mkdir(os.path.join(work, "outputs"))
        for a_shape, k_shape, mode, axes, correlate, dtype in CONVOLVE_CASES:
            where = "" if axes is None else f" axes={','.join(map(str, axes))}"
            verb = "correlate" if correlate else "convolve"
            name = f"{verb} {a_shape} with {k_shape} {mode}{where} {np.dtype(dtype).name}"
            checks.run(name, check_convolve, bfly, rng, work, a_shape, k_shape, mode, axes, correlate, dtype)
        stray = [n for n in listing(os.path.join(work, "outputs")) if not n.endswith(".npy")]
        checks.record("successful runs leave no temporary files", not stray, f"left: {stray}" if stray else "")
        checks.run("convolve failures", lambda name: check_convolve_failures(bfly, rng, work))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
