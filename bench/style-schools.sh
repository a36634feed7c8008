#!/usr/bin/env bash
# The schools against people (issue 24 §4): each school's ladder point against the FICS players of
# its band, on the same positions (positions before those players' moves, `sparring style --band`),
# paired: point − humans per rate, 95 % bootstrap over games. The rows the schools' dropped terms
# should move are structure damage and passed-pawn pushes (PawnStructure and PassedPawns are off
# below 2000) and trades (Imbalance is off below 2400).
#
#   bench/style-schools.sh        # resumable: records in bench/results/style/schools/
#   SCHOOLS_POSITIONS=1000 SCHOOLS_BIN=target/x/sparring bench/style-schools.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pgn=${STYLE_PGN:-../shared/data/human/fics-blitz-dev.pgn}
n=${SCHOOLS_POSITIONS:-1000}
[ -f "$pgn" ] || { echo "bench/style-schools.sh: $pgn not found (needs ../shared/data)" >&2; exit 1; }
if [ -n "${SCHOOLS_BIN:-}" ]; then bin=$SCHOOLS_BIN; else cargo build --release --quiet; bin=target/release/sparring; fi
out=bench/results/style/schools
mkdir -p "$out"
# point band school
for row in "1100 1000-1199 italian" "1500 1400-1599 italian" "1900 1800-1999 italian" \
           "2100 2000-2199 philidor" "2300 2200-2399 romantic" "2400 2400-2599 modern"; do
  set -- $row
  elo=$1 band=$2
  common=(--band "$band" --positions "$n" --seed 1)
  echo "== band $band: humans" >&2
  "$bin" style "$pgn" "${common[@]}" --humans --record "$out/humans-$band.tsv" --json > "$out/humans-$band.json"
  echo "== band $band: point $elo" >&2
  "$bin" style "$pgn" "${common[@]}" --jobs "${SCHOOLS_JOBS:-2}" --option UCI_LimitStrength=true \
    --option "UCI_Elo=$elo" --record "$out/point-$elo.tsv" --compare "$out/humans-$band.tsv" --json \
    > "$out/point-$elo.json.part" && mv "$out/point-$elo.json.part" "$out/point-$elo.json"
done
bench/py.sh bench/style_schools_report.py
