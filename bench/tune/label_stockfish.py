#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Scores sampled positions with Stockfish for `sparring tune`.

Reads JSON lines with a "fen" field (`sparring humanlike sample` output) and writes
`FEN<TAB>white centipawns<TAB>best move` for every position whose score is not a mate.
Run one process per core: PART in 0..PARTS takes every PARTS-th position.

Usage: label_stockfish.py POSITIONS.jsonl OUT.tsv PART PARTS DEPTH [STOCKFISH]
"""
import json
import subprocess
import sys

inp, out, part, parts, depth = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
binary = sys.argv[6] if len(sys.argv) > 6 else "/usr/games/stockfish"
sf = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    sf.stdin.write(line + "\n")


def read_until(prefix):
    lines = []
    while True:
        line = sf.stdout.readline()
        if not line:
            sys.exit(f"{binary} exited")
        lines.append(line)
        if line.startswith(prefix):
            return lines


send("uci")
read_until("uciok")
send("setoption name Hash value 16")
send("isready")
read_until("readyok")
with open(out, "w") as fo:
    for i, line in enumerate(open(inp)):
        if i % parts != part:
            continue
        fen = json.loads(line)["fen"]
        send("position fen " + fen)
        send(f"go depth {depth}")
        lines = read_until("bestmove")
        best = lines[-1].split()[1]
        score = None
        for info in lines:
            t = info.split()
            if "score" not in t or "lowerbound" in t or "upperbound" in t:
                continue
            k = t.index("score")
            score = int(t[k + 2]) if t[k + 1] == "cp" else None
        if score is None:
            continue
        white = score if fen.split()[1] == "w" else -score
        fo.write(f"{fen}\t{white}\t{best}\n")
send("quit")
