#!/usr/bin/env python3
"""Compares `bfly bench --out X.json` records of the same cases: one row a
case, bfly's median ms in each file, each file's speed relative to the first
(first / other: above 1 is faster), the peers of the first file that has them
(peer / bfly: above 1 means bfly is faster), and geometric means.

    python3 scripts/bench-compare.py base.json variant.json [...] [--labels a,b,...]
"""
import argparse
import json
import math
import sys


def key(case):
    return (tuple(case["shape"]), tuple(case.get("axes", [])), case["batch"], case.get("kind", "c2c"), case["inverse"])


def label(case):
    text = "x".join(str(s) for s in case["shape"])
    if case.get("kind", "c2c") != "c2c":
        text += " " + case["kind"]
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--labels", help="comma-separated column names (default: file names)")
    args = parser.parse_args()
    docs = []
    for path in args.files:
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, json.JSONDecodeError) as error:
            sys.exit(f"bench-compare: cannot read '{path}': {error}")
    names = args.labels.split(",") if args.labels else [p.rsplit("/", 1)[-1].removesuffix(".json") for p in args.files]
    if len(names) != len(docs):
        sys.exit(f"bench-compare: {len(names)} labels for {len(docs)} files")
    times = [{key(c): c.get("median_ms") for c in d["cases"] if "unsupported" not in c} for d in docs]
    peers = {}
    for d in docs:
        for c in d["cases"]:
            for p in c.get("peers", []):
                if "median_ms" in p:
                    peers.setdefault(p["name"], {}).setdefault(key(c), p["median_ms"])
    peer_names = sorted(peers)
    cases = [c for c in docs[0]["cases"] if key(c) in times[0]]
    header = f"{'case':>18} " + " ".join(f"{n[:12]:>12}" for n in names)
    header += " " + " ".join(f"{'x' + n[:7]:>8}" for n in names[1:])
    header += " " + " ".join(f"{p.split()[0][:6] + '/' + n[:6]:>13}" for n in names for p in peer_names)
    print(header)
    logs = {}
    for c in cases:
        k = key(c)
        row = f"{label(c):>18} " + " ".join(f"{t[k]:12.4f}" if k in t else f"{'-':>12}" for t in times)
        for i, t in enumerate(times[1:], 1):
            ratio = times[0][k] / t[k] if k in t else None
            row += f" {ratio:8.3f}" if ratio else f" {'-':>8}"
            if ratio:
                logs.setdefault(("x", i), []).append(math.log(ratio))
        for i, t in enumerate(times):
            for p in peer_names:
                if k in t and k in peers[p]:
                    ratio = peers[p][k] / t[k]
                    row += f" {ratio:13.3f}"
                    logs.setdefault((p, i), []).append(math.log(ratio))
                else:
                    row += f" {'-':>13}"
        print(row)
    for (what, i), values in sorted(logs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        mean = math.exp(sum(values) / len(values))
        low = math.exp(min(values))
        if what == "x":
            print(f"geomean {names[i]} vs {names[0]}: {mean:.3f}x over {len(values)} cases (lowest {low:.2f}x)")
        else:
            # As `bfly bench` does: a peer over 10x slower on a case hit a
            # pathology of its own, so the mean is also given without those.
            kept = [v for v in values if v <= math.log(10)]
            extra = ""
            if 0 < len(kept) < len(values):
                extra = f"; {math.exp(sum(kept) / len(kept)):.3f}x over the {len(kept)} where {what} took at most 10x"
            print(f"geomean {names[i]} vs {what}: {mean:.3f}x over {len(values)} cases (lowest {low:.2f}x){extra}")


if __name__ == "__main__":
    main()
