#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Per-engine numbers of a match PGN written by `sparring match`:
mean regret (cp loss vs the oracle, capped at 300, eligible plies only) and ASE from
`sparring strength --plies --format csv`, and mean time per move from the PGN move comments.
Usage: selfplay_stats.py GAMES.pgn PLIES.csv  -> CSV rows: engine,plies,mean_regret_cp,ase,moves,mean_ms
Stdlib only."""
import csv, re, sys
from collections import defaultdict

pgn_path, plies_path = sys.argv[1], sys.argv[2]
games, cur = [], {}
times = defaultdict(list)
text = open(pgn_path, encoding="utf-8", errors="replace").read()
for block in re.split(r"\n(?=\[Event )", text):
    w = re.search(r'\[White "([^"]*)"\]', block)
    b = re.search(r'\[Black "([^"]*)"\]', block)
    if not (w and b):
        continue
    games.append((w.group(1), b.group(1)))
    body = block[block.rfind("]") + 1:]
    # Engine moves carry {score/depth time}; book moves carry {book}. Alternate colours.
    comments = re.findall(r"\{([^}]*)\}", body)
    idx = 0
    for c in comments:
        m = re.search(r"(\d+\.\d+)s", c)
        if c.strip() == "book":
            idx += 1
            continue
        if m:
            (times[w.group(1)] if idx % 2 == 0 else times[b.group(1)]).append(float(m.group(1)) * 1000)
            idx += 1
loss = defaultdict(list)
se = defaultdict(list)
for row in csv.DictReader(open(plies_path)):
    if row.get("eligible") != "true":
        continue
    g = int(row["game"]) - 1
    if g >= len(games):
        continue
    name = games[g][0] if row["color"] == "white" else games[g][1]
    loss[name].append(min(300, max(0, int(float(row["cp_loss"])))))
    se[name].append(float(row["scaled_error"]))
print("engine,plies,mean_regret_cp,ase,moves,mean_ms_per_move")
for name in sorted(set(loss) | set(times)):
    l, s, t = loss[name], se[name], times[name]
    print(f"{name},{len(l)},{sum(l)/max(1,len(l)):.1f},{sum(s)/max(1,len(s)):.4f},{len(t)},{sum(t)/max(1,len(t)):.1f}")
