#!/usr/bin/env bash
# Full-strength sparring vs Debian's Stockfish 15.1 with UCI_LimitStrength at a given UCI_Elo,
# 10+0.1, varied openings from 8moves_v3.pgn (issue 2 target: >= 50 % against UCI_Elo 2400).
# Usage: [OUT=path-prefix] [CONCURRENCY=n] [THREADS=n] [SF_THREADS=n] [START=n] [TC=base+inc] bench/vs-stockfish.sh [ELO] [GAME_PAIRS] [ENGINE_BINARY]
# THREADS (default 1) is sparring's `Threads`, SF_THREADS (default 1) Stockfish's; with more than one
# thread use CONCURRENCY=1 on a 2-core machine. Stockfish's limited strength is not thread-independent:
# its move is picked at a fixed depth, but helper threads fill its hash table and make that depth stronger.
# TC (default 10+0.1) is the time control of both engines (Stockfish documents UCI_Elo as anchored at 60+0.6).
# START (default 1) is the first opening of the shuffled book to play (start=51 continues a 50-pair run).
set -euo pipefail
cd "$(dirname "$0")/.."
elo=${1:-2400}; pairs=${2:-50}
if ! command -v /usr/games/stockfish >/dev/null; then apt-get update -qq && apt-get install -y -qq stockfish; fi
cargo build --release --quiet
bin=${3:-target/release/sparring}
out=${OUT:-bench/results/vs-stockfish-$elo}
rm -f "$out.pgn"  # -pgnout appends
./target/release/sparring match \
  -engine cmd="$bin" name=sparring option.Threads="${THREADS:-1}" \
  -engine cmd=/usr/games/stockfish name="stockfish-$elo" option.UCI_LimitStrength=true option.UCI_Elo="$elo" option.Threads="${SF_THREADS:-1}" \
  -each tc="${TC:-10+0.1}" option.Hash=16 -games 2 -rounds "$pairs" -repeat -concurrency "${CONCURRENCY:-1}" \
  -openings file=../shared/data/openings/8moves_v3.pgn format=pgn order=random start="${START:-1}" \
  -srand 2026 -pgnout "$out.pgn" -jsonout "$out.json" -progress lines | tee "$out.txt" | tail -15
