#!/usr/bin/env bash
# Issue 61 §3: the human move model v7 (Maia-3) side by side with v6, Maia-1 and the ladder's
# points, per band, on held-out positions of both populations; and the rating maps (file rating ->
# the model's Lichess blitz input) fitted on each population's fit part. Resumable (each file is
# kept once written). About 45 min on 2 cores (Maia-3 ~13 ms an evaluation a job).
#   bench/human-model/maia3-grid.sh [OUT]     (default bench/results/human-model/maia3)
# 1. Positions: FICS — the humanlike bench's (fit part: the first 300 a band; test part: both
#    samples, all); FIDE-rated online games — 300 a band 1000-2800 from each of the fit and test
#    parts (`humanlike sample`, seed 1, after ply 16, at most 8 a game side).
# 2. `model grid` at inputs 800..2800 on the fit parts; the map A + B·rating fitted by
#    maximum likelihood (maia3_eval.py fit).
# 3. The test parts at the fitted map and the identity, with history and FEN alone; Maia-1's moves
#    on the FIDE positions (lc0 from ../shared/anchors/maia/build.sh, when built in /tmp/maia).
# 4. The per-band tables (maia3_eval.py report), with v20 and the candidate "v20 with v7" (both
#    maps) as exact expected match (`calibrate model-check --decisions-out`).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BIN:-target/release/sparring}
OUT=${1:-bench/results/human-model/maia3}
W=${WORK:-target/maia3-grid}
H=bench/humanlike
FICS=../shared/data/human/fics-blitz-dev.pgn
FIDE=../shared/data/human/fide-online-dev.pgn
JOBS=${JOBS:-2}
mkdir -p "$OUT" "$W"
bench/unpack.sh > /dev/null
[ -s $W/fics-fit.csv ] || $B model grid --positions $H/positions.jsonl --part fit --per-band 300 --out $W/fics-fit.csv --jobs $JOBS
for part in fit test; do
  [ -s $W/fide-positions-$part.jsonl ] || $B humanlike sample --pgn $FIDE --out $W/fide-positions-$part.jsonl \
      --per-band 300 --bands 1000-2800 --max-per-game 8 --people --seed 1 --part $part --min-ply 16
done
[ -s $W/fide-fit.csv ] || $B model grid --pgn $FIDE --positions $W/fide-positions-fit.jsonl --out $W/fide-fit.csv --jobs $JOBS
for pop in fics fide; do
  python3 bench/human-model/maia3_eval.py fit $W/$pop-fit.csv > "$OUT/map-$pop.txt"
done
map() { sed -nE 's/^map: input = (-?[0-9.]+) \+ ([0-9.]+) \* rating.*/\1,\2/p' "$OUT/map-$1.txt"; }
FICS_MAP=$(map fics); FIDE_MAP=$(map fide)
echo "maps: FICS $FICS_MAP, FIDE $FIDE_MAP"
[ -s $W/fics-test-maps.csv ] || $B model grid --positions $H/positions.jsonl $H/positions-test2.jsonl --part test \
    --map fics=$FICS_MAP --map identity=0,1 --fen-alone --out $W/fics-test-maps.csv --jobs $JOBS
[ -s $W/fide-test-maps.csv ] || $B model grid --pgn $FIDE --positions $W/fide-positions-test.jsonl \
    --map fide=$FIDE_MAP --map fics=$FICS_MAP --map identity=0,1 --fen-alone --out $W/fide-test-maps.csv --jobs $JOBS
if [ -x /tmp/maia/maia-1500.sh ]; then
  mkdir -p $W/maia-fide
  for r in 1100 1200 1300 1400 1500 1600 1700 1800 1900; do
    [ -s $W/maia-fide/maia-$r.jsonl ] || $B humanlike moves --positions $W/fide-positions-test.jsonl \
        --engine /tmp/maia/maia-$r.sh --go "nodes 1" --cache $W/maia-fide/maia-$r.jsonl --jobs $JOBS > /dev/null
  done
fi
# 4. The tables. The ladder points' expected match comes from `calibrate model-check
#    --decisions-out` files named in EXPECTED (NAME=FILE ...; bench/recalibrate.sh's check stage
#    writes them), when given.
exp=()
for e in ${EXPECTED:-}; do exp+=(--expected "$e"); done
python3 bench/human-model/maia3_eval.py report $W/fics-test-maps.csv "${exp[@]}" \
    --title "FICS blitz, test part: Maia-3 (v7) beside v6, Maia-1 and the ladder's points" \
    --out "$OUT/fics-test.md" --csv "$OUT/fics-test.csv" > /dev/null
python3 bench/human-model/maia3_eval.py report $W/fide-test-maps.csv --maia $W/maia-fide \
    --title "FIDE-rated players' online games, test part: Maia-3 (v7) beside v6 and Maia-1" \
    --out "$OUT/fide-test.md" --csv "$OUT/fide-test.csv" > /dev/null
