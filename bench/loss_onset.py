#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""When do we see that a game is lost? For each game sparring lost in a match PGN written by
`sparring match` (comments `{score/depth time}` from both engines), the first ply at which the
winner's own eval reaches +1.5, sparring's eval at that moment, and how many plies later
sparring's eval first reaches -1.5. A long lag means the evaluator misjudged the position (the
opponent saw it coming); a lag of ~1 ply means a tactic it saw at once.

Usage: bench/loss_onset.py MATCH.pgn [OUR_NAME_PREFIX (default: sparring)]
"""
import re
import statistics
import sys

path = sys.argv[1]
ours_prefix = sys.argv[2] if len(sys.argv) > 2 else "sparring"


def value(text):
    if "M" in text:
        return -99.0 if text.startswith("-") else 99.0
    return float(text)


rows = []
for game in open(path).read().split("[Event ")[1:]:
    white = re.search(r'\[White "([^"]+)"', game).group(1)
    result = re.search(r'\[Result "([^"]+)"', game).group(1)
    we_are_white = white.startswith(ours_prefix)
    if result != ("0-1" if we_are_white else "1-0"):
        continue
    body = game.split("\n\n", 1)[1]
    evals = []
    for ply, (_, comment) in enumerate(re.findall(r"([^\s{}]+)\s*\{([^}]*)\}", body)):
        m = re.match(r"([+-]?\d+\.\d+|[+-]?M\d+)/\d+", comment)
        if m:
            evals.append((ply, value(m.group(1)), (ply % 2 == 0) == we_are_white))
    theirs = next((p for p, v, ours in evals if not ours and v >= 1.5), None)
    mine = next((p for p, v, ours in evals if ours and v <= -1.5), None)
    if theirs is None or mine is None:
        continue
    before = [v for p, v, ours in evals if ours and p < theirs]
    rows.append((theirs, before[-1] if before else 0.0, mine - theirs))

if not rows:
    sys.exit("no lost game with evals in both directions")
print(f"lost games with both onsets: {len(rows)}")
print(f"median ply where the winner first sees +1.5: {statistics.median(r[0] for r in rows)}")
print(f"median sparring eval at that ply: {statistics.median(r[1] for r in rows):+.2f}")
print(f"median lag until sparring sees -1.5: {statistics.median(r[2] for r in rows)} plies")
print(f"seen within one ply (tactics): {sum(1 for r in rows if r[2] <= 1)}")
