#!/usr/bin/env bash
# Estimator v3 (issue 63): the caches the v3 models are fitted and tested on.
#
#   bench/estimate/v3.sh [POP:K ...]   (default: every chunk below, interleaved)
#
# A chunk POP:K is the games n of a population's file with n % 80 == K: K 1-2 lie in the fit part
# (game index i = n - 1, i % 10 in 0-6), 8 in the validation part (7), 9 and 10 in the test part
# (8-9) — the one split of every tool (`common::split`). About 160 FICS or 190 FIDE games a chunk.
# Each chunk gets two resumable caches in target/estimate-v3/POP/:
#   plies-K.csv       the depth-6 per-ply analysis (`sparring strength --plies --format csv`), the
#                     v2 features' input (seconds);
#   likelihood-K.csv  both sides' Maia-3 likelihood over the v3 grid (`sparring strength
#                     likelihood`), the v3 features' input (about 8-11 minutes a chunk on one core).
# Then bench/estimate/v3-fit.sh fits and reports. Run two of these with disjoint chunk lists to use
# two cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/sparring}
CHUNKS=${*:-"fics:1 fide:1 fics:8 fide:8 fics:9 fide:9 fics:2 fide:2 fics:10 fide:10"}
for chunk in $CHUNKS; do
  pop=${chunk%%:*}; k=${chunk##*:}
  case $pop in
    fics) PGN=../shared/data/human/fics-blitz-dev.pgn ;;
    fide) PGN=../shared/data/human/fide-online-dev.pgn ;;
    *) echo "unknown population $pop" >&2; exit 2 ;;
  esac
  C=target/estimate-v3/$pop; mkdir -p "$C"
  if [ ! -s "$C/plies-$k.csv" ]; then
    "$BIN" strength "$PGN" --model refit --depth 6 --pairing exact --every 80 --offset "$k" \
      --format csv --plies --quiet > "$C/plies-$k.csv.tmp" 2> "$C/plies-$k.log"
    mv "$C/plies-$k.csv.tmp" "$C/plies-$k.csv"
  fi
  # A chunk another run is computing (its .tmp exists) is left to it; remove a stale .tmp by hand.
  if [ ! -s "$C/likelihood-$k.csv" ] && [ ! -e "$C/likelihood-$k.csv.tmp" ]; then
    echo "[$(date +%T)] $pop:$k likelihood"
    "$BIN" strength likelihood "$PGN" --every 80 --offset "$k" > "$C/likelihood-$k.csv.tmp" 2> "$C/likelihood-$k.log"
    mv "$C/likelihood-$k.csv.tmp" "$C/likelihood-$k.csv"
    cat "$C/likelihood-$k.log"
  fi
done
