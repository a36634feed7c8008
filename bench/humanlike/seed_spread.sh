#!/usr/bin/env bash
# How much a ladder point's numbers on its band move with the match seed alone (issue 6): the
# published tables use seed 777; this runs seeds 1..K for each BAND:ELO and writes one row per seed
# to bench/results/humanlike-ladder-seeds.csv (columns of `sparring calibrate check` plus `seed`).
#   bench/humanlike/seed_spread.sh K BAND:ELO ...    e.g. seed_spread.sh 8 1800:1900 2000:2100 2200:2300
set -euo pipefail
cd "$(dirname "$0")/../.."
bench/unpack.sh   # the compressed human-position caches and self-play games (no-op once unpacked)
K=${1:?number of seeds}; shift
cargo build --release --locked --quiet
BIN=target/release/sparring
OUT=bench/results/humanlike-ladder-seeds.csv
tmp=$(mktemp -d)
first=1
for p in "$@"; do
  for s in $(seq 1 "$K"); do
    $BIN calibrate check --oracle bench/humanlike/oracle.jsonl --points "$p" --seed "$s" --out "$tmp/one.csv" 2>/dev/null
    if [ $first = 1 ]; then head -1 "$tmp/one.csv" | sed 's/$/,seed/' > "$tmp/all.csv"; first=0; fi
    tail -n +2 "$tmp/one.csv" | sed "s/\$/,$s/" >> "$tmp/all.csv"
    tail -1 "$tmp/all.csv"
  done
done
mv "$tmp/all.csv" "$OUT"
rm -rf "$tmp"
echo "wrote $OUT"
