#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""UCI_Elo against FIDE-rated players by move quality (issue 23, item 2).

Reads `sparring humanlike check` run with every ladder point on every FIDE band's positions
(CHECK.csv: band, elo, n, mean_loss, human_mean_loss, ...) and the oracle file of those positions.
Per band: the players' mean loss with a 95 % interval (1000 resamples of whole games), and the
UCI_Elo whose mean loss on the same positions equals it (the points' losses made non-increasing in
Elo, then interpolated linearly; the interval maps the humans' interval the same way). Then per
ladder point: the FIDE rating of the players who err like it (interpolated between the bands'
mean ratings).

Usage: bench/fide/conversion.py CHECK.csv ORACLE.jsonl
"""
import csv
import json
import os
import random
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "humanlike"))
from oracle_table import eligible, loss  # noqa: E402

check_csv, oracle = sys.argv[1], sys.argv[2]

ratings = {}
for line in open(oracle):
    p = json.loads(line)
    ratings[(p["fen"], p["band"])] = p["rating"]
by_band = defaultdict(lambda: defaultdict(list))  # band -> game -> [loss]
band_ratings = defaultdict(list)
for fen, band, game, human, table in eligible(oracle):
    by_band[band][game].append(loss(table, human))
    band_ratings[band].append(ratings[(fen, band)])

rows = defaultdict(dict)  # band -> elo -> mean loss
for r in csv.DictReader(open(check_csv)):
    rows[int(r["band"])][int(r["elo"])] = float(r["mean_loss"])


def mean_of(games):
    xs = [x for g in games for x in g]
    return sum(xs) / len(xs)


def equivalent(points, target):
    """UCI_Elo at which the (non-increasing) loss curve of the points reaches `target`."""
    elos = sorted(points)
    ys = [points[e] for e in elos]
    for i in range(1, len(ys)):  # pool adjacent violators, crudely: a running minimum
        ys[i] = min(ys[i], ys[i - 1])
    if target >= ys[0]:
        return float(elos[0]), target > ys[0]
    if target <= ys[-1]:
        return float(elos[-1]), target < ys[-1]
    for i in range(1, len(ys)):
        if ys[i] <= target <= ys[i - 1]:
            if ys[i - 1] == ys[i]:
                return float(elos[i]), False
            t = (ys[i - 1] - target) / (ys[i - 1] - ys[i])
            return elos[i - 1] + t * (elos[i] - elos[i - 1]), False
    return float(elos[-1]), True


rng = random.Random(1)
table = []
print("band       players' FIDE  n    their loss [95 %]        UCI_Elo that errs alike [95 %]")
for band in sorted(by_band):
    games = list(by_band[band].values())
    m = mean_of(games)
    boots = sorted(mean_of([rng.choice(games) for _ in games]) for _ in range(1000))
    lo, hi = boots[25], boots[974]
    pts = rows.get(band)
    if not pts:
        continue
    eq, out = equivalent(pts, m)
    eq_hi, _ = equivalent(pts, lo)  # less loss = stronger
    eq_lo, _ = equivalent(pts, hi)
    fide = sum(band_ratings[band]) / len(band_ratings[band])
    n = sum(len(g) for g in games)
    flag = " (outside the ladder's range)" if out else ""
    print(f"{band}-{band + 199}  {fide:7.0f}  {n:4}  {m:5.1f} [{lo:5.1f}, {hi:5.1f}]   "
          f"{eq:6.0f} [{eq_lo:5.0f}, {eq_hi:5.0f}]{flag}")
    table.append((eq, fide, out))

print()
print("UCI_Elo  errs like FIDE-rated players of about (online blitz/rapid)")
inside = [(e, f) for e, f, out in table if not out]
inside.sort()
points = sorted({e for pts in rows.values() for e in pts})
by_rating = [e for e, f in sorted(inside, key=lambda x: x[1])]
if any(b < a for a, b in zip(by_rating, by_rating[1:])):
    print("no conversion: the bands' equivalents do not rise with the players' rating at this sample")
    print("size (their intervals overlap); more positions per band are needed (bench/fide/run.sh PER_BAND)")
    sys.exit(0)
for p in points:
    if len(inside) < 2 or p < inside[0][0] or p > inside[-1][0]:
        print(f"{p:7}  (beyond the bands that bracket it)")
        continue
    for (e0, f0), (e1, f1) in zip(inside, inside[1:]):
        if e0 <= p <= e1:
            x = f0 if e1 == e0 else f0 + (p - e0) / (e1 - e0) * (f1 - f0)
            print(f"{p:7}  {x:6.0f}")
            break
