#!/usr/bin/env python3
# Standard library only.
"""Estimates of `sparring strength --format csv` by the sides' real rating band: mean estimate,
mean rating, MAE, 90 % coverage and the correlation of estimate and rating.
Usage: python3 bench/estimate/by_band.py SIDES.csv [RUN.log]"""
import csv
import math
import statistics as st
import sys

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["rating"] and r["strength_elo"]]
pairs = [(float(r["strength_elo"]), float(r["rating"]), float(r["lo90"]), float(r["hi90"])) for r in rows]
print(f"# Estimates by rating band: `{sys.argv[1]}`\n")
if len(sys.argv) > 2:
    warn = [l.strip() for l in open(sys.argv[2]) if "warning" in l]
    for w in warn:
        print(f"> {w}\n")
print("| band | sides | mean rating | mean estimate | MAE | 90 % coverage |\n|---|---|---|---|---|---|")
bands = {}
for p in pairs:
    bands.setdefault(int(p[1] // 200 * 200), []).append(p)
for b in sorted(bands):
    ps = bands[b]
    print(f"| {b}-{b + 199} | {len(ps)} | {st.mean(p[1] for p in ps):.0f} | {st.mean(p[0] for p in ps):.0f} | "
          f"{st.mean(abs(p[0] - p[1]) for p in ps):.0f} | {100 * st.mean(p[2] <= p[1] <= p[3] for p in ps):.1f} % |")
if len(pairs) > 2:
    ma, mb = st.mean(p[0] for p in pairs), st.mean(p[1] for p in pairs)
    cov = sum((p[0] - ma) * (p[1] - mb) for p in pairs)
    r = cov / math.sqrt(sum((p[0] - ma) ** 2 for p in pairs) * sum((p[1] - mb) ** 2 for p in pairs))
    base = st.mean(abs(mb - p[1]) for p in pairs)
    print(f"\n{len(pairs)} sides; correlation of estimate and rating {r:.3f}; MAE {st.mean(abs(p[0] - p[1]) for p in pairs):.0f} "
          f"against {base:.0f} for always answering this file's mean rating {mb:.0f}.")
