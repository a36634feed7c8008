#!/usr/bin/env python3
"""Are the game model's human-model features honest on its own fit part? (issue 25, session 41)

The human move model that scores the moves (its log-likelihood at six ratings, its maximum-
likelihood rating, ...) was trained on the FICS fit part, the same games the game model is fitted
on; there its features are in-sample (sharper than on games it never saw), so the ridge learns a
relation that the test part does not follow. This compares, on the same test part (games i % 10 in
8-9, never fitted by either model):

  - the shipped recipe: features of the model trained on every fit game, ridge on every fit game;
  - the same features, ridge on the validation part only (2460 sides the human model never saw);
  - a human model trained on a share of the fit games (`model train --fit-share S`), ridge
    on the fit games outside that share (never seen by it), alpha chosen on the validation part.

Usage: bench/py.sh bench/estimate/experiments/unseen_features.py FULL.csv SHARE.csv S
(FEATURES CSVs of `sparring strength train --features-out`, FULL with the shipped human model,
SHARE with the share-trained one.)
"""
import sys

import numpy as np

sys.path.insert(0, "bench/estimate")
import feature_check  # noqa: E402
from feature_check import load  # noqa: E402


def game_index(path):
    import csv
    with open(path) as f:
        rows = list(csv.reader(f))
    return np.array([int(r[0]) - 1 for r in rows[1:]])


def in_share(i, share):
    return ((i % 10) <= 6) & (((i // 10) % 100) < share)


def ridge(x, y, fit, val, test, base):
    v, t, a = feature_check.ridge(x, y, fit, val, test)
    return f"validation {v:.1f}, test {t:.1f} ({100 * (t / base - 1):+.1f} %), alpha {a}, {fit.sum()} fitted sides"


def main(full_path, share_path, share):
    out = []
    for tag, path in (("shipped model's features", full_path), (f"{share} %-share model's features", share_path)):
        names, part, y, x = load(path)
        i = game_index(path)
        fit, val, test = part == "fit", part == "validation", part == "test"
        base = np.abs(y[test] - y[fit].mean()).mean()
        mle = names.index("own.human_mle")
        for p, m in (("fit (in share)", fit & in_share(i, share)), ("fit (outside)", fit & ~in_share(i, share)),
                     ("validation", val), ("test", test)):
            ok = m & ~np.isnan(x[:, mle])
            out.append(f"{tag}: {p}: {m.sum()} sides, corr(own.human_mle, rating) {np.corrcoef(x[ok, mle], y[ok])[0, 1]:.3f}")
        out.append(f"{tag}: ridge on every fit side: {ridge(x, y, fit, val, test, base)}")
        out.append(f"{tag}: ridge on the fit sides outside the share: {ridge(x, y, fit & ~in_share(i, share), val, test, base)}")
        out.append(f"{tag}: ridge on the validation part: {ridge(x, y, val, val, test, base)}")
        out.append(f"{tag}: baseline (fit part's mean) test MAE {base:.1f}")
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
