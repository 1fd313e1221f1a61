#!/usr/bin/env python3
"""Geometric means of bfly's speed-up against each peer over the rows of
one or more `bfly bench` outputs (as scripts/gpu/suite-each.sh collects
them), read by the column names of each table's header; the lowest cases,
and the failed ones named."""
import math
import re
import sys


def main(paths):
    ratios, failed = {}, []
    for path in paths:
        peers = []
        with open(path) as f:
            for line in f:
                if line.startswith("shape"):
                    peers = [re.sub(r" ms.*", "", c).strip() for c in line.split("|")[1:]]
                elif line.startswith("FAILED"):
                    failed.append(line.strip())
                elif re.match(r"^\d", line) and peers:
                    cells = line.split("|")[1:]
                    case = " ".join(line.split()[:2])
                    for peer, cell in zip(peers, cells):
                        m = re.search(r"\(([\d.]+)x\)", cell)
                        if m:
                            ratios.setdefault(peer, []).append((float(m.group(1)), case))
    for peer, rows in ratios.items():
        mean = math.exp(sum(math.log(r) for r, _ in rows) / len(rows))
        low = ", ".join(f"{case} {r:.2f}x" for r, case in sorted(rows)[:3])
        print(f"vs {peer}: {mean:.3f}x geomean over {len(rows)} cases; lowest {low}")
    for line in failed:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
