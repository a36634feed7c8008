#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Ours against Stockfish `UCI_Elo` at the same number, paired on the same positions.

For each Stockfish point, the ladder's moves (`sparring calibrate check --moves-out`) and
Stockfish's (`bench/humanlike/moves/stockfish-ELO.jsonl`) on the eligible positions of the band the
point stands for: move-match rate with the human, KS distance to the humans' loss distribution and
mean loss, each with a 95 % interval for the difference (ours − Stockfish) from a bootstrap that
resamples whole games (positions of one game are not independent).

Usage: bench/humanlike/paired_sf.py OURS_MOVES.jsonl [ORACLE.jsonl] [MOVES_DIR] [OUT.csv]
"""
import csv
import json
import random
import sys
from collections import defaultdict

from oracle_table import eligible, loss

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
from samples import ks  # noqa: E402  (bench/samples.py)

ours_file = sys.argv[1]
oracle = sys.argv[2] if len(sys.argv) > 2 else "bench/humanlike/oracle.jsonl"
moves_dir = sys.argv[3] if len(sys.argv) > 3 else "bench/humanlike/moves"
out = sys.argv[4] if len(sys.argv) > 4 else "bench/results/humanlike-vs-stockfish-paired.csv"

positions = {(fen, band): (game, human, table) for fen, band, game, human, table in eligible(oracle)}

ours = defaultdict(dict)  # elo -> (fen, band) -> move
for line in open(ours_file):
    r = json.loads(line)
    ours[r["elo"]][(r["fen"], r["band"])] = r["mv"]


def measures(rows):
    n = len(rows)
    m_o = sum(r[0] for r in rows) / n
    m_s = sum(r[1] for r in rows) / n
    lo = [r[2] for r in rows]
    ls = [r[3] for r in rows]
    lh = [r[4] for r in rows]
    return m_o, m_s, ks(lo, lh), ks(ls, lh), sum(lo) / n, sum(ls) / n, sum(lh) / n


rng = random.Random(2026)
results = []
for elo in sorted(ours):
    sf = {}
    try:
        for line in open(f"{moves_dir}/stockfish-{elo}.jsonl"):
            r = json.loads(line)
            sf[r["fen"]] = r["mv"]
    except FileNotFoundError:
        continue
    by_game = defaultdict(list)
    for (fen, band), mv in ours[elo].items():
        if (fen, band) not in positions or fen not in sf:
            continue
        game, human, table = positions[(fen, band)]
        lo, ls, lh = loss(table, mv), loss(table, sf[fen]), loss(table, human)
        if lo is None or ls is None:
            continue
        by_game[game].append((int(mv == human), int(sf[fen] == human), lo, ls, lh, band))
    games = list(by_game.values())
    rows = [r for g in games for r in g]
    base = measures(rows)
    boots = []
    for _ in range(1000):
        sample = [r for _ in games for r in games[rng.randrange(len(games))]]
        m = measures(sample)
        boots.append((m[0] - m[1], m[2] - m[3], m[4] - m[5]))

    def ci(k):
        v = sorted(b[k] for b in boots)
        return v[24], v[974]

    (dm_lo, dm_hi), (dk_lo, dk_hi), (dl_lo, dl_hi) = ci(0), ci(1), ci(2)
    results.append(
        dict(
            uci_elo=elo,
            band=rows[0][5],
            n=len(rows),
            games=len(games),
            ours_match=round(base[0], 4),
            sf_match=round(base[1], 4),
            match_diff=round(base[0] - base[1], 4),
            match_diff_lo=round(dm_lo, 4),
            match_diff_hi=round(dm_hi, 4),
            ours_ks=round(base[2], 4),
            sf_ks=round(base[3], 4),
            ks_diff=round(base[2] - base[3], 4),
            ks_diff_lo=round(dk_lo, 4),
            ks_diff_hi=round(dk_hi, 4),
            ours_loss=round(base[4], 1),
            sf_loss=round(base[5], 1),
            human_loss=round(base[6], 1),
        )
    )
with open(out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(results[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(results)
print("| UCI_Elo | band | n (games) | match ours / SF | difference [95 %] | KS ours / SF | difference [95 %] | loss ours / SF / humans |")
print("|---|---|---|---|---|---|---|---|")
for r in results:
    print(
        f"| {r['uci_elo']} | {r['band']} | {r['n']} ({r['games']}) | {r['ours_match']:.3f} / {r['sf_match']:.3f} "
        f"| {100 * r['match_diff']:+.1f} [{100 * r['match_diff_lo']:+.1f}, {100 * r['match_diff_hi']:+.1f}] pts "
        f"| {r['ours_ks']:.3f} / {r['sf_ks']:.3f} | {r['ks_diff']:+.3f} [{r['ks_diff_lo']:+.3f}, {r['ks_diff_hi']:+.3f}] "
        f"| {r['ours_loss']} / {r['sf_loss']} / {r['human_loss']} |"
    )
