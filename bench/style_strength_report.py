#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""Strength held (issue 24): the table of bench/style-strength.sh's matches.

Reads bench/results/style/strength/<elo>-<avatar>.json (or argv[1]; the match runner's summaries: avatar as
engine 1 against the plain point) and writes bench/results/style/strength.md (or argv[2]): per level and avatar
the games, W/D/L, the avatar's score with a 95 % interval from the pentanomial pairs (the games of
a pair share an opening, so pairs are the independent unit), the logistic Elo difference with the
same interval, and whether the score is inside the issue's window, 50 % ± 8 ("held") or not
("shifted": a shift the ladder should compensate), with a remark when the interval crosses an edge
of the window (undecided at this number of games).
"""
import glob
import json
import math
import os
import re
import sys

WINDOW = 0.08
src = sys.argv[1] if len(sys.argv) > 1 else "bench/results/style/strength"
out = sys.argv[2] if len(sys.argv) > 2 else "bench/results/style/strength.md"


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def pair_interval(pent):
    # Pentanomial [LL, LD, DD+WL, WD, WW] pair scores 0, 0.25, 0.5, 0.75, 1 (per game of the pair).
    vals = [0.0, 0.25, 0.5, 0.75, 1.0]
    n = sum(pent)
    if n == 0:
        return None
    mean = sum(v * c for v, c in zip(vals, pent)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(vals, pent)) / n
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


rows = {}
for path in sorted(glob.glob(os.path.join(src, "*.json"))):
    m = re.match(r"(\w+)-(.+)\.json$", os.path.basename(path))
    if not m or re.search(r"-style-(avatar|plain)\.json$", path):
        continue  # the style records of the same games, read below
    d = json.load(open(path))
    r = d["result"]
    pi = pair_interval(d.get("pentanomial") or [])
    if pi is None:
        continue
    rows.setdefault(m.group(1), []).append((m.group(2), d["games_played"], r, pi))

lines = [
    "# Strength held: each avatar against the plain point (issue 24)",
    "",
    "Written by `bench/style_strength_report.py` from `bench/style-strength.sh`'s matches (avatar",
    "against the same `UCI_Elo` point without an avatar; 8moves_v3 openings, each twice with colours",
    "reversed, `-srand 7`, the points' own node budgets). Score is the avatar's; the 95 % interval",
    "comes from the pentanomial pairs. Window: 50 % ± 8 (42-58 %).",
    "",
]
for level in sorted(rows, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s)):
    lines += [f"## UCI_Elo {level}", "",
              "| avatar | games | W / D / L | score [95 %] | Elo [95 %] | verdict |",
              "|---|---|---|---|---|---|"]
    for name, games, r, (mean, lo, hi) in sorted(rows[level]):
        inside = 0.5 - WINDOW <= mean <= 0.5 + WINDOW
        if inside:
            verdict = "held" + ("" if lo >= 0.5 - WINDOW and hi <= 0.5 + WINDOW else " (interval reaches past the window)")
        else:
            verdict = "shifted" + ("" if hi < 0.5 - WINDOW or lo > 0.5 + WINDOW else " (interval reaches into the window)")
        lines.append(
            f"| {name} | {games} | {r['wins']} / {r['draws']} / {r['losses']} | "
            f"{100 * mean:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] | "
            f"{elo(mean):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}] | {verdict} |"
        )
    lines.append("")
# The same games' move and game rows: the avatar's moves against its plain opponent's.
SHOWN = ["capture", "check", "king_zone", "pawn_storm", "sacrifice", "structure_damage", "retreat",
         "castle_early", "castle_late", "game_length", "draw"]
for level in sorted(rows, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s)):
    table = []
    for name, *_ in sorted(rows[level]):
        fa = os.path.join(src, f"{level}-{name}-style-avatar.json")
        fp = os.path.join(src, f"{level}-{name}-style-plain.json")
        if not (os.path.exists(fa) and os.path.exists(fp)):
            continue
        ra = {r["key"]: r["estimate"] for r in json.load(open(fa))["rows"]}
        rp = {r["key"]: r["estimate"] for r in json.load(open(fp))["rows"]}

        def cell(k):
            a, p = ra.get(k), rp.get(k)
            if not a or not p or a.get("value") is None or p.get("value") is None:
                return "-"
            if k == "game_length":
                return f"{a['value']:.1f}"
            clear = a["lo"] > p["hi"] or a["hi"] < p["lo"]
            txt = f"{100 * a['value']:.1f} / {100 * p['value']:.1f}"
            return f"**{txt}**" if clear else txt
        table.append(f"| {name} | " + " | ".join(cell(k) for k in SHOWN) + " |")
    if table:
        lines += [f"### UCI_Elo {level}: the avatar's moves / its plain opponent's, in the same games", "",
                  "Rates in % (game length: full moves, the same for both); **bold** where the two 95 % "
                  "intervals (bootstrap over games) do not overlap. Draws and game length are the games'.", "",
                  "| avatar | " + " | ".join(SHOWN) + " |", "|---|" + "---|" * len(SHOWN)] + table + [""]
os.makedirs(os.path.dirname(out), exist_ok=True)
open(out, "w").write("\n".join(lines))
print(f"wrote {out} ({sum(len(v) for v in rows.values())} matches)")
