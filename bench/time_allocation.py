#!/usr/bin/env python3
"""How much of its clock each engine spends on one move, by clock state (issue 59, item 3).

Each engine gets the same positions and, for every clock state below, `position fen F` and one
`go` with those clocks; the wall time from `go` to `bestmove` is what it chose to spend. States:
sudden death 60+0 and 10+0.1 and 3+2 at three points of a game (the clock a player typically has
left there), and 40/60 repeating (`movestogo` 40, 20, 5, 1 with the clock that period would leave).
Output: a markdown table of the median seconds spent and the median share of the clock, per engine
and state (one line per state), and a CSV of every answer.

    bench/time_allocation.py --engine sparring=target/release/sparring \
        --engine stockfish=/usr/games/stockfish --engine ethereal=/usr/games/ethereal-chess \
        --positions ../shared/data/tactical/sts-1500.epd --count 8 --out bench/results/issue-59/allocation

Python 3 standard library only. Engines are started once each, `Hash` 16, `Move Overhead` left at
its default unless --overhead is given (sent to the engines that declare it).
"""
import argparse
import csv
import statistics
import subprocess
import time
from pathlib import Path

# (name, wtime ms, winc ms, movestogo or None)
STATES = [
    ("60+0 start", 60000, 0, None),
    ("60+0 move 20 (30 s left)", 30000, 0, None),
    ("60+0 move 40 (12 s left)", 12000, 0, None),
    ("10+0.1 start", 10000, 100, None),
    ("10+0.1 move 20 (5 s left)", 5000, 100, None),
    ("10+0.1 move 40 (1.5 s left)", 1500, 100, None),
    ("3+2 start", 180000, 2000, None),
    ("3+2 move 20 (90 s left)", 90000, 2000, None),
    ("3+2 move 40 (30 s left)", 30000, 2000, None),
    ("40/60 movestogo 40 (60 s)", 60000, 0, 40),
    ("40/60 movestogo 20 (30 s)", 30000, 0, 20),
    ("40/60 movestogo 5 (8 s)", 8000, 0, 5),
    ("40/60 movestogo 1 (2 s)", 2000, 0, 1),
]


class Engine:
    def __init__(self, name, cmd, overhead):
        self.name = name
        self.p = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        options = []
        while True:
            line = self.read()
            if line.startswith("option name "):
                options.append(line[len("option name "):].split(" type ")[0])
            if line == "uciok":
                break
        self.send("setoption name Hash value 16")
        if overhead is not None and "Move Overhead" in options:
            self.send(f"setoption name Move Overhead value {overhead}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def read(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name} closed its output")
        return line.strip()

    def ready(self):
        self.send("isready")
        while self.read() != "readyok":
            pass

    def spend(self, fen, wtime, winc, movestogo):
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        white = " w " in fen
        us, them = ("w", "b") if white else ("b", "w")
        go = f"go {us}time {wtime} {them}time {wtime} {us}inc {winc} {them}inc {winc}"
        if movestogo:
            go += f" movestogo {movestogo}"
        start = time.perf_counter()
        self.send(go)
        while not self.read().startswith("bestmove"):
            pass
        return time.perf_counter() - start

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def fens(path, count):
    out = []
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4:
            out.append(" ".join(parts[:4]) + " 0 1")
        if len(out) == count:
            break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND (repeatable)")
    ap.add_argument("--positions", required=True, help="EPD file; the first --count positions")
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--overhead", type=int, default=100, help="Move Overhead (ms) for engines that have it")
    ap.add_argument("--out", required=True, help="output prefix: PREFIX.csv and PREFIX.md")
    a = ap.parse_args()
    positions = fens(a.positions, a.count)
    rows = []
    names = []
    for spec in a.engine:
        name, cmd = spec.split("=", 1)
        names.append(name)
        e = Engine(name, cmd, a.overhead)
        for state, wtime, winc, mtg in STATES:
            for i, fen in enumerate(positions):
                s = e.spend(fen, wtime, winc, mtg)
                rows.append({"engine": name, "state": state, "position": i, "clock_ms": wtime, "inc_ms": winc,
                             "movestogo": mtg or "", "spent_s": f"{s:.3f}", "share": f"{s * 1000 / wtime:.4f}"})
            print(f"{name}: {state} done", flush=True)
        e.quit()
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = [f"# Time spent on one move by clock state ({len(positions)} positions from {Path(a.positions).name}, "
             f"median seconds and median % of the clock)\n",
             "| state | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for state, *_ in STATES:
        cells = []
        for n in names:
            sel = [r for r in rows if r["engine"] == n and r["state"] == state]
            sec = statistics.median(float(r["spent_s"]) for r in sel)
            share = statistics.median(float(r["share"]) for r in sel)
            cells.append(f"{sec:.2f} s ({100 * share:.1f} %)")
        lines.append(f"| {state} | " + " | ".join(cells) + " |")
    Path(a.out + ".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
