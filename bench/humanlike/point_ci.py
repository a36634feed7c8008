#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Each ladder point against the humans of its band on the same positions, with intervals.

Reads the moves a ladder point chose (`sparring calibrate check --moves-out`) and, per point and
band, compares its centipawn loss with the humans' on exactly those positions: the error in
percent of the humans' mean with a 95 % interval from a bootstrap that resamples whole games (a
game's positions are not independent), and whether the interval contains 0.

With --expected it reads `sparring calibrate model-check --decisions-out` instead: the point's
exact expected loss on each position (no draw of its choice left in it), for the rows of one oracle.

Usage: bench/humanlike/point_ci.py MOVES.jsonl [ORACLE.jsonl] [OUT.csv]
       bench/humanlike/point_ci.py --expected DECISIONS.csv ORACLE_NAME [OUT.csv]
"""
import csv
import json
import random
import sys
from collections import defaultdict

groups = defaultdict(lambda: defaultdict(list))  # (elo, band) -> game -> [(ours, human)]
if sys.argv[1] == "--expected":
    decisions, name = sys.argv[2], sys.argv[3]
    out = sys.argv[4] if len(sys.argv) > 4 else None
    for r in csv.DictReader(open(decisions)):
        if r["oracle"] == name:
            key = (int(r["elo"]), int(r["band"]))
            groups[key][int(r["game"])].append((float(r["expected_loss"]), float(r["human_loss"])))
    if not groups:
        sys.exit(f"{decisions}: no decisions of oracle {name}")
else:
    from oracle_table import eligible, loss

    moves_file = sys.argv[1]
    oracle = sys.argv[2] if len(sys.argv) > 2 else "bench/humanlike/oracle.jsonl"
    out = sys.argv[3] if len(sys.argv) > 3 else None
    positions = {(fen, band): (game, human, table) for fen, band, game, human, table in eligible(oracle)}
    for line in open(moves_file):
        r = json.loads(line)
        key = (r["fen"], r["band"])
        if key not in positions:
            continue
        game, human, table = positions[key]
        lo = loss(table, r["mv"])
        if lo is not None:
            groups[(r["elo"], r["band"])][game].append((lo, loss(table, human)))

rng = random.Random(2026)
rows = []
for (elo, band), by_game in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    games = list(by_game.values())
    flat = [x for g in games for x in g]
    ours = sum(x[0] for x in flat) / len(flat)
    hum = sum(x[1] for x in flat) / len(flat)
    errs = []
    for _ in range(2000):
        s = [x for _ in games for x in games[rng.randrange(len(games))]]
        h = sum(x[1] for x in s) / len(s)
        errs.append(100 * (sum(x[0] for x in s) / len(s) - h) / h)
    errs.sort()
    rows.append(
        dict(
            band=band,
            elo=elo,
            n=len(flat),
            games=len(games),
            loss=round(ours, 1),
            human_loss=round(hum, 1),
            error_pct=round(100 * (ours - hum) / hum, 1),
            error_lo=round(errs[49], 1),
            error_hi=round(errs[1949], 1),
        )
    )
if out:
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
print("| band | point | n (games) | loss | humans | error | 95 % (games resampled) | 0 inside? |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    inside = r["error_lo"] <= 0 <= r["error_hi"]
    print(
        f"| {r['band']} | {r['elo']} | {r['n']} ({r['games']}) | {r['loss']} | {r['human_loss']} | {r['error_pct']:+.1f} % "
        f"| [{r['error_lo']:+.1f}, {r['error_hi']:+.1f}] | {'yes' if inside else 'no'} |"
    )
