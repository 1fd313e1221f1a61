#!/usr/bin/env python3
"""Coefficients of the fp32 sinpi/cospi polynomials on [0, 1/4] that the
generated kernels use for computed power-of-two pass twiddles
(codegen/pass_kernel.cpp, emit_pass_sincos): sinpi(x) = x * S(x^2),
cospi(x) = 1 + x^2 * C(x^2), fitted for least maximum relative error by
iteratively reweighted least squares, then checked in fp32 Horner evaluation
against float64 sin/cos. Needs numpy.

    python3 bench/experiments/fit_sincospi.py
"""
import numpy as np

x = np.concatenate([(np.cos(np.linspace(0, np.pi, 4001)) + 1) / 8, np.linspace(0, 0.25, 200001)])
u = x * x
safe = np.where(x > 0, x, 1)
targets = {
    "S": (np.where(x > 0, np.sin(np.pi * x) / safe, np.pi), 3, None),  # sinpi(x) / x
    "C": (np.cos(np.pi * x), 4, 1.0),  # cospi(x), constant term fixed at 1
}


def fit(target, degree, fixed, weight):
    basis = np.stack([u**k for k in range(degree + 1)], 1)
    if fixed is None:
        c, *_ = np.linalg.lstsq(basis * weight[:, None], target * weight, rcond=None)
        return c
    c, *_ = np.linalg.lstsq(basis[:, 1:] * weight[:, None], (target - fixed) * weight, rcond=None)
    return np.concatenate([[fixed], c])


def horner32(coefficients, v):
    r = np.full_like(v, coefficients[-1])
    for c in coefficients[-2::-1]:
        r = (r * v + c).astype(np.float32)
    return r


x32 = x.astype(np.float32)
u32 = (x32 * x32).astype(np.float32)
exact_sin, exact_cos = np.sin(np.pi * x32.astype(np.float64)), np.cos(np.pi * x32.astype(np.float64))
for name, (target, degree, fixed) in targets.items():
    weight = 1 / target
    for _ in range(40):
        c = fit(target, degree, fixed, weight)
        err = (np.stack([u**k for k in range(degree + 1)], 1) @ c - target) / target
        weight = (1 / target) * (1 + 50 * np.abs(err) / np.abs(err).max())
    c32 = c.astype(np.float32)
    value = (horner32(c32, u32) * x32).astype(np.float32) if name == "S" else horner32(c32, u32)
    exact = exact_sin if name == "S" else exact_cos
    print(f"{name}: fit rel err {np.abs(err).max():.2e}, fp32 abs err {np.abs(value - exact).max():.2e} "
          f"(fp32 ulp at 1: {2.0**-24:.2e})")
    print("   ", ", ".join(f"{float(v):.9e}f" for v in c32))
