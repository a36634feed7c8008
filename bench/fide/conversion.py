#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""UCI_Elo against FIDE-rated players by move quality (issue 23, item 2).

Inputs, all from bench/fide/run.sh:
- DECISIONS.csv: `sparring calibrate model-check --decisions-out` with every ladder point on every
  FIDE band's positions (each point's exact expected loss per position, the player's own loss);
- CONTROLS.csv: `sparring clock controls` (each game's blitz/rapid category);
- CURVES_DIR: `sparring calibrate curve` of the players, `fide-curve.csv` (all games) and
  `fide-curve-blitz.csv` / `fide-curve-rapid.csv` (each category's games only).

The conversion is read off the players' smooth curve, as the ladder's own targets are: a point errs
like FIDE-rated players of rating X where its mean loss on the positions of players rated about X
(linear between the bands' mean ratings) equals the curve at X. The interval is where the point's
loss meets the curve widened by two errors in quadrature: the curve's own 95 % half-width (game
bootstrap of the players) and the point's sampling error on those positions, taken as the
half-width of the players' raw band mean there (on the safe side: the point's expectation has no
draw in it, only the positions' sampling).

Per band it also prints the players' raw mean and the UCI_Elo whose loss on the same positions
equals it (the points' losses made non-increasing in Elo, interpolated linearly).

Writes CURVES_DIR/conversion.csv: population, uci_elo, fide_equivalent, lower95, upper95 ("<1000"
or ">2800" where the point errs more than the curve's weakest or less than its strongest players).

Usage: bench/fide/conversion.py DECISIONS.csv CONTROLS.csv CURVES_DIR
"""
import csv
import math
import os
import sys
from collections import defaultdict

decisions_csv, controls_csv, curves_dir = sys.argv[1], sys.argv[2], sys.argv[3]

category = {}
for r in csv.DictReader(open(controls_csv)):
    category[int(r["game"])] = r["category"]

# population -> band -> elo -> [expected loss]; population -> band -> elo -> [player's loss]
ours = {p: defaultdict(lambda: defaultdict(list)) for p in ("all", "blitz", "rapid")}
theirs = {p: defaultdict(lambda: defaultdict(list)) for p in ("all", "blitz", "rapid")}
for r in csv.DictReader(open(decisions_csv)):
    band, elo = int(r["band"]), int(r["elo"])
    for pop in ("all", category.get(int(r["game"]), "")):
        if pop in ours:
            ours[pop][band][elo].append(float(r["expected_loss"]))
            theirs[pop][band][elo].append(float(r["human_loss"]))


def mean(xs):
    return sum(xs) / len(xs)


def interp(pts, x):
    """Linear through (x, y) points sorted by x, flat beyond the ends."""
    if x <= pts[0][0]:
        return pts[0][1]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            return y0 + (x - x0) / (x1 - x0) * (y1 - y0)
    return pts[-1][1]


def read_curve(path):
    """The curve on its grid: (rating, mean, mean less its combined error, mean plus it), and the
    bands' mean ratings and raw figures."""
    grid, bands = [], {}
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        if r["kind"] == "band":
            bands[int(r["band_or_elo"])] = (float(r["rating"]), float(r["raw_mean"]), float(r["raw_lo"]),
                                            float(r["raw_hi"]), int(r["positions"]))
    raw_hw = sorted((b[0], (b[3] - b[2]) / 2) for b in bands.values())
    for r in rows:
        if r["kind"] == "point":
            x, m = float(r["band_or_elo"]), float(r["curve_mean"])
            lo, hi = float(r["curve_lo"]), float(r["curve_hi"])
            grid.append((x, m, m - math.hypot(m - lo, interp(raw_hw, x)), m + math.hypot(hi - m, interp(raw_hw, x))))
    grid.sort()
    return grid, bands


def crossing(grid, loss_at, col):
    """The lowest rating where the curve's column col (1 mean, 2 lower, 3 upper) falls to the
    point's loss there; None when it is already below at the grid's start, inf when never."""
    prev = None
    for g in grid:
        d = g[col] - loss_at(g[0])
        if d <= 0:
            if prev is None:
                return None
            x0, d0 = prev
            return x0 + d0 / (d0 - d) * (g[0] - x0)
        prev = (g[0], d)
    return float("inf")


def equivalent_by_band(points, target):
    """UCI_Elo at which the points' (made non-increasing) loss reaches `target`; flag when outside."""
    elos = sorted(points)
    ys = [points[e] for e in elos]
    for i in range(1, len(ys)):
        ys[i] = min(ys[i], ys[i - 1])
    if target >= ys[0]:
        return float(elos[0]), target > ys[0]
    if target <= ys[-1]:
        return float(elos[-1]), target < ys[-1]
    for i in range(1, len(ys)):
        if ys[i] <= target <= ys[i - 1]:
            if ys[i - 1] == ys[i]:
                return float(elos[i]), False
            return elos[i - 1] + (ys[i - 1] - target) / (ys[i - 1] - ys[i]) * (elos[i] - elos[i - 1]), False
    return float(elos[-1]), True


out_rows = []
for pop, name in (("all", "fide-curve.csv"), ("blitz", "fide-curve-blitz.csv"), ("rapid", "fide-curve-rapid.csv")):
    path = os.path.join(curves_dir, name)
    if not os.path.exists(path) or not ours[pop]:
        print(f"{pop}: no curve ({path}) or no decisions; skipped\n")
        continue
    grid, bands = read_curve(path)
    lo_x, hi_x = grid[0][0], grid[-1][0]

    def fmt(x):
        if x is None:
            return f"<{lo_x:.0f}"
        if x == float("inf"):
            return f">{hi_x:.0f}"
        return f"{x:.0f}"

    label = {"all": "online blitz and rapid", "blitz": "online blitz (3+2)", "rapid": "online rapid (10+3 to 25+10)"}[pop]
    print(f"== FIDE-rated players, {label}")
    print("band       FIDE   positions  players' loss [95 %]   curve   UCI_Elo erring alike")
    for band in sorted(ours[pop]):
        pts = {e: mean(v) for e, v in ours[pop][band].items()}
        h = mean(next(iter(theirs[pop][band].values())))
        eq, out = equivalent_by_band(pts, h)
        if band in bands:
            rating, raw, rlo, rhi, n = bands[band]
            c = interp([(g[0], g[1]) for g in grid], rating)
            print(f"{band}-{band + 199}  {rating:5.0f}  {n:9}  {raw:5.1f} [{rlo:5.1f}, {rhi:5.1f}]  {c:6.1f}   "
                  f"{eq:5.0f}{' (beyond the ladder)' if out else ''}")
    print(f"\nUCI_Elo  errs like FIDE-rated players ({label}) of about [95 %]")
    for elo in sorted({e for b in ours[pop].values() for e in b}):
        per_band = sorted((bands[b][0], mean(v[elo])) for b, v in ours[pop].items() if b in bands and elo in v)

        def loss_at(x, per_band=per_band):
            return interp(per_band, x)

        eq, lo, hi = (crossing(grid, loss_at, c) for c in (1, 2, 3))
        print(f"{elo:7}  {fmt(eq):>6} [{fmt(lo)}, {fmt(hi)}]")
        out_rows.append((pop, elo, fmt(eq), fmt(lo), fmt(hi)))
    print()

with open(os.path.join(curves_dir, "conversion.csv"), "w") as f:
    f.write("population,uci_elo,fide_equivalent,lower95,upper95\n")
    for r in out_rows:
        f.write(",".join(str(v) for v in r) + "\n")
