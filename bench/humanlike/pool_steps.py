#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Pools self-play step tables (`sparring calibrate steps` CSVs) over match seeds.

Each step's score is the games-weighted mean of its rows; its 95 % interval combines the rows' own
intervals (independent matches). A ladder that differs from an earlier one in a few points can
reuse the earlier one's matches between the points it did not change: rows read with `--base` are
kept only when neither of their points is in `--changed` (a point's play is fixed by its settings
and the seed, so those games would replay identically), rows read with `--new` always.

Usage: bench/humanlike/pool_steps.py OUT.csv [--changed 1700,1900] [--base A.csv ...] [--new B.csv ...]
Writes OUT.csv with the steps CSV's columns (`srand` lists the pooled seeds, joined by `+`) and
prints the table with the pass column (67-85 % for 200-point steps, above 50 % for 100-point ones).
"""
import csv
import math
import sys
from collections import defaultdict

HEADER = ["higher", "lower", "gap", "games", "score", "error95", "expected", "low", "high", "pass", "srand"]


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out, mode, changed, rows = argv[1], None, set(), []
    args = argv[2:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--changed":
            changed = {int(x) for x in args[i + 1].split(",") if x}
            i += 2
            continue
        if a in ("--base", "--new"):
            mode = a
        elif mode is None:
            sys.exit(f"{a}: say --base or --new first")
        else:
            for r in read(a):
                touched = int(r["higher"]) in changed or int(r["lower"]) in changed
                if mode == "--new" or not touched:
                    rows.append(r)
        i += 1
    steps = defaultdict(list)
    for r in rows:
        steps[(int(r["higher"]), int(r["lower"]))].append(r)
    table = []
    for (hi, lo), rs in sorted(steps.items()):
        seen = set()
        rs = [r for r in rs if not (r["srand"] in seen or seen.add(r["srand"]))]
        games = sum(int(r["games"]) for r in rs)
        score = sum(int(r["games"]) * float(r["score"]) for r in rs) / games
        se = math.sqrt(sum((int(r["games"]) * float(r["error95"]) / 1.96) ** 2 for r in rs)) / games
        first = rs[0]
        low, high = float(first["low"]), float(first["high"])
        gap = hi - lo
        passed = (low <= score <= high) if gap >= 200 else score > 50.0
        table.append([hi, lo, gap, games, f"{score:.1f}", f"{1.96 * se:.1f}", first["expected"], first["low"],
                      first["high"], "yes" if passed else "no", "+".join(r["srand"] for r in rs)])
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(table)
    for t in table:
        print(f"{t[0]}/{t[1]}: {t[4]} % ± {t[5]} over {t[3]} games (seeds {t[10]}): {'pass' if t[9] == 'yes' else 'FAIL'}")


if __name__ == "__main__":
    main(sys.argv)
