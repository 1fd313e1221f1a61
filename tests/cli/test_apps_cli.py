#!/usr/bin/env python3
"""End-to-end tests of bfly's application commands: `bfly convolve` against
scipy.signal.fftconvolve and scipy.signal.correlate (computed in float64 /
complex128 from the same inputs), every mode, broadcast axes, the swap of
'valid', odd and even lengths, 1D to 3D, real and complex, both precisions;
and the failure modes (one clear line on stderr, non-zero exit, no output
or temporary file left); `bfly polymul` against numpy.convolve on Python
integers (exact), .npy and text in and out, full-width int64 coefficients;
`bfly filter` against the masks it documents (a delta's spectrum), sinusoids,
constant images and skimage.filters.butterworth, on PNG (every layout) and
.npy images; `bfly bigmul` against Python's int products; `bfly bench --app
convolve|bigmul` (they check their own results); products to '-' and to a
full stdout, and an input refused as output.

Run as:  python3 tests/cli/test_apps_cli.py --bfly PATH_TO_bfly [--device SPEC] [--seed N]

Ends with one line "N passed, M failed"; exits 1 if any check failed, 77
(CTest's SKIP_RETURN_CODE) if numpy or scipy is missing.
"""

import argparse
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_cli  # noqa: E402  (numpy, the Checks and Bfly helpers, expect_failure)
from test_cli import (  # noqa: E402
    Bfly,
    device_node,
    expect_failure,
    features,
    listing,
    one_error_line,
    random_array,
    run_bytes,
    sample_cases,
)

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


# The four types bfly computes in, every pair of them; then types that are
# promoted first as scipy.fft promotes them (bool and integers to float64,
# float16 to float32), so int8 with float32 gives float64 although
# numpy.result_type says float32; a big-endian file too.
COMPUTED_DTYPES = ["float32", "float64", "complex64", "complex128"]
PROMOTED_PAIRS = [("int8", "float32"), ("int64", "int64"), ("bool", "bool"), ("uint16", "complex64"),
                  ("float16", "float16"), ("float16", "complex64"), ("float16", "float64"), ("int32", "float16"),
                  (">i2", ">f8"), ("uint64", "complex128")]


def sample_array(rng, shape, dtype):
    """Random values of any numeric dtype (integers small enough for every type)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -50, 50, shape).astype(dtype)
    if dtype.kind == "f" and dtype.itemsize == 2:
        return rng.uniform(-1.0, 1.0, shape).astype(dtype)
    return random_array(rng, shape, dtype.newbyteorder("=").type).astype(dtype)


def check_convolve_dtypes(name, bfly, rng, work, a_dtype, k_dtype, correlate):
    """The values and output dtype of scipy.signal.fftconvolve for inputs of
    two dtypes (--correlate: scipy.signal.correlate's values, fftconvolve's
    dtype, as documented)."""
    tag = "".join(ch if ch.isalnum() else "_" for ch in name)
    a = sample_array(rng, (40,), a_dtype)
    k = sample_array(rng, (5,), k_dtype)
    a_path = os.path.join(work, "inputs", tag + "_a.npy")
    k_path = os.path.join(work, "inputs", tag + "_k.npy")
    out_path = os.path.join(work, "outputs", tag + ".npy")
    np.save(a_path, a)
    np.save(k_path, k)
    result = bfly.run(["convolve", a_path, k_path, out_path] + (["--correlate"] if correlate else []))
    if result.returncode != 0:
        checks.record(name, False, f"exit {result.returncode}: {test_cli.short(result.stderr)}")
        return
    y = np.load(out_path)
    want_dtype = scipy.signal.fftconvolve(a, k).dtype
    wide = np.complex128 if want_dtype.kind == "c" else np.float64
    if correlate:
        expected = scipy.signal.correlate(a.astype(wide), k.astype(wide), method="fft")
    else:
        expected = scipy.signal.fftconvolve(a.astype(wide), k.astype(wide))
    problems = []
    if y.dtype != want_dtype:
        problems.append(f"dtype {y.dtype}, scipy's {want_dtype}")
    if y.shape != expected.shape:
        problems.append(f"shape {y.shape}, scipy's {expected.shape}")
    else:
        error = np.linalg.norm(y.astype(wide) - expected) / max(np.linalg.norm(expected), 1e-300)
        if not np.all(np.isfinite(y)) or error > tolerance(want_dtype.type):
            problems.append(f"relative L2 error {error:.2e} > {tolerance(want_dtype.type):.0e}")
    checks.record(name, not problems, "; ".join(problems) if problems else f"{y.dtype}")


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
    expect_failure("convolve: --axes naming no axis (scipy's axes=[])", bfly, ["convolve", a, k2, out, "--axes", ""],
                   out, ["--axes"])
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


def check_polymul_dtypes(name, bfly, rng, work):
    """Bool and every integer dtype (either byte order) is taken exactly:
    the product of the values as Python ints, into int64."""
    b = [int(v) for v in rng.integers(-1000, 1000, 9)]
    b_path = os.path.join(work, "inputs", "poly_dtypes_b.txt")
    with open(b_path, "w") as f:
        f.write("".join(f"{v}\n" for v in b))
    for dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64", ">i8", ">u4"):
        if dtype == "bool":
            a = rng.random(13) < 0.5
        else:
            # Full range, but a uint64 only up to 2^63 - 1 (the largest it may hold here), which is included.
            info = np.iinfo(dtype)
            high = min(int(info.max), 2 ** 63 - 1)
            a = rng.integers(info.min, high, 13, dtype=np.dtype(dtype).newbyteorder("="), endpoint=True)
            a[0] = high
        a_path = os.path.join(work, "inputs", "poly_dtypes_a.npy")
        out = os.path.join(work, "outputs", "poly_dtypes.txt")
        np.save(a_path, np.asarray(a, dtype=dtype))
        result = bfly.run(["polymul", a_path, b_path, out])
        if result.returncode != 0:
            checks.record(f"{name}: {dtype}", False, f"exit {result.returncode}: {test_cli.short(result.stderr)}")
            continue
        with open(out) as f:
            got = [int(line) for line in f.read().split()]
        checks.record(f"{name}: {dtype}", got == exact_product(a, b), "")


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
    expect_failure("polymul: float64 .npy", bfly, ["polymul", floats, good, out], out, ["float64", "integer"],
                   every_needle=True)
    for dtype in (np.float16, np.complex64):
        path = os.path.join(inputs, f"poly_{np.dtype(dtype).name}.npy")
        np.save(path, np.array([1, 2], dtype=dtype))
        expect_failure(f"polymul: {np.dtype(dtype).name} .npy", bfly, ["polymul", path, good, out], out,
                       [np.dtype(dtype).name, "integer"], every_needle=True)
    huge = os.path.join(inputs, "poly_huge_u8.npy")
    np.save(huge, np.array([1, 2 ** 63, 3], dtype=np.uint64))
    expect_failure("polymul: a uint64 coefficient beyond int64", bfly, ["polymul", huge, good, out], out,
                   ["9223372036854775808", "1"], every_needle=True)
    # A blank line would shift every later degree: an error naming it, as any other non-integer line.
    for text, line in (("1\n\n2\n", "line 2"), ("1\n2\n\n", "line 3"), ("1\n \t\n2\n", "line 2")):
        blank = os.path.join(inputs, "poly_blank.txt")
        with open(blank, "w") as f:
            f.write(text)
        expect_failure(f"polymul: a blank {line} in {text!r}", bfly, ["polymul", blank, good, out], out,
                       [line, "blank"],
                       every_needle=True)
    expect_failure("polymul: 2-D .npy", bfly, ["polymul", matrix, good, out], out, ["1-D", "dimensions"])
    expect_failure("polymul: product beyond int64 into .npy", bfly, ["polymul", wide, wide, out], out,
                   ["beyond int64"])


# ---- bfly filter ------------------------------------------------------------

def png_bytes(samples, bits):
    """A PNG (no filtering, one IDAT) of samples: H x W x C uint array."""
    import struct
    import zlib
    h, w, c = samples.shape
    kind = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    dtype = ">u2" if bits == 16 else "u1"
    raw = b"".join(b"\x00" + samples[y].astype(dtype).tobytes() for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, kind, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def read_png(path):
    """Decodes the non-interlaced PNGs bfly writes: H x W x C, and the depth."""
    import struct
    import zlib
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    while at < len(data):
        length, tag = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if tag == b"IHDR":
            w, h, bits, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            idat += body
        at += 12 + length
    c = {0: 1, 4: 2, 2: 3, 6: 4}[kind]
    bpp = c * bits // 8
    stride = w * bpp
    raw = zlib.decompress(idat)
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int64)
        cur = np.zeros(stride, dtype=np.int64)
        for x in range(stride):
            a = cur[x - bpp] if x >= bpp else 0
            b = prev[x]
            cc = prev[x - bpp] if x >= bpp else 0
            if ftype == 0:
                p = 0
            elif ftype == 1:
                p = a
            elif ftype == 2:
                p = b
            elif ftype == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - cc), abs(a - cc), abs(a + b - 2 * cc)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
            cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    if bits == 16:
        values = out.reshape(h, w * c, 2).astype(np.uint16)
        return (values[:, :, 0] * 256 + values[:, :, 1]).reshape(h, w, c), bits
    return out.reshape(h, w, c).astype(np.uint16), bits


def run_filter(bfly, work, tag, image, args, suffix=".npy"):
    in_path = os.path.join(work, "inputs", tag + suffix)
    out_path = os.path.join(work, "outputs", tag + suffix)
    if suffix == ".npy":
        np.save(in_path, image)
    else:
        with open(in_path, "wb") as f:
            f.write(image)
    result = bfly.run(["filter", in_path, out_path] + args)
    if result.returncode != 0:
        raise RuntimeError(f"exit {result.returncode}: {test_cli.short(result.stderr)}")
    return np.load(out_path) if suffix == ".npy" else read_png(out_path)


def mask_of(shape, filter_args):
    """The mask the docs define, on numpy.fft.rfft2's grid (wrap borders)."""
    fy = np.fft.fftfreq(shape[0])[:, None]
    fx = np.fft.rfftfreq(shape[1])[None, :]
    rho = np.sqrt(fy ** 2 + fx ** 2) / 0.5
    kind, value = filter_args
    if kind == "ideal-low":
        return (rho <= value).astype(float)
    if kind == "gaussian-high":
        return 1 - np.exp(-rho ** 2 / (2 * value ** 2))
    if kind == "butterworth-band":
        lo, hi = value
        return (1 / (1 + (rho / hi) ** 4)) * (1 - 1 / (1 + (rho / lo) ** 4))
    if kind == "blur":
        return np.exp(-2 * np.pi ** 2 * value ** 2 * (rho * 0.5) ** 2)
    raise ValueError(kind)


def check_filter(bfly, rng, work):
    shape = (48, 40)
    # A delta: with wrap borders its filtered image's spectrum is the mask itself.
    delta = np.zeros(shape)
    delta[0, 0] = 1.0
    # (0.33: no frequency of this grid lies on the ideal mask's edge, where
    # rounding would decide.)
    for args, mask in [(["--lowpass", "0.33", "--mask", "ideal"], ("ideal-low", 0.33)),
                       (["--highpass", "0.2", "--mask", "gaussian"], ("gaussian-high", 0.2)),
                       (["--bandpass", "0.1,0.5"], ("butterworth-band", (0.1, 0.5))),
                       (["--blur", "1.5"], ("blur", 1.5))]:
        name = f"filter: a delta through {' '.join(args)} has the mask as its spectrum"
        y = run_filter(bfly, work, "delta", delta, args + ["--pad", "wrap"])
        error = np.abs(np.fft.rfft2(y) - mask_of(shape, mask)).max()
        checks.record(name, error < 1e-12, f"max error {error:.1e}")
    # A sinusoid on an exact bin: passed whole below the cutoff, removed above.
    x = np.arange(shape[1])[None, :] * np.ones(shape)
    low = np.cos(2 * np.pi * 4 * x / shape[1])    # 0.2 of Nyquist
    high = np.cos(2 * np.pi * 16 * x / shape[1])  # 0.8 of Nyquist
    y = run_filter(bfly, work, "sine", low + high, ["--lowpass", "0.5", "--mask", "ideal", "--pad", "wrap"])
    error = np.abs(y - low).max()
    checks.record("filter: an ideal low-pass keeps the low sinusoid and removes the high one", error < 1e-12,
                  f"max error {error:.1e}")
    # A constant image: a low-pass keeps it, a high-pass removes it (reflect borders).
    flat = np.full(shape, 0.75, dtype=np.float32)
    y = run_filter(bfly, work, "flat", flat, ["--lowpass", "0.1"])
    checks.record("filter: a low-pass keeps a constant image (float32 in, float32 out)",
                  y.dtype == np.float32 and np.abs(y - 0.75).max() < 1e-6, f"max error {np.abs(y - 0.75).max():.1e}")
    y = run_filter(bfly, work, "flat", flat, ["--highpass", "0.1", "--mask", "gaussian"])
    checks.record("filter: a high-pass removes a constant image", np.abs(y).max() < 1e-6, f"max {np.abs(y).max():.1e}")
    # Against scikit-image's Butterworth filter (its own borders: wrap).
    try:
        from skimage.filters import butterworth
    except ImportError:
        checks.skip("filter: Butterworth against skimage", "scikit-image is not importable")
    else:
        image = rng.random((37, 50))
        for high_pass, cutoff, order in [(False, 0.2, 2.0), (True, 0.05, 3.0), (True, 0.5, 1.0)]:
            flag = "--highpass" if high_pass else "--lowpass"
            y = run_filter(bfly, work, "skimage", image,
                           [flag, str(cutoff), "--mask", f"butterworth:{order}", "--pad", "wrap"])
            expected = butterworth(image, cutoff_frequency_ratio=cutoff / 2, high_pass=high_pass, order=order)
            error = np.abs(y - expected).max()
            checks.record(f"filter: {flag} {cutoff} butterworth:{order} equals skimage.filters.butterworth",
                          error < 1e-12, f"max error {error:.1e}")
    # --kernel: the image extended as numpy.pad extends it, then scipy's 'valid'
    # (with zeros: scipy's 'same').
    image = rng.random((30, 41))
    kernel = rng.random((5, 4))
    kernel_path = os.path.join(work, "inputs", "kernel.npy")
    np.save(kernel_path, kernel)
    for pad, mode in (("zero", "constant"), ("reflect", "reflect"), ("wrap", "wrap")):
        y = run_filter(bfly, work, "kernel_" + pad, image, ["--kernel", kernel_path, "--pad", pad])
        kh, kw = kernel.shape
        top, left = kh - 1 - (kh - 1) // 2, kw - 1 - (kw - 1) // 2
        extended = np.pad(image, ((top, kh - 1 - top), (left, kw - 1 - left)), mode=mode)
        expected = scipy.signal.fftconvolve(extended, kernel, mode="valid")
        error = np.abs(y - expected).max()
        checks.record(f"filter --kernel K.npy --pad {pad}: numpy.pad then scipy.signal.fftconvolve", error < 1e-12,
                      f"max error {error:.1e}")
    png_kernel = os.path.join(work, "inputs", "kernel.png")
    with open(png_kernel, "wb") as f:
        f.write(png_bytes(rng.integers(1, 256, (7, 7, 1)).astype(np.uint16), 8))
    flat_png = png_bytes(np.full((20, 20, 3), 77, dtype=np.uint16), 8)
    out, _ = run_filter(bfly, work, "png_kernel", flat_png, ["--kernel", png_kernel], ".png")
    checks.record("filter --kernel K.png: scaled to sum 1 (a flat image stays flat)", np.all(out == 77),
                  f"values {np.unique(out)[:5]}")
    # PNG: every layout, alpha kept, depth kept, values clipped to the range.
    for channels, bits in [(1, 8), (2, 16), (3, 8), (4, 16)]:
        top = 2 ** bits - 1
        samples = rng.integers(0, top + 1, (24, 20, channels)).astype(np.uint16)
        out, out_bits = run_filter(bfly, work, f"png{channels}_{bits}", png_bytes(samples, bits), ["--blur", "2"],
                                   ".png")
        problems = []
        if out.shape != samples.shape or out_bits != bits:
            problems.append(f"shape {out.shape} at {out_bits} bits")
        elif channels in (2, 4) and not np.array_equal(out[:, :, -1], samples[:, :, -1]):
            problems.append("alpha changed")
        elif out[:, :, :channels - (channels % 2 == 0)].std() >= samples[:, :, :channels - (channels % 2 == 0)].std():
            problems.append("the blur did not smooth the colours")
        checks.record(f"filter: a {channels}-channel {bits}-bit PNG blurred", not problems, "; ".join(problems))
    # A filter that removes the mean (a high-pass, a band-pass, a kernel
    # summing to 0) to PNG: its values, half of them negative, offset by
    # mid-grey as documented (not clipped at 0); .npy stays raw.
    laplacian = os.path.join(work, "inputs", "laplacian.npy")
    np.save(laplacian, np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]], dtype=np.int8))
    # (The Laplacian's noise is 4.5 times its input's: a gentle image.)
    for args, channels, bits, spread in ((["--highpass", "0.2"], 1, 8, 1.0), (["--bandpass", "0.1,0.5"], 3, 16, 1.0),
                                         (["--kernel", laplacian], 1, 8, 0.1)):
        top = 2 ** bits - 1
        samples = np.rint(top * (0.5 + spread * rng.uniform(-0.5, 0.5, (24, 20, channels)))).astype(np.uint16)
        out, _ = run_filter(bfly, work, "png_zero_mean", png_bytes(samples, bits), args, ".png")
        raw = run_filter(bfly, work, "npy_zero_mean", samples.astype(np.float64), args)
        expected = np.clip(np.rint(raw + 2 ** (bits - 1)), 0, top)
        zeros = np.mean(out == 0)
        checks.record(f"filter {' '.join(args[:1])} to a {bits}-bit PNG: offset by mid-grey, not clipped at 0",
                      zeros < 0.05 and np.array_equal(out, expected),
                      f"{zeros:.0%} zeros, {np.sum(out != expected)} samples unlike the raw result + mid-grey")
    # Bool, integer and float16 images (and kernels) are promoted as scipy.fft
    # promotes them: computed and written in float64 (float16: float32).
    image = rng.integers(0, 256, (30, 41))
    for dtype, wide in ((np.uint8, np.float64), (np.int32, np.float64), (np.bool_, np.float64),
                        (np.float16, np.float32)):
        typed = (image > 127 if dtype == np.bool_ else image / (255 if dtype == np.float16 else 1)).astype(dtype)
        y = run_filter(bfly, work, "typed", typed, ["--blur", "1.5"])
        want = run_filter(bfly, work, "wide", typed.astype(wide), ["--blur", "1.5"])
        # Equal to rounding, not bit for bit: a first call may answer with the
        # generic tier's kernels and the next with the specialised ones
        # compiled meanwhile (a GPU's default tier), which round differently.
        close = same_to_rounding(y, want)
        checks.record(f"filter: a {np.dtype(dtype).name} .npy image is filtered as {np.dtype(wide).name}",
                      y.dtype == wide and close, f"dtype {y.dtype}, equal to rounding: {close}")
    int_kernel = os.path.join(work, "inputs", "int_kernel.npy")
    np.save(int_kernel, np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.uint8))
    y = run_filter(bfly, work, "int_kernel", image.astype(np.float64), ["--kernel", int_kernel])
    np.save(int_kernel, np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.float64))
    want = run_filter(bfly, work, "int_kernel", image.astype(np.float64), ["--kernel", int_kernel])
    checks.record("filter --kernel: a uint8 .npy kernel is its float64 values", same_to_rounding(y, want),
                  f"largest difference {np.max(np.abs(y - want)):.3g}")
    gray = png_bytes(rng.integers(0, 256, (32, 32, 1)).astype(np.uint16), 8)
    for flag in ("--spectrum", "--edges"):
        out, _ = run_filter(bfly, work, "png_" + flag[2:], gray, [flag], ".png")
        checks.record(f"filter {flag}: a full-range 8-bit picture", out.shape == (32, 32, 1) and out.max() == 255,
                      f"shape {out.shape}, max {out.max()}")


def same_to_rounding(y, want):
    """y equals want to its dtype's rounding (relative to want's largest value)."""
    eps = 1e-13 if np.asarray(y).dtype == np.float64 and np.asarray(want).dtype == np.float64 else 1e-5
    y, want = np.asarray(y, np.float64), np.asarray(want, np.float64)
    return y.shape == want.shape and bool(np.all(np.abs(y - want) <= eps * max(np.max(np.abs(want)), 1e-300)))


def check_filter_failures(bfly, rng, work):
    inputs = os.path.join(work, "inputs")
    image = os.path.join(inputs, "fail_img.npy")
    np.save(image, rng.random((16, 16)))
    png = os.path.join(inputs, "fail.png")
    with open(png, "wb") as f:
        f.write(png_bytes(rng.integers(0, 256, (16, 16, 3)).astype(np.uint16), 8))
    with open(png, "rb") as f:
        whole = f.read()
    truncated = os.path.join(inputs, "truncated.png")
    with open(truncated, "wb") as f:
        f.write(whole[:len(whole) // 2])
    fake = os.path.join(inputs, "fake.png")
    with open(fake, "w") as f:
        f.write("not an image\n")
    out_npy = os.path.join(work, "outputs", "fail_out.npy")
    out_png = os.path.join(work, "outputs", "fail_out.png")
    expect_failure("filter: no operation", bfly, ["filter", image, out_npy], out_npy, ["exactly one"])
    expect_failure("filter: two operations", bfly, ["filter", image, out_npy, "--lowpass", "0.2", "--blur", "1"],
                   out_npy, ["exactly one"])
    expect_failure("filter: a cutoff above Nyquist", bfly, ["filter", image, out_npy, "--lowpass", "1.5"], out_npy,
                   ["1.5"])
    expect_failure("filter: a band upside down", bfly, ["filter", image, out_npy, "--bandpass", "0.5,0.2"], out_npy,
                   ["band"])
    expect_failure("filter: an unknown mask", bfly, ["filter", image, out_npy, "--lowpass", "0.2", "--mask", "box"],
                   out_npy, ["box"])
    expect_failure("filter: an unknown border", bfly, ["filter", image, out_npy, "--blur", "1", "--pad", "edge"],
                   out_npy, ["edge"])
    # Every numeric option names the value given, whatever it is (0, a
    # negative, nan, inf, not a number).
    for option, value in (("--blur", "0"), ("--blur", "-1"), ("--blur", "nan"), ("--blur", "inf"), ("--blur", "abc"),
                          ("--lowpass", "0"), ("--lowpass", "-1"), ("--lowpass", "nan"), ("--highpass", "0"),
                          ("--highpass", "inf"), ("--bandpass", "0.1,nan"), ("--bandpass", "-1,0.5"),
                          ("--bandpass", "0.5"), ("--mask", "butterworth:inf"), ("--mask", "butterworth:nan"),
                          ("--mask", "butterworth:0")):
        args = [option, value] + (["--lowpass", "0.2"] if option == "--mask" else [])
        expect_failure(f"filter: {option} {value} is refused, naming the value", bfly,
                       ["filter", image, out_npy] + args,
                       out_npy, [f"{option} must", f"({value} given)"], every_needle=True)
    complex_image = os.path.join(inputs, "complex_img.npy")
    np.save(complex_image, random_array(rng, (16, 16), np.complex64))
    expect_failure("filter: a complex .npy image", bfly, ["filter", complex_image, out_npy, "--blur", "1"], out_npy,
                   ["complex64"])
    expect_failure("filter: a complex .npy kernel", bfly, ["filter", image, out_npy, "--kernel", complex_image],
                   out_npy, ["complex64"])
    expect_failure("filter: a truncated PNG", bfly, ["filter", truncated, out_png, "--blur", "1"], out_png,
                   ["truncated.png"])
    expect_failure("filter: not a PNG", bfly, ["filter", fake, out_png, "--blur", "1"], out_png, ["fake.png", "PNG"],
                   every_needle=True)
    expect_failure("filter: an unwritable output", bfly,
                   ["filter", png, os.path.join(work, "outputs", "no_dir", "x.png"), "--blur", "1"],
                   os.path.join(work, "outputs", "no_dir", "x.png"), ["x.png"])


def bomb_png(path, side):
    """A PNG declaring side x side 8-bit gray pixels, one IDAT of zeros
    compressed in rows (never whole in memory): about side^2 / 1030 bytes,
    within deflate's 1032:1, so the file's size does not refuse it."""
    import struct
    import zlib

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    z = zlib.compressobj(9)
    row = bytes(side + 1)  # filter byte 0, then black pixels
    idat = b"".join(z.compress(row) for _ in range(side)) + z.flush()
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)) +
                chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def check_filter_bomb(bfly, work):
    """Issue 37: a 249 KB PNG declaring 16000 x 16000 pixels ran 47 s and
    peaked at 10.6 GB before it was refused. Its header is sized first: one
    line within 2 s. Run on the CPU device under ulimit -v, so the refusal
    does not depend on the machine's memory (a GPU host's may hold the
    image) and a regression fails at the cap rather than take that memory."""
    result, _ = test_cli.run_timed([bfly.binary, "info"])
    if "(CPU" not in result.stdout:
        checks.skip("filter of a decompression bomb", "no CPU device to run it on under ulimit -v")
        return
    path = os.path.join(work, "inputs", "bomb.png")
    bomb_png(path, 16000)
    out = os.path.join(work, "outputs", "bomb_out.png")
    result, seconds = test_cli.capped(bfly, ["filter", path, out, "--lowpass", "0.5", "--device", "cpu"],
                                      test_cli.CAP_KIB)
    test_cli.expect_memory_refusal(f"filter of a {os.path.getsize(path) // 1000} KB PNG declaring 16000 x 16000 "
                                   "pixels is refused from its header", result, seconds, out, 16000 * 16000 * 8,
                                   names=("bomb.png", "16000 x 16000"))


# ---- bfly bigmul ------------------------------------------------------------

def check_bigmul(bfly, rng, work):
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # Python's own limit on decimal conversions
    cases = [("123456789", "-987654321"), ("0", "-5"), ("0xfF", "-0x10")]
    for n in (1000, 4096, 20001):
        a = "".join(str(d) for d in rng.integers(0, 10, n))
        b = "9" * (n // 3 + 1)
        cases.append((a.lstrip("0") or "0", b))
    for index, (x, y) in enumerate(cases):
        args = ["bigmul"]
        # Long numbers go through files (a command line has limits), with -o.
        if len(x) > 100:
            paths = [os.path.join(work, "inputs", f"big{index}_{which}.txt") for which in "xy"]
            for path, text in zip(paths, (x, y)):
                with open(path, "w") as f:
                    f.write(text + "\n")
            out = os.path.join(work, "outputs", f"big{index}.txt")
            result = bfly.run(args + paths + ["-o", out])
            text = open(out).read() if result.returncode == 0 else ""
        else:
            result = bfly.run(args + [x, y])
            text = result.stdout
        name = f"bigmul {x[:12]}{'...' if len(x) > 12 else ''} x {y[:12]}{'...' if len(y) > 12 else ''}"
        if result.returncode != 0:
            checks.record(name, False, f"exit {result.returncode}: {test_cli.short(result.stderr)}")
            continue
        hex_ = x.lower().lstrip("+-").startswith("0x")
        want = int(x, 16 if hex_ else 10) * int(y, 16 if hex_ else 10)
        expected = ((("-" if want < 0 else "") + "0x" + format(abs(want), "x")) if hex_ else str(want)) + "\n"
        checks.record(name, text == expected,
                      f"{len(expected) - 1} characters" if text == expected else "differs from Python's int product")
    out = os.path.join(work, "outputs", "big_fail.txt")
    expect_failure("bigmul: neither a number nor a file", bfly, ["bigmul", "12x", "3", "-o", out], out, ["12x"])
    expect_failure("bigmul: bases differ", bfly, ["bigmul", "0x12", "3", "-o", out], out, ["hex"])
    expect_failure("bigmul: an unwritable output", bfly,
                   ["bigmul", "3", "4", "-o", os.path.join(work, "outputs", "no_dir", "p.txt")],
                   os.path.join(work, "outputs", "no_dir", "p.txt"), ["p.txt"])


def check_app_outputs(bfly, rng, work):
    """The products on a full stdout fail; an output that is one of the
    inputs (by identity, a symlink too) is refused with the input kept."""
    base = os.path.join(work, "app_outputs")
    os.mkdir(base)
    full = device_node(base, "full", 7)
    poly = os.path.join(base, "poly.txt")
    with open(poly, "w") as f:
        f.write("1\n2\n")
    result = run_bytes(bfly, ["polymul", poly, poly, "-"])
    checks.record("polymul to '-' prints the product", result.returncode == 0 and result.stdout == b"1\n4\n4\n",
                  f"exit {result.returncode}; stdout {result.stdout[:40]!r}")
    with open(full, "wb") as sink:
        for args in (["bigmul", "3", "4"], ["bigmul", "3", "4", "-o", "-"], ["polymul", poly, poly, "-"]):
            result = run_bytes(bfly, args, stdout=sink)
            checks.record(f"{' '.join(os.path.basename(a) for a in args)} > {full} fails",
                          one_error_line(result, "standard output"),
                          f"exit {result.returncode}; stderr: {test_cli.short(result.stderr.decode(errors='replace'))}")
    a = os.path.join(base, "a.npy")
    k = os.path.join(base, "k.npy")
    np.save(a, random_array(rng, (12, 10), np.float32))
    np.save(k, random_array(rng, (3, 3), np.float32))
    result = run_bytes(bfly, ["filter", a, "-", "--blur", "1"])
    image = np.load(io.BytesIO(result.stdout)) if result.returncode == 0 and result.stdout else None
    checks.record("filter to '-' writes the .npy image to stdout", image is not None and image.shape == (12, 10),
                  f"exit {result.returncode}; {len(result.stdout)} bytes")
    alias = os.path.join(base, "alias.npy")
    os.symlink("k.npy", alias)
    number = os.path.join(base, "x.txt")
    with open(number, "w") as f:
        f.write("12345\n")
    for label, args, victim in [
        ("convolve: output is the kernel", ["convolve", a, k, k], k),
        ("convolve: output is the kernel through a symlink", ["convolve", a, k, alias], alias),
        ("filter: output is the input", ["filter", a, a, "--blur", "1"], a),
        ("filter: output is the --kernel", ["filter", a, alias, "--kernel", k], alias),
        ("polymul: output is the second input", ["polymul", poly, poly, poly], poly),
        ("bigmul: output is an input file", ["bigmul", "7", number, "-o", number], number),
    ]:
        with open(victim, "rb") as f:
            known = f.read()
        expect_failure(f"{label}: refused, the input kept", bfly, args, victim, [os.path.basename(victim)],
                       existing=known)


def check_app_benches(bfly, rng, work):
    """bench --app convolve and bigmul run, check their own results (exit 1
    on a wrong pixel or a product unlike GMP's) and name the crossover."""
    result = bfly.run(["bench", "--app", "convolve", "--shape", "96x80", "--kernel-sizes", "1,4,9",
                       "--repetitions", "2"])
    checks.record("bench --app convolve", result.returncode == 0 and "crossover" in result.stdout,
                  f"exit {result.returncode}: {test_cli.short(result.stderr or result.stdout)}")
    result = bfly.run(["bench", "--app", "bigmul", "--digits", "1,999,5e3", "--repetitions", "1"])
    ok = result.returncode == 0 and "DIFFERS" not in result.stdout and result.stdout.count("\n") >= 5
    checks.record("bench --app bigmul", ok,
                  f"exit {result.returncode}: {test_cli.short(result.stderr or result.stdout)}")
    for bad, word in ((["--digits", "1e3x"], "1e3x"), (["--digits", "0"], "0")):
        result = bfly.run(["bench", "--app", "bigmul"] + bad)
        checks.record(f"bench --app bigmul {' '.join(bad)} is refused",
                      result.returncode != 0 and word in result.stderr and result.stderr.count("\n") == 1,
                      test_cli.short(result.stderr))


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
        # The quick tier: a sample meeting every mode, dtype, rank and axes
        # choice (test_cli.sample_cases); every dtype pair below runs.
        for a_shape, k_shape, mode, axes, correlate, dtype in sample_cases(
                rng, "convolve cases", CONVOLVE_CASES,
                lambda c: features("correlate" if c[4] else "convolve", c[5], c[0], axes=c[3]) + [f"mode {c[2]}"]):
            where = "" if axes is None else f" axes={','.join(map(str, axes))}"
            verb = "correlate" if correlate else "convolve"
            name = f"{verb} {a_shape} with {k_shape} {mode}{where} {np.dtype(dtype).name}"
            checks.run(name, check_convolve, bfly, rng, work, a_shape, k_shape, mode, axes, correlate, dtype)
        pairs = [(a, k, False) for a in COMPUTED_DTYPES for k in COMPUTED_DTYPES]
        pairs += [(a, k, False) for a, k in PROMOTED_PAIRS]
        pairs += [("float32", "complex128", True), ("int16", "float16", True)]
        for a_dtype, k_dtype, correlate in pairs:
            name = f"{'correlate' if correlate else 'convolve'} {a_dtype} with {k_dtype}: scipy's values and dtype"
            checks.run(name, check_convolve_dtypes, bfly, rng, work, a_dtype, k_dtype, correlate)
        stray = [n for n in listing(os.path.join(work, "outputs")) if not n.endswith(".npy")]
        checks.record("successful runs leave no temporary files", not stray, f"left: {stray}" if stray else "")
        checks.run("convolve failures", lambda name: check_convolve_failures(bfly, rng, work))
        for n, m, kind in [(1, 1, "npy"), (300, 17, "npy"), (1000, 1000, "text"), (4097, 255, "mixed")]:
            name = f"polymul {n} x {m} coefficients, {kind}"
            checks.run(name, check_polymul, bfly, rng, work, n, m, kind)
        checks.run("polymul of bool and integer dtypes", check_polymul_dtypes, bfly, rng, work)
        checks.run("polymul failures", lambda name: check_polymul_failures(bfly, rng, work))
        checks.run("filter", lambda name: check_filter(bfly, rng, work))
        checks.run("filter failures", lambda name: check_filter_failures(bfly, rng, work))
        checks.run("filter of a decompression bomb", lambda name: check_filter_bomb(bfly, work))
        checks.run("bigmul", lambda name: check_bigmul(bfly, rng, work))
        checks.run("outputs", lambda name: check_app_outputs(bfly, rng, work))
        checks.run("app benches", lambda name: check_app_benches(bfly, rng, work))
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
