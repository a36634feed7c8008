#!/usr/bin/env bash
# Avatars fitted to FICS players (issue 24): for each player, `sparring avatar fit` on the first
# half of their games in the FICS dev file, then `sparring avatar eval` on the second half: the
# expected and top-1 match of their moves under the fitted avatar and under every shipped avatar,
# each paired against the plain ladder point, and the shipped ones against the fitted one (95 %
# bootstrap over games).
#
#   bench/style-fit.sh                     # codpiece mscp GriffySr (>= 60 games, points 1700-1900)
#   STYLE_PLAYERS="inemuri" bench/style-fit.sh
#
# Resumable: a player whose fitted .avt and evaluation table exist is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
pgn=${STYLE_PGN:-../shared/data/human/fics-blitz-dev.pgn}
players=${STYLE_PLAYERS:-"codpiece mscp GriffySr"}
[ -f "$pgn" ] || { echo "bench/style-fit.sh: $pgn not found (needs ../shared/data)" >&2; exit 1; }
nice -n 10 cargo build --release --quiet
bin=target/release/sparring
out=bench/results/style/fits
mkdir -p "$out"
for p in $players; do
  if [ ! -s "$out/$p.avt" ]; then
    echo "== fit $p" >&2
    nice -n 10 "$bin" avatar fit "$pgn" --player "$p" --part first --out "$out/$p.avt.part"
    mv "$out/$p.avt.part" "$out/$p.avt"
  fi
  if [ ! -s "$out/$p-eval.txt" ]; then
    echo "== eval $p" >&2
    # Evaluate at the point the fit used (the second half's mean rating may lie nearer another).
    elo=$(grep -o 'at ladder point [0-9]*' "$out/$p.avt" | grep -o '[0-9]*$')
    avts=(--elo "$elo" --avt "$out/$p.avt")
    for a in avatars/*.avt; do avts+=(--avt "$a"); done
    nice -n 10 "$bin" avatar eval "$pgn" --player "$p" --part second "${avts[@]}" > "$out/$p-eval.txt.part"
    mv "$out/$p-eval.txt.part" "$out/$p-eval.txt"
  fi
  if [ ! -s "$out/$p-vs-fitted.txt" ]; then
    # The shipped avatars paired against the fitted one directly (shipped − fitted).
    echo "== eval $p against its fitted avatar" >&2
    elo=$(grep -o 'at ladder point [0-9]*' "$out/$p.avt" | grep -o '[0-9]*$')
    avts=(--elo "$elo" --base "$out/$p.avt")
    for a in avatars/*.avt; do avts+=(--avt "$a"); done
    nice -n 10 "$bin" avatar eval "$pgn" --player "$p" --part second "${avts[@]}" > "$out/$p-vs-fitted.txt.part"
    mv "$out/$p-vs-fitted.txt.part" "$out/$p-vs-fitted.txt"
  fi
done
