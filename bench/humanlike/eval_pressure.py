#!/usr/bin/env python3
"""How people's per-move loss leans on the position and on the opponent, and whether a ladder point
leans the same way (issue 62: why points that err like their bands per move are closer together in
games than the people of those bands).

Standard library only.

  people: least squares of the human's loss (cp, capped at 1000) on the mover's rating, the
          opponent's rating, the position's evaluation e (mover's view, best move, clamped to ±500)
          and |e|, over an oracle cache's positions; ratings from the PGN headers. 95 % intervals.

      python3 bench/humanlike/eval_pressure.py people --oracle bench/humanlike/oracle.jsonl \
          --pgn ../shared/data/human/fics-blitz-dev.pgn

  point:  a point's exact expected loss against the people's on the same positions, by evaluation
          bucket, from `calibrate model-check --decisions-out` and the oracle cache it was judged by
          (one oracle's rows).

      python3 bench/humanlike/eval_pressure.py point --decisions d.csv --oracle bench/humanlike/oracle.jsonl \
          [--oracle-name internal]
"""

import argparse
import csv
import json
import math
import re

CAP_CP = 1000
EVAL_CLAMP_CP = 500
MATE_CP = 3000
BUCKETS = [(-10**9, -300, "< -300"), (-300, -100, "-300..-100"), (-100, 100, "-100..100"),
           (100, 300, "100..300"), (300, 10**9, "> 300")]


def score(v):
    """An oracle score: centipawns, or '#n' / '#-n' for mates (as ±MATE_CP)."""
    if isinstance(v, int):
        return v
    return -MATE_CP if v.startswith("#-") else MATE_CP


def load_oracle(path):
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            moves = {m: score(s) for m, s in r["moves"]}
            out[(r["game"], r["ply"])] = (r, moves, score(r["moves"][0][1]))
    return out


def pgn_ratings(path):
    """(WhiteElo, BlackElo) per game, in file order (the caches' game index)."""
    games, cur = [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("[Event "):
                if cur:
                    games.append(cur)
                cur = {}
            m = re.match(r'\[(WhiteElo|BlackElo) "(\d+)"\]', line)
            if m:
                cur[m.group(1)] = int(m.group(2))
    if cur:
        games.append(cur)
    return games


def least_squares(xs, ys):
    """Coefficients and their standard errors (normal equations, Gauss-Jordan)."""
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    b = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    inv = [[float(i == j) for j in range(k)] for i in range(k)]
    m = [row[:] for row in a]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p], inv[c], inv[p] = m[p], m[c], inv[p], inv[c]
        d = m[c][c]
        m[c] = [v / d for v in m[c]]
        inv[c] = [v / d for v in inv[c]]
        for r in range(k):
            if r != c and m[r][c] != 0.0:
                f = m[r][c]
                m[r] = [v - f * w for v, w in zip(m[r], m[c])]
                inv[r] = [v - f * w for v, w in zip(inv[r], inv[c])]
    coef = [sum(inv[i][j] * b[j] for j in range(k)) for i in range(k)]
    resid = [y - sum(c * v for c, v in zip(coef, x)) for x, y in zip(xs, ys)]
    s2 = sum(r * r for r in resid) / (len(ys) - k)
    return coef, [math.sqrt(s2 * inv[i][i]) for i in range(k)]


def human_loss(moves, best, human):
    return min(best - moves[human], CAP_CP) if human in moves else None


def people(args):
    games = pgn_ratings(args.pgn)
    xs, ys = [], []
    for path in args.oracle:
        for (_, _), (r, moves, best) in load_oracle(path).items():
            loss = human_loss(moves, best, r["human"])
            if loss is None:
                continue
            g = games[r["game"]]
            white = " w " in r["fen"]
            own, opp = (g["WhiteElo"], g["BlackElo"]) if white else (g["BlackElo"], g["WhiteElo"])
            if own != r["rating"]:
                raise SystemExit(f"game {r['game']}: the cache says {r['rating']}, the PGN {own}: not the same file")
            e = max(-EVAL_CLAMP_CP, min(EVAL_CLAMP_CP, best)) / 100
            xs.append([1.0, own / 100, opp / 100, e, abs(e)])
            ys.append(float(loss))
    coef, se = least_squares(xs, ys)
    print(f"{len(ys)} positions; loss (cp) = a + b·own/100 + c·opponent/100 + d·e + f·|e|  (e in pawns, mover's view)")
    for name, c, s in zip(["a", "own", "opponent", "e", "|e|"], coef, se):
        print(f"  {name:9s} {c:8.2f} ± {1.96 * s:.2f}")


def point(args):
    oracle = load_oracle(args.oracle[0])
    acc = {label: [0, 0.0, 0.0] for *_, label in BUCKETS}
    xs, yp, yh = [], [], []
    with open(args.decisions) as f:
        for row in csv.DictReader(f):
            if args.oracle_name and row["oracle"] != args.oracle_name:
                continue
            hit = oracle.get((int(row["game"]), int(row["ply"])))
            if hit is None:
                continue
            best = hit[2]
            el, hl = float(row["expected_loss"]), min(float(row["human_loss"]), CAP_CP)
            for lo, hi, label in BUCKETS:
                if lo <= best < hi:
                    a = acc[label]
                    a[0] += 1
                    a[1] += el
                    a[2] += hl
            e = max(-EVAL_CLAMP_CP, min(EVAL_CLAMP_CP, best)) / 100
            xs.append([1.0, e, abs(e)])
            yp.append(el)
            yh.append(hl)
    print(f"{'eval (cp)':12s} {'n':>5s} {'point':>7s} {'people':>7s} {'ratio':>6s}")
    for *_, label in BUCKETS:
        n, p, h = acc[label]
        if n:
            print(f"{label:12s} {n:5d} {p / n:7.1f} {h / n:7.1f} {p / h if h else float('nan'):6.2f}")
    for name, ys in (("point", yp), ("people", yh)):
        coef, se = least_squares(xs, ys)
        print(f"{name:7s} slope per pawn of e {coef[1]:6.2f} ± {1.96 * se[1]:.2f}, per pawn of |e| {coef[2]:6.2f} ± {1.96 * se[2]:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("people")
    p.add_argument("--oracle", action="append", required=True)
    p.add_argument("--pgn", default="../shared/data/human/fics-blitz-dev.pgn")
    q = sub.add_parser("point")
    q.add_argument("--decisions", required=True)
    q.add_argument("--oracle", action="append", required=True)
    q.add_argument("--oracle-name", default="internal")
    args = ap.parse_args()
    people(args) if args.what == "people" else point(args)


if __name__ == "__main__":
    main()
