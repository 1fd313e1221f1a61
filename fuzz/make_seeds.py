#!/usr/bin/env python3
"""Writes the hand-made seed corpora of fuzz/corpus/<target>/ (valid and
near-valid inputs, a few hundred bytes each). Standard library only: the
.npy and PNG files are assembled byte by byte. Run from anywhere; it
rewrites the seeds it makes and leaves any other file there alone."""
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def put(target, name, data):
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


# ---- .npy: magic, version, header length, dict padded to 64, data.
def npy(descr, shape, data, fortran=False, version=1, header=None):
    if header is None:
        shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    length_bytes = 2 if version == 1 else 4
    prelude = 6 + 2 + length_bytes
    total = (prelude + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - prelude - len(header) - 1) + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode("latin-1") + data


def npy_seeds():
    put("npy", "c8_3", npy("<c8", [3], struct.pack("<6f", 1, 0, 0.5, -1, 2, 3)))
    put("npy", "c16_2x2", npy("<c16", [2, 2], struct.pack("<8d", *range(8))))
    put("npy", "f4_2x3_fortran", npy("<f4", [2, 3], struct.pack("<6f", *range(6)), fortran=True))
    put("npy", "f8_big_endian", npy(">f8", [2], struct.pack(">2d", 1.5, -2.5)))
    put("npy", "f2_4", npy("<f2", [4], struct.pack("<4H", 0x3c00, 0x4000, 0x7c00, 0x0001)))
    put("npy", "bool_2x2", npy("|b1", [2, 2], bytes([0, 1, 1, 0])))
    put("npy", "i1_u1", npy("|i1", [3], bytes([0x80, 0, 0x7f])))
    put("npy", "i2_be_2x1x2", npy(">i2", [2, 1, 2], struct.pack(">4h", 1, -2, 3, -4)))
    put("npy", "i4_fortran_2x2x2", npy("<i4", [2, 2, 2], struct.pack("<8i", *range(8)), fortran=True))
    put("npy", "i8_5", npy("<i8", [5], struct.pack("<5q", 1, -1, 2**62, -2**63, 0)))
    put("npy", "u2_u4_u8", npy("<u8", [2], struct.pack("<2Q", 2**64 - 1, 7)))
    put("npy", "u4_scalar", npy("<u4", [], struct.pack("<I", 42)))
    put("npy", "empty_0x3", npy("<f4", [0, 3], b""))
    put("npy", "v2_f4", npy("<f4", [2], struct.pack("<2f", 1, 2), version=2))
    put("npy", "v3_c8", npy("<c8", [1], struct.pack("<2f", 1, 2), version=3))
    put("npy", "python2_long", npy("<f8", [], struct.pack("<d", 1),
                                   header="{'descr': '<f8', 'fortran_order': False, 'shape': (1L,), }"))
    # Near-valid: what the reader must refuse, each for one reason.
    put("npy", "structured", npy(None, [], b"",
                                 header="{'descr': [('x', '<f4'), ('y', '<i4')], "
                                        "'fortran_order': False, 'shape': (1,), }"))
    put("npy", "truncated_data", npy("<f8", [4], struct.pack("<3d", 1, 2, 3)))
    put("npy", "extra_bytes", npy("<f4", [1], struct.pack("<2f", 1, 2)))
    put("npy", "huge_shape", npy("<c16", [2**40, 2**20], b""))
    put("npy", "overflowing_shape", npy("<f4", [2**62, 4], b""))
    put("npy", "bad_header", npy(None, [], b"", header="{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }"))
    put("npy", "bad_version", b"\x93NUMPY\x04\x00\x10\x00{}")
    put("npy", "not_npy", b"just text\n")


# ---- PNG: signature, chunks with CRCs.
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, depth, colour, rows, interlace=0, palette=None, trns=None, idat=None):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if palette is not None:
        out += chunk(b"PLTE", palette)
    if trns is not None:
        out += chunk(b"tRNS", trns)
    if idat is None:
        idat = zlib.compress(b"".join(b"\x00" + r for r in rows))
    return out + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def adam7(pixels, width, height, bytes_per_pixel):
    """Interlaced scanlines (filter 0) of a width x height image of packed pixel bytes."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    out = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            row = b"".join(pixels[(y * width + x) * bytes_per_pixel:(y * width + x + 1) * bytes_per_pixel]
                           for x in range(x0, width, dx))
            if row:
                out += b"\x00" + row
    return out


def png_seeds():
    put("png", "gray8_3x2", png(3, 2, 8, 0, [bytes([0, 128, 255]), bytes([1, 2, 3])]))
    put("png", "gray16_2x2", png(2, 2, 16, 0, [struct.pack(">2H", 0, 65535), struct.pack(">2H", 256, 1)]))
    put("png", "gray1_9x1", png(9, 1, 1, 0, [bytes([0b10110011, 0b10000000])]))
    put("png", "gray_alpha8_2x1", png(2, 1, 8, 4, [bytes([10, 255, 20, 0])]))
    put("png", "rgb8_2x2", png(2, 2, 8, 2, [bytes(range(6)), bytes(range(6, 12))]))
    put("png", "rgba16_1x2", png(1, 2, 16, 6, [struct.pack(">4H", 1, 2, 3, 4), struct.pack(">4H", 5, 6, 7, 8)]))
    put("png", "palette8_3x1", png(3, 1, 8, 3, [bytes([0, 1, 2])], palette=bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])))
    put("png", "palette4_trns_4x1", png(4, 1, 4, 3, [bytes([0x01, 0x20])], palette=bytes([1, 2, 3, 4, 5, 6, 7, 8, 9]),
                                        trns=bytes([0, 128])))
    pixels = bytes((7 * i) & 0xFF for i in range(9 * 9 * 3))
    put("png", "rgb8_interlaced_9x9", png(9, 9, 8, 2, None, interlace=1, idat=zlib.compress(adam7(pixels, 9, 9, 3))))
    put("png", "gray_trns", png(2, 1, 8, 0, [bytes([5, 6])], trns=struct.pack(">H", 5)))
    # Near-valid: refused, each for one reason.
    put("png", "bomb_1e6x1e6", png(1000000, 1000000, 8, 0, None, idat=zlib.compress(b"\x00" * 1000)))
    put("png", "truncated", png(4, 4, 8, 0, [bytes(4)] * 4)[:-20])
    put("png", "short_rows", png(4, 2, 8, 2, [bytes(3)]))
    put("png", "not_png", b"GIF89a")


def problem_token_seeds():
    tokens = [
        "c2c_f32_fwd_1024_b8_oop_none",
        "c2c_f64_inv_64x48_b1_ip_backward_ax0",
        "r2c_f32_fwd_1024_b1_oop_none",
        "c2r_f64_inv_30x31_b2_oop_ortho_ax-1",
        "c2c_f32_fwd_8x8x8x8_b1_oop_forward_ax0.2.3",
        "c2c_f32_fwd_16x16_b4_oop_none_is32.1_id600_os16.1_od256",
        "r2c_f32_fwd_7x9_b3_ip_none",
        "c2c_f32_fwd_4611686018427387904_b1_oop_none",
        "c2c_f32_fwd_12_b9223372036854775807_oop_none",
        "c2c_f32_fwd_5x5_b1_oop_none_is1.2",
        "c2c_f32_fwd_8_b1_oop_none_ax0.-1",
        "c2c_f32_fwd_8_b1_oop_none_ax4294967296",
        "c2c_f32_fwd_16x16_b2_oop_none_is4611686018427387904.1",
        "c2c_f32_fwd_1x0_b1_oop_none",
        "c2c_f16_fwd_8_b1_oop_none",
        "dct2_f32_fwd_64x32_b2_oop_ortho_ax1_orth",
        "dst1_f64_inv_7_b1_ip_backward",
        "dct1_f32_fwd_1_b1_oop_none",
        "dct5_f32_fwd_8_b1_oop_none",
        "c2c_f32_fwd_8_b1_oop_none_orth",
        "1000x1000",
        "-9223372036854775808",
    ]
    for i, token in enumerate(tokens):
        put("problem_tokens", "token_%02d" % i, token)


def cli_seeds():
    lists = [
        ["plan", "c2c_f32_fwd_1024_b8_oop_none", "--limits", "cpu"],
        ["gen", "--shape", "64x48", "--axes", "0", "--kind", "r2c", "--precision", "double", "--dialect", "cuda"],
        ["plan", "--shape", "16x16", "--batch", "4", "--inverse", "--in-place", "--norm", "ortho",
         "--strategy", "transpose"],
        ["fft", "4x6x8", "out.npy", "--axes", "0,-1", "--s", "5,-1", "--norm", "ortho"],
        ["ifft", "3x0x5", "out.npy", "--axes", "1", "--n", "4"],
        ["rfft", "2x3x4x5x6", "out.npy", "--axes", "0,1,2,3,4"],
        ["irfft", "8x5", "out.npy", "--axes", "0,1,0", "--s", "3,4,9"],
        ["hfft", "1", "out.npy", "--n", "7", "--norm", "forward"],
        ["ihfft", "10", "out.npy", "--axes", "-1"],
        ["fft", "4", "out.npy", "--n", "9223372036854775807"],
        ["convolve", "a.npy", "k.npy", "o.npy", "--mode", "same", "--axes", "0,1"],
        ["filter", "in.png", "out.png", "--lowpass", "0.5", "--pad", "wrap", "--mask", "butterworth:3"],
        ["bench", "--suite", "2d", "--points", "1024", "--kind", "c2r"],
        ["bench", "--shape", "1024,32x32", "--precision", "double", "--app", "convolve"],
        ["cache", "warm", "--shape", "1024,64x64", "--precision", "both"],
        ["tune", "--shape", "1024,6144", "--precision", "both"],
        ["bigmul", "123456789", "-0x1f"],
        ["polymul", "a.txt", "b.txt", "out.txt", "--verbose"],
        ["--version"],
        ["plan", "--help"],
        ["info"],
        # Parse errors: one line "bfly: error: ..." and status 2.
        ["ffft"],
        ["cache", "wram"],
        ["fft", "--nrm", "ortho", "4", "out.npy"],
        ["fft", "4", "out.npy", "--n", "abc", "--norm"],
    ]
    for i, args in enumerate(lists):
        put("cli_args", "args_%02d" % i, "\n".join(args))


def kernel_cache_seeds():
    def entry(payload):
        h = 1469598103934665603
        i = 0
        while i + 8 <= len(payload):
            h = ((h ^ struct.unpack("<Q", payload[i:i + 8])[0]) * 1099511628211) % 2**64
            i += 8
        for b in payload[i:]:
            h = ((h ^ b) * 1099511628211) % 2**64
        return b"BFLYKC02" + struct.pack("<QQ", len(payload), h) + payload

    payload = bytes(range(40))
    put("kernel_cache", "raw_valid", b"\x00" + entry(payload))
    put("kernel_cache", "raw_short", b"\x00" + entry(payload)[:20])
    put("kernel_cache", "raw_header_only", b"\x00" + entry(b"")[:24])
    put("kernel_cache", "raw_old_layout", b"\x00" + b"BFLYKC01" + entry(payload)[8:])
    put("kernel_cache", "raw_size_lies", b"\x00" + entry(payload)[:8] + struct.pack("<Q", 2**63) + entry(payload)[16:])
    put("kernel_cache", "wrapped", b"\x01" + b"__kernel void f() {}")
    put("kernel_cache", "wrapped_one_byte", b"\x01" + b"x")
    put("kernel_cache", "damaged_flip", b"\x02" + bytes([30, 0, 0x10]) + payload)
    put("kernel_cache", "damaged_cut", b"\x02" + bytes([10, 0, 0]) + payload)
    put("kernel_cache", "description", b"\x03" + b"NVIDIA H100 80GB HBM3 / driver 550 / NVRTC 12.4\n0.1.0\n")
    put("kernel_cache", "description_one_line", b"\x03" + b"pocl cpu\n")
    put("kernel_cache", "cap_512M", b"\x04" + b"512M")
    put("kernel_cache", "cap_huge", b"\x04" + b"99999999999999999999G")
    put("kernel_cache", "cap_signed", b"\x04" + b"-5")


def tuning_seeds():
    entry = {"precision": "single", "length": 64, "threads": 16, "group_threads": 256, "padding": 1, "halves": 1,
             "two_level": 0, "occupancy": 1, "staged": 0, "radices": [8, 8], "ms": 0.18, "model_ms": 0.2,
             "variants": 42}
    table = {"format": "bfly-tuning-1", "device": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
             "bfly_version": "0.1.0", "note": "bfly tune --suite tune", "entries": [entry]}
    put("tuning_table", "one_entry.json", json.dumps(table, indent=1))
    passes = dict(table, entries=[{"precision": "double", "length": 1048576, "passes": [1024, 1024]}])
    put("tuning_table", "passes.json", json.dumps(passes))
    put("tuning_table", "empty_entries.json", json.dumps(dict(table, entries=[])))
    put("tuning_table", "bad_precision.json", json.dumps(dict(table, entries=[dict(entry, precision="half")])))
    put("tuning_table", "float_length.json", json.dumps(dict(table, entries=[dict(entry, length=1e300)])))
    put("tuning_table", "huge_threads.json", json.dumps(dict(table, entries=[dict(entry, threads=2**40)])))
    put("tuning_table", "format_number.json", json.dumps(dict(table, format=1)))
    put("tuning_table", "entries_object.json", json.dumps(dict(table, entries={"a": 1})))
    put("tuning_table", "not_json", "{'format': 'bfly-tuning-1'")


def bigint_seeds():
    put("bigint_text", "decimal", "123456789012345678901234567890\n")
    put("bigint_text", "negative", "  -000987654321  ")
    put("bigint_text", "hex", "0xDEADbeef0123456789abcdef")
    put("bigint_text", "signed_hex", "+0X00ff")
    put("bigint_text", "zero", "-0")
    put("bigint_text", "nines", "9" * 200)
    put("bigint_text", "lines", "1\n-2\n  +3 \n\n9223372036854775807\n-9223372036854775808\n")
    put("bigint_text", "line_too_big", "9223372036854775808\n")
    put("bigint_text", "bad_digit", "12a4")
    put("bigint_text", "sign_only", "-")


if __name__ == "__main__":
    npy_seeds()
    png_seeds()
    problem_token_seeds()
    cli_seeds()
    kernel_cache_seeds()
    tuning_seeds()
    bigint_seeds()
