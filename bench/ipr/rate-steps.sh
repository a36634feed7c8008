#!/usr/bin/env bash
# Issue 23's estimator cross-check: the difficulty-aware estimator (`sparring strength ipr`) rates
# each ladder point from its own self-play step games (`sparring calibrate steps` writes them).
#
#   bench/ipr/rate-steps.sh STEPS_DIR OUT_DIR [BIN]
#
# STEPS_DIR holds step-HI-vs-LO.pgn files; steps closer than 200 points are skipped (both points in
# one band). Per file: PER_POINT (default 400) positions per point after move 8 (seed 1), every legal move scored by the
# internal oracle at depth 8 (the estimator's own), cached in OUT_DIR, so a rerun resumes. Writes
# OUT_DIR/ladder-selfplay.{txt,csv}: one row per point, its IPR with a 95 % game-bootstrap interval
# (BOOTSTRAP resamples, default 200; JOBS oracle jobs, default 1).
# About 20 minutes of one core for the eight 200-point steps of a 200-game run.
# POINTS="900 1100 ...": rate only these points, each from every step file it plays in (so the
# 100-point steps between interpolated points can serve: a point's games against both neighbours);
# a file is skipped when none of its two points is listed, or when both are and share a band.
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:?usage: bench/ipr/rate-steps.sh STEPS_DIR OUT_DIR [BIN]}
out=${2:?usage: bench/ipr/rate-steps.sh STEPS_DIR OUT_DIR [BIN]}
BIN=${3:-target/release/sparring}
JOBS=${JOBS:-1}
PER_POINT=${PER_POINT:-400}
mkdir -p "$out"
for f in "$steps"/step-*-vs-*.pgn; do
    n=$(basename "$f" .pgn)
    hi=$(echo "$n" | sed -E 's/step-([0-9]+)-vs-([0-9]+)/\1/')
    lo=$(echo "$n" | sed -E 's/step-([0-9]+)-vs-([0-9]+)/\2/')
    players=()
    for p in $hi $lo; do
        if [ -z "${POINTS:-}" ] || [[ " $POINTS " == *" $p "* ]]; then players+=(--player "elo$p=$p"); fi
    done
    [ ${#players[@]} -gt 0 ] || { echo "skipped: $n (neither point listed in POINTS)"; continue; }
    [ ${#players[@]} -eq 4 ] && [ $((hi - lo)) -lt 200 ] && { echo "skipped: $n (points less than 200 apart share a band)"; continue; }
    [ -s "$out/$n.positions.jsonl" ] || $BIN humanlike sample --pgn "$f" --out "$out/$n.positions.jsonl" \
        --per-band "$PER_POINT" --bands 800-2600 "${players[@]}" --seed 1
    $BIN humanlike oracle --positions "$out/$n.positions.jsonl" --out "$out/$n.oracle.jsonl" --depth 8 --jobs "$JOBS"
done
$BIN strength ipr rate "$out"/step-*.oracle.jsonl --group rating --bootstrap "${BOOTSTRAP:-200}" --csv "$out/ladder-selfplay.csv" | tee "$out/ladder-selfplay.txt"
