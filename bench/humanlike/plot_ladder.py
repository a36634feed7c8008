#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""SVG: mean capped cp loss per rating band for the humans, ladder v7 (at each band's middle) and
Stockfish 15.1 UCI_Elo (at its own number). Reads bench/results/humanlike-{ladder,stockfish}.csv,
writes bench/results/humanlike-ladder-loss.svg. Stdlib only."""
import csv

ladder = list(csv.DictReader(open("bench/results/humanlike-ladder.csv")))
sf = [r for r in csv.DictReader(open("bench/results/humanlike-stockfish.csv")) if r["elo"].isdigit()]
humans = [(int(r["band"]) + 100, float(r["human_mean_loss"])) for r in ladder]
ours = [(int(r["elo"]), float(r["mean_loss"])) for r in ladder]
sf_own = []
for r in sf:
    e, b = int(r["elo"]), int(r["band"])
    if b <= e < b + 200:
        sf_own.append((e, float(r["mean_loss"])))
sf_own.sort()

W, H, L, R, T, B = 720, 440, 70, 170, 40, 60
x0, x1, y0, y1 = 800, 2400, 0, 110
X = lambda e: L + (e - x0) / (x1 - x0) * (W - L - R)
Y = lambda v: H - B - (v - y0) / (y1 - y0) * (H - T - B)
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{W/2 - 60}" y="22" font-size="15">Mean cp loss per move vs rating (FICS blitz positions)</text>']
for e in range(800, 2401, 200):
    out.append(f'<line x1="{X(e)}" y1="{Y(y0)}" x2="{X(e)}" y2="{Y(y1)}" stroke="#eee"/>')
    out.append(f'<text x="{X(e) - 14}" y="{H - B + 18}">{e}</text>')
for v in range(0, 111, 20):
    out.append(f'<line x1="{L}" y1="{Y(v)}" x2="{W - R}" y2="{Y(v)}" stroke="#eee"/>')
    out.append(f'<text x="{L - 28}" y="{Y(v) + 4}">{v}</text>')
out.append(f'<text x="{W/2 - 80}" y="{H - 15}">rating / UCI_Elo (human scale)</text>')
out.append(f'<text x="14" y="{H/2 + 40}" transform="rotate(-90 14 {H/2 + 40})">mean capped cp loss</text>')
for pts, colour, label, dash in [(humans, "#222", "humans (band middle)", ""), (ours, "#1f77b4", "sparring ladder v7", ""),
                                 (sf_own, "#d62728", "Stockfish 15.1 UCI_Elo", "6,4")]:
    path = " ".join(f"{X(e):.1f},{Y(v):.1f}" for e, v in pts)
    out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
    for e, v in pts:
        out.append(f'<circle cx="{X(e):.1f}" cy="{Y(v):.1f}" r="3.5" fill="{colour}"/>')
for i, (colour, label) in enumerate([("#222", "humans (band middle)"), ("#1f77b4", "sparring ladder v7"), ("#d62728", "Stockfish UCI_Elo")]):
    out.append(f'<rect x="{W - R + 15}" y="{T + 20 + 22 * i}" width="14" height="4" fill="{colour}"/>')
    out.append(f'<text x="{W - R + 35}" y="{T + 26 + 22 * i}">{label}</text>')
out.append("</svg>")
open("bench/results/humanlike-ladder-loss.svg", "w").write("\n".join(out))
