#!/usr/bin/env bash
# Fit the evaluator's group weights (`sparring tune`) to Stockfish 15.1's depth-9 scores of quiet
# positions: 100k positions from the FICS human games and ~56k from engine games (given as PGN
# files; ratings are not needed, they are added as a placeholder so `humanlike sample` can read
# them). Usage: bench/tune/run.sh OUT_DIR [ENGINE_PGN ...]   (~15 min on 2 cores for the labels)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/tune/run.sh OUT_DIR [ENGINE_PGN ...]}; shift
mkdir -p "$out"
command -v /usr/games/stockfish > /dev/null || { apt-get update -qq && apt-get install -y -qq stockfish; }
cargo build --release --quiet
bin=target/release/sparring
$bin humanlike sample --pgn ../shared/data/human/fics-blitz-dev.pgn --out "$out/human.jsonl" \
  --per-band 20000 --bands 600-2800 --min-ply 12 --max-per-game 6 --seed 11
if [ $# -gt 0 ]; then
  cat "$@" | sed 's/^\[Event \(.*\)\]\r\?$/[Event \1]\n[WhiteElo "2000"]\n[BlackElo "2000"]/' > "$out/engine.pgn"
  $bin humanlike sample --pgn "$out/engine.pgn" --out "$out/engine.jsonl" --per-band 100000 \
    --bands 2000-2200 --min-ply 16 --max-per-game 25 --seed 5
fi
for set in human engine; do
  [ -f "$out/$set.jsonl" ] || continue
  for part in 0 1; do
    bench/py.sh bench/tune/label_stockfish.py "$out/$set.jsonl" "$out/$set.$part.tsv" $part 2 9 &
  done
  wait
  cat "$out/$set".[01].tsv > "$out/$set.tsv"
  for ridge in 0 0.05; do
    $bin tune "$out/$set.tsv" --iterations 2000 --ridge $ridge | tee "$out/tune-$set-ridge$ridge.txt"
  done
done
