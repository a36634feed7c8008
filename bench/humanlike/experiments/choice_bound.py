#!/usr/bin/env python3
"""What a ladder point's choice could reach with the human move model (issue 22, session 41).

Reads `sparring calibrate model-check --moves-out` files (each decision's per-move view: both
searches' scores against the best, slip gates, ln P_human, the oracle's losses, the human's move)
and computes exact expectations as `model check` does (`tools/src/calibrate/model_fit.rs`,
`branch_probabilities`):

  bound  — per point, the highest expected match of the choice family exp(λ·v + β·ln P_human)
           (no slips) over a grid of λ, β and the deeper look, on the given decisions themselves,
           ignoring the loss targets: an optimistic upper bound of the family;
  tempt  — a slip rule whose chance in a position is min(1, k·(P_gate / P_top)^γ) (P_gate: the
           model's most likely gated move, P_top: its most likely move) instead of a flat rate,
           searched on FIT decisions for the best match with the mean loss within ±8 % of the
           humans' curve and KS ≤ 0.06 by both oracles, then reported on TEST decisions.

Usage:
  bench/py.sh bench/humanlike/experiments/choice_bound.py bound MOVES.jsonl [MORE.jsonl ...]
  bench/py.sh bench/humanlike/experiments/choice_bound.py tempt FIT.jsonl FIT_CHECK.csv TEST.jsonl TEST_CHECK.csv ELO
(FIT_CHECK/TEST_CHECK: `model check --out` of the same runs, for the curve's mean loss.)
The point's own settings are read from profiles/ladder.toml.
"""
import csv
import json
import math
import sys
import tomllib

import numpy as np


def load(paths):
    by = {}
    for path in paths:
        for line in open(path):
            d = json.loads(line)
            by.setdefault((d["oracle"], d["elo"]), []).append(d)
    return by


def ladder_settings(path="profiles/ladder.toml"):
    pts = {}
    for p in tomllib.load(open(path, "rb"))["point"]:
        pts[p["elo"]] = (p.get("lambda", 1.0), p.get("beta", 0.0), p.get("slip_p", 0.0), p.get("deep_p", 0.0))
    return pts


def branch_probs(b, logp, lam, beta, slip, tempt=None):
    if b["decided"] is not None:
        lam, beta = b["decided"], 0.0
    logits = np.array([-np.inf if x is None else lam * x + beta * lp for x, lp in zip(b["delta"], logp)])
    w = np.where(np.isfinite(logits), np.exp(logits - logits.max()), 0.0)
    p = w / w.sum()
    gate = b["gate"]
    if gate and (slip > 0 or tempt is not None):
        lg = np.array([beta * logp[i] for i in gate])
        wg = np.exp(lg - lg.max())
        wg /= wg.sum()
        s = slip
        if tempt is not None:
            k, gam = tempt
            alive = [lp for x, lp in zip(b["delta"], logp) if x is not None] or logp
            s = min(1.0, k * math.exp(gam * (max(logp[i] for i in gate) - max(alive))))
        p = p * (1 - s)
        for i, wi in zip(gate, wg):
            p[i] += s * wi
    return p


def probs(d, st, tempt=None):
    lam, beta, slip, deep_p = st
    shallow = lambda: branch_probs(d["shallow"], d["logp"], lam, beta, slip, tempt)
    if d["deep"] is not None and deep_p >= 1:
        return branch_probs(d["deep"], d["logp"], lam, beta, slip, tempt)
    if d["deep"] is not None and deep_p > 0:
        return (1 - deep_p) * shallow() + deep_p * branch_probs(d["deep"], d["logp"], lam, beta, slip, tempt)
    return shallow()


def expected(ds, st, tempt=None):
    n, mean, match = len(ds), 0.0, 0.0
    ours, theirs = np.zeros(2001), np.zeros(2001)
    for d in ds:
        p = probs(d, st, tempt)
        loss = np.array(d["loss"])
        mean += (p * loss).sum()
        match += p[d["human"]]
        np.add.at(ours, np.clip(loss, 0, 2000), p)
        theirs[min(max(d["human_loss"], 0), 2000)] += 1
    ks = np.abs(np.cumsum(ours - theirs) / n).max()
    return mean / n, ks, match / n


def bound(paths):
    by, pts = load(paths), ladder_settings()
    for (oracle, elo), ds in sorted(by.items()):
        if oracle != "internal" or elo not in pts:
            continue
        now = expected(ds, pts[elo])
        best = max(
            (expected(ds, (lam, beta, 0.0, dp))[2], lam, beta, dp)
            for dp in (0.0, 1.0)
            for lam in (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)
            for beta in (5.0, 10.0, 20.0, 100.0)
        )
        print(f"point {elo}: {len(ds)} decisions; as built {100 * now[2]:.1f} %; "
              f"family's best {100 * best[0]:.1f} % (λ {best[1]}, β {best[2]}, deeper look {best[3]})")


def tempt(fit_path, fit_check, test_path, test_check, elo):
    pts = ladder_settings()
    lam0, beta0, slip0, dp = pts[elo]
    parts = {"fit": (load([fit_path]), fit_check), "test": (load([test_path]), test_check)}
    curve = {}
    for part, (_, path) in parts.items():
        for r in csv.DictReader(open(path)):
            curve[(part, r["oracle"], int(r["elo"]))] = float(r["curve_mean_loss"])

    def ev(part, st, t):
        by = parts[part][0]
        out = {}
        for o in ("internal", "sf15"):
            m, ks, mt = expected(by[(o, elo)], st, t)
            c = curve[(part, o, elo)]
            out[o] = (100 * (m - c) / c, ks, mt)
        return out

    def show(tag, st, t):
        for part in ("fit", "test"):
            r = ev(part, st, t)
            print(f"{tag:34s} {part:4s} " + "  ".join(
                f"{o}: loss {e:+5.1f} % KS {k:.3f} match {100 * m:.1f}" for o, (e, k, m) in r.items()))

    show(f"point {elo} as built", pts[elo], None)
    best = None
    for lam in (0.25, 0.5, 1.0, 2.0):
        for beta in (6.0, 20.0):
            for k in (0.05, 0.1, 0.2, 0.4, 0.8):
                for gam in (0.0, 0.5, 1.0, 2.0):
                    r = ev("fit", (lam, beta, 0.0, dp), (k, gam))
                    (e1, k1, m1), (e2, k2, _) = r["internal"], r["sf15"]
                    if abs(e1) <= 8 and abs(e2) <= 8 and k1 <= 0.06 and k2 <= 0.06 and (best is None or m1 > best[0]):
                        best = (m1, lam, beta, k, gam)
    if best is None:
        print("no tempted setting inside the limits on the fit part")
        return
    _, lam, beta, k, gam = best
    show(f"tempted λ {lam} β {beta} k {k} γ {gam}", (lam, beta, 0.0, dp), (k, gam))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "bound":
        bound(sys.argv[2:])
    elif len(sys.argv) == 7 and sys.argv[1] == "tempt":
        tempt(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        sys.exit(__doc__)
