#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""How well do the humans' per-band targets pin down a ladder point? Cluster bootstrap over games.

The ladder is fitted to each band's mean centipawn loss on its eligible positions, but those
positions come from a limited number of games (and players): within a game, losses are
correlated, so the standard error of a band's mean is larger than a per-position formula says.
This resamples whole games (the unit a person plays) and prints, per band, the mean loss, its
95 % percentile interval, the interval relative to the mean, and the naive per-position interval
for comparison. Same eligibility and loss rules as `sparring humanlike` (src/humanlike/types.rs).

Usage: bench/humanlike/human_ci.py [ORACLE.jsonl] [OUT.csv]
"""
import csv
import random
import statistics
import sys
from collections import defaultdict

from oracle_table import eligible, loss

oracle = sys.argv[1] if len(sys.argv) > 1 else "bench/humanlike/oracle.jsonl"
out = sys.argv[2] if len(sys.argv) > 2 else "bench/results/humanlike-human-ci.csv"


per_band = defaultdict(lambda: defaultdict(list))  # band -> game -> losses
for _, band, game, human, table in eligible(oracle):
    per_band[band][game].append(loss(table, human))

rng = random.Random(2026)
rows = []
for band in sorted(per_band):
    games = list(per_band[band].values())
    flat = [x for g in games for x in g]
    mean = sum(flat) / len(flat)
    boots = []
    for _ in range(2000):
        sample = [games[rng.randrange(len(games))] for _ in games]
        tot = sum(sum(g) for g in sample)
        cnt = sum(len(g) for g in sample)
        boots.append(tot / cnt)
    boots.sort()
    lo, hi = boots[49], boots[1949]
    se_naive = statistics.pstdev(flat) / len(flat) ** 0.5
    rows.append(
        dict(
            band=band,
            positions=len(flat),
            games=len(games),
            mean_loss=round(mean, 1),
            ci_lo=round(lo, 1),
            ci_hi=round(hi, 1),
            ci_rel_lo_pct=round(100 * (lo / mean - 1), 1),
            ci_rel_hi_pct=round(100 * (hi / mean - 1), 1),
            naive_ci_half_pct=round(100 * 1.96 * se_naive / mean, 1),
        )
    )
with open(out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
print("| band | positions | games | humans' mean loss | 95 % (games resampled) | relative | naive per-position ± |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print(
        f"| {r['band']} | {r['positions']} | {r['games']} | {r['mean_loss']} | [{r['ci_lo']}, {r['ci_hi']}] "
        f"| {r['ci_rel_lo_pct']:+} % … {r['ci_rel_hi_pct']:+} % | ±{r['naive_ci_half_pct']} % |"
    )
