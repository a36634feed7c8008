#!/usr/bin/env bash
# Issue 23, item 2: the FIDE-rated population as a second check of the scale, and the conversion
# "UCI_Elo N errs like FIDE-rated players of about X in online blitz/rapid".
#
#   bench/fide/run.sh [PER_BAND] [LADDER]     # defaults: 100 positions per band, the built-in ladder
#
# 1. Positions from ../shared/data/human/fide-online-dev.pgn (FIDE-rated players, online blitz and
#    rapid, with clocks), PER_BAND per 200-point band 1000-2799 (at most 250), after move 8, seed 1.
# 2. Every legal move scored by the internal oracle at depth 8 (the ladder's own fit oracle), cached
#    in target/fide/ (reruns resume).
# 3. The FIDE players' loss curve against rating (`sparring humanlike curve`, all games).
# 4. Every ladder point on every band's positions (`sparring humanlike check`, seed 777), and per
#    band the UCI_Elo whose mean loss equals the band's players' on the same positions
#    (bench/fide/conversion.py): bench/results/fide/.
# About 30 minutes on 2 quiet cores at 100 per band (the oracle is most of it).
set -euo pipefail
cd "$(dirname "$0")/../.."
PER_BAND=${1:-100}
LADDER=${2:-profiles/ladder.toml}
PGN=../shared/data/human/fide-online-dev.pgn
[ -f "$PGN" ] || { echo "skipped: no $PGN"; exit 0; }
BIN=${BIN:-target/release/sparring}
JOBS=${JOBS:-2}
W=target/fide
R=bench/results/fide
mkdir -p "$W" "$R"
# 250 per band are drawn; the first PER_BAND of each band are used (so a larger run extends a smaller one).
[ -s "$W/positions-250.jsonl" ] || "$BIN" humanlike sample --pgn "$PGN" --out "$W/positions-250.jsonl" \
    --per-band 250 --bands 1000-2800 --seed 1
python3 -c '
import collections, json, sys
n, seen = int(sys.argv[1]), collections.Counter()
for line in open(sys.argv[2]):
    b = json.loads(line)["band"]
    if seen[b] < n:
        seen[b] += 1
        sys.stdout.write(line)
' "$PER_BAND" "$W/positions-250.jsonl" > "$W/positions-$PER_BAND.jsonl"
"$BIN" humanlike oracle --positions "$W/positions-$PER_BAND.jsonl" --out "$W/oracle.jsonl" --depth 8 --jobs "$JOBS"
"$BIN" humanlike curve --oracle "$W/oracle.jsonl" --part all --out "$R/fide-curve.csv" > "$R/fide-curve.txt" \
    || echo "no FIDE curve at $PER_BAND positions per band (the curve needs more per band)" | tee "$R/fide-curve.txt"
points=$(grep -E '^elo = ' "$LADDER" | sed -E 's/elo = //')
args=()
for band in 1000 1200 1400 1600 1800 2000 2200 2400 2600; do
    for p in $points; do args+=("$band:$p"); done
done
"$BIN" humanlike check --oracle "$W/oracle.jsonl" --ladder "$LADDER" --pgn "$PGN" --points "${args[@]}" \
    --out "$R/ladder-on-fide-bands.csv" > /dev/null
python3 bench/fide/conversion.py "$R/ladder-on-fide-bands.csv" "$W/oracle.jsonl" | tee "$R/conversion.txt"
