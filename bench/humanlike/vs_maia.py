#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""Human-move match per band, side by side: ladder points, Maia, Stockfish UCI_Elo, on the same positions.

Each setting is one of:
- a `sparring calibrate check --pgn ... --test-part --moves-out` file (one seeded draw of the point's
  move per position; the label is the file name), or
- `--expected DECISIONS.csv`, the `--decisions-out` file of `sparring calibrate model-check` (each
  point's exact chance of the human's move per position, no draw left in it: its expected match);
  rows of one oracle only (`--oracle`, default internal), every test-part position that oracle's
  cache holds (the first sample and its session-32 extension).
The first setting fixes the positions. Maia's answers come from `bench/humanlike/moves/maia-R.jsonl`
(`sparring humanlike moves --engine maia-R.sh --go "nodes 1"`, by FEN), Stockfish's from
`moves/stockfish-ELO.jsonl`. For each band: every setting's match rate with a 95 % interval (Wilson
for a draw; a bootstrap over games for an expectation), Maia at the nearest rating (1100..1900) and at
its best net, Stockfish UCI_Elo at the nearest number (where answered), and the paired difference
first setting − Maia nearest with a 95 % interval from a bootstrap over games.

Usage: bench/humanlike/vs_maia.py OUT.csv CHECK_MOVES.jsonl [MORE.jsonl ...]
       bench/humanlike/vs_maia.py OUT.csv --expected DECISIONS.csv [--oracle internal] [MORE.jsonl ...]
"""
import csv
import json
import math
import os
import random
import sys
from collections import defaultdict

MOVES_DIR = "bench/humanlike/moves"
ORACLES = ["bench/humanlike/oracle.jsonl", "bench/humanlike/oracle-test2.jsonl"]
MAIA = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]
SF = [1350, 1500, 1700, 1900, 2100, 2300]
RESAMPLES = 2000


def parse_args(argv):
    out, files, expected, oracle = argv[0], [], [], "internal"
    i = 1
    while i < len(argv):
        if argv[i] == "--expected":
            expected.append(argv[i + 1])
            i += 2
        elif argv[i] == "--oracle":
            oracle = argv[i + 1]
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if not files and not expected:
        sys.exit(__doc__)
    return out, files, expected, oracle


def load_positions():
    """(fen, game) -> human move, and (game, ply) -> fen, over every oracle file present."""
    human, fen_of = {}, {}
    for path in ORACLES:
        if not os.path.exists(path):
            continue
        for line in open(path):
            r = json.loads(line)
            human[(r["fen"], r["game"])] = r["human"]
            fen_of[(r["game"], r["ply"])] = r["fen"]
    return human, fen_of


def load_cache(path):
    d = {}
    if os.path.exists(path):
        for line in open(path):
            r = json.loads(line)
            d[r["fen"]] = r["mv"]
    return d


def sampled_setting(path, human):
    """{band: {(fen, game): 0/1}} and {band: elo} from a check --moves-out file."""
    per, elo = defaultdict(dict), {}
    for line in open(path):
        r = json.loads(line)
        per[r["band"]][(r["fen"], r["game"])] = 1.0 if r["mv"] == human[(r["fen"], r["game"])] else 0.0
        elo[r["band"]] = r["elo"]
    return per, elo


def expected_setting(path, oracle, fen_of):
    """{band: {(fen, game): p}} and {band: elo} from a model check --decisions-out file."""
    per, elo = defaultdict(dict), {}
    with open(path, newline="") as fh:
        for r in csv.DictReader(fh):
            if r["oracle"] != oracle:
                continue
            game, ply, band = int(r["game"]), int(r["ply"]), int(r["band"])
            fen = fen_of.get((game, ply))
            if fen is None:
                sys.exit(f"{path}: game {game} ply {ply} is in no oracle file ({', '.join(ORACLES)})")
            per[band][(fen, game)] = float(r["p_human"])
            elo[band] = int(r["elo"])
    return per, elo


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0)
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (c - h, c + h)


def game_bootstrap(values_by_game, rng):
    """The mean over positions and its 95 % interval, whole games resampled."""
    games = list(values_by_game)
    n = sum(len(v) for v in values_by_game.values())
    mean = sum(x for v in values_by_game.values() for x in v) / n
    stats = []
    for _ in range(RESAMPLES):
        sample = [rng.choice(games) for _ in games]
        vals = [x for g in sample for x in values_by_game[g]]
        stats.append(sum(vals) / len(vals))
    stats.sort()
    return mean, stats[int(0.025 * RESAMPLES)], stats[int(0.975 * RESAMPLES) - 1]


def nearest(xs, x):
    return min(xs, key=lambda v: (abs(v - x), v))


def main():
    out_csv, files, expected, oracle = parse_args(sys.argv[1:])
    human, fen_of = load_positions()
    maia = {r: load_cache(f"{MOVES_DIR}/maia-{r}.jsonl") for r in MAIA}
    sf = {r: load_cache(f"{MOVES_DIR}/stockfish-{r}.jsonl") for r in SF}
    settings = []  # (label, kind, per band {key: value}, {band: elo})
    for path in expected:
        per, elo = expected_setting(path, oracle, fen_of)
        settings.append((f"{os.path.basename(path).removesuffix('.csv')} (expected, {oracle})", "expected", per, elo))
    for path in files:
        per, elo = sampled_setting(path, human)
        settings.append((os.path.basename(path).removesuffix(".jsonl"), "draw", per, elo))
    rng = random.Random(1)
    rows = []
    base_label, base_kind, base, base_elo = settings[0]
    for band in sorted(base):
        keys = sorted(base[band], key=lambda k: (k[1], k[0]))
        elo = base_elo[band]
        row = {"band": band, "elo": elo, "n": len(keys)}
        for label, kind, per, _ in settings:
            got = per.get(band, {})
            vals = [got.get(key, 0.0) for key in keys]
            if kind == "draw":
                lo, hi = wilson(sum(vals), len(keys))
                mean = sum(vals) / len(keys)
            else:
                by_game = defaultdict(list)
                for key, v in zip(keys, vals):
                    by_game[key[1]].append(v)
                mean, lo, hi = game_bootstrap(by_game, rng)
            row[label] = f"{100 * mean:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
        hits = {r: [1.0 if maia[r].get(f) == human[(f, g)] else 0.0 for f, g in keys] for r in MAIA}
        rm = nearest(MAIA, band + 100)
        k = sum(hits[rm])
        lo, hi = wilson(k, len(keys))
        row["maia_nearest"] = f"{rm}: {100 * k / len(keys):.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
        row["maia_answered"] = sum(1 for f, _ in keys if f in maia[rm])
        best = max(MAIA, key=lambda r: sum(hits[r]))
        row["maia_best"] = f"{best}: {100 * sum(hits[best]) / len(keys):.1f}"
        rs = nearest(SF, elo)
        answered = [(f, g) for f, g in keys if f in sf[rs]]
        ks = sum(1 for f, g in answered if sf[rs][f] == human[(f, g)])
        row["stockfish_nearest"] = f"{rs}: {100 * ks / len(answered):.1f} ({len(answered)})" if answered else "-"
        # Paired difference (first setting − Maia nearest), bootstrap over games.
        diff_by_game = defaultdict(list)
        for i, key in enumerate(keys):
            diff_by_game[key[1]].append(base[band][key] - hits[rm][i])
        mean, lo, hi = game_bootstrap(diff_by_game, rng)
        row["diff_vs_maia"] = f"{100 * mean:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
        rows.append(row)
    fields = ["band", "elo", "n"] + [s[0] for s in settings]
    fields += ["maia_nearest", "maia_best", "maia_answered", "stockfish_nearest", "diff_vs_maia"]
    with open(out_csv, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    print("| " + " | ".join(fields) + " |")
    print("|" + "---|" * len(fields))
    for r in rows:
        print("| " + " | ".join(str(r[f]) for f in fields) + " |")


main()
