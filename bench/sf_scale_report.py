#!/usr/bin/env python3
# Needs bench/.venv (matplotlib, through bench/plot.py): run with bench/py.sh.
"""Stockfish-scale equivalents of ladder points from bench/sf-scale.sh's match summaries.

For each pairing (sparring UCI_Elo OURS vs Stockfish 15.1 UCI_Elo SF) the match's logistic Elo
difference d with its 95 % interval gives OURS's equivalent SF + d on Stockfish's scale. Batches
of one pairing (sf-scale.sh TAG=b, ...) are pooled game by game; several pairings of one point are
combined by inverse-variance weighting. Writes
bench/results/sf-scale.csv (one row per pairing), bench/results/sf-scale-points.csv (one row per
point) and bench/results/sf-scale.svg (bench/plot.py), all in the folder given as the first argument
(default bench/results/sf-scale/ladder-vN, N the built-in ladder's version). Further folders (a
ladder version's predecessors) lend the pairings of every point that has none in the first: a new
version replays only the points it moved. A point's equivalent uses only its pairings that scored
20-80 % when it has any (see EVEN).

Usage: bench/py.sh bench/sf_scale_report.py [OUT_DIR [EARLIER_DIR ...]]"""
import csv
import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import plot  # noqa: E402

def builtin_version():
    for line in open("profiles/ladder.toml"):
        m = re.match(r"version\s*=\s*(\d+)", line)
        if m:
            return m.group(1)
    raise SystemExit("profiles/ladder.toml has no version")


# Score range of the pairings a point's equivalent is taken from (when it has any there).
EVEN = (0.20, 0.80)

src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(f"bench/results/sf-scale/ladder-v{builtin_version()}")
earlier = [Path(a) for a in sys.argv[2:]]
def logistic_elo(wins, draws, losses):
    """Elo difference and 95 % bounds from a trinomial result, as the match runner's JSON gives
    them (the score's normal interval mapped through the logistic curve; None where undefined)."""
    n = wins + draws + losses
    s = (wins + draws / 2) / n
    sd = math.sqrt((wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n / n)
    elo = lambda x: -400 * math.log10(1 / x - 1) if 0 < x < 1 else None
    return s, elo(s), elo(s - 1.96 * sd), elo(s + 1.96 * sd)


# Batches of one pairing (bench/sf-scale.sh TAG=b, ...: files elo*-vs-sf*-b.json) are pooled.
batches = {}
played_here = set()
for k, folder in enumerate([src] + earlier):
    for js in sorted(folder.glob("elo*-vs-sf*.json")):
        m = re.match(r"elo(\d+)-vs-sf(\d+)", js.stem)
        ours = int(m.group(1))
        if k == 0:
            played_here.add(ours)
        elif ours in played_here:
            continue  # the point was replayed in the newer folder: its old pairings are another player's
        d = json.loads(js.read_text())
        if d["games_played"] == 0:
            continue
        batches.setdefault((ours, int(m.group(2))), []).append(d)
    if k > 0:  # an older folder still shadows the ones after it
        played_here |= {int(re.match(r"elo(\d+)", js.stem).group(1)) for js in folder.glob("elo*-vs-sf*.json")}
rows = []
for (ours, sf), ds in sorted(batches.items()):
    w, dr, l = (sum(d["result"][k] for d in ds) for k in ("wins", "draws", "losses"))
    n = sum(d["games_played"] for d in ds)
    score, e, lo, hi = logistic_elo(w, dr, l)
    fin = lambda v: v is not None and math.isfinite(v)
    rows.append({
        "ours": ours, "sf": sf, "games": n, "wins": w, "draws": dr, "losses": l,
        # A match near 0 % or 100 % has no finite interval on one side.
        "score": round(score, 4), "elo_diff": round(e, 1) if fin(e) else "",
        "error95": round((hi - lo) / 2, 1) if fin(lo) and fin(hi) else "",
        "equivalent": round(sf + e) if fin(e) else "",
        "lower95": round(sf + lo) if fin(lo) else "",
        "upper95": round(sf + hi) if fin(hi) else "",
        "faults": "+".join("+".join(str(f) for f in d["faults"]) for d in ds),
        "batches": len(ds),
    })
rows.sort(key=lambda r: (r["ours"], r["sf"]))
with open(src / "sf-scale.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["ours"])
    w.writeheader()
    w.writerows(rows)

points = []
for ours in sorted({r["ours"] for r in rows}):
    finite = [r for r in rows if r["ours"] == ours and r["error95"] != "" and 0.03 < r["score"] < 0.97]
    # Stockfish's UCI_Elo levels are not one logistic scale for our points (session 31: UCI_Elo 2100
    # is 1660 [1591, 1743] by its 71.5 % against SF 1500 but 1528 [1414, 1642] by its 10.5 % against
    # SF 1900), so a lopsided pairing measures the tail of Stockfish's own scale more than our point.
    # A point's equivalent comes from its pairings scoring within EVEN (the short logistic steps);
    # the others count only for a point that has none there.
    even = [r for r in finite if EVEN[0] <= r["score"] <= EVEN[1]]
    usable = even or finite
    if not usable:
        continue
    ws = [1 / (r["error95"] / 1.96) ** 2 for r in usable]
    eq = sum(w * r["equivalent"] for w, r in zip(ws, usable)) / sum(ws)
    err = 1.96 / math.sqrt(sum(ws))
    points.append({"ours": ours, "equivalent": round(eq), "lower95": round(eq - err), "upper95": round(eq + err),
                   "games": sum(r["games"] for r in usable),
                   "pairings": " ".join(f"vs{r['sf']}" for r in usable)})
with open(src / "sf-scale-points.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["ours", "equivalent", "lower95", "upper95", "games", "pairings"])
    w.writeheader()
    w.writerows(points)

plot.error_bar_chart(
    str(src / "sf-scale.svg"),
    "sparring UCI_Elo vs its equivalent on Stockfish 15.1's UCI_Elo scale",
    "sparring UCI_Elo (human scale)",
    "Stockfish UCI_Elo equivalent (95 % CI)",
    [(p["ours"], p["equivalent"], p["lower95"], p["upper95"]) for p in points],
    lim=(800, 3000),
    ticks=range(800, 3001, 200),
    diagonal="same number",
)

print("| sparring UCI_Elo | Stockfish UCI_Elo | games | W-D-L | score | Elo diff | SF-scale equivalent (95 %) |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r['ours']} | {r['sf']} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.3f} | "
          f"{r['elo_diff']} ± {r['error95']} | {r['equivalent']} [{r['lower95']}, {r['upper95']}] |")
print()
for p in points:
    print(f"UCI_Elo {p['ours']}: Stockfish-scale {p['equivalent']} [{p['lower95']}, {p['upper95']}] ({p['games']} games)")
