#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Stockfish-scale equivalents of ladder points from bench/sf-scale.sh's match summaries.

For each pairing (sparring UCI_Elo OURS vs Stockfish 15.1 UCI_Elo SF) the match's logistic Elo
difference d with its 95 % interval gives OURS's equivalent SF + d on Stockfish's scale. Several
pairings of one point are combined by inverse-variance weighting. Writes
bench/results/sf-scale.csv (one row per pairing), bench/results/sf-scale-points.csv (one row per
point) and bench/results/sf-scale.svg. Stdlib only."""
import csv
import json
import math
import re
from pathlib import Path

src = Path("bench/results/sf-scale")
rows = []
for js in sorted(src.glob("elo*-vs-sf*.json")):
    m = re.match(r"elo(\d+)-vs-sf(\d+)", js.stem)
    d = json.loads(js.read_text())
    if d["games_played"] == 0:
        continue
    ours, sf = int(m.group(1)), int(m.group(2))
    fin = lambda v: v is not None and math.isfinite(v)
    r = d["result"]
    n = d["games_played"]
    score = d["score"]
    e = d["elo"]
    rows.append({
        "ours": ours, "sf": sf, "games": n, "wins": r["wins"], "draws": r["draws"], "losses": r["losses"],
        # A match near 0 % or 100 % has no finite interval on one side (null in the JSON).
        "score": round(score, 4), "elo_diff": round(e["elo"], 1) if fin(e["elo"]) else "",
        "error95": round(e["error95"], 1) if fin(e["error95"]) else "",
        "equivalent": round(sf + e["elo"]) if fin(e["elo"]) else "",
        "lower95": round(sf + e["lower95"]) if fin(e["lower95"]) else "",
        "upper95": round(sf + e["upper95"]) if fin(e["upper95"]) else "",
        "faults": "+".join(str(f) for f in d["faults"]),
    })
rows.sort(key=lambda r: (r["ours"], r["sf"]))
with open("bench/results/sf-scale.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["ours"])
    w.writeheader()
    w.writerows(rows)

points = []
for ours in sorted({r["ours"] for r in rows}):
    usable = [r for r in rows if r["ours"] == ours and r["error95"] != "" and 0.03 < r["score"] < 0.97]
    if not usable:
        continue
    ws = [1 / (r["error95"] / 1.96) ** 2 for r in usable]
    eq = sum(w * r["equivalent"] for w, r in zip(ws, usable)) / sum(ws)
    err = 1.96 / math.sqrt(sum(ws))
    points.append({"ours": ours, "equivalent": round(eq), "lower95": round(eq - err), "upper95": round(eq + err),
                   "games": sum(r["games"] for r in usable),
                   "pairings": " ".join(f"vs{r['sf']}" for r in usable)})
with open("bench/results/sf-scale-points.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["ours", "equivalent", "lower95", "upper95", "games", "pairings"])
    w.writeheader()
    w.writerows(points)

W, H, L, R, T, B = 640, 480, 70, 30, 40, 60
lo, hi = 800, 3000
X = lambda e: L + (e - lo) / (hi - lo) * (W - L - R)
Y = lambda e: H - B - (e - lo) / (hi - lo) * (H - T - B)
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{L}" y="22" font-size="15">sparring UCI_Elo vs its equivalent on Stockfish 15.1\'s UCI_Elo scale</text>']
for e in range(lo, hi + 1, 200):
    svg.append(f'<line x1="{X(e)}" y1="{Y(lo)}" x2="{X(e)}" y2="{Y(hi)}" stroke="#eee"/>')
    svg.append(f'<line x1="{X(lo)}" y1="{Y(e)}" x2="{X(hi)}" y2="{Y(e)}" stroke="#eee"/>')
    svg.append(f'<text x="{X(e) - 14}" y="{H - B + 18}">{e}</text>')
    svg.append(f'<text x="{L - 40}" y="{Y(e) + 4}">{e}</text>')
svg.append(f'<line x1="{X(lo)}" y1="{Y(lo)}" x2="{X(hi)}" y2="{Y(hi)}" stroke="#999" stroke-dasharray="4,4"/>')
svg.append(f'<text x="{X(2450)}" y="{Y(2550)}" fill="#777">same number</text>')
for p in points:
    x = X(p["ours"])
    svg.append(f'<line x1="{x}" y1="{Y(p["lower95"])}" x2="{x}" y2="{Y(p["upper95"])}" stroke="#1f77b4" stroke-width="2"/>')
    svg.append(f'<circle cx="{x}" cy="{Y(p["equivalent"])}" r="4" fill="#1f77b4"/>')
    svg.append(f'<text x="{x + 6}" y="{Y(p["equivalent"]) - 6}" fill="#1f77b4">{p["equivalent"]}</text>')
svg.append(f'<text x="{W / 2 - 80}" y="{H - 15}">sparring UCI_Elo (human scale)</text>')
svg.append(f'<text transform="translate(16,{H / 2 + 90}) rotate(-90)">Stockfish UCI_Elo equivalent (95 % CI)</text>')
svg.append("</svg>")
Path("bench/results/sf-scale.svg").write_text("\n".join(svg) + "\n")

print("| sparring UCI_Elo | Stockfish UCI_Elo | games | W-D-L | score | Elo diff | SF-scale equivalent (95 %) |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r['ours']} | {r['sf']} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} | {r['score']:.3f} | "
          f"{r['elo_diff']} ± {r['error95']} | {r['equivalent']} [{r['lower95']}, {r['upper95']}] |")
print()
for p in points:
    print(f"UCI_Elo {p['ours']}: Stockfish-scale {p['equivalent']} [{p['lower95']}, {p['upper95']}] ({p['games']} games)")
