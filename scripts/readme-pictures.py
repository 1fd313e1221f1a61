#!/usr/bin/env python3
"""Makes the README's filter pictures: a synthetic test image (shapes,
stripes and a gradient, drawn here, nothing downloaded) and what `bfly
filter` makes of it: a blur, the edges, the spectrum.

    python3 scripts/readme-pictures.py --bfly build/apps/bfly/bfly [--out docs/images]
"""
import argparse
import os
import struct
import subprocess
import zlib

import numpy as np


def write_png(path, gray):
    h, w = gray.shape
    raw = b"".join(b"\x00" + gray[y].astype("u1").tobytes() for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def test_image(n=256):
    y, x = np.mgrid[0:n, 0:n] / n
    image = 60 + 60 * x                                       # a gradient
    image[(x - 0.3) ** 2 + (y - 0.3) ** 2 < 0.02] = 220        # a disc
    image[(y > 0.6) & (y < 0.9) & (x > 0.15) & (x < 0.45)] = 30  # a dark box
    stripes = (x > 0.55) & (x < 0.9) & (y > 0.1) & (y < 0.45)
    image[stripes] = 128 + 90 * np.sign(np.sin(2 * np.pi * 24 * x[stripes]))  # fine bars
    ring = np.abs(np.hypot(x - 0.72, y - 0.72) - 0.14) < 0.015
    image[ring] = 250                                          # a thin ring
    return np.clip(image, 0, 255)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bfly", required=True)
    parser.add_argument("--out", default="docs/images")
    options = parser.parse_args()
    os.makedirs(options.out, exist_ok=True)
    source = os.path.join(options.out, "test-image.png")
    write_png(source, test_image())
    for name, args in [("blur", ["--blur", "3"]), ("edges", ["--edges"]), ("spectrum", ["--spectrum"])]:
        target = os.path.join(options.out, f"test-image-{name}.png")
        subprocess.run([options.bfly, "filter", source, target] + args, check=True)
        print(f"bfly filter {source} {target} {' '.join(args)}")


if __name__ == "__main__":
    main()
