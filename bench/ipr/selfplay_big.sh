#!/usr/bin/env bash
# Cross-check (a) with more decisions: up to 16 positions per side and game (instead of 400 per
# file) of each given ladder point, from every self-play file it plays in, every move scored by
# the same depth-8 oracle, answered by the five Stockfish references, rated and corrected by
# bench/ipr/reference_shift.py. Files are per point (`ladder-A-vs-B.eloP.*`) and cached, so adding
# a point costs only its own positions (~1600 per file: ~1 min of oracle and ~1.5 min per
# reference on 2 cores).
#   JOBS=2 bench/ipr/selfplay_big.sh [POINT ...]   (default: 1500 1700 1900 2100 2300 2400)
set -euo pipefail
cd "$(dirname "$0")/../.."
bench/unpack.sh   # the compressed human-position caches and self-play games (no-op once unpacked)
cargo build --release --locked
BIN=target/release/sparring
S=bench/humanlike/selfplay/big
R=bench/results/ipr/big
JOBS=${JOBS:-2}
mkdir -p "$S" "$R"
points=("$@"); [ ${#points[@]} -gt 0 ] || points=(1500 1700 1900 2100 2300 2400)
for p in "${points[@]}"; do
    for f in bench/results/selfplay/ladder-$p-vs-*.pgn bench/results/selfplay/ladder-*-vs-$p.pgn; do
        [ -f "$f" ] || continue
        n=$(basename "$f" .pgn).elo$p
        [ -s "$S/$n.positions.jsonl" ] || $BIN humanlike sample --pgn "$f" --out "$S/$n.positions.jsonl" \
            --per-band 1600 --bands 800-2600 --player "elo$p=$p" --seed 2
        $BIN humanlike oracle --positions "$S/$n.positions.jsonl" --out "$S/$n.oracle.jsonl" --depth 8 --jobs "$JOBS"
    done
done
$BIN strength ipr rate $S/ladder-*.oracle.jsonl --group rating --csv $R/ladder-selfplay.csv | tee $R/ladder-selfplay.txt
SF=/usr/games/stockfish
[ -x $SF ] || { apt-get update -qq && apt-get install -y -qq stockfish; }
cat $S/ladder-*.oracle.jsonl > $S/all.oracle.tmp
for elo in 1500 1700 1900 2100 2300; do
    $BIN humanlike moves --positions $S/all.oracle.tmp --engine $SF --option UCI_LimitStrength=true \
        --option "UCI_Elo=$elo" --go "movetime 50" --cache "$S/stockfish-$elo.moves.jsonl" --jobs "$JOBS"
    $BIN strength ipr rate $S/ladder-*.oracle.jsonl --moves "$S/stockfish-$elo.moves.jsonl" --group rating \
        --csv "$R/reference-$elo-selfplay.csv" > "$R/reference-$elo-selfplay.txt"
done
rm -f $S/all.oracle.tmp
bench/py.sh bench/ipr/reference_shift.py --dir $R | tee $R/selfplay-reference-shift.txt
