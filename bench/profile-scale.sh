#!/usr/bin/env bash
# The frozen profiles on the ladder's scale: each budgeted profile plays ladder points of several
# UCI_Elo values (the built-in ladder), and bench/profile_scale.py fits the UCI_Elo it plays like:
# the rating R that makes the Elo formula's expected scores, summed over its pairings, equal the
# scores it made (maximum likelihood over the pairings' games), with a 95 % interval from the game
# pairs resampled. `Human Time` uses these ratings for profiles (src/uci/human_time.rs).
#
#   bench/profile-scale.sh                   # club and reduced, 100 games a pairing
#   PAIRS=100 PROFILES="club" POINTS_club="1300 1500 1700" bench/profile-scale.sh
#
# Each pairing: the profile (engine 1) against the point (engine 2), 8moves_v3 openings in a seeded
# random order, each opening twice with colours reversed, -srand 7, each side's own node budget
# (nodes=1e8 only caps it), Hash 16, two games at a time. Resumable: a finished pairing leaves
# bench/results/profile-scale/<profile>-<elo>.json and is not played again.
set -euo pipefail
cd "$(dirname "$0")/.."
profiles=${PROFILES:-"club reduced"}
pairs=${PAIRS:-50}
book=../shared/data/openings/8moves_v3.pgn
[ -f "$book" ] || { echo "bench/profile-scale.sh: $book not found (needs ../shared/data)" >&2; exit 1; }
if [ -n "${SCALE_BIN:-}" ]; then bin=$(realpath "$SCALE_BIN"); else cargo build --release --quiet; bin=$PWD/target/release/sparring; fi
out=bench/results/profile-scale
mkdir -p "$out"
for p in $profiles; do
  var=POINTS_$p
  case $p in
    club) default="1500 1700 1900" ;;
    reduced) default="1900 2100 2300" ;;
    *) default="1500 1900 2300" ;;
  esac
  for elo in ${!var:-$default}; do
    f=$out/$p-$elo
    [ -f "$f.json" ] && { echo "== $p vs $elo: done" >&2; continue; }
    echo "== $p vs UCI_Elo $elo: $((2 * pairs)) games" >&2
    rm -f "$f.pgn" "$f.json.part"
    "$bin" match \
      -engine cmd="$bin" name="$p" option.Profile="$p" \
      -engine cmd="$bin" name="elo$elo" option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
      -each nodes=100000000 option.Hash=16 \
      -games 2 -rounds "$pairs" -repeat -concurrency "${CONCURRENCY:-2}" \
      -openings file="$book" format=pgn order=random -srand 7 -event "profile scale: $p vs $elo" \
      -pgnout "$f.pgn" -jsonout "$f.json.part" -ratinginterval 0 -progress quiet > "$f.txt"
    mv "$f.json.part" "$f.json"
  done
done
python3 bench/profile_scale.py "$out" | tee "$out/README.md"
