#!/usr/bin/env python3
# Standard library only (python3 >= 3.11).
"""The UCI_Elo a frozen profile plays like, from bench/profile-scale.sh's pairings.

For each profile, the pairings <profile>-<elo>.json (the match runner's summaries, the profile as
engine 1) are pooled: the rating R maximises the likelihood of the games' scores under the Elo
formula, E(R, elo) = 1 / (1 + 10^((elo - R) / 400)), a draw counting half (the usual
quasi-likelihood). The 95 % interval resamples the game pairs of every pairing (their pentanomial
counts), 2000 times with a fixed seed. Prints a Markdown page.

Usage: bench/profile_scale.py FOLDER
"""
import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]  # per game, for pentanomial LL, LD, DD+WL, WD, WW


def expected(r, elo):
    return 1.0 / (1.0 + 10 ** ((elo - r) / 400.0))


def fit(pairings):
    """pairings: [(elo, games, score sum)]; the R of maximum likelihood (bisection on the score
    equation: the expected scores sum to the scores made)."""
    made = sum(s for _, _, s in pairings)
    total = sum(n for _, n, _ in pairings)
    if made <= 0 or made >= total:
        return math.nan
    lo, hi = -1000.0, 5000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if sum(n * expected(mid, e) for e, n, _ in pairings) < made:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results/profile-scale")
    by = defaultdict(list)
    for f in sorted(folder.glob("*.json")):
        d = json.loads(f.read_text())
        name, elo = f.stem.rsplit("-", 1)
        by[name].append((int(elo), d))
    rng = random.Random(2026)
    print("# The frozen profiles on the ladder's scale (bench/profile-scale.sh)\n")
    print("Each profile against ladder points of the built-in ladder (paired openings, `-srand 7`, each")
    print("side's own node budget); the UCI_Elo it plays like is the maximum-likelihood rating over its")
    print("pairings, the interval from 2000 resamples of the game pairs.\n")
    print("| profile | pairing | games | score | W-D-L |")
    print("|---|---|---|---|---|")
    summary = []
    for name, rows in sorted(by.items()):
        pairings, pents = [], []
        for elo, d in sorted(rows, key=lambda x: x[0]):
            r = d["result"]
            n = r["wins"] + r["draws"] + r["losses"]
            pairings.append((elo, n, r["wins"] + 0.5 * r["draws"]))
            pents.append((elo, d["pentanomial"]))
            print(f"| {name} | UCI_Elo {elo} | {n} | {100 * d['score']:.1f} % | {r['wins']}-{r['draws']}-{r['losses']} |")
        est = fit(pairings)
        boots = []
        for _ in range(2000):
            sample = []
            for elo, pent in pents:
                pairs = [k for k, c in enumerate(pent) for _ in range(c)]
                if not pairs:
                    continue
                picked = [pairs[rng.randrange(len(pairs))] for _ in pairs]
                sample.append((elo, 2 * len(picked), sum(2 * PAIR_SCORES[k] for k in picked)))
            b = fit(sample)
            if not math.isnan(b):
                boots.append(b)
        boots.sort()
        lo, hi = boots[int(0.025 * len(boots))], boots[int(0.975 * len(boots)) - 1]
        summary.append((name, est, lo, hi, sum(n for _, n, _ in pairings)))
    print("\n| profile | plays like UCI_Elo | 95 % | games |")
    print("|---|---|---|---|")
    for name, est, lo, hi, n in summary:
        print(f"| {name} | {est:.0f} | [{lo:.0f}, {hi:.0f}] | {n} |")


if __name__ == "__main__":
    main()
