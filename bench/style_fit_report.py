#!/usr/bin/env python3
# Standard library only (run with bench/py.sh or python3).
"""Avatars fitted to players (bench/style-fit.sh): from bench/results/style/fits/ (or argv[1]) writes
bench/results/style/fits.md (or argv[2]). Per player, on the second half of their games (the fits saw only the
first): the match of their moves under the plain point, the two fitted avatars (highest likelihood,
<p>.avt; highest expected match, <p>-match.avt) and each shipped avatar (expected match, top-1
match, log-likelihood per move; paired against the plain point and against each fitted avatar,
95 % bootstrap over games), and the fingerprint of their moves next to the plain point's and the
fitted avatars' on the same positions (each minus the player's, paired), with the fingerprint
distance: the sum over the move rates of |engine − player| in percentage points."""
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# argv[1], argv[2]: another folder of fits and the table to write (a newer ladder's re-check).
D = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "bench/results/style/fits"
OUT = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else ROOT / "bench/results/style/fits.md"
RATES = ["capture", "check", "king_zone", "pawn_storm", "sacrifice", "queen_trade", "piece_trade", "castles",
         "structure_damage", "passed_push", "retreat"]
METRICS = [("expected_match", 100, "expected match %"), ("top1_match", 100, "top-1 match %"),
           ("log_likelihood", 1, "log-likelihood")]
# (label, avatar file suffix, vs-file, style file)
FITS = [("fit: likelihood", ".avt", "vs-fitted", "style-fitted"), ("fit: match", "-match.avt", "vs-match", "style-match")]


def cell(v, scale, digits=2):
    d = v["diff"] if "diff" in v else v["value"]
    s = f"{d * scale:+.{digits}f} [{v['lo'] * scale:+.{digits}f}, {v['hi'] * scale:+.{digits}f}]"
    return f"**{s}**" if v["lo"] > 0 or v["hi"] < 0 else s


def load(name):
    f = D / name
    return json.loads(f.read_text()) if f.exists() else None


def seeded_diffs(p, st):
    """Per rate, the engine − player difference of style file `st` averaged over the engine seeds
    present (seed 1 is the plain file, more are `-seed<N>` files from FIT_SEEDS), and the seed count."""
    runs = [load(f"{p}-{st}.json")] + [json.loads(f.read_text()) for f in sorted(D.glob(f"{p}-{st}-seed*.json"))]
    runs = [r for r in runs if r]
    out = {}
    for k in RATES:
        vals = [r2["diff"]["value"] for r in runs for r2 in r["rows"] if r2["key"] == k and r2["diff"]["value"] is not None]
        if len(vals) == len(runs) and vals:
            out[k] = sum(vals) / len(vals)
    return out, len(runs)


def facts(name):
    """{game: {rate: (n, hits)}} of a `style --facts-out` file, or None when it is missing."""
    f = D / name
    if not f.exists():
        return None
    lines = f.read_text().splitlines()
    head = lines[0].split("\t")
    out = {}
    for line in lines[1:]:
        row = line.split("\t")
        game = out.setdefault(int(row[1]), {k: [0, 0] for k in RATES})
        for k in RATES:
            x = row[head.index(k)]
            if x != "-":
                game[k][0] += 1
                game[k][1] += x == "1"
    return out


def runs_of(p, stem):
    """The facts of record `stem` (plain, fitted, match) under every engine seed present."""
    found = [facts(f"{p}-{stem}.facts.tsv")] + [facts(f.name) for f in sorted(D.glob(f"{p}-{stem}-seed*.facts.tsv"))]
    return [r for r in found if r]


def distance_diff(p, stem):
    """Fingerprint distance of record `stem` less the plain point's (each rate's engine − player
    difference averaged over the engine seeds both have, |·| summed over the rates), with a 95 %
    interval from 2000 resamples of the player's games; None without facts files."""
    humans, plain, mine = facts(f"{p}-humans.facts.tsv"), runs_of(p, "plain"), runs_of(p, stem)
    seeds = min(len(plain), len(mine))
    if not humans or seeds == 0:
        return None
    plain, mine = plain[:seeds], mine[:seeds]
    games = sorted(humans)

    def dist(sample, runs):
        total = 0.0
        for k in RATES:
            n = sum(humans[g][k][0] for g in sample)
            if n == 0:
                continue
            h = sum(humans[g][k][1] for g in sample) / n
            total += abs(sum(sum(r[g][k][1] for g in sample if g in r) / n - h for r in runs) / len(runs))
        return 100 * total

    value = dist(games, mine) - dist(games, plain)
    rng = random.Random(1)
    stats = []
    for _ in range(2000):
        sample = [rng.choice(games) for _ in games]
        stats.append(dist(sample, mine) - dist(sample, plain))
    stats.sort()
    return value, stats[50], stats[1949], seeds


def plain_null(p):
    """Is the player's fingerprint told apart from the plain point's at all? The plain point's seed-1
    distance to the player, and its distribution were the two exchangeable: each of 2000 draws swaps
    the player's and the engine's moves of a random half of the games (same positions, so the same
    denominators). Returns (observed, null median, null 95th percentile, p) or None without facts."""
    humans, plain = facts(f"{p}-humans.facts.tsv"), facts(f"{p}-plain.facts.tsv")
    if not humans or not plain:
        return None
    games = sorted(humans)
    n = {k: sum(humans[g][k][0] for g in games) for k in RATES}
    d = {g: {k: plain.get(g, {}).get(k, [0, 0])[1] - humans[g][k][1] for k in RATES} for g in games}

    def dist(signs):
        return 100 * sum(abs(sum(s * d[g][k] for g, s in zip(games, signs))) / n[k] for k in RATES if n[k])

    observed = dist([1] * len(games))
    rng = random.Random(1)
    null = sorted(dist([rng.choice((1, -1)) for _ in games]) for _ in range(2000))
    p_value = (1 + sum(x >= observed for x in null)) / (1 + len(null))
    return observed, null[1000], null[1899], p_value


def player_section(p):
    ev = load(f"{p}-eval.json")
    if not ev:
        return [], None
    rows = {Path(r["avatar"]).name: r for r in ev["rows"]}
    fitted = [(label, rows.get(f"{p}{suffix}"), vs, st) for label, suffix, vs, st in FITS]
    fitted = [f for f in fitted if f[1]]
    mine = {id(f[1]) for f in fitted}
    shipped = [r for r in ev["rows"] if id(r) not in mine]
    any_row = fitted[0][1]
    md = [f"## {p}", "", f"{ev['games']} games (second half), {ev['positions']} positions, ladder point {ev['point']}.", "",
          "| setting | " + " | ".join(f"{t} | − plain" for _, _, t in METRICS) + " |",
          "|---|" + "---|---|" * len(METRICS),
          "| plain point | " + " | ".join(f"{any_row[k]['base'] * s:.2f} | " for k, s, _ in METRICS) + " |"]
    for r, name in [(f[1], f"**{f[0]}**") for f in fitted] + [(r, Path(r["avatar"]).stem) for r in shipped]:
        md.append(f"| {name} | " + " | ".join(f"{r[k]['avatar'] * s:.2f} | {cell(r[k], s)}" for k, s, _ in METRICS) + " |")
    md.append("")
    below = {}
    for label, _, vs, _ in fitted:
        v = load(f"{p}-{vs}.json")
        if not v:
            continue
        md += [f"Each shipped avatar − {label} (same decisions):", "",
               "| shipped | expected match pp | top-1 pp | log-likelihood |", "|---|---|---|---|"]
        for r in v["rows"]:
            md.append(f"| {Path(r['avatar']).stem} | " + " | ".join(cell(r[k], s) for k, s, _ in METRICS) + " |")
        below[label] = (sum(r["expected_match"]["hi"] < 0 for r in v["rows"]),
                        sum(r["expected_match"]["value" if "value" in r["expected_match"] else "diff"] < 0
                            for r in v["rows"]), len(v["rows"]))
        md.append("")
    plain = load(f"{p}-style-plain.json")
    dist = {}
    styles = [(label, load(f"{p}-{st}.json")) for label, _, _, st in fitted]
    styles = [(label, s) for label, s in styles if s]
    if plain and styles:
        pr = {r["key"]: r for r in plain["rows"]}
        sr = [(label, {r["key"]: r for r in s["rows"]}) for label, s in styles]
        md += ["Fingerprint on the same positions (the player's moves there; engine − player in pp, paired "
               "bootstrap over games):", "",
               "| rate | positions | player % | plain − player | " + " | ".join(f"{label} − player" for label, _ in sr) + " |",
               "|---|---|---|---|" + "---|" * len(sr)]
        total = {"plain": 0.0, **{label: 0.0 for label, _ in sr}}
        closer = {label: 0 for label, _ in sr}
        for k in RATES:
            a = pr.get(k)
            if not a or a["diff"]["value"] is None or any(not s.get(k) or s[k]["diff"]["value"] is None for _, s in sr):
                continue
            total["plain"] += abs(a["diff"]["value"])
            for label, s in sr:
                total[label] += abs(s[k]["diff"]["value"])
                closer[label] += abs(s[k]["diff"]["value"]) < abs(a["diff"]["value"])
            md.append(f"| {k} | {a['a']['n']:.0f} | {100 * a['a']['value']:.1f} | {cell(a['diff'], 100, 1)} | "
                      + " | ".join(cell(s[k]["diff"], 100, 1) for _, s in sr) + " |")
        md += ["", "Fingerprint distance (Σ |engine − player| over the rates, pp): plain "
               f"{100 * total['plain']:.1f}; " + "; ".join(
                   f"{label} {100 * total[label]:.1f} (closer than plain on {closer[label]} of {len(RATES)} rates)"
                   for label, _ in sr) + ".", ""]
        dist = {label: (100 * total["plain"], 100 * total[label], closer[label]) for label, _ in sr}
        base, n = seeded_diffs(p, "style-plain")
        if n > 1:
            line = []
            for label, _, _, st in fitted:
                mine, m = seeded_diffs(p, st)
                keys = [k for k in RATES if k in base and k in mine]
                a, b = sum(abs(base[k]) for k in keys), sum(abs(mine[k]) for k in keys)
                c = sum(abs(mine[k]) < abs(base[k]) for k in keys)
                line.append(f"{label} {100 * b:.1f} against plain {100 * a:.1f} ({c} of {len(keys)} rates closer; {m} seeds)")
                if label in dist and m == n:
                    dist[label] = dist[label] + (100 * a, 100 * b, n)
            md += ["Over the engine seeds present (each rate's difference averaged over the seeds, then summed): "
                   + "; ".join(line) + ".", ""]
    best = max(shipped, key=lambda r: r["expected_match"]["avatar"])
    change = {label: distance_diff(p, "match" if label.endswith("match") else "fitted") for label, _, _, _ in fitted}
    null = plain_null(p)
    if null:
        md += [f"Told apart from the plain point at all? Its distance to the player, {null[0]:.1f}, against "
               f"{null[1]:.1f} (median; 95th percentile {null[2]:.1f}) when the player's and the plain point's moves "
               f"of a random half of the games are swapped (2000 draws): p = {null[3]:.3f}.", ""]
    return md, (p, ev, fitted, best, below, dist, change, null)


def settings(p, label):
    """The pull and style hold a fit records in its .avt header ("-" for older fits without a hold)."""
    f = D / (f"{p}-match.avt" if label.endswith("match") else f"{p}.avt")
    text = f.read_text() if f.exists() else ""
    pull = re.search(r"pull ([0-9.]*[0-9])", text)
    hold = re.search(r"style hold ([0-9.]*[0-9])", text)
    cv = " (cv)" if "cross-validation" in text else ""
    centre = re.search(r"centre ([^,]*), pull", text)
    at = f" at {centre.group(1)}" if centre and centre.group(1) != "plain point" else ""
    return f"{pull.group(1) if pull else '-'}{cv}{at} / {hold.group(1) if hold else '0'}"


def held_out(p, label):
    """The two-fold held-out expected match on the first half that a fit's .avt header records
    (None for fits made before session 42)."""
    f = D / (f"{p}-match.avt" if label.endswith("match") else f"{p}.avt")
    m = re.search(r"held-out expected match of these settings ([0-9.]+) %", f.read_text() if f.exists() else "")
    return float(m.group(1)) if m else None


def verdict(r, below, dist):
    """Issue 24 §5 for one fit: its expected match clearly above the plain point's, every shipped
    avatar's clearly below its own (paired), and its fingerprint distance (seed 1) below plain's."""
    misses = []
    if r["expected_match"]["lo"] <= 0:
        misses.append("match not clearly above plain")
    if below is None or below[0] < below[2]:
        misses.append("shipped not all clearly below" if below else "no shipped comparison")
    if dist is None or dist[1] >= dist[0]:
        misses.append("fingerprint not closer")
    return "**met**" if not misses else ", ".join(misses)


def main():
    players = sorted({f.name[:-4] for f in D.glob("*.avt") if not f.name.endswith("-match.avt")}, key=str.lower)
    md = ["# Avatars fitted to players (generated by bench/style_fit_report.py)", "",
          "`sparring avatar fit` on the first half of each player's games in fics-blitz-dev.pgn, twice "
          "(`--objective likelihood`, the default, and `--objective match`), then everything below on the "
          "second half, which the fits never saw (bench/style-fit.sh). Match: per move of the player, "
          "under the ladder point's choice model as the fitter models it (Boltzmann over quiescence "
          "values, human move model with the avatar's style tilt, slips); differences paired over the "
          "same decisions, 95 % bootstrap over games; **bold** where the interval excludes 0. "
          "Pull / hold: each fit's pull towards its centre (100 %, or the shipped avatar named after "
          "'at' where `avatar fit --centre` chose one; (cv): chosen by two-fold cross-validation over the "
          "first half's games) and style hold (`avatar fit --hold`), from its .avt header. Fingerprint "
          "distance: Σ |engine − player| over the rates, engine seed 1, and where the folder holds more "
          "engine seeds (FIT_SEEDS) the same with each rate's difference averaged over them; its change "
          "(fit − plain, negative = closer to the player) with a 95 % interval from resampling the player's "
          "games (needs the `style --facts-out` files the script writes since session 37). §5: the issue's "
          "target for that fit (expected match clearly above plain, every shipped avatar clearly below the fit, "
          "fingerprint distance below plain's). The percentage after a fit's name: its settings' expected match on "
          "the first half's games when fitted on the other of two folds (the .avt header; fits since session 42), "
          "and **chosen** marks the fit of the two with the higher one: a choice made without the second half. "
          "Noise floor: the "
          "plain point's seed-1 distance were its moves and the player's exchangeable (the median over 2000 "
          "draws that swap the two in a random half of the games), and p, how often such a draw is at least "
          "as far as the plain point is: where p is large the plain point already plays the player's "
          "fingerprint within what the games can tell, and no fit can come clearly closer.", ""]
    body, summary = [], []
    for p in players:
        part, s = player_section(p)
        body += part
        if s:
            summary.append(s)
    md += ["## Summary", "",
           "| player | point | positions | fit | pull / hold | expected match: plain → fit | fit − plain | best shipped − plain "
           "| shipped clearly below / below the fit | fingerprint distance plain → fit | distance fit − plain [95 %] "
           "| plain's distance: noise floor [95th pct], p | §5 |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    chosen_lines = []
    for p, ev, fitted, best, below, dist, change, null in summary:
        scores = {label: held_out(p, label) for label, _, _, _ in fitted}
        known = {k: v for k, v in scores.items() if v is not None}
        chosen = max(known, key=lambda k: (known[k], k == "fit: likelihood")) if len(known) == len(scores) else None
        for label, r, _, _ in fitted:
            b = below.get(label)
            d = dist.get(label)
            c = change.get(label)
            name = label
            if scores[label] is not None:
                name += f" ({scores[label]:.2f} %{', **chosen**' if label == chosen else ''})"
            if label == chosen:
                chosen_lines.append(f"{p} {label[5:]}: {verdict(r, b, d)}")
            if c is None:
                c_cell = "-"
            else:
                c_cell = f"{c[0]:+.1f} [{c[1]:+.1f}, {c[2]:+.1f}] ({c[3]} seeds)"
                if c[1] > 0 or c[2] < 0:
                    c_cell = f"**{c_cell}**"
            md.append(
                f"| {p} | {ev['point']} | {ev['positions']} | {name} | {settings(p, label)} | {100 * r['expected_match']['base']:.2f} → "
                f"{100 * r['expected_match']['avatar']:.2f} | {cell(r['expected_match'], 100)} | "
                f"{Path(best['avatar']).stem} {cell(best['expected_match'], 100)} | "
                f"{'-' if b is None else f'{b[0]} / {b[1]} of {b[2]}'} | "
                f"{'-' if d is None else f'{d[0]:.1f} → {d[1]:.1f} ({d[2]} rates closer)'}"
                f"{'' if d is None or len(d) < 6 else f'; over {d[5]} seeds {d[3]:.1f} → {d[4]:.1f}'} | {c_cell} | "
                f"{'-' if null is None else f'{null[1]:.1f} [{null[2]:.1f}], p = {null[3]:.3f}'} | "
                f"{verdict(r, b, d)} |")
    md.append("")
    if chosen_lines:
        met = sum(line.endswith("**met**") for line in chosen_lines)
        md += [f"The fit each player's first half chooses (the higher held-out expected match): §5 met for {met} of "
               f"{len(chosen_lines)} players ({' · '.join(chosen_lines)}).", ""]
    OUT.write_text("\n".join(md + body) + "\n")
    print(f"wrote {OUT} ({len(summary)} players)")


if __name__ == "__main__":
    main()
