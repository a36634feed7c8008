#!/usr/bin/env python3
"""Writes bench/results/INDEX.md: each result under bench/results -> the script (and command) that made
it -> the ladder/search/model version it measured -> the commit that last wrote it.

Standard library only. Run from anywhere:  bench/py.sh bench/results_index.py  (needs git).

The script of a result is the override below when there is one, else every bench script that names the
result's path; the version is the override's, else the one named in the path (`ladder-v20`) or in the
message of the commit that last wrote the result; the commit is `git log -1` of the path. A result
whose script cannot be found is listed with "?" so that it shows.
"""
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

# path (relative to bench/results) -> (command that made it, what it measured). Paths not here are
# matched to scripts by name.
OVERRIDES = {
    "ladder-v20": ("bench/recalibrate.sh bench/results/ladder-v19/ladder-v19.toml 20 (stages fit .. table; page by bench/humanlike/ladder_report.py)", "ladder v20, human model v6, search signature 1621899"),
    "ladder-steps.csv": ("bench/recalibrate.sh ... steps (copies ladder-v21/steps.csv: the nine points' steps and the fourteen 100-point steps between interpolated points, 400 held-out games each)", "ladder v21"),
    "humanlike-ladder.md": ("the published ladder page: v21 on top (by hand from ladder-v21/), v20's page below it (bench/humanlike/ladder_report.py)", "ladder v21, v20 beside it"),
    "human-model": ("bench/human-model-ceiling.sh, bench/human-model-curve.sh; `sparring model eval`; maia3/ and v20-with-v7/: bench/human-model/maia3-grid.sh, `calibrate model-check`", "human models v6 and v7 (Maia-3)"),
    "ladder-v21": ("bench/recalibrate.sh bench/results/ladder-v21/ladder-v21-base.toml 21 (stages fit, check, steps; candidates by `calibrate model-check --part fit`)", "ladder v21 (built in), human model v7"),
    "issue-59": ("bench/results/issue-59/runall.sh, runall2.sh (`sparring match` at 10+0.1 and 60+0 vs Stockfish 15.1, Ethereal 12, Toga II), `sparring clock curves`", "search generation 6, time manager with the 40-move sudden-death share"),
    "estimate-v3": ("bench/estimate/v3.sh (caches), v3-fit.sh (fits, comparisons, floor, throughput, pack)", "estimator v3, models `v3` and `v3-fide` (default `v3`)"),
    "human-time": ("bench/human-time.sh (extract, fit, check); games: bench/human-time-games.sh", "time model v3"),
    "fide": ("bench/human-time.sh / bench/estimate/game-model.sh on ../shared/data FIDE games", "time model v3, estimator v2"),
    "estimate-game": ("bench/estimate/game-model.sh (FICS)", "estimator v2, model `game`"),
    "estimate-game-fide": ("bench/estimate/game-model.sh (FIDE online games)", "estimator v2, model `fide`"),
    "estimate-throughput.md": ("bench/estimate/throughput.sh", "estimator v2"),
    "estimate-refit.tar.xz": ("bench/estimate/fics-refit.sh 6 3 (and 6 1 with the material-only eval); the four reports and logs packed", "estimator `refit` line"),
    "vs-stockfish-2400.txt": ("bench/vs-stockfish.sh 2400 (10+0.1, 100 games)", "full strength, search signature 1621899"),
    "vs-stockfish-2400.json": ("bench/vs-stockfish.sh 2400 (10+0.1, 100 games)", "full strength, search signature 1621899"),
    "wac-300-1000ms.txt": ("bench/wac.sh (sparring solve WAC, 1000 ms)", "full strength"),
    "match-speed.csv": ("bench/match-speed.sh", "runner speed"),
    "memory.txt": ("bench/memory.sh", "engine memory"),
    "tb-conversion.md": ("bench/tb-conversion.sh", "tablebase conversion"),
    "profile-scale": ("bench/profile-scale.sh", "profiles v2 on the ladder v20 scale"),
    "selfplay": ("bench/profiles.sh, bench/ladder.sh, bench/selfplay.sh", "profiles and ladder steps"),
    "stress": ("bench/stress.sh", "fault counts"),
    "ipr": ("bench/ipr/run.sh, bench/ipr/rate-steps.sh", "estimator `ipr`"),
    "style.md": ("bench/style.sh, bench/style-fit.sh, bench/style-strength.sh, bench/style-schools.sh, bench/style-ablation.sh", "style fingerprints and avatars"),
}


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def entries():
    tracked = git("ls-files", "bench/results").splitlines()
    seen = []
    for path in tracked:
        parts = path.split("/")[2:]
        if parts[0] in ("INDEX.md",):
            continue
        # style/ is one folder of many results: index its children.
        key = "/".join(parts[:2]) if parts[0] == "style" and len(parts) > 1 else parts[0]
        if key not in seen:
            seen.append(key)
    return seen


def scripts_naming(key):
    stem = re.sub(r"\.(csv|md|txt|json|svg|log|tar\.xz)$", "", key.split("/")[-1])
    hits = []
    for script in sorted((ROOT / "bench").rglob("*")):
        if script.suffix not in (".sh", ".py") or "results" in script.parts or ".venv" in script.parts:
            continue
        if script.name == "results_index.py":
            continue
        text = script.read_text(errors="replace")
        if key in text or (len(stem) > 5 and stem in text):
            hits.append(str(script.relative_to(ROOT)))
    return hits


def version(key, subject):
    m = re.search(r"ladder-v(\d+)", key)
    if m:
        return f"ladder v{m.group(1)}"
    m = re.search(r"(ladder v\d+|model-v\d+|time-v\d+|v\d+)", subject)
    return m.group(1) if m else "?"


def main():
    rows = []
    for key in entries():
        path = f"bench/results/{key}"
        commit = git("log", "-1", "--format=%h %ad %s", "--date=short", "--", path)
        short, _, rest = commit.partition(" ")
        date, _, subject = rest.partition(" ")
        if key in OVERRIDES:
            cmd, what = OVERRIDES[key]
        else:
            found = scripts_naming(key)
            cmd = ", ".join(found[:3]) if found else "?"
            what = version(key, subject)
        subject = subject.replace("|", "/")
        if len(subject) > 90:
            subject = subject[:87] + "..."
        rows.append(f"| `{key}` | {cmd} | {what} | `{short}` {date}: {subject} |")
    out = [
        "# bench/results: what ships now, and where each result came from",
        "",
        "Generated by `bench/py.sh bench/results_index.py` (do not edit by hand). Superseded results are in the",
        "archive (`bench/ARCHIVE.md`); folders with a `raw.tar.xz` keep their raw files packed there.",
        "",
        "| result | made by | measures | last written by |",
        "|---|---|---|---|",
        *rows,
        "",
    ]
    (RESULTS / "INDEX.md").write_text("\n".join(out))
    print(f"bench/results/INDEX.md: {len(rows)} results")


if __name__ == "__main__":
    main()
