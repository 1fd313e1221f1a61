#!/usr/bin/env python3
"""End-to-end tests of bfly's application commands: `bfly convolve` against
scipy.signal.fftconvolve and scipy.signal.correlate (computed in float64 /
complex128 from the same inputs), every mode, broadcast axes, the swap of
'valid', odd and even lengths, 1D to 3D, real and complex, both precisions;
and the failure modes (one clear line on stderr, non-zero exit, no output
or temporary file left); `bfly polymul` against numpy.convolve on Python
integers (exact), .npy and text in and out, full-width int64 coefficients.

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
    r4 = os.path.join(work, "inputs", "fail_r4.npy")
    np.save(r4, random_array(rng, (2, 3, 4, 5), np.float32))
    expect_failure("convolve: four convolved axes", bfly, ["convolve", r4, r4, out], out, ["4 axes", "at most 3"],
                   every_needle=True)
    expect_failure("convolve: circular with a longer kernel", bfly, ["convolve", a, k2, out, "--circular"], out,
                   ["circular"])


def exact_product(a, b):
    return [int(x) for x in np.convolve(np.array([int(v) for v in a], dtype=object),
                                         np.array([int(v) for v in b], dtype=object))]


def check_polymul(name, bfly, rng, work, n, m, kind):
    """kind: "npy" (int64 in and out, small enough to fit), "text" (text in
    and out, full-width int64 coefficients), "mixed" (npy in, text out)."""
    tag = "".join(ch if ch.isalnum() else "_" for ch in name)
    bits = 20 if kind == "npy" else 64
    high = 2 ** (bits - 1)
    a = [int(v) for v in rng.integers(-high, high, n, dtype=np.int64, endpoint=False)]
    b = [int(v) for v in rng.integers(-high, high, m, dtype=np.int64, endpoint=False)]
    if kind == "text":
        a[0], b[-1] = -(2 ** 63), 2 ** 63 - 1  # the extremes
    paths = []
    for name_, values in (("a", a), ("b", b)):
        if kind == "text":
            path = os.path.join(work, "inputs", f"{tag}_{name_}.txt")
            with open(path, "w") as f:
                f.write("".join(f"{v}\n" for v in values))
        else:
            path = os.path.join(work, "inputs", f"{tag}_{name_}.npy")
            np.save(path, np.array(values, dtype=np.int64))
        paths.append(path)
    out = os.path.join(work, "outputs", tag + (".npy" if kind == "npy" else ".txt"))
    result = bfly.run(["polymul", paths[0], paths[1], out])
    if result.returncode != 0:
        checks.record(name, False, f"exit {result.returncode}: {test_cli.short(result.stderr)}")
        return
    if kind == "npy":
        y = np.load(out)
        got = [int(v) for v in y] if y.dtype == np.int64 else None
    else:
        with open(out) as f:
            got = [int(line) for line in f.read().split()]
    want = exact_product(a, b)
    ok = got == want
    checks.record(name, ok, f"{len(want)} coefficients" if ok else "differs from numpy.convolve on Python ints")


def check_polymul_failures(bfly, rng, work):
    inputs = os.path.join(work, "inputs")
    good = os.path.join(inputs, "poly_good.txt")
    with open(good, "w") as f:
        f.write("1\n2\n")
    bad_line = os.path.join(inputs, "poly_bad.txt")
    with open(bad_line, "w") as f:
        f.write("1\n2\n3.5\n")
    too_big = os.path.join(inputs, "poly_big.txt")
    with open(too_big, "w") as f:
        f.write("9223372036854775808\n")
    empty = os.path.join(inputs, "poly_empty.txt")
    open(empty, "w").close()
    floats = os.path.join(inputs, "poly_float.npy")
    np.save(floats, np.array([1.0, 2.0]))
    matrix = os.path.join(inputs, "poly_matrix.npy")
    np.save(matrix, np.ones((2, 2), dtype=np.int64))
    wide = os.path.join(inputs, "poly_wide.txt")
    with open(wide, "w") as f:
        f.write("9223372036854775807\n")
    out = os.path.join(work, "outputs", "poly_fail.npy")
    expect_failure("polymul: a line that is not an integer", bfly, ["polymul", bad_line, good, out], out,
                   ["line 3", "3.5"], every_needle=True)
    expect_failure("polymul: a coefficient beyond int64", bfly, ["polymul", too_big, good, out], out,
                   ["9223372036854775808"])
    expect_failure("polymul: no coefficients", bfly, ["polymul", empty, good, out], out, ["no coefficients"])
    expect_failure("polymul: float64 .npy", bfly, ["polymul", floats, good, out], out, ["<f8", "int64"])
    expect_failure("polymul: 2-D .npy", bfly, ["polymul", matrix, good, out], out, ["1-D", "dimensions"])
    expect_failure("polymul: product beyond int64 into .npy", bfly, ["polymul", wide, wide, out], out,
                   ["beyond int64"])


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
        for n, m, kind in [(1, 1, "npy"), (300, 17, "npy"), (1000, 1000, "text"), (4097, 255, "mixed")]:
            name = f"polymul {n} x {m} coefficients, {kind}"
            checks.run(name, check_polymul, bfly, rng, work, n, m, kind)
        checks.run("polymul failures", lambda name: check_polymul_failures(bfly, rng, work))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
