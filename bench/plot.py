#!/usr/bin/env python3
# Needs bench/.venv (matplotlib, pinned in bench/requirements.txt): run with bench/py.sh.
"""Every chart in bench/results, drawn one way: matplotlib, Agg backend, SVG with text kept as
text, fixed ids and no date, so the same data give the same bytes.

As a library (bench/ scripts import it after `sys.path.insert(0, <bench dir>)`):
  Series(name, points, colour=None, dashed=False, width=1.5)   one line, points [(x, y), ...]
  line_chart(path, title, xlabel, ylabel, series, xlim=, ylim=, xticks=, yticks=)
      lines with a dot at each point, legend outside on the right
  error_bar_chart(path, title, xlabel, ylabel, points, lim=, ticks=, diagonal=, colour=)
      points [(x, y, lo, hi), ...] with vertical 95 % bars and the y value written at each bar;
      diagonal: a label for the dashed y = x reference line (None: no line)

From the command line, the charts of `sparring humanlike report` from the same `measure` CSVs:
  bench/py.sh bench/plot.py humanlike CSV... [--out-dir DIR]   (default bench/results)
  -> DIR/humanlike-loss-by-band.svg: mean capped cp loss per rating band (x = band centre), the
     humans' curve and one dashed line per measured label, all on the same positions;
  -> DIR/humanlike-elo-vs-loss.svg: each engine family's set Elo against its mean loss on the
     positions of the band holding that Elo (all its bands, weighted by n, if it has no row
     there), over the humans' band curve. A family is a label without its last word.
"""
import argparse
import csv
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update(
    {
        "svg.hashsalt": "sparring-bench",  # fixed element ids
        "svg.fonttype": "none",  # text stays text: small, searchable, no embedded glyphs
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans"],  # shipped with matplotlib: the same layout everywhere
        "font.size": 10,
        "axes.grid": True,
        "grid.color": "#dddddd",
        "grid.linewidth": 0.8,
        "axes.axisbelow": True,
        "lines.markersize": 5,
    }
)
PALETTE = plt.rcParams["axes.prop_cycle"].by_key()["color"]  # the tab10 colours
HUMANS = "#000000"


@dataclass
class Series:
    """One line of a line chart (dots at its points, joined when there are two or more)."""

    name: str
    points: list
    colour: str = None
    dashed: bool = False
    width: float = 1.5


def _finite(*vals):
    return all(v is not None and math.isfinite(v) for v in vals)


def _save(fig, path):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(fig)


def line_chart(path, title, xlabel, ylabel, series, xlim=None, ylim=None, xticks=None, yticks=None,
               size=(9, 5.2)):
    """Lines (one per Series, colours from the palette unless given) with the legend on the right;
    y starts at 0 unless ylim says otherwise. Writes the SVG to path."""
    fig, ax = plt.subplots(figsize=size)
    for i, s in enumerate(series):
        pts = [(x, y) for x, y in s.points if _finite(x, y)]
        colour = s.colour or PALETTE[i % len(PALETTE)]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, linewidth=s.width,
                linestyle=(0, (6, 4)) if s.dashed else "-", marker="o", label=s.name)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if xlim:
        ax.set_xlim(*xlim)
    ax.set_ylim(*(ylim or (0, None)))
    if xticks is not None:
        ax.set_xticks(list(xticks))
    if yticks is not None:
        ax.set_yticks(list(yticks))
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    _save(fig, path)


def error_bar_chart(path, title, xlabel, ylabel, points, lim=None, ticks=None, diagonal=None,
                    colour=PALETTE[0], size=(7, 7)):
    """Points (x, y, lo, hi) with vertical bars from lo to hi and y written at the end of each bar;
    both axes on lim; diagonal: label of a dashed y = x line. Writes the SVG to path."""
    fig, ax = plt.subplots(figsize=size)
    pts = [p for p in points if _finite(*p)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    ax.errorbar(xs, ys, yerr=[[y - p[2] for y, p in zip(ys, pts)], [p[3] - y for y, p in zip(ys, pts)]],
                fmt="o", color=colour, ecolor=colour, elinewidth=2, capsize=3)
    for i, p in enumerate(pts):  # y beside each bar, alternately under it and over it (neighbours may overlap)
        above = i % 2 == 1
        ax.annotate(f"{p[1]:g}", (p[0], p[3] if above else p[2]), xytext=(0, 3 if above else -3),
                    textcoords="offset points", ha="center", va="bottom" if above else "top", color=colour)
    if lim:
        ax.set_xlim(*lim)
        ax.set_ylim(*lim)
    if ticks is not None:
        ax.set_xticks(list(ticks))
        ax.set_yticks(list(ticks))
    if diagonal:
        lo, hi = ax.get_xlim()
        ax.plot([lo, hi], [lo, hi], color="#999999", linestyle=(0, (4, 4)), linewidth=1, label=diagonal)
        ax.legend(loc="upper left", frameon=False)
    ax.set_aspect("equal", adjustable="box")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _save(fig, path)


# --- `humanlike`: the charts of `sparring humanlike report` ---------------------------------


def _num(row, col):
    try:
        return float(row.get(col, ""))
    except ValueError:
        return math.nan


def read_measure_rows(paths):
    """Rows of `sparring humanlike measure` CSVs, in file order; band and n as ints, elo as int or
    None (as `sparring humanlike report` reads them)."""
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                if not r.get("band"):
                    continue
                r["band"] = int(r["band"])
                r["n"] = int(r["n"]) if r.get("n", "").isdigit() else 0
                r["elo"] = int(r["elo"]) if r.get("elo", "").isdigit() else None
                rows.append(r)
    return rows


def human_curve(rows):
    """The humans' mean loss per band (x = band centre), from the first row of each band."""
    by_band = {}
    for r in rows:
        by_band.setdefault(r["band"], _num(r, "human_mean_loss"))
    return sorted((b + 100, v) for b, v in by_band.items())


def loss_at_own_band(rows):
    """(set Elo, mean loss on the band holding it) of one label; None without an Elo."""
    elo = rows[0]["elo"]
    if elo is None:
        return None
    own = next((r for r in rows if r["band"] == elo // 200 * 200), None)
    if own is not None:
        return elo, _num(own, "mean_loss")
    n = sum(r["n"] for r in rows)
    return elo, sum(_num(r, "mean_loss") * r["n"] for r in rows) / max(n, 1)


def humanlike(csvs, out_dir):
    rows = read_measure_rows(csvs)
    if not rows:
        sys.exit("plot.py humanlike: no rows in the CSV files")
    labels = list(dict.fromkeys(r["label"] for r in rows if r["label"] != "humans"))
    of = {l: [r for r in rows if r["label"] == l] for l in labels}
    out_dir = Path(out_dir)

    by_band = [Series("humans (band)", human_curve(rows), HUMANS, width=3.0)]
    for i, l in enumerate(labels):
        pts = [(r["band"] + 100, _num(r, "mean_loss")) for r in of[l]]
        by_band.append(Series(l, pts, PALETTE[i % len(PALETTE)], dashed=True))
    line_chart(out_dir / "humanlike-loss-by-band.svg",
               "Mean centipawn loss (capped 300) per rating band, same positions",
               "mover's rating band (centre)", "mean cp loss", by_band)

    families = {}
    for l in labels:
        got = loss_at_own_band(of[l])
        if got is not None:
            families.setdefault(l.rsplit(" ", 1)[0], []).append(got)
    by_elo = [Series("humans (band centre)", human_curve(rows), HUMANS, width=3.0)]
    for i, name in enumerate(sorted(families)):
        by_elo.append(Series(f"{name} (set Elo)", sorted(families[name]), PALETTE[i % len(PALETTE)], dashed=True,
                             width=2.0))
    line_chart(out_dir / "humanlike-elo-vs-loss.svg", "Set Elo vs mean cp loss on that rating band's positions",
               "rating (humans: band centre; engines: set UCI_Elo)", "mean cp loss", by_elo)
    print(f"wrote humanlike-loss-by-band.svg, humanlike-elo-vs-loss.svg to {out_dir}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description="bench charts (see the module docstring)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("humanlike", help="charts of `sparring humanlike report` from measure CSVs")
    h.add_argument("csv", nargs="+", help="CSV files written by `sparring humanlike measure`")
    h.add_argument("--out-dir", default="bench/results")
    a = ap.parse_args()
    if a.cmd == "humanlike":
        humanlike(a.csv, a.out_dir)


if __name__ == "__main__":
    main()
