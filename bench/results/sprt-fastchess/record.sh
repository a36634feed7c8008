#!/bin/bash
# Issue 59: ten small matches played by fastchess itself (../shared/anchors/fastchess, built with
# its build.sh) between two Stockfish 15.1 (Debian package) at different fixed node counts, each with
# an SPRT; fastchess's printed counts and LLR are kept in matches.tsv, which the test
# `sprt_llr_equals_fastchess_on_ten_recorded_matches` reads. Usage: record.sh FASTCHESS_BINARY
set -eu
FC=${1:?fastchess binary}
HERE=$(cd "$(dirname "$0")" && pwd)
BOOK=$HERE/../../../../shared/data/openings/noob_3moves.epd
OUT=$HERE/matches.tsv
cd "$(mktemp -d)"   # fastchess writes its config.json into the working directory
echo -e "match\tmodel\telo0\telo1\tpenta\tcounts\tllr" > "$OUT"
run() { # id model elo0 elo1 penta rounds nodes_1 nodes_2
  local log=$HERE/match-$1.txt
  "$FC" -engine cmd=/usr/games/stockfish name=sf option.Hash=8 nodes="$7" \
        -engine cmd=/usr/games/stockfish name=sf2 option.Hash=8 nodes="$8" \
        -each tc=inf -rounds "$6" -games 2 -repeat -concurrency 1 -srand "$1" \
        -openings file="$BOOK" format=epd order=random -report penta="$5" \
        -sprt elo0="$3" elo1="$4" alpha=0.05 beta=0.05 model="$2" > "$log" 2>&1
  local llr; llr=$(grep '^LLR:' "$log" | tail -1 | awk '{print $2}')
  local counts
  if [ "$5" = true ]; then
    counts=$(grep '^Ptnml(0-2):' "$log" | tail -1 | sed 's/.*\[\(.*\)\].*/\1/' | tr -d ' ')
  else
    counts=$(grep '^Games:' "$log" | tail -1 | sed 's/.*Wins: \([0-9]*\), Losses: \([0-9]*\), Draws: \([0-9]*\).*/\1,\3,\2/')
  fi
  echo -e "$1\t$2\t$3\t$4\t$5\t$counts\t$llr" >> "$OUT"
}
run 1 logistic 0 10 true 20 1000 1000
run 2 logistic 0 5 true 30 800 1200
run 3 normalized 0 5 true 30 1200 800
run 4 normalized -5 5 true 15 1000 1000
run 5 logistic 0 50 true 10 500 2000
run 6 logistic 0 10 false 25 1000 1000
run 7 normalized 0 10 false 25 900 1100
run 8 logistic -10 0 true 40 1000 700
run 9 normalized 0 2 true 40 1000 1000
run 10 logistic 0 20 false 12 1500 600
