#!/usr/bin/env python3
# Needs bench/.venv (numpy, scikit-learn, python-chess: bench/requirements.txt); run with bench/py.sh.
"""Issue 25 experiment (session 33): do other model families or features beat the game model's ridge?

Reads the per-side features that `sparring strength train --features-out FEATURES.csv` writes (game,
part, player, rating, then every feature; parts by game index as the shipped model's: fit 0-6,
validation 7, test 8-9) and compares, on the test part, the MAE of:
- ridge on the features (the shipped model's family; its own fit adds the spread and intervals),
- gradient boosting (HistGradientBoostingRegressor, squared and absolute loss),
- ridge with result x features, and a degree-2 polynomial ridge,
- ridge with opening-book depth: how many of a side's first moves (up to ply 30) reach positions that
  other fit-part FICS games reached (>= 3 times) or that FIDE-rated players' games reached (>= 2).
Each family's regularisation is chosen on the validation part. No rating tags enter as inputs.

Usage: bench/py.sh bench/estimate/experiments/model_families.py FEATURES.csv FICS.pgn FIDE.pgn
Session 33 (features of the shipped model, depth-6 internal oracle): ridge 172.6, boosting
174.8-177.0, x result 172.0, poly2 174.8, + book depth 172.2-172.4 against the baseline 200.2.
"""
import collections
import csv
import re
import sys

import chess
import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

MAX_PLY = 30


def pgn_games(path):
    """(headers, movetext) of every game, read line by line."""
    head, text = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        if line.startswith("["):
            if text:
                yield head, " ".join(text)
                head, text = {}, []
            m = re.match(r'\[(\w+) "(.*)"\]', line)
            if m:
                head[m.group(1)] = m.group(2)
        elif line.strip():
            text.append(line.strip())
    if text:
        yield head, " ".join(text)


def opening_keys(text):
    """EPD of the position after each of the first MAX_PLY moves."""
    board, out = chess.Board(), []
    for token in re.sub(r"\{[^}]*\}", " ", text).split():
        if len(out) >= MAX_PLY:
            break
        token = re.sub(r"^\d+\.+", "", token)
        if not token or token in ("1-0", "0-1", "1/2-1/2", "*") or token.startswith("$"):
            continue
        try:
            board.push_san(token)
        except ValueError:
            break
        out.append(board.epd())
    return out


def book_features(fics_path, fide_path):
    """{(game number, white): [fics book depth, fide book depth, share of moves in the fide book]}"""
    fics = [opening_keys(t) for _, t in pgn_games(fics_path)]
    fide = collections.Counter()
    for _, t in pgn_games(fide_path):
        fide.update(set(opening_keys(t)))
    fit = collections.Counter()
    for i, keys in enumerate(fics):
        if i % 10 <= 6:
            fit.update(set(keys))
    out = {}
    for i, keys in enumerate(fics):
        for white in (1, 0):
            own = [k for p, k in enumerate(keys) if (p % 2 == 0) == bool(white)]
            def depth(counter, least, minus):
                d = 0
                for k in own:
                    if counter[k] - minus < least:
                        break
                    d += 1
                return d
            frac = sum(fide[k] >= 2 for k in own) / max(1, len(own))
            out[(i + 1, white)] = [depth(fit, 3, 1 if i % 10 <= 6 else 0), depth(fide, 2, 0), frac]
    return out


def main(features_csv, fics_pgn, fide_pgn):
    rows = list(csv.reader(open(features_csv)))
    names, rows = rows[0][4:], rows[1:]
    part = np.array([r[1] for r in rows])
    y = np.array([float(r[3]) for r in rows])
    x = np.array([[float(c) for c in r[4:]] for r in rows])
    fit, val, test = part == "fit", part == "validation", part == "test"
    base = np.abs(y[test] - y[fit].mean()).mean()
    print(f"{fit.sum()} fit, {val.sum()} validation, {test.sum()} test sides; mean-rating baseline MAE {base:.1f}")

    def report(label, predict_val, predict_test):
        mv, mt = np.abs(predict_val - y[val]).mean(), np.abs(predict_test - y[test]).mean()
        print(f"{label:<34} validation {mv:6.1f}  test {mt:6.1f} ({100 * (mt / base - 1):+.1f} %)")

    def ridge(xa, alphas, label):
        sc = StandardScaler().fit(xa[fit])
        best = min(((np.abs(Ridge(a).fit(sc.transform(xa[fit]), y[fit]).predict(sc.transform(xa[val])) - y[val]).mean(), a)
                    for a in alphas))
        model = Ridge(best[1]).fit(sc.transform(xa[fit]), y[fit])
        report(f"{label} (alpha {best[1]})", model.predict(sc.transform(xa[val])), model.predict(sc.transform(xa[test])))

    ridge(x, [0.1, 1, 10, 100], "ridge")
    for loss in ("squared_error", "absolute_error"):
        for lr, it, leaves in ((0.05, 300, 15), (0.03, 600, 15), (0.02, 1000, 8)):
            g = HistGradientBoostingRegressor(learning_rate=lr, max_iter=it, max_leaf_nodes=leaves, loss=loss,
                                              random_state=0).fit(x[fit], y[fit])
            report(f"boosting {loss} {lr}/{it}/{leaves}", g.predict(x[val]), g.predict(x[test]))
    result = x[:, names.index("result")][:, None]
    ridge(np.hstack([x, result * x]), [1, 10, 100, 300], "ridge, x result")
    poly = PolynomialFeatures(2, include_bias=False).fit_transform(StandardScaler().fit(x[fit]).transform(x))
    ridge(poly, [100, 300, 1000, 3000, 10000], "ridge, degree 2")
    book = book_features(fics_pgn, fide_pgn)
    w = names.index("white")
    own = np.array([book[(int(r[0]), int(float(r[4 + w])))] for r in rows])
    opp = np.array([book[(int(r[0]), 1 - int(float(r[4 + w])))] for r in rows])
    ridge(np.hstack([x, own]), [0.1, 1, 10, 100], "ridge + book (own)")
    ridge(np.hstack([x, own, opp, np.log1p(own), np.log1p(opp)]), [0.1, 1, 10, 100], "ridge + book (both, logs)")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
