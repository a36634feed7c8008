#!/usr/bin/env python3
# Needs bench/.venv (numpy, scikit-learn: bench/requirements.txt); run with bench/py.sh.
"""Issue 25 experiment (session 36): can the estimate stage or the end of the game close the last
gap to the -15 % target (test MAE <= 170.2 against the mean-rating baseline's 200.2)?

Reads the per-side features of `sparring strength train --features-out FEATURES.csv` (game, part,
player, rating, features; parts fit 0-6, validation 7, test 8-9 by game index) and the per-ply
analysis chunks (target/estimate/plies-d6-*.csv, from bench/estimate/game-model.sh), and reports the
test MAE of:
1. the shipped model's two stages emulated: ridge score, its spread given the rating fitted on the
   validation part, then the estimate from the posterior on a 5-Elo grid under the population's
   normal prior (shipped) or the fit part's smoothed rating histogram, as its mean (shipped) or
   median (which minimises the absolute error);
2. the same for gradient-boosted trees and for a ridge/trees blend whose weight is chosen on the
   validation part;
3. ridge with end-of-game features per side (own and opponent's): plies played while lost (< -300 cp)
   or won (> +300), the best and worst value reached, the last value, whether the game ended in
   mate, plies in balanced positions; and those crossed with the result.
Every setting is chosen on the validation part; the test part is only reported.

Usage: bench/py.sh bench/estimate/experiments/stage_and_game_end.py FEATURES.csv FICS.pgn PLIES.csv...
Session 36: baseline 200.2; ridge 172.6 raw, 171.6 as estimated (posterior mean, normal prior), 171.4
with the histogram prior and the median; trees 173.1; blend (0.6 ridge) 170.9 (-14.6 %); end-of-game
features 172.4-172.3 raw (ridge 172.6). None reaches 170.2.
"""
import csv
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge

GRID = np.arange(0, 3200, 5.0)


def load(path):
    rows = list(csv.reader(open(path)))
    names = rows[0][4:]
    part = np.array([r[1] for r in rows[1:]])
    y = np.array([float(r[3]) for r in rows[1:]])
    x = np.array([[float(v) if v else np.nan for v in r[4:]] for r in rows[1:]])
    game = np.array([int(r[0]) for r in rows[1:]])
    return names, part, y, x, game


def standardise(x, fit):
    mu, sd = np.nanmean(x[fit], 0), np.nanstd(x[fit], 0)
    sd[sd < 1e-9] = 1.0
    return np.nan_to_num((x - mu) / sd)


class Stage:
    """The estimate stage: the score's spread given R (validation part), then a posterior on GRID."""

    def __init__(self, y, fit, val):
        self.y, self.fit, self.val = y, fit, val
        self.m, self.tau = y[fit].mean(), y[fit].std()
        hist = np.histogram(y[fit], bins=np.append(GRID - 2.5, GRID[-1] + 2.5))[0].astype(float)
        k = np.exp(-0.5 * (np.arange(-20, 21) * 5 / 40.0) ** 2)
        self.hist = np.convolve(hist, k / k.sum(), "same") + 1e-3

    def estimates(self, s, rows, prior, how):
        y, val, m = self.y, self.val, self.m
        d = y[val] - m
        b, a = np.polyfit(d, s[val], 1)
        dd, c = np.polyfit(d, np.abs(s[val] - a - b * d) * np.sqrt(np.pi / 2), 1)
        g = GRID - m
        mu, sd = a + b * g, np.maximum(c + dd * g, 30.0)
        ll = -0.5 * ((s[rows][:, None] - mu) / sd) ** 2 - np.log(sd)
        ll += -0.5 * (g / self.tau) ** 2 if prior == "normal" else np.log(self.hist)
        ll -= ll.max(1, keepdims=True)
        p = np.exp(ll)
        p /= p.sum(1, keepdims=True)
        if how == "mean":
            return p @ GRID
        return GRID[(np.cumsum(p, 1) < 0.5).sum(1)]


def end_features(plies_paths, pgn, game, white):
    traj = {}
    for path in plies_paths:
        for r in csv.DictReader(open(path)):
            try:
                v = float(r["value"])
            except ValueError:
                continue
            traj.setdefault((int(r["game"]), r["color"]), []).append((int(r["ply"]), max(-1000.0, min(1000.0, v))))
    mates, text, i = {}, [], -1
    for line in open(pgn, encoding="utf-8", errors="replace"):
        if line.startswith("[Event"):
            if i >= 0:
                mates[i] = "#" in " ".join(text)[-40:]
            i, text = i + 1, []
        elif not line.startswith("["):
            text.append(line.strip())
    mates[i] = "#" in " ".join(text)[-40:]

    def side(g, w):
        t = np.array([v for _, v in sorted(traj.get((g, "white" if w else "black"), []))])
        if len(t) == 0:
            return [0.0] * 8
        # Game numbers are 1-based, the PGN's game index 0-based.
        return [np.log1p((t < -300).sum()), np.log1p((t > 300).sum()), t.max() / 1000, t.min() / 1000, t[-1] / 1000,
                float(mates.get(g - 1, False)), np.log1p((np.abs(t) < 100).sum()),
                np.log1p(((t > -300) & (t < 300)).sum())]

    own = np.array([side(g, w) for g, w in zip(game, white)])
    opp = np.array([side(g, 1 - w) for g, w in zip(game, white)])
    return own, opp


def main():
    names, part, y, x, game = load(sys.argv[1])
    fit, val, test = part == "fit", part == "validation", part == "test"
    base = np.abs(y[test] - y[fit].mean()).mean()
    print(f"baseline (fit part's mean): test MAE {base:.1f}; target {0.85 * base:.1f}")
    z = standardise(x, fit)
    stage = Stage(y, fit, val)
    ridge = Ridge(alpha=0.001 * fit.sum()).fit(z[fit], y[fit]).predict(z)
    trees = HistGradientBoostingRegressor(learning_rate=0.05, max_iter=400, max_leaf_nodes=7, min_samples_leaf=40,
                                          l2_regularization=1.0, random_state=1).fit(x[fit], y[fit]).predict(x)
    blends = [(np.abs(w * ridge[val] + (1 - w) * trees[val] - y[val]).mean(), w) for w in np.arange(0, 1.01, 0.1)]
    w = min(blends)[1]
    for label, s in [("ridge", ridge), ("trees", trees), (f"blend {w:.1f} ridge", w * ridge + (1 - w) * trees)]:
        cells = [f"raw {np.abs(s[test] - y[test]).mean():.1f}"]
        for prior in ("normal", "histogram"):
            for how in ("mean", "median"):
                e = stage.estimates(s, test, prior, how)
                cells.append(f"{prior}/{how} {np.abs(e - y[test]).mean():.1f}")
        print(f"{label}: test MAE " + ", ".join(cells))
    own, opp = end_features(sys.argv[3:], sys.argv[2], game, x[:, names.index("white")])
    result = x[:, [names.index("result")]]
    for label, extra in [("+ own end-of-game", own), ("+ own and opponent's", np.hstack([own, opp])),
                         ("+ both, crossed with the result", np.hstack([own, opp, own * result]))]:
        zz = standardise(np.hstack([x, extra]), fit)
        best = min((np.abs(Ridge(alpha=a).fit(zz[fit], y[fit]).predict(zz[val]) - y[val]).mean(), a)
                   for a in (1, 10, 17, 50, 100))
        t = np.abs(Ridge(alpha=best[1]).fit(zz[fit], y[fit]).predict(zz[test]) - y[test]).mean()
        print(f"ridge {label}: validation {best[0]:.1f}, test MAE raw {t:.1f} (alpha {best[1]})")


if __name__ == "__main__":
    main()
