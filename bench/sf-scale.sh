#!/usr/bin/env bash
# Ladder points on Stockfish's computer scale (issue 6, cross-check b): each pairing is sparring at
# UCI_Elo OURS against Debian's Stockfish 15.1 with UCI_LimitStrength at UCI_Elo SF, openings from
# 8moves_v3.pgn, colours reversed per opening. A pairing whose JSON already holds the planned
# games is skipped, so the script can be stopped and rerun (resumable). Stockfish plays on the clock
# TC; sparring's ladder points play their own node budgets whatever the clock (`nodes=1e8` only
# caps them), so they are the same players at any time control and are not cut short by a fast
# clock (the 2300 point needs about 0.25 s a move). Then
# bench/sf_scale_report.py writes sf-scale.csv, sf-scale-points.csv and sf-scale.svg (equivalent = SF + Elo
# difference, with the 95 % interval of the match). Everything goes to OUT (default
# bench/results/sf-scale/ladder-vN, N the version of the built-in ladder in profiles/ladder.toml).
# LADDER=FILE plays that ladder file's points (`Ladder File`) instead of the built-in ladder (OUT
# then defaults to bench/results/sf-scale/ladder-vN of the file's version).
# TAG=T plays a further batch of a pairing already played: files elo*-vs-sf*-T.*, match seed
# 6000 + OURS + 1000 * (the tag's position in "b c d ..."), so its openings and games are new;
# the report pools every batch of a pairing.
# Usage: [OUT=DIR] [BIN=sparring] [CONCURRENCY=2] [LADDER=FILE] [TAG=b] [REUSE="DIR ..."] bench/sf-scale.sh [GAMES (default 100)] [TC (default 5+0.05)] OURS:SF ...
#   e.g. bench/sf-scale.sh 100 5+0.05 1500:1500 1700:1700 1900:1900 2100:2100 2300:2300 2400:2400
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}; tc=${2:-5+0.05}; shift 2 || true
pairs=("$@"); [ ${#pairs[@]} -gt 0 ] || pairs=(1500:1500 1700:1700 1900:1900 2100:2100 2300:2300 2400:2400)
if ! [ -x /usr/games/stockfish ]; then apt-get update -qq && apt-get install -y -qq stockfish; fi
# BIN: a copy of the binary to play with (so a rebuild during a long run cannot mix versions).
if [ -z "${BIN:-}" ]; then cargo build --release --quiet; fi
bin=${BIN:-$PWD/target/release/sparring}
ladder_args=()
if [ -n "${LADDER:-}" ]; then ladder_args=("option.Ladder File=$(realpath "$LADDER")"); fi
version=$(sed -n 's/^version *= *\([0-9]*\).*/\1/p' "${LADDER:-profiles/ladder.toml}" | head -1)
out=${OUT:-bench/results/sf-scale/ladder-v$version}
tag=${TAG:-}
batch=0
if [ -n "$tag" ]; then
  batch=$(( $(printf '%s\n' b c d e f g h | grep -nx "$tag" | cut -d: -f1) + 0 ))
  [ "$batch" -gt 0 ] || { echo "TAG must be one of b c d e f g h" >&2; exit 2; }
fi
mkdir -p "$out"
for p in "${pairs[@]}"; do
  ours=${p%%:*}; sf=${p##*:}
  stem=$out/elo$ours-vs-sf$sf${tag:+-$tag}
  if [ -f "$stem.json" ] && python3 -c "import json,sys; sys.exit(0 if json.load(open('$stem.json'))['games_played'] >= $games else 1)"; then
    echo "$stem: done, skipped"; continue
  fi
  rm -f "$stem.pgn" "$stem.json"
  echo "[$(date +%T)] sparring UCI_Elo $ours vs stockfish UCI_Elo $sf, $games games at $tc"
  "$bin" match \
    -engine cmd="$bin" name="sparring-$ours" option.UCI_LimitStrength=true option.UCI_Elo="$ours" "${ladder_args[@]}" nodes=100000000 \
    -engine cmd=/usr/games/stockfish name="stockfish-$sf" option.UCI_LimitStrength=true option.UCI_Elo="$sf" tc="$tc" timemargin=100 \
    -each option.Hash=16 -games 2 -rounds $(( (games + 1) / 2 )) -repeat \
    -concurrency "${CONCURRENCY:-2}" -openings file=../shared/data/openings/8moves_v3.pgn format=pgn order=random \
    -srand $(( 6000 + ours + 1000 * batch )) -pgnout "$stem.pgn" -jsonout "$stem.json" -progress quiet > "$stem.txt"
  grep -E '^(Score|Elo|Terminations)' "$stem.txt" || tail -5 "$stem.txt"
done
# REUSE="DIR ..." (earlier versions' folders) lends the pairings of the points not played in OUT.
bench/py.sh bench/sf_scale_report.py "$out" ${REUSE:-}
