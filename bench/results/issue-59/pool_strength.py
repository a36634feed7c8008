#!/usr/bin/env python3
"""Pools the 20-game chunks of runall.sh / runall2.sh into one row per engine and opponent at
10+0.1: W-D-L, score, pentanomial counts and the pentanomial Elo with its 95 % interval (the
runner's formula: logistic Elo of the mean pair score, population variance of the pairs).

    python3 bench/results/issue-59/pool_strength.py /tmp/m59 > strength.md

Python 3 standard library only. Chunks: NAME-10.json (seed 59) and NAME-10-sK.json.
"""
import glob
import json
import math
import os
import sys

Z95 = 1.959963984540054


def elo(score):
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/m59"
    rows = []
    for engine in ["new", "old"]:
        for opp in ["sf2400", "toga"]:
            files = sorted(glob.glob(f"{folder}/{engine}-{opp}-10.json") + glob.glob(f"{folder}/{engine}-{opp}-10-s*.json"))
            if not files:
                continue
            w = d = l = 0
            pent = [0] * 5
            faults = 0
            for f in files:
                j = json.load(open(f))
                w += j["result"]["wins"]
                d += j["result"]["draws"]
                l += j["result"]["losses"]
                pent = [a + b for a, b in zip(pent, j["pentanomial"])]
                faults += sum(j["faults"])
            n = sum(pent)
            mu = sum(c * v for c, v in zip(pent, [0, 0.25, 0.5, 0.75, 1])) / n
            var = sum(c * (v - mu) ** 2 for c, v in zip(pent, [0, 0.25, 0.5, 0.75, 1])) / n
            se = math.sqrt(var / n)
            lo, hi = elo(mu - Z95 * se), elo(mu + Z95 * se)
            chunks = ", ".join(os.path.basename(f)[: -len(".json")] for f in files)
            rows.append(f"| {engine} vs {opp} | {w + d + l} | {w}-{d}-{l} | {100 * (w + d / 2) / (w + d + l):.1f} % | "
                        f"{pent} | {elo(mu):+.0f} [{lo:+.0f}, {hi:+.0f}] | {faults} | {chunks} |")
    print("| 10+0.1 | games | W-D-L | score | Ptnml(0-2) | Elo (pentanomial, 95 %) | faults | chunks |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
