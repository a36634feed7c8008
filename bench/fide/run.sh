#!/usr/bin/env bash
# Issue 23, item 2: the FIDE-rated population as a second check of the scale, and the conversion
# "UCI_Elo N errs like FIDE-rated players of about X in online blitz / rapid".
#
#   bench/fide/run.sh [PER_BAND] [LADDER]     # defaults: 1000 positions per band, the built-in ladder
#
# 1. Positions from ../shared/data/human/fide-online-dev.pgn (FIDE-rated players, online blitz and
#    rapid, with clocks), PER_BAND per 200-point band 1000-2799 (at most 1000; at most 8 from one
#    side of one game; computer accounts left out), after move 8, seed 1.
# 2. Every legal move scored by the internal oracle at depth 8 (the ladder's own fit oracle), cached
#    in target/fide/ (reruns resume).
# 3. Each game's time control (`sparring clock controls`: 3+2 is blitz, 10+3 to 25+10 rapid) and
#    the players' loss curve against rating (`sparring calibrate curve`) for all games, blitz
#    games and rapid games.
# 4. Every ladder point's exact expected loss on every band's positions (`sparring humanlike model
#    check`, all three parts of the file) and the conversion read off each curve
#    (bench/fide/conversion.py): bench/results/fide/.
# About an hour on 2 cores at 1000 per band (the oracle 10 min, the model check 50 beside other runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
PER_BAND=${1:-1000}
LADDER=${2:-profiles/ladder.toml}
PGN=../shared/data/human/fide-online-dev.pgn
[ -f "$PGN" ] || { echo "skipped: no $PGN"; exit 0; }
BIN=${BIN:-target/release/sparring}
JOBS=${JOBS:-2}
W=target/fide
R=bench/results/fide
mkdir -p "$W" "$R"
# 1000 per band are drawn; the first PER_BAND of each band are used (so a larger run extends a smaller one).
[ -s "$W/positions-draw.jsonl" ] || "$BIN" humanlike sample --pgn "$PGN" --out "$W/positions-draw.jsonl" \
    --per-band 1000 --bands 1000-2800 --max-per-game 8 --people --seed 1
python3 -c '
import collections, json, sys
n, seen = int(sys.argv[1]), collections.Counter()
for line in open(sys.argv[2]):
    b = json.loads(line)["band"]
    if seen[b] < n:
        seen[b] += 1
        sys.stdout.write(line)
' "$PER_BAND" "$W/positions-draw.jsonl" > "$W/positions-$PER_BAND.jsonl"
"$BIN" humanlike oracle --positions "$W/positions-$PER_BAND.jsonl" --out "$W/oracle.jsonl" --depth 8 --jobs "$JOBS"
"$BIN" clock controls --pgn "$PGN" --out "$W/controls.csv"
for tc in blitz rapid; do
    python3 -c '
import csv, json, sys
keep = {int(r["game"]) for r in csv.DictReader(open(sys.argv[1])) if r["category"] == sys.argv[2]}
for line in open(sys.argv[3]):
    if json.loads(line)["game"] in keep:
        sys.stdout.write(line)
' "$W/controls.csv" "$tc" "$W/oracle.jsonl" > "$W/oracle-$tc.jsonl"
done
for pop in all blitz rapid; do
    oracle=$W/oracle.jsonl; name=fide-curve
    [ "$pop" = all ] || { oracle=$W/oracle-$pop.jsonl; name=fide-curve-$pop; }
    "$BIN" calibrate curve --oracle "$oracle" --pgn "$PGN" --part all --points $(seq 1000 50 2800) \
        --out "$R/$name.csv" > "$R/$name.txt"
done
points=$(grep -E '^elo = ' "$LADDER" | sed -E 's/elo = //')
args=()
for band in 1000 1200 1400 1600 1800 2000 2200 2400 2600; do
    for p in $points; do args+=("$band:$p"); done
done
rm -f "$W/decisions.csv"
for part in fit validation test; do
    "$BIN" calibrate model-check --oracle internal="$W/oracle.jsonl" --ladder "$LADDER" --pgn "$PGN" \
        --part $part --jobs "$JOBS" --points "${args[@]}" --out "$W/model-check-$part.csv" \
        --decisions-out "$W/decisions-$part.csv" > /dev/null
    if [ -s "$W/decisions.csv" ]; then tail -n +2 "$W/decisions-$part.csv" >> "$W/decisions.csv"
    else cp "$W/decisions-$part.csv" "$W/decisions.csv"; fi
done
xz -9 -T1 -c "$W/decisions.csv" > "$R/decisions.csv.xz"
python3 bench/fide/conversion.py "$W/decisions.csv" "$W/controls.csv" "$R" | tee "$R/conversion.txt"
