#!/usr/bin/env bash
# Cross-check (a) with more decisions: up to 16 positions per side and game (instead of 400 per
# file) for the points whose raw self-play IPR missed (1700, 1900, 2100, 2400), every move scored
# by the same depth-8 oracle, answered by the five Stockfish references, rated and corrected by
# bench/ipr/reference_shift.py (with the big set's files). About 40 minutes on 2 cores.
#   JOBS=2 bench/ipr/selfplay_big.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked
BIN=target/release/sparring
S=bench/humanlike/selfplay/big
R=bench/results/ipr/big
JOBS=${JOBS:-2}
mkdir -p "$S" "$R"
# file : the players sampled from it
for spec in "1700-vs-1500:1700" "1900-vs-1700:1900,1700" "2100-vs-1900:2100,1900" "2300-vs-2100:2100" "2400-vs-2200:2400"; do
    n=ladder-${spec%%:*}
    players=()
    IFS=, read -ra elos <<< "${spec##*:}"
    for e in "${elos[@]}"; do players+=(--player "elo$e=$e"); done
    [ -s "$S/$n.positions.jsonl" ] || $BIN humanlike sample --pgn "bench/results/selfplay/$n.pgn" \
        --out "$S/$n.positions.jsonl" --per-band 1600 --bands 800-2600 "${players[@]}" --seed 2
    $BIN humanlike oracle --positions "$S/$n.positions.jsonl" --out "$S/$n.oracle.jsonl" --depth 8 --jobs "$JOBS"
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
python3 bench/ipr/reference_shift.py --dir $R | tee $R/selfplay-reference-shift.txt
