#!/usr/bin/env python3
# Standard library only.
"""The per-player error floor of a game model (issue 63; method of
bench/results/estimate-game/rolling-floor.md): under the model's own spread (a side's score has sd
c per game around a + b·(R − m), and one player's residuals correlate with rho), the mean score of
n games has sd c·sqrt(rho + (1 − rho)/n), i.e. c·sqrt(...)/b Elo; combined with the population's
spread (sd tau) the best Gaussian estimate has sd 1/sqrt(1/sd_n² + 1/tau²) and MAE 0.798 times it.
With n → ∞ what is left is the floor no number of games removes.
Usage: python3 bench/estimate/floor.py MODEL.json [MODEL.json ...]  -> a markdown table"""
import json
import math
import sys

print("| model | ρ | per-game sd / slope (Elo) | " + " | ".join(f"{n} games" for n in (1, 2, 5, 10, 20)) + " | ∞ (floor) |")
print("|---|---|---|" + "---|" * 6)
for path in sys.argv[1:]:
    m = json.load(open(path))
    s, tau = m["spread"], m["population"]["sd"]
    rho, per = s["rho"], s["c"] / s["b"]
    cells = []
    for n in (1, 2, 5, 10, 20, math.inf):
        sd_n = per * math.sqrt(rho + ((1 - rho) / n if n != math.inf else 0.0))
        post = 1.0 / math.sqrt(1.0 / sd_n ** 2 + 1.0 / tau ** 2)
        cells.append(f"{0.798 * post:.0f}")
    print(f"| `{path}` | {rho:.3f} | {per:.0f} | " + " | ".join(cells) + " |")
