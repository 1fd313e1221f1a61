#!/usr/bin/env python3
"""What `bfly tune --log FILE` found, length by length and knob by knob:
where the tuner's best launch beat the model's, by how much, and which of
its fields differ (threads, points a thread, groups a multiprocessor,
radices and their order, staging, ...). The data for fitting a rule for
lengths no table names (issue 39); not a test.

    python3 scripts/tune-log-summary.py LOG.jsonl [--min-gain 1.03]

Prints one line a length (model and best launch, gain, the fields that
differ), then for each field how often the best differed from the model
there and the geometric-mean gain of those lengths, and for the radices
whether the best kept the model's order, reversed it or chose others.
"""
import argparse
import collections
import json
import math
import sys

FIELDS = ("threads", "occupancy", "staged", "halves", "padding", "two_level", "group_threads")


def order_of(model, best):
    if best == model:
        return "same"
    if sorted(best) == sorted(model):
        if best == sorted(best):
            return "ascending"
        return "descending" if best == sorted(best, reverse=True) else "other order"
    return "other radices"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", help="JSON lines from bfly tune --log")
    parser.add_argument("--min-gain", type=float, default=1.03, help="gains below this count as none (noise)")
    o = parser.parse_args()
    rows = []
    with open(o.log) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{o.log}:{number}: not JSON ({e})")
    by = collections.defaultdict(list)
    for r in rows:
        by[(r["length"], r.get("precision", "single"))].append(r)
    differ = collections.defaultdict(list)
    orders = collections.Counter()
    gains = []
    print(f"{'length':>7} {'prec':>6} {'model':>34} {'best':>34} {'gain':>5}  differs in")
    for (n, precision), launches in sorted(by.items()):
        models = [r for r in launches if r["step"] == "model"]
        if not models:
            continue
        model = models[0]
        best = min(launches, key=lambda r: r["ms"])
        gain = model["ms"] / best["ms"]
        gains.append(gain)

        def text(r, n=n):
            if not r.get("threads"):  # the model's launch of a length it splits in passes
                return f"{r.get('passes', 'several')} passes"
            return (f"T{r['threads']} ppt{n / r['threads']:.0f} occ{r['occupancy']} "
                    f"{'x'.join(map(str, r['radices']))}")

        fields = [k for k in FIELDS if model.get(k) != best.get(k)]
        order = order_of(model["radices"], best["radices"])
        if order != "same":
            fields.append(f"radices ({order})")
        if gain >= o.min_gain:
            orders[order] += 1
            for k in fields:
                differ[k.split(" ")[0]].append(gain)
        print(f"{n:>7} {precision:>6} {text(model):>34} {text(best):>34} {gain:>5.2f}  "
              f"{', '.join(fields) if gain >= o.min_gain else '-'}")
    if not gains:
        sys.exit("no model launches in the log")
    geo = math.exp(sum(math.log(g) for g in gains) / len(gains))
    print(f"\n{len(gains)} lengths: the best over the model {geo:.3f}x geomean, "
          f"{sum(g >= o.min_gain for g in gains)} of them by {o.min_gain}x or more")
    for k, g in sorted(differ.items(), key=lambda kv: -len(kv[1])):
        print(f"  {k:>14}: differs in {len(g):>3} of those, their gain {math.exp(sum(map(math.log, g)) / len(g)):.3f}x")
    print("  radices of the best:", ", ".join(f"{k} {v}" for k, v in orders.most_common()))


if __name__ == "__main__":
    main()
