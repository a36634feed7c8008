"""What the game model's features can give: held-out MAE of a ridge on each feature group and of
gradient-boosted trees on all of them, on the fit / validation / test parts that
`sparring strength train` uses (the features CSV of `train --features-out`).

    bench/py.sh bench/estimate/feature_check.py FEATURES.csv > feature-check.md

Needs numpy and scikit-learn (bench/requirements.txt). The ridge penalty and the trees' size are
chosen on the validation part; the test part is reported only.
"""
import csv
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge

GAME = ("result", "white", "ln_game_plies")
GROUPS = [
    ("all features", lambda n: True),
    ("the side's own features only", lambda n: not n.startswith("opp.")),
    ("human model: log-likelihood at six ratings", lambda n: "human_ll" in n),
    ("human model: every feature", lambda n: "human" in n),
    ("losses only (no human model, no game features)", lambda n: "human" not in n and n not in GAME),
    ("everything but the human model", lambda n: "human" not in n),
    ("all but the difficulty features", lambda n: not any(k in n for k in ("human_mle", "human_entropy", "human_best_ll", "ase_easy", "ase_hard"))),
]


def load(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    names = rows[0][4:]
    part = np.array([r[1] for r in rows[1:]])
    y = np.array([float(r[3]) for r in rows[1:]])
    x = np.array([[float(v) if v else np.nan for v in r[4:]] for r in rows[1:]])
    return names, part, y, x


def ridge(x, y, fit, val, test):
    mu, sd = np.nanmean(x[fit], 0), np.nanstd(x[fit], 0)
    sd[sd < 1e-9] = 1.0
    z = np.nan_to_num((x - mu) / sd)
    best = None
    for alpha in (0.1, 1, 10, 100, 1000):
        m = Ridge(alpha=alpha).fit(z[fit], y[fit])
        v = np.abs(m.predict(z[val]) - y[val]).mean()
        if best is None or v < best[0]:
            best = (v, np.abs(m.predict(z[test]) - y[test]).mean(), alpha)
    return best


def trees(x, y, fit, val, test):
    best = None
    for leaves in (7, 15, 31):
        for loss in ("squared_error", "absolute_error"):
            g = HistGradientBoostingRegressor(learning_rate=0.05, max_iter=400, max_leaf_nodes=leaves,
                                              min_samples_leaf=40, l2_regularization=1.0, loss=loss,
                                              random_state=1)
            g.fit(x[fit], y[fit])
            v = np.abs(g.predict(x[val]) - y[val]).mean()
            if best is None or v < best[0]:
                best = (v, np.abs(g.predict(x[test]) - y[test]).mean(), f"{leaves} leaves, {loss}")
    return best


def main():
    names, part, y, x = load(sys.argv[1])
    fit, val, test = part == "fit", part == "validation", part == "test"
    base = np.abs(y[test] - y[fit].mean()).mean()
    print("# What the game model's features can give (held-out FICS blitz)\n")
    print(f"Sides: {fit.sum()} fit, {val.sum()} validation, {test.sum()} test. Test MAE of always answering "
          f"the fit part's mean: {base:.1f}. Settings chosen on the validation part.\n")
    print("| model | features | validation MAE | test MAE | vs baseline |")
    print("|---|---|---|---|---|")
    for label, keep in GROUPS:
        cols = [i for i, n in enumerate(names) if keep(n)]
        v, t, alpha = ridge(x[:, cols], y, fit, val, test)
        print(f"| ridge (α {alpha}) on {label} | {len(cols)} | {v:.1f} | {t:.1f} | {100 * (t / base - 1):+.1f} % |")
    v, t, how = trees(x, y, fit, val, test)
    print(f"| gradient-boosted trees ({how}) on all features | {len(names)} | {v:.1f} | {t:.1f} | "
          f"{100 * (t / base - 1):+.1f} % |")


if __name__ == "__main__":
    main()
