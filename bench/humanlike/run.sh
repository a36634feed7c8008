#!/usr/bin/env bash
# Human-likeness bench (SPEC section 9): positions from rated FICS blitz games, scored by the
# internal oracle, then the humans' own moves and Stockfish 15.1's UCI_Elo settings measured on them.
#
#   bench/humanlike/run.sh [all|sample|oracle|moves|measure|report]
#
# Every stage is resumable: the sample is kept if present, the oracle cache and the per-setting
# move caches are extended, not redone. `moves` only needs the positions, so it can run while the
# oracle is still working. Environment: JOBS (engine processes, default 1), DEPTH (oracle depth,
# default 8), GO (Stockfish's go arguments, default "movetime 50"), BIN (sparring binary).
set -euo pipefail
cd "$(dirname "$0")/../.."
bench/unpack.sh   # the compressed human-position caches and self-play games (no-op once unpacked)
STAGE=${1:-all}
BIN=${BIN:-target/release/sparring}
JOBS=${JOBS:-1}
DEPTH=${DEPTH:-8}
GO=${GO:-movetime 50}
ELOS=${ELOS:-"1350 1500 1700 1900 2100 2300"}
H=bench/humanlike
R=bench/results
PGN=${PGN:-../shared/data/human/fics-blitz-dev.pgn}
[ -f "$PGN" ] || PGN=/work/shared/data/human/fics-blitz-dev.pgn
mkdir -p "$H/moves" "$R"

[ -x "$BIN" ] || cargo build --release

stockfish_cmd() {
    if [ -x /usr/games/stockfish ]; then echo /usr/games/stockfish; return; fi
    if command -v stockfish >/dev/null; then command -v stockfish; return; fi
    apt-get update >&2 && apt-get install -y stockfish >&2
    echo /usr/games/stockfish
}

want() { [ "$STAGE" = all ] || [ "$STAGE" = "$1" ]; }

if want sample && [ ! -s "$H/positions.jsonl" ]; then
    # More than 1000 per band so that >= 1000 per band stay eligible after the oracle's filter
    # (weak players' games reach decided positions more often: 70 % eligible at 800-999).
    "$BIN" humanlike sample --pgn "$PGN" --out "$H/positions.jsonl" --per-band 1200 --band-count 800=1480 --band-count 1000=1340 --band-count 1200=1300 --band-count 1400=1230 --band-count 2200=1230 --bands 800-2400 \
        --min-ply 16 --max-per-game 16 --seed 1 | tee "$H/sample-summary.txt"
fi

if want oracle; then
    "$BIN" humanlike oracle --positions "$H/positions.jsonl" --out "$H/oracle.jsonl" --depth "$DEPTH" --jobs "$JOBS"
fi

if want moves; then
    SF=$(stockfish_cmd)
    for elo in $ELOS; do
        "$BIN" humanlike moves --positions "$H/positions.jsonl" --engine "$SF" \
            --option UCI_LimitStrength=true --option "UCI_Elo=$elo" --go "$GO" \
            --cache "$H/moves/stockfish-$elo.jsonl" --jobs "$JOBS"
    done
fi

if want measure; then
    "$BIN" humanlike measure --oracle "$H/oracle.jsonl" --humans --label humans --out "$R/humanlike-humans.csv"
    SF=$(stockfish_cmd)
    for elo in $ELOS; do
        "$BIN" humanlike measure --oracle "$H/oracle.jsonl" --engine "$SF" \
            --option UCI_LimitStrength=true --option "UCI_Elo=$elo" --go "$GO" \
            --label "stockfish-15.1 UCI_Elo=$elo" --cache "$H/moves/stockfish-$elo.jsonl" \
            --out "$R/humanlike-stockfish.csv" --jobs "$JOBS"
    done
    # Reference: full-strength Stockfish at the same time, the oracle's own noise floor.
    "$BIN" humanlike measure --oracle "$H/oracle.jsonl" --engine "$SF" --go "$GO" \
        --label "stockfish-15.1 full strength" --cache "$H/moves/stockfish-full.jsonl" \
        --out "$R/humanlike-stockfish.csv" --jobs "$JOBS"
fi

if want report; then
    "$BIN" humanlike report --csv "$R/humanlike-humans.csv" "$R/humanlike-stockfish.csv" --out-dir "$R"
    bench/py.sh bench/plot.py humanlike "$R/humanlike-humans.csv" "$R/humanlike-stockfish.csv" --out-dir "$R"
fi
