#!/usr/bin/env bash
# Intrinsic performance rating (sparring strength ipr): calibration on rated humans, its held-out
# check, and issue 6's cross-check (a) -- the Elo of each ladder point from its own self-play games.
#
#   bench/ipr/run.sh            # everything (about 15 minutes on 2 quiet cores; the oracle cache makes reruns cheap)
#
# Inputs (committed): bench/humanlike/oracle.jsonl (human positions, every move scored at depth 8),
# bench/results/selfplay/ladder-*.pgn (each ladder point against the point 200 below, 100 games),
# bench/humanlike/moves/ladder-v$V-bands.jsonl (the ladder's own answers on its band's positions).
# Outputs: calibration/ipr-model.json, bench/humanlike/selfplay/*.jsonl, bench/results/ipr/*.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench/unpack.sh   # the compressed human-position caches and self-play games (no-op once unpacked)
cargo build --release --locked
BIN=target/release/sparring
H=bench/humanlike
S=$H/selfplay
R=bench/results/ipr
JOBS=${JOBS:-2}
V=${V:-8}   # ladder version whose answers (bench/humanlike/moves/ladder-vV-bands.jsonl) are rated
mkdir -p "$S" "$R"

# 1. Calibration on every human game, and a copy fitted on even games only for the held-out check.
$BIN strength ipr calibrate --oracle $H/oracle.jsonl --out calibration/ipr-model.json | tee $R/calibration.txt
$BIN strength ipr calibrate --oracle $H/oracle.jsonl --every 2 --offset 0 --out $R/model-even-games.json \
    > $R/calibration-even-games.txt
$BIN strength ipr rate $H/oracle.jsonl --model $R/model-even-games.json --group band --every 2 --offset 1 \
    --csv $R/humans-heldout.csv | tee $R/humans-heldout.txt

# The humans themselves, per band, on the model fitted to all of them (in-sample: the reference
# point for the ladder's rows below, which are rated on the same positions).
$BIN strength ipr rate $H/oracle.jsonl --group band --csv $R/humans.csv | tee $R/humans.txt

# 2. The ladder's answers on its own band's human positions (as fitted).
$BIN strength ipr rate $H/oracle.jsonl --moves $H/moves/ladder-v$V-bands.jsonl --group rating \
    --csv $R/ladder-human-positions.csv | tee $R/ladder-human-positions.txt

# 3. Self-play positions: 400 per point per game file (after move 8), every move scored by the same oracle.
for f in bench/results/selfplay/ladder-*-vs-*.pgn; do
    n=$(basename "$f" .pgn)
    hi=$(echo "$n" | sed -E 's/ladder-([0-9]+)-vs-([0-9]+)/\1/')
    lo=$(echo "$n" | sed -E 's/ladder-([0-9]+)-vs-([0-9]+)/\2/')
    [ -s "$S/$n.positions.jsonl" ] || $BIN humanlike sample --pgn "$f" --out "$S/$n.positions.jsonl" \
        --per-band 400 --bands 800-2600 --player "elo$hi=$hi" --player "elo$lo=$lo" --seed 1
    $BIN humanlike oracle --positions "$S/$n.positions.jsonl" --out "$S/$n.oracle.jsonl" --depth 8 --jobs "$JOBS"
done
$BIN strength ipr rate $S/ladder-*.oracle.jsonl --group rating --csv $R/ladder-selfplay.csv | tee $R/ladder-selfplay.txt

# 4. Stockfish 15.1's UCI_Elo settings on the same human positions (answers cached by bench/humanlike/run.sh).
for elo in 1350 1500 1700 1900 2100 2300; do
    $BIN strength ipr rate $H/oracle.jsonl --moves "$H/moves/stockfish-$elo.jsonl" --elo "$elo" --group rating \
        --csv "$R/stockfish-$elo.csv"
done | tee $R/stockfish.txt

# 5. Diagnostic: strata 1 and 2+ split by whether a depth-1 search finds a best move (circular for
# depth-1 players, so not the shipped calibration).
$BIN strength ipr calibrate --oracle $H/oracle.jsonl --strata 1,2- --shallow-split --out $R/model-shallow-split.json > /dev/null
$BIN strength ipr rate $H/oracle.jsonl --model $R/model-shallow-split.json --group band --bootstrap 100 \
    --csv $R/shallow-humans.csv > $R/shallow-humans.txt
$BIN strength ipr rate $H/oracle.jsonl --moves $H/moves/ladder-v$V-bands.jsonl --model $R/model-shallow-split.json \
    --group rating --bootstrap 100 --csv $R/shallow-ladder-human-positions.csv > $R/shallow-ladder-human-positions.txt
$BIN strength ipr rate $S/ladder-*.oracle.jsonl --model $R/model-shallow-split.json --group rating --bootstrap 100 \
    --csv $R/shallow-ladder-selfplay.csv > $R/shallow-ladder-selfplay.txt

# 6. Position-set control for cross-check (a): fixed reference players (Stockfish 15.1 UCI_Elo
# settings, the same `go movetime 50` as on the human positions) answer every self-play position;
# how much lower the IPR rates each of them there than on the human positions is the shift that
# bench/ipr/reference_shift.py removes from each point's self-play IPR.
SF=/usr/games/stockfish
[ -x $SF ] || { apt-get update -qq && apt-get install -y -qq stockfish; }
cat $S/ladder-*-vs-*.oracle.jsonl > $S/all-selfplay.oracle.tmp
for elo in 1500 1700 1900 2100 2300; do
    $BIN humanlike moves --positions $S/all-selfplay.oracle.tmp --engine $SF --option UCI_LimitStrength=true \
        --option "UCI_Elo=$elo" --go "movetime 50" --cache "$S/stockfish-$elo.moves.jsonl" --jobs "$JOBS"
    $BIN strength ipr rate $S/ladder-*-vs-*.oracle.jsonl --moves "$S/stockfish-$elo.moves.jsonl" --group rating \
        --csv "$R/reference-$elo-selfplay.csv" > "$R/reference-$elo-selfplay.txt"
done
rm -f $S/all-selfplay.oracle.tmp
bench/py.sh bench/ipr/reference_shift.py | tee $R/selfplay-reference-shift.txt
