#!/usr/bin/env bash
# Games between ladder points with `Human Time` on (issue 26): time forfeits, the clock left at the
# end, and whether the moves are those of the same games with the option off (same seeds).
# Resumable: the games are played in chunks of one pairing (PAIRS colour-reversed pairs each,
# `-srand` = the chunk number), one PGN per chunk and setting; a chunk whose PGN exists is skipped.
# Usage: bench/human-time-games.sh [CHUNKS] [TC]   (env: PAIRS=4, CONCURRENCY=8, PARALLEL=1 chunks
# played at once; TC as `sparring match` tc=, in seconds: 180+2 is 3 minutes + 2 s)
#   e.g. bench/human-time-games.sh 6 180+2
#   PAIRS=9 CONCURRENCY=18 PARALLEL=6 bench/human-time-games.sh 6 180+2   (108 games at once: the
#   waits are sleeps, so two cores carry them; about 2 x 45 MB of memory per game)
# Results: bench/results/human-time/games/<tc>/{on,off}-chunkN.pgn (not tracked; kept compressed
# in games.tar.xz) and summary.md (forfeits, moves identical on/off and where they differ, the clock
# left against people's, sparring clock curves per setting).
set -euo pipefail
cd "$(dirname "$0")/.."
chunks=${1:-6}; tc=${2:-180+2}
pairs=${PAIRS:-4}; conc=${CONCURRENCY:-8}
bin=${SPARRING_BIN:-target/release/sparring}
dir=bench/results/human-time/games/$tc
mkdir -p "$dir"
points=(1200:1400 1600:1800 2000:2200 1400:1600 1800:2000 2200:2400)
play() { # chunk on|off
  local k=$1 mode=$2 ht=false
  [ "$mode" = on ] && ht=true
  local p=${points[$((k % ${#points[@]}))]}
  local a=${p%:*} b=${p#*:}
  local out=$dir/$mode-chunk$k.pgn
  [ -s "$out" ] && return 0
  nice -n 10 "$bin" match \
    -engine cmd="$bin" name="elo$a" option.UCI_LimitStrength=true option.UCI_Elo="$a" \
    -engine cmd="$bin" name="elo$b" option.UCI_LimitStrength=true option.UCI_Elo="$b" \
    -each tc="$tc" "option.Human Time=$ht" option.Hash=16 \
    -games 2 -rounds "$pairs" -repeat -concurrency "$conc" -srand "$k" \
    -openings file=../shared/data/openings/8moves_v3.pgn format=pgn order=random \
    -pgnout "$out.tmp" -progress lines > "$dir/$mode-chunk$k.txt" 2>&1
  mv "$out.tmp" "$out"
}
parallel=${PARALLEL:-1}
for k in $(seq 0 $((chunks - 1))); do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  ( play "$k" on && play "$k" off && echo "chunk $k done ($(date -u +%H:%M))" ) &
done
wait
base=${tc%+*}; inc=${tc#*+}
{
  python3 bench/human_time_games.py "$dir" "$base" "$inc" bench/cache/human-time/fide-moves.csv
  for mode in on off; do
    cat "$dir"/$mode-chunk*.pgn > "$dir/$mode-all.pgn.tmp"
    printf '\n## Time use per player, Human Time %s (sparring clock curves; move n = its n-th timed move)\n\n' "$mode"
    curves=$(mktemp -d)
    "$bin" clock curves --pgn "$dir/$mode-all.pgn.tmp" --out-dir "$curves" > /dev/null
    sed '1,/^$/d' "$curves/curves.md"
    rm -rf "$dir/$mode-all.pgn.tmp" "$curves"
  done
} > "$dir/summary.md"
# The PGNs, compressed, are what the repository keeps (about 0.1 MB per 100 games and setting).
(cd "$dir" && tar -cJf games.tar.xz on-chunk*.pgn off-chunk*.pgn)
echo "wrote $dir/summary.md and $dir/games.tar.xz"
