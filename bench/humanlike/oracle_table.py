# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Reading `oracle.jsonl` the way `sparring humanlike` does (src/humanlike/types.rs): which positions
are eligible and what a move loses. Shared by human_ci.py, point_ci.py and paired_sf.py."""
import json

CAP, DECIDED = 300, 600


def order(score):
    """Sort key of an oracle score: mates for us above every cp score, mates against us below."""
    if isinstance(score, str):
        n = int(score[1:])
        return 10**6 - n if n > 0 else -(10**6) - n
    return score


def loss(table, mv):
    """Centipawn loss (capped) of move `mv` in a {uci: score} table; None if it is not there."""
    best = max(table.values(), key=order)
    played = table.get(mv)
    if played is None:
        return None
    if not isinstance(best, str):
        if isinstance(played, str):
            return 0 if int(played[1:]) > 0 else CAP
        return max(0, min(CAP, best - played))
    return 0 if best == played else CAP


def eligible(oracle_path):
    """[(fen, band, game, human move, {uci: score})] for the eligible positions, in file order: not
    forced, best score not a mate, |best eval from White's view| <= 600, the human's move scored."""
    out = []
    for line in open(oracle_path):
        p = json.loads(line)
        if len(p["moves"]) < 2:
            continue
        table = dict((m, s) for m, s in p["moves"])
        best = max(table.values(), key=order)
        if isinstance(best, str):
            continue
        white = best if p["fen"].split()[1] == "w" else -best
        if abs(white) > DECIDED or p["human"] not in table:
            continue
        out.append((p["fen"], p["band"], p["game"], p["human"], table))
    return out
