"""Random distributed problems against numpy, for as long as asked (by hand;
the quick tier's random cases are in python/tests/test_multi_device.py).

    mpirun -np 3 python scripts/fuzz_distributed.py SEED SECONDS
        bfly.distributed over the MPI ranks (host-staged MPI, every exchange
        method); each rank's output box against numpy over the whole array
    python scripts/fuzz_distributed.py SEED SECONDS --devices cpu,cpu,cpu
        bfly.multi_device, one process driving the devices listed

2-3D shapes of small lengths (1-16, more parts than some axes), every kind,
decomposition, norm and precision; the layouts that split a real axis are
refused by design and counted. Prints each case that fails and a summary.
"""
import argparse
import random
import time

import numpy as np

LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 16)


def draw(rng, case):
    nd = rng.choice([2, 3])
    shape = tuple(rng.choice(LENGTHS) for _ in range(nd))
    kind = rng.choice(["fft", "ifft", "rfft", "irfft"])
    decompositions = ["auto", "slabs", "slabs-transposed-in"]
    decompositions += ["pencils", "pencils-transposed-in"] if nd == 3 else []
    single = rng.random() < 0.5
    real, complex_ = (np.float32, np.complex64) if single else (np.float64, np.complex128)
    g = np.random.default_rng(case)
    x = g.standard_normal(shape)
    if kind in ("fft", "ifft"):
        x = (x + 1j * g.standard_normal(shape)).astype(complex_)
    elif kind == "rfft":
        x = x.astype(real)
    else:
        x = np.fft.rfftn(x).astype(complex_)
    return dict(shape=shape, kind=kind, decomposition=rng.choice(decompositions),
                norm=rng.choice([None, "ortho", "forward", "backward"]), x=x, single=single)


def reference(p):
    x, norm = p["x"], p["norm"]
    if p["kind"] == "irfft":
        return np.fft.irfftn(x, s=p["shape"], axes=range(len(p["shape"])), norm=norm)
    return getattr(np.fft, p["kind"] + "n")(x, norm=norm)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("seed", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--devices", help="one process driving these devices (comma-separated specs)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.devices:
        import bfly.multi_device as bm
        comm, rank, devices = None, 0, args.devices.split(",")
    else:
        import bfly.distributed as bd
        from mpi4py import MPI
        comm, rank = MPI.COMM_WORLD, MPI.COMM_WORLD.rank
    start, cases, bad, refused = time.time(), 0, 0, 0
    while True:
        go = np.array([time.time() - start < args.seconds], dtype=np.int32)
        if comm is not None:
            comm.Allreduce(MPI.IN_PLACE, go, op=MPI.MIN)
        if not go[0]:
            break
        p = draw(rng, cases)
        cases += 1
        want = reference(p)
        try:
            if comm is None:
                plan = bm.Plan(p["shape"], p["x"].dtype, devices, p["kind"], p["norm"], p["decomposition"])
                got, want_part = plan(p["x"]), want
            else:
                exchange = rng.choice(["alltoallv", "alltoall", "p2p", "auto"])
                plan = bd.Plan(comm, p["shape"], p["x"].dtype, kind=p["kind"], decomposition=p["decomposition"],
                               norm=p["norm"], transport="mpi", exchange=exchange)
                got, want_part = plan(plan.local_input(p["x"])), plan.local_output(want)
        except NotImplementedError:
            refused += 1
            continue
        sums = np.array([np.sum(np.abs(got - want_part) ** 2), np.sum(np.abs(want_part) ** 2)])
        if comm is not None:
            comm.Allreduce(MPI.IN_PLACE, sums)
        error = np.sqrt(sums[0] / max(sums[1], 1e-300))
        if not error < (2e-6 if p["single"] else 1e-13):
            bad += 1
            if rank == 0:
                print(f"FAILED seed {args.seed} case {cases - 1}: {p['kind']} {p['shape']} {p['x'].dtype} "
                      f"{p['decomposition']} norm={p['norm']}: relative L2 {error:.3g}", flush=True)
    if rank == 0:
        parts = len(devices) if comm is None else comm.size
        print(f"seed {args.seed}: {cases} problems on {parts} parts, {bad} failed, {refused} refused by design")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
