#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed).
"""Faults in the games of a calibration: every game of every PGN under the folders given (the
match runner's PGNs: `calibrate steps --pgn-dir`, `sparring match -pgnout`), counted by its
`Termination` tag. The runner checks every move for legality and writes the reason a game ended:
`normal` and `adjudication` are clean ends; `illegal move`, `time forfeit`, `abandoned` (a crash
or a failed start), `stalled connection` (a hang) and `unterminated` are faults, printed with the
game's PGN. A game without a result is a fault too.

Usage: bench/fault_count.py DIR_OR_PGN... [--out OUT.md]
Exits 1 when any game had a fault."""
import re
import sys
from collections import Counter
from pathlib import Path

CLEAN = {"normal", "adjudication"}


def games(path):
    text = path.read_text(errors="replace")
    for chunk in re.split(r"\n(?=\[Event )", text):
        if "[Event " in chunk:
            yield chunk.strip()


def main(argv):
    out = None
    if "--out" in argv:
        i = argv.index("--out")
        out = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    files = []
    for a in argv:
        p = Path(a)
        files += sorted(p.rglob("*.pgn")) if p.is_dir() else [p]
    per_file, tags, faults = [], Counter(), []
    for f in files:
        n = 0
        for g in games(f):
            n += 1
            term = re.search(r'\[Termination "([^"]*)"\]', g)
            result = re.search(r'\[Result "([^"]*)"\]', g)
            tag = term.group(1) if term else "normal"
            tags[tag] += 1
            if tag not in CLEAN or not result or result.group(1) == "*":
                faults.append((f, g))
        per_file.append((f, n))
    total = sum(n for _, n in per_file)
    lines = [f"# Faults: {len(faults)} in {total} games ({len(files)} PGN files)", ""]
    lines.append("| termination | games |")
    lines.append("|---|---|")
    for t, n in sorted(tags.items(), key=lambda x: -x[1]):
        lines.append(f"| {t} | {n} |")
    lines.append("")
    lines.append("| file | games |")
    lines.append("|---|---|")
    for f, n in per_file:
        lines.append(f"| `{f}` | {n} |")
    for f, g in faults:
        lines += ["", f"## Fault in `{f}`", "", "```", g, "```"]
    text = "\n".join(lines) + "\n"
    if out:
        Path(out).write_text(text)
    print(text if len(text) < 20000 else text[:20000] + "\n…")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
