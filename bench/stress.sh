#!/usr/bin/env bash
# Reliability stress (issue 8): >= 1000 games at a very fast clock with the match runner,
# mixing the profiles, several UCI_Elo points and avatars, two games at a time; then a replay of
# the first games (18 at the default size) of each of the three node-budgeted pairings from their
# seeds, which must reproduce them move for move.
# Usage: bench/stress.sh [GAMES_PER_PAIRING (default 100)] [TC (default 1+0.01)]
# Output: bench/results/stress/ (one PGN/JSON/report per pairing, summary.md).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}; tc=${2:-1+0.01}
pairs=$(( (games + 1) / 2 ))
cargo build --release --quiet
bin=$PWD/target/release/sparring
out=bench/results/stress
mkdir -p "$out"
book=../shared/data/openings/8moves_v3.pgn
if [ -f "$book" ]; then openings=(-openings "file=$book" format=pgn order=random); else openings=(); fi
elo() { echo "option.UCI_LimitStrength=true option.UCI_Elo=$1"; }
av() { echo "option.Avatar\\ File=$PWD/avatars/$1.avt"; }

# label | engine A | engine B. Everything else is common: the clock, Hash 16, concurrency 2.
pairings=(
  "strong-vs-club|name=strong option.Profile=strong|name=club option.Profile=club"
  "reduced-vs-club|name=reduced option.Profile=reduced|name=club option.Profile=club"
  "club-vs-random|name=club option.Profile=club|name=random option.Profile=random"
  "strong-vs-reduced|name=strong option.Profile=strong|name=reduced option.Profile=reduced"
  "elo800-vs-elo1500|name=elo800 $(elo 800)|name=elo1500 $(elo 1500)"
  "elo1100romantic-vs-elo1300positional|name=elo1100-romantic $(elo 1100) $(av romantic)|name=elo1300-positional $(elo 1300) $(av positional)"
  "elo1700attacker-vs-elo1900defender|name=elo1700-attacker $(elo 1700) $(av attacker)|name=elo1900-defender $(elo 1900) $(av defender)"
  "elo2100-vs-elo2400|name=elo2100 $(elo 2100)|name=elo2400 $(elo 2400)"
  "strong-vs-elo2400materialist|name=strong option.Profile=strong|name=elo2400-materialist $(elo 2400) $(av materialist)"
  "random-vs-elo1000beginner|name=random option.Profile=random|name=elo1000-beginner $(elo 1000) $(av beginner)"
)

run_pairing() { # label A B games-pairs srand pgn json txt
  local label=$1 a=$2 b=$3 np=$4 srand=$5 stem=$6
  rm -f "$stem.pgn"
  # eval: the engine words hold escaped spaces ("Avatar\ File") that must stay one word.
  eval "\"$bin\" match -engine cmd=\"$bin\" $a -engine cmd=\"$bin\" $b \
    -each tc=$tc option.Hash=16 -games 2 -rounds $np -repeat -concurrency 2 -recover \
    ${openings[*]@Q} -srand $srand -pgnout \"$stem.pgn\" -jsonout \"$stem.json\" -progress quiet" > "$stem.txt"
}

start=$(date +%s)
i=0
for p in "${pairings[@]}"; do
  IFS='|' read -r label a b <<< "$p"
  i=$((i + 1))
  echo "[$(date +%T)] $label ($((2 * pairs)) games)"
  run_pairing "$label" "$a" "$b" "$pairs" $((9000 + i)) "$out/$label"
  grep -E '^(Score|Terminations|Faults)' "$out/$label.txt" || true
done
echo "stress: $(( $(date +%s) - start )) s"

# Replay: the first games (at most 9 rounds of 2) of the node-budgeted pairings (every side plays a fixed node
# budget, so the clock does not change their moves), same -srand, compared move for move.
replay=(reduced-vs-club elo800-vs-elo1500 elo1100romantic-vs-elo1300positional)
i=0
for p in "${pairings[@]}"; do
  IFS='|' read -r label a b <<< "$p"
  i=$((i + 1))
  for r in "${replay[@]}"; do
    if [ "$r" = "$label" ]; then
      echo "[$(date +%T)] replay $label"
      run_pairing "$label" "$a" "$b" $(( pairs < 9 ? pairs : 9 )) $((9000 + i)) "$out/replay-$label"
    fi
  done
done
bench/py.sh bench/stress_check.py "$out" "${replay[@]}" | tee "$out/summary.md"
