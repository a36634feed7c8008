#!/usr/bin/env python3
"""Summary of bench/human-time-games.sh: per setting (Human Time on/off) the games, time forfeits,
mean time per move and the clock left at the end of games (quantiles, per side), the share of games
whose moves are identical on and off (same -srand, same game seeds), and people's clock left at the
end of their games at the same time control (the FIDE extract's held-out part).

Usage: bench/human_time_games.py DIR BASE_S INC_S [MOVES_CSV]
No third-party packages: PGN movetext is read with a regular expression (the match runner's own
output: SAN tokens and {comment} after every move, the comment ending with the move's time).
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

from samples import ks  # bench/samples.py


def games(path):
    text = path.read_text()
    for block in re.split(r"\n\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        body = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        moves, times = [], []
        for san, comment in re.findall(r"(?:\d+\.+\s*)?([^\s{}]+)\s*\{([^}]*)\}", body):
            if san in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            moves.append(san)
            m = re.search(r"([0-9.]+)s\s*$", comment)
            # None: a book move, played for the engines and off the clock.
            times.append(None if comment.strip() == "book" else float(m.group(1)) if m else 0.0)
        yield tags, moves, times


def quantiles(v):
    v = sorted(v)
    if not v:
        return "-"
    q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    return f"min {v[0]:.1f} · q10 {q(0.1):.1f} · median {q(0.5):.1f} · q90 {q(0.9):.1f} · max {v[-1]:.1f}"


def summarise(files, base, inc):
    out = {"games": 0, "forfeits": 0, "moves": 0, "time": 0.0, "end": [], "by_key": {}}
    for f in files:
        for tags, moves, times in games(f):
            out["games"] += 1
            if "time" in tags.get("Termination", "").lower():
                out["forfeits"] += 1
            for side in (0, 1):
                own = times[side::2]
                # Book moves are played for the engines: only moves with a time count (the clock
                # left is base - time used + inc per timed move, as the runner keeps it).
                timed = [t for t in own if t is not None]
                out["moves"] += len(timed)
                out["time"] += sum(timed)
                out["end"].append(base - sum(timed) + inc * len(timed))
                # The clock after the side's own move n (fullmove n), book moves off the clock.
                clock = base
                for n, t in enumerate(own, start=1):
                    if t is not None:
                        clock += inc - t
                    if n in MARKS:
                        out.setdefault("after", {}).setdefault(n, []).append(clock)
            out["by_key"][(tags.get("Seed"), tags.get("White"), tags.get("Round"))] = moves
            out.setdefault("detail", {})[(tags.get("Seed"), tags.get("White"), tags.get("Round"))] = (tags, times)
    return out


def divergences(on, off, base, inc):
    """Where each game whose moves differ on and off first differs: ply, mover, the mover's clock
    before that move in the game with the option on, and the move's time on and off."""
    rows = []
    for k, m in on["by_key"].items():
        m2 = off["by_key"].get(k)
        if m2 is None or m2 == m:
            continue
        i = next((i for i in range(min(len(m), len(m2))) if m[i] != m2[i]), min(len(m), len(m2)))
        tags, t_on = on["detail"][k]
        t_off = off["detail"][k][1]
        side = i % 2
        own = [x for x in t_on[side:i:2] if x is not None]
        clock = base - sum(own) + inc * len(own)
        mover = tags.get("White") if side == 0 else tags.get("Black")
        at = lambda t: f"{t[i]:.2f} s" if i < len(t) and t[i] is not None else "-"
        rows.append(f"  - game {k}: ply {i + 1}, {mover} to move with {clock:.1f} s left (option on); "
                    f"that move took {at(t_on)} on, {at(t_off)} off")
    return rows


MARKS = (20, 30, 40, 60)


def human_clocks(csv, base, inc):
    """People in held-out games at this control: each game side's clock at the end, and the clocks
    after their own move n (fullmove n) for n in MARKS."""
    last, after = {}, {}
    with open(csv) as f:
        next(f)
        for line in f:
            p = line.split(",")
            game, ply = int(p[0]), int(p[1])
            if game % 2 == 0 or float(p[4]) != base or float(p[5]) != inc:
                continue
            left = float(p[6]) - float(p[7]) + inc
            key = (game, ply % 2)
            if key not in last or ply > last[key][0]:
                last[key] = (ply, left)
            if ply // 2 + 1 in MARKS:
                after.setdefault(ply // 2 + 1, []).append(left)
    return [v[1] for v in last.values()], after


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def main():
    d, base, inc = Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    on = summarise(sorted(d.glob("on-chunk*.pgn")), base, inc)
    off = summarise(sorted(d.glob("off-chunk*.pgn")), base, inc)
    same = sum(1 for k, m in on["by_key"].items() if off["by_key"].get(k) == m)
    both = sum(1 for k in on["by_key"] if k in off["by_key"])
    lines = [f"# Human Time games at tc={base:g}+{inc:g} ({d})", ""]
    for name, s in (("Human Time on", on), ("Human Time off", off)):
        mean = s["time"] / max(1, s["moves"])
        lines.append(
            f"- {name}: {s['games']} games, {s['forfeits']} time forfeits, {s['moves']} timed moves, "
            f"mean {mean:.2f} s per move; clock left at the end (per side, s): {quantiles(s['end'])}"
        )
    lines.append(f"- moves identical on and off (same game seeds): {same} of {both} games")
    lines.extend(divergences(on, off, base, inc))
    if len(sys.argv) > 4:
        h, hp = human_clocks(sys.argv[4], base, inc)
        lines.append(
            f"- people (FIDE online, held-out games at {base:g}+{inc:g}): {len(h)} game sides; "
            f"clock left at the end (s): {quantiles(h)}"
        )
        lines.append("")
        lines.append("Clock left after the side's own move n (median s, game sides that reached it; the engines' first")
        lines.append("8 moves are book moves, off the clock):")
        lines.append("")
        lines.append("| after move | people | Human Time on | Human Time off |")
        lines.append("|---|---|---|---|")
        for n in MARKS:
            cell = lambda v: f"{median(v):.1f} ({len(v)})" if v else "-"
            lines.append(f"| {n} | {cell(hp.get(n, []))} | {cell(on.get('after', {}).get(n, []))} | "
                         f"{cell(off.get('after', {}).get(n, []))} |")
        lines.append("")
        if h and on["end"]:
            lines.append(
                f"- clock left at the end, Human Time on vs people: KS {ks(on['end'], h):.3f} "
                f"({len(on['end'])} and {len(h)} game sides)"
            )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
