#!/usr/bin/env python3
# Standard library only (python3 >= 3.11, no bench/.venv needed; run with bench/py.sh or python3).
"""Cross-check (a) with a position-set control: how much lower does the IPR rate a *fixed* player
on a ladder point's self-play positions than on the human positions it was calibrated on?

The estimator's strata (near-best move counts) do not capture everything that makes a position
hard. If engine games lead to positions that are harder in other ways, a player is rated lower
there than on people's positions, the ladder's points included. Fixed reference players
(Stockfish 15.1 `UCI_Elo` settings, `go movetime 50` on both position sets) measure that shift;
it depends on the player's strength, so each point is corrected by the shift of a reference as
strong as the point is on the human positions (linear between the two references around it,
the nearest one beyond their range): corrected = self-play IPR - shift.

Inputs (written by bench/ipr/run.sh):
  bench/results/ipr/ladder-selfplay.csv           the points on their self-play positions
  bench/results/ipr/ladder-human-positions.csv    the points on their band's human positions
  bench/results/ipr/stockfish-ELO.csv             each reference on the human positions
  bench/results/ipr/reference-ELO-selfplay.csv    each reference on every point's self-play positions
Output: bench/results/ipr/selfplay-reference-shift.csv and a markdown table on stdout.
Usage: bench/ipr/reference_shift.py [--dir DIR] [REFERENCE_ELO ...]   (default: bench/results/ipr,
       1500 1700 1900 2100 2300; DIR holds the self-play inputs and gets the output)

Interval of the corrected rating: the point's bootstrap sd and the shift's sd (the reference's
two bootstrap sds, interpolated like the shift) added as if independent -- conservative, since
the point and the reference are rated on the same positions -- +/- 1.96 sd.
"""
import csv
import math
import sys
from pathlib import Path

R = Path(__file__).resolve().parents[2] / "bench/results/ipr"
args = sys.argv[1:]
# --dir D: where the self-play inputs (ladder-selfplay.csv, reference-ELO-selfplay.csv) are and the
# output goes; the human-position ratings are always read from bench/results/ipr.
D = R
if "--dir" in args:
    i = args.index("--dir")
    D = Path(args[i + 1]).resolve()
    del args[i : i + 2]
REFS = [int(x) for x in (args or ["1500", "1700", "1900", "2100", "2300"])]


def rows(path):
    with open(path) as f:
        return {r["group"]: r for r in csv.DictReader(f)}


def sd(r):
    return (float(r["elo_hi"]) - float(r["elo_lo"])) / 3.92


points = rows(D / "ladder-selfplay.csv")
own = rows(R / "ladder-human-positions.csv")
human = {e: next(iter(rows(R / f"stockfish-{e}.csv").values())) for e in REFS}
selfplay = {e: rows(D / f"reference-{e}-selfplay.csv") for e in REFS}
# References ordered by their strength on the human positions.
order = sorted(REFS, key=lambda e: float(human[e]["elo"]))


def shift_at(level, g):
    """Shift (and its sd) of a reference as strong as `level` on the human positions: linear
    between the two references around it, the nearest one beyond their range."""
    pts = []
    for e in order:
        s = selfplay[e].get(g)
        if s is None:
            continue
        pts.append((float(human[e]["elo"]), float(s["elo"]) - float(human[e]["elo"]), math.hypot(sd(s), sd(human[e])), e))
    if not pts:
        return None
    if level <= pts[0][0]:
        return pts[0][1], pts[0][2], f"SF {pts[0][3]}"
    if level >= pts[-1][0]:
        return pts[-1][1], pts[-1][2], f"SF {pts[-1][3]}"
    for a, b in zip(pts, pts[1:]):
        if a[0] <= level <= b[0]:
            t = (level - a[0]) / (b[0] - a[0])
            return a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]), f"SF {a[3]}/{b[3]}"


out = []
for g, p in points.items():
    level = float(own[g]["elo"]) if g in own else float(g)
    got = shift_at(level, g)
    if got is None:
        continue
    shift, shift_sd, refs_used = got
    raw = float(p["elo"])
    corrected = raw - shift
    c_sd = math.hypot(sd(p), shift_sd)
    lo, hi = corrected - 1.96 * c_sd, corrected + 1.96 * c_sd
    out.append(
        {
            "point": g,
            "decisions": p["decisions"],
            "level_on_human_positions": round(level),
            "ipr_selfplay": round(raw),
            "ipr_selfplay_lo": round(float(p["elo_lo"])),
            "ipr_selfplay_hi": round(float(p["elo_hi"])),
            **{
                f"shift_sf{e}": (round(float(selfplay[e][g]["elo"]) - float(human[e]["elo"])) if g in selfplay[e] else "")
                for e in order
            },
            "references": refs_used,
            "shift": round(shift),
            "corrected": round(corrected),
            "corrected_lo": round(lo),
            "corrected_hi": round(hi),
            "set_elo_inside": "yes" if lo <= int(g) <= hi else "no",
        }
    )

with open(D / "selfplay-reference-shift.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
    w.writeheader()
    w.writerows(out)

print("References on the human positions: " + ", ".join(f"SF {e} {float(human[e]['elo']):.0f}" for e in order))
print()
print("| point | its IPR on human positions | self-play IPR [95 %] | shift of each reference (" + " / ".join(f"SF {e}" for e in order)
      + ") | reference(s) at its level | shift | corrected [95 %] | set Elo inside? |")
print("|---|---|---|---|---|---|---|---|")
for o in out:
    shifts = " / ".join(f"{o[f'shift_sf{e}']:+d}" if o[f"shift_sf{e}"] != "" else "–" for e in order)
    print(
        f"| {o['point']} | {o['level_on_human_positions']} | {o['ipr_selfplay']} [{o['ipr_selfplay_lo']}, {o['ipr_selfplay_hi']}] | "
        f"{shifts} | {o['references']} | {o['shift']:+d} | {o['corrected']} [{o['corrected_lo']}, {o['corrected_hi']}] | "
        f"{o['set_elo_inside']} |"
    )
inside = sum(o["set_elo_inside"] == "yes" for o in out)
print(f"\n{inside} of {len(out)} points have their set Elo inside the corrected interval.")
