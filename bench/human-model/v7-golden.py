#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""Golden moves with the human move model v7 on (issue 61): the same seeded moves from two builds
(default and `-C target-cpu=native`), from separate processes and at two `Hash` sizes.

Each binary plays the golden positions (tools/tests/suite/golden_moves.rs's list) at UCI_Elo 900,
1300, 1700, 2100 with a ladder that names v7 (`Ladder File`), seeds 7 and 424242, Hash 1 and 64,
one process per (binary, Elo, seed, Hash, run), twice; every `bestmove` line must agree.

Usage (from the repository root): v7-golden.py LADDER BINARY... [--out OUT.txt]"""
import subprocess
import sys

import re


def golden_positions():
    """The golden test's positions, read from tools/tests/suite/golden_moves.rs (one list)."""
    text = open("tools/tests/suite/golden_moves.rs").read()
    block = text[text.index("const POSITIONS"):]
    block = block[:block.index("];")]
    return re.findall(r'"([^"]+)"', block)


POSITIONS = golden_positions()
ELOS = [900, 1300, 1700, 2100]
SEEDS = [7, 424242]
HASHES = [1, 64]


def play(binary, ladder, elo, seed, hash_mb):
    script = ["uci", f"setoption name Hash value {hash_mb}", f"setoption name Ladder File value {ladder}",
              "setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {elo}",
              f"setoption name Seed value {seed}"]
    for pos in POSITIONS:
        script += ["ucinewgame", f"position {pos}", "isready", "go wtime 600000 btime 600000"]
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    moves = []
    # One command at a time: each go waits for its bestmove.
    for line in script:
        p.stdin.write(line + "\n")
        p.stdin.flush()
        if line.startswith("go"):
            for out in p.stdout:
                if out.startswith("bestmove"):
                    moves.append(out.split()[1])
                    break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return moves


def main(argv):
    out = None
    if "--out" in argv:
        i = argv.index("--out")
        out = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    ladder, binaries = argv[0], argv[1:]
    runs = {}
    for b in binaries:
        for elo in ELOS:
            for seed in SEEDS:
                for h in HASHES:
                    for run in (1, 2):
                        runs[(b, elo, seed, h, run)] = play(b, ladder, elo, seed, h)
    lines, differ = [], 0
    for elo in ELOS:
        for seed in SEEDS:
            ref = runs[(binaries[0], elo, seed, HASHES[0], 1)]
            for key, mv in runs.items():
                if key[1] == elo and key[2] == seed and mv != ref:
                    differ += 1
                    lines.append(f"DIFFERS {key}: {' '.join(mv)} vs {' '.join(ref)}")
            lines.append(f"elo {elo} seed {seed}: {' '.join(ref)}")
    total = len(runs) * len(POSITIONS)
    lines.append(f"{len(runs)} processes x {len(POSITIONS)} positions = {total} moves; "
                 f"{len(binaries)} builds x {len(HASHES)} Hash sizes x 2 runs per (Elo, seed); {differ} processes differ")
    text = "\n".join(lines) + "\n"
    if out:
        open(out, "w").write(text)
    print(text)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
