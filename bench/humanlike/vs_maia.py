#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""Human-move match per band, side by side: ladder points, Maia, Stockfish UCI_Elo, on the same positions.

The positions are those of one or more `sparring humanlike check --pgn ... --test-part --moves-out`
files (eligible bench positions of the human move model's test games, computer accounts left out);
each file is one ladder setting (its label is the file name). Maia's answers come from
`bench/humanlike/moves/maia-R.jsonl` (`sparring humanlike moves --engine maia-R.sh --go "nodes 1"`,
by FEN), Stockfish's from `moves/stockfish-ELO.jsonl`. For each band: every setting's match rate
with a 95 % Wilson interval, Maia at the nearest rating (1100..1900) and at its best net, Stockfish
UCI_Elo at the nearest number, and the paired difference first setting − Maia nearest with a 95 %
interval from a bootstrap over games.

Usage: bench/humanlike/vs_maia.py OUT.csv CHECK_MOVES.jsonl [MORE.jsonl ...]
"""
import csv
import json
import math
import os
import random
import sys
from collections import defaultdict

out_csv = sys.argv[1]
setting_files = sys.argv[2:]
oracle = "bench/humanlike/oracle.jsonl"
moves_dir = "bench/humanlike/moves"
MAIA = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]
SF = [1350, 1500, 1700, 1900, 2100, 2300]

human = {}
for line in open(oracle):
    r = json.loads(line)
    human[(r["fen"], r["game"])] = r["human"]


def load_cache(path):
    d = {}
    if os.path.exists(path):
        for line in open(path):
            r = json.loads(line)
            d[r["fen"]] = r["mv"]
    return d


maia = {r: load_cache(f"{moves_dir}/maia-{r}.jsonl") for r in MAIA}
sf = {r: load_cache(f"{moves_dir}/stockfish-{r}.jsonl") for r in SF}

settings = []  # (label, {band: [(fen, game, mv, elo)]})
for f in setting_files:
    per = defaultdict(list)
    for line in open(f):
        r = json.loads(line)
        per[r["band"]].append((r["fen"], r["game"], r["mv"], r["elo"]))
    settings.append((os.path.basename(f).removesuffix(".jsonl"), per))


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0)
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (c - h, c + h)


def nearest(xs, x):
    return min(xs, key=lambda v: (abs(v - x), v))


rows = []
base_label, base = settings[0]
rng = random.Random(1)
for band in sorted(base):
    pos = base[band]
    elo = pos[0][3]
    keys = [(fen, game) for fen, game, _, _ in pos]
    row = {"band": band, "n": len(keys), "elo": elo}
    for label, per in settings:
        got = {(f, g): m for f, g, m, _ in per.get(band, [])}
        k = sum(1 for key in keys if got.get(key) == human[key])
        lo, hi = wilson(k, len(keys))
        row[label] = f"{100 * k / len(keys):.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
    rm = nearest(MAIA, band + 100)
    hits = {r: [1 if maia[r].get(f) == human[(f, g)] else 0 for f, g in keys] for r in MAIA}
    n_maia = sum(1 for f, _ in keys if f in maia[rm])
    k = sum(hits[rm])
    lo, hi = wilson(k, len(keys))
    row["maia_nearest"] = f"{rm}: {100 * k / len(keys):.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
    row["maia_answered"] = n_maia
    best = max(MAIA, key=lambda r: sum(hits[r]))
    row["maia_best"] = f"{best}: {100 * sum(hits[best]) / len(keys):.1f}"
    rs = nearest(SF, elo)
    ks = sum(1 for f, g in keys if sf[rs].get(f) == human[(f, g)])
    row["stockfish_nearest"] = f"{rs}: {100 * ks / len(keys):.1f}" if sf[rs] else "-"
    # Paired difference (first setting − Maia nearest), bootstrap over games.
    got = {(f, g): m for f, g, m, _ in pos}
    diff_by_game = defaultdict(list)
    for i, (f, g) in enumerate(keys):
        diff_by_game[g].append((1 if got[(f, g)] == human[(f, g)] else 0) - hits[rm][i])
    games = list(diff_by_game)
    stats = []
    for _ in range(2000):
        sample = [rng.choice(games) for _ in games]
        vals = [d for g in sample for d in diff_by_game[g]]
        stats.append(sum(vals) / len(vals))
    stats.sort()
    mean = sum(d for g in games for d in diff_by_game[g]) / len(keys)
    row["diff_vs_maia"] = f"{100 * mean:+.1f} [{100 * stats[50]:+.1f}, {100 * stats[1949]:+.1f}]"
    rows.append(row)

fields = ["band", "elo", "n"] + [l for l, _ in settings] + ["maia_nearest", "maia_best", "maia_answered", "stockfish_nearest", "diff_vs_maia"]
with open(out_csv, "w", newline="") as fh:
    w = csv.DictWriter(fh, fieldnames=fields)
    w.writeheader()
    w.writerows(rows)
print("| " + " | ".join(fields) + " |")
print("|" + "---|" * len(fields))
for r in rows:
    print("| " + " | ".join(str(r[f]) for f in fields) + " |")
