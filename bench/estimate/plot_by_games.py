#!/usr/bin/env python3
# Needs bench/.venv (matplotlib, through bench/plot.py): run with bench/py.sh.
"""Error of the per-player estimate against the number of games, from the CSV that
`sparring strength train --by-games` writes: the game model's MAE with its 95 % interval (players
resampled) and the mean-rating baseline's MAE. Usage: bench/py.sh bench/estimate/plot_by_games.py CSV SVG"""
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import plot  # noqa: E402

src, out = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(src)))
model = [(int(r["games"]), float(r["mae"])) for r in rows]
lo = [(int(r["games"]), float(r["mae_lo95"])) for r in rows]
hi = [(int(r["games"]), float(r["mae_hi95"])) for r in rows]
base = [(int(r["games"]), float(r["mae_baseline"])) for r in rows]
plot.line_chart(
    out,
    "Per-player estimate: error against the number of games (held-out FICS players)",
    "games of the player",
    "mean absolute error (Elo)",
    [
        plot.Series("game model", model),
        plot.Series("95 % interval (players resampled)", lo, dashed=True, colour="#888888", width=1),
        plot.Series("_upper", hi, dashed=True, colour="#888888", width=1),
        plot.Series("always the mean rating", base, dashed=True),
    ],
    xticks=[int(r["games"]) for r in rows],
)
