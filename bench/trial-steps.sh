#!/usr/bin/env bash
# Self-play steps of candidate ladders in a trial folder (issue 23's hand screens, e.g.
# bench/results/ladder-v20/trials/session39-1900/): each job plays CAND.toml's points with
# `sparring calibrate steps` and writes CAND-steps-SEED[-POINTS].csv beside it.
#
#   bench/trial-steps.sh DIR DEFAULT_POINTS CAND@SEED[@P1,P2,...] ...
#   e.g. bench/trial-steps.sh bench/results/ladder-v20/trials/session39-1900 1700,1900 G10@44 G10@2027@1700,1900,2100
#
# A job without points plays DEFAULT_POINTS and its file has no points suffix. GAMES games a step
# (default 200), two at a time; BIN the binary (default target/release/sparring; freeze a copy for
# long runs). Resumable: a CSV that exists is kept, an unfinished one is played again.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: bench/trial-steps.sh DIR DEFAULT_POINTS CAND@SEED[@P1,P2,...] ..."
D=${1:?$usage}
default=${2:?$usage}
shift 2
BIN=${BIN:-target/release/sparring}
for job in "$@"; do
  IFS=@ read -r c s pts <<< "$job"
  pts=${pts:-$default}
  out=$D/$c-steps-$s$( [ "$pts" = "$default" ] || echo "-${pts//,/-}" ).csv
  [ -s "$out" ] && { echo "kept $out"; continue; }
  "$BIN" calibrate steps --ladder "$D/$c.toml" --points ${pts//,/ } --games "${GAMES:-200}" --concurrency 2 \
    --srand "$s" --out "$out.part" >/dev/null 2>&1
  mv "$out.part" "$out"
  echo "$c seed $s: $(tail -n +2 "$out" | cut -d, -f1,2,5 | paste -sd' ')"
done
