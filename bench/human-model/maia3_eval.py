#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""The human move model v7 (Maia-3) side by side with v6, Maia-1 and ladder points, per band.

Reads the CSV files of `sparring model grid` (one row per sampled position: ln P of the
human's move and whether the model's most likely move is the human's, per rating input).

  maia3_eval.py fit FIT.csv
      The rating map: the model's input = A + B·(the file's rating), chosen by maximum likelihood
      of the human's moves on FIT.csv (a fit part: games no report uses), ln P interpolated linearly
      between the grid's inputs. Prints A, B, the likelihood of the identity map beside it, and
      each band's best single input (whether one straight line serves every band).

  maia3_eval.py report TEST.csv --title T --out OUT.md [--csv OUT.csv] [--maia DIR]
                [--expected NAME=DECISIONS.csv ...]
      Per 200-point band of TEST.csv (a test part): top-1 (%) and mean ln P of the human's move for
      every `--map` column of the grid file (history, and FEN alone where present) and v6 at the
      mover's rating; Maia-1 at the net nearest the band's middle (1100..1900; its moves from
      DIR/maia-R.jsonl, `sparring humanlike moves --go "nodes 1"`, by FEN; top-1 only: lc0 gives its
      move, not its distribution); each NAME's exact expected match from a `calibrate model-check
      --decisions-out` file (internal oracle rows). 95 % intervals from a bootstrap over games
      (2000 resamples, seed 1); the paired differences Maia-3 − Maia-1 and Maia-3 − v6 likewise.
"""
import csv
import json
import math
import os
import random
import sys
from collections import defaultdict

MAIA = [1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]
RESAMPLES = 2000


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def grid_of(rows):
    return sorted(int(k[1:-3]) for k in rows[0] if k.startswith("h") and k.endswith("_lp") and k[1:-3].isdigit())


def interp(row, grid, m):
    if m <= grid[0]:
        return float(row[f"h{grid[0]}_lp"])
    if m >= grid[-1]:
        return float(row[f"h{grid[-1]}_lp"])
    for lo, hi in zip(grid, grid[1:]):
        if lo <= m <= hi:
            t = (m - lo) / (hi - lo)
            return (1 - t) * float(row[f"h{lo}_lp"]) + t * float(row[f"h{hi}_lp"])
    raise ValueError(m)


def fit(path):
    rows = read(path)
    grid = grid_of(rows)
    # Per row: its rating and its ln P at the grid's inputs (floats once).
    data = [(int(r["rating"]), [float(r[f"h{g}_lp"]) for g in grid]) for r in rows]

    def total(a, b):
        s = 0.0
        for rating, lps in data:
            m = a + b * rating
            if m <= grid[0]:
                s += lps[0]
                continue
            if m >= grid[-1]:
                s += lps[-1]
                continue
            k = min(int((m - grid[0]) // (grid[1] - grid[0])), len(grid) - 2)
            t = (m - grid[k]) / (grid[k + 1] - grid[k])
            s += (1 - t) * lps[k] + t * lps[k + 1]
        return s

    best = None
    for b100 in range(40, 161, 4):
        b = b100 / 100
        for a in range(-800, 1601, 25):
            s = total(a, b)
            if best is None or s > best[0]:
                best = (s, a, b)
    # Refine around the best.
    s0, a0, b0 = best
    for db in range(-4, 5):
        for da in range(-25, 26, 5):
            a, b = a0 + da, b0 + db / 100
            s = total(a, b)
            if s > best[0]:
                best = (s, a, b)
    s, a, b = best
    n = len(data)
    ident = total(0, 1)
    print(f"{path}: {n} positions, grid {grid[0]}..{grid[-1]}")
    print(f"map: input = {a} + {b:.2f} * rating   mean ln P {s / n:.4f}   (identity: {ident / n:.4f})")
    by_band = defaultdict(list)
    for r in rows:
        by_band[int(r["band"])].append(r)
    print("band  n    best single input  mean ln P there  the map's input at the band's mean rating")
    for band in sorted(by_band):
        rs = by_band[band]
        sums = {g: sum(float(r[f"h{g}_lp"]) for r in rs) for g in grid}
        g = max(sums, key=sums.get)
        mean_rating = sum(int(r["rating"]) for r in rs) / len(rs)
        print(f"{band:5d} {len(rs):4d} {g:8d}           {sums[g] / len(rs):.4f}          {a + b * mean_rating:.0f}")
    return a, b


def load_maia(directory):
    moves = {}
    for r in MAIA:
        p = os.path.join(directory, f"maia-{r}.jsonl")
        if not os.path.exists(p):
            continue
        d = {}
        for line in open(p):
            j = json.loads(line)
            d[j["fen"]] = j["mv"]
        moves[r] = d
    return moves


def load_expected(path):
    out = {}
    for r in read(path):
        if r.get("oracle", "internal") != "internal":
            continue
        out[(int(r["game"]), int(r["ply"]))] = float(r["p_human"])
    return out


def nearest_maia(band):
    mid = band + 100
    return min(MAIA, key=lambda m: (abs(m - mid), m))


def boot(games, per_game, resamples=RESAMPLES, seed=1):
    """per_game: {game: [values]} -> (mean, lo, hi) over a bootstrap of games."""
    rng = random.Random(seed)
    keys = [g for g in games if per_game.get(g)]
    if not keys:
        return (float("nan"),) * 3
    sums = [(sum(per_game[g]), len(per_game[g])) for g in keys]
    tot = sum(s for s, _ in sums) / sum(n for _, n in sums)
    stats = []
    for _ in range(resamples):
        s = n = 0
        for _ in keys:
            a, b = sums[rng.randrange(len(keys))]
            s += a
            n += b
        stats.append(s / n)
    stats.sort()
    return tot, stats[int(0.025 * resamples)], stats[int(0.975 * resamples) - 1]


def fmt(t, scale=100.0, digits=1, sign=False):
    m, lo, hi = t
    if math.isnan(m):
        return "–"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(m * scale)} [{f.format(lo * scale)}, {f.format(hi * scale)}]"


def report(argv):
    path = argv[0]
    title, out, out_csv, maia_dir, expected = "", None, None, "bench/humanlike/moves", []
    i = 1
    while i < len(argv):
        k = argv[i]
        if k == "--title":
            title = argv[i + 1]
        elif k == "--out":
            out = argv[i + 1]
        elif k == "--csv":
            out_csv = argv[i + 1]
        elif k == "--maia":
            maia_dir = argv[i + 1]
        elif k == "--expected":
            name, p = argv[i + 1].split("=", 1)
            expected.append((name, load_expected(p)))
        else:
            sys.exit(f"unknown argument {k}")
        i += 2
    rows = read(path)
    maps = [k[: -len("_h_lp")] for k in rows[0] if k.endswith("_h_lp")]
    alone = [m for m in maps if f"{m}_f_lp" in rows[0]]
    maia = load_maia(maia_dir)
    by_band = defaultdict(list)
    for r in rows:
        by_band[int(r["band"])].append(r)
    # The settings: (label, kind, key).
    settings = [(f"Maia-3 {m}", "m3", f"{m}_h") for m in maps]
    settings += [(f"Maia-3 {m} FEN alone", "m3", f"{m}_f") for m in alone]
    settings.append(("v6", "m3", "v6"))
    lines = [f"# {title}", "", f"`{path}`: {len(rows)} positions. Top-1 % and mean ln P of the human's move, "
             "[95 % bootstrap over games]; expected match of ladder points (exact, internal oracle's positions).", ""]
    head = ["band", "n", "games"]
    for label, _, _ in settings:
        head += [f"{label} top-1", f"{label} ln P"]
    head += ["Maia-1 nearest top-1", "n Maia-1"]
    head += [f"{name} match" for name, _ in expected]
    first = settings[0]
    head += [f"{first[0]} − Maia-1", f"{first[0]} − v6"]
    table = [head]
    for band in sorted(by_band):
        rs = by_band[band]
        games = sorted({int(r["game"]) for r in rs})
        row = [str(band), str(len(rs)), str(len(games))]
        for _, _, key in settings:
            top, lp = defaultdict(list), defaultdict(list)
            for r in rs:
                g = int(r["game"])
                top[g].append(float(r[f"{key}_top"]))
                lp[g].append(float(r[f"{key}_lp"]))
            row += [fmt(boot(games, top)), fmt(boot(games, lp), 1.0, 3)]
        net = nearest_maia(band)
        mtop, d_maia, d_v6 = defaultdict(list), defaultdict(list), defaultdict(list)
        for r in rs:
            g = int(r["game"])
            d_v6[g].append(float(r[f"{first[2]}_top"]) - float(r["v6_top"]))
            mv = maia.get(net, {}).get(r["fen"])
            if mv is not None:
                hit = float(mv == r["human"])
                mtop[g].append(hit)
                d_maia[g].append(float(r[f"{first[2]}_top"]) - hit)
        n_maia = sum(len(v) for v in mtop.values())
        row += [f"{net}: {fmt(boot(games, mtop))}" if n_maia else "–", str(n_maia)]
        for _, exp in expected:
            e = defaultdict(list)
            for r in rs:
                k = (int(r["game"]), int(r["ply"]))
                if k in exp:
                    e[int(r["game"])].append(exp[k])
            row.append(fmt(boot(games, e)) + f" (n {sum(len(v) for v in e.values())})" if e else "–")
        row += [fmt(boot(games, d_maia), sign=True) if n_maia else "–", fmt(boot(games, d_v6), sign=True)]
        table.append(row)
    # Pooled over every band.
    games = sorted({int(r["game"]) for r in rows})
    pooled = ["all", str(len(rows)), str(len(games))]
    for _, _, key in settings:
        top, lp = defaultdict(list), defaultdict(list)
        for r in rows:
            top[int(r["game"])].append(float(r[f"{key}_top"]))
            lp[int(r["game"])].append(float(r[f"{key}_lp"]))
        pooled += [fmt(boot(games, top)), fmt(boot(games, lp), 1.0, 3)]
    pooled += ["", ""] + [""] * len(expected) + ["", ""]
    table.append(pooled)
    lines.append("| " + " | ".join(table[0]) + " |")
    lines.append("|" + "---|" * len(table[0]))
    for row in table[1:]:
        lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines) + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    if out_csv:
        with open(out_csv, "w", newline="") as f:
            csv.writer(f).writerows(table)
    print(text)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("fit", "report"):
        sys.exit(__doc__)
    if sys.argv[1] == "fit":
        fit(sys.argv[2])
    else:
        report(sys.argv[2:])
