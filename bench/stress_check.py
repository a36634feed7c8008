#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Summarise bench/stress.sh: faults over all pairings, and the replay comparison.

Usage: stress_check.py OUT_DIR REPLAYED_LABEL...
Prints a markdown summary; exits 1 when any game had a fault or a replay differs."""
import json
import re
import sys
from pathlib import Path


def games(pgn_path):
    """Seed -> (result, SAN moves) for every game of a PGN written by the match runner."""
    text = pgn_path.read_text()
    out = {}
    for chunk in re.split(r"\n(?=\[Event )", text):
        seed = re.search(r'\[Seed "(\d+)"\]', chunk)
        result = re.search(r'\[Result "([^"]+)"\]', chunk)
        if not seed:
            continue
        body = chunk[chunk.rfind("]\n") + 2:]
        body = re.sub(r"\{[^}]*\}", " ", body)
        body = re.sub(r"\d+\.(\.\.)?", " ", body)
        moves = [t for t in body.split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]
        out[seed.group(1)] = (result.group(1) if result else "?", moves)
    return out


def main():
    out = Path(sys.argv[1])
    replayed = sys.argv[2:]
    total = 0
    terms = {}
    rows = []
    for js in sorted(out.glob("*.json")):
        if js.name.startswith("replay-"):
            continue
        d = json.loads(js.read_text())
        n = d["games_played"]
        total += n
        for k, v in d["terminations"].items():
            terms[k] = terms.get(k, 0) + v
        r = d["result"]
        rows.append((js.stem, n, f'{r["wins"]}-{r["draws"]}-{r["losses"]}', d["score"],
                     ", ".join(f"{k} {v}" for k, v in sorted(d["terminations"].items())),
                     d["faults"]))
    print("# Stress run\n")
    print("| pairing | games | W-D-L (first engine) | score | terminations | faults (A, B) |")
    print("|---|---|---|---|---|---|")
    for label, n, wdl, score, t, f in rows:
        print(f"| {label} | {n} | {wdl} | {score:.3f} | {t} | {f[0]}, {f[1]} |")
    print(f"\n**Total: {total} games.** Terminations: "
          + ", ".join(f"{k} {v}" for k, v in sorted(terms.items())))
    faults = sum(v for k, v in terms.items() if k not in ("normal", "adjudication"))
    print(f"Faults (time forfeit, illegal move, crash, hang, failed start): {faults}\n")

    print("# Replay from seeds\n")
    same = diff = 0
    for label in replayed:
        a = games(out / f"{label}.pgn")
        b = games(out / f"replay-{label}.pgn")
        for seed, (res, moves) in b.items():
            if seed not in a:
                print(f"- {label}: seed {seed} missing from the stress PGN")
                diff += 1
            elif a[seed] != (res, moves):
                ra, ma = a[seed]
                k = next((i for i, (x, y) in enumerate(zip(ma, moves)) if x != y), min(len(ma), len(moves)))
                print(f"- {label}: seed {seed} differs at ply {k + 1} ({ra} vs {res})")
                diff += 1
            else:
                same += 1
        print(f"- {label}: {len(b)} games replayed")
    print(f"\n**Replayed {same + diff} games: {same} identical move for move, {diff} different.**")
    sys.exit(1 if faults or diff or total == 0 else 0)


if __name__ == "__main__":
    main()
