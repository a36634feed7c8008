#!/usr/bin/env python3
# Needs bench/.venv (matplotlib, through bench/plot.py): run with bench/py.sh.
"""Chart: mean capped cp loss per rating band for the humans (at each band's middle), the ladder
(at each point's UCI_Elo; its version from profiles/ladder.toml) and Stockfish 15.1 UCI_Elo (at
its own number, on the band holding it). Reads bench/results/humanlike-{ladder,stockfish}.csv,
writes bench/results/humanlike-ladder-loss.svg with bench/plot.py."""
import csv
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import plot  # noqa: E402

ladder = list(csv.DictReader(open("bench/results/humanlike-ladder.csv")))
sf = [r for r in csv.DictReader(open("bench/results/humanlike-stockfish.csv")) if r["elo"].isdigit()]
version = re.search(r"^version\s*=\s*(\d+)", Path("profiles/ladder.toml").read_text(), re.M).group(1)
humans = [(int(r["band"]) + 100, float(r["human_mean_loss"])) for r in ladder]
ours = [(int(r["elo"]), float(r["mean_loss"])) for r in ladder]
sf_own = sorted((int(r["elo"]), float(r["mean_loss"])) for r in sf
                if int(r["band"]) <= int(r["elo"]) < int(r["band"]) + 200)

plot.line_chart(
    "bench/results/humanlike-ladder-loss.svg",
    "Mean cp loss per move vs rating (FICS blitz positions)",
    "rating / UCI_Elo (human scale)",
    "mean capped cp loss",
    [plot.Series("humans (band middle)", humans, plot.HUMANS, width=2.0),
     plot.Series(f"sparring ladder v{version}", ours, plot.PALETTE[0], width=2.0),
     plot.Series("Stockfish 15.1 UCI_Elo", sf_own, plot.PALETTE[3], dashed=True, width=2.0)],
    xticks=range(800, 2401, 200),
    size=(7.2, 4.4),
)
