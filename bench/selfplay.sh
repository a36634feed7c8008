#!/usr/bin/env bash
# One self-play pairing with the match runner, then each side's mean regret against the strong
# oracle (sparring strength, depth 6) and time per move.
# Usage: bench/selfplay.sh LABEL "ENGINE-A OPTIONS" "ENGINE-B OPTIONS" [GAME_PAIRS] [EACH]
#   e.g. bench/selfplay.sh strong-vs-reduced "name=strong option.Profile=strong" "name=reduced option.Profile=reduced"
set -euo pipefail
cd "$(dirname "$0")/.."
label=$1; a=$2; b=$3; pairs=${4:-50}; each=${5:-nodes=50000}
cargo build --release --quiet
bin=${SPARRING_BIN:-target/release/sparring}
out=bench/results/selfplay/$label
mkdir -p bench/results/selfplay
rm -f "$out.pgn"
# shellcheck disable=SC2086
./target/release/sparring match -engine cmd="$bin" $a -engine cmd="$bin" $b \
  -each $each option.Hash=16 -games 2 -rounds "$pairs" -repeat -concurrency "${CONCURRENCY:-1}" \
  -openings file=../shared/data/openings/8moves_v3.pgn format=pgn order=random -srand 7 \
  -pgnout "$out.pgn" -jsonout "$out.json" -progress quiet > "$out.txt"
tail -12 "$out.txt"
./target/release/sparring strength "$out.pgn" --depth 6 --plies --format csv --quiet > "$out.plies.csv" 2>/dev/null
bench/py.sh bench/selfplay_stats.py "$out.pgn" "$out.plies.csv" | tee "$out.stats.csv"
