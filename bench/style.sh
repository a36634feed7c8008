#!/usr/bin/env bash
# Style fingerprints of the shipped avatars (issue 24): every avatar at each UCI_Elo level against
# the same point without an avatar, on a fixed sample of positions from human games (FICS dev file,
# one position per player-game in a seeded order, ply >= 8, `sparring style --positions N --seed 1`).
#
#   bench/style.sh            # all avatars at 1500 and 2100 on 1000 positions
#   STYLE_LEVELS="1500" STYLE_AVATARS="attacker defender" STYLE_POSITIONS=1000 bench/style.sh
#   STYLE_LEVELS="strong" ...   # the strong profile with a node budget (STYLE_NODES, default 20000)
#   STYLE_SAMPLE_SEED=2 ...      # another position sample (`--seed`), e.g. to check claims read off the first
#   STYLE_OUT=bench/results/style/seed3 ...   # another output folder (default bench/results/style)
#
# Resumable: each setting's moves go to bench/results/style/records/<elo>-<name>.tsv as they
# arrive, and a rerun asks only the positions still missing. After each avatar its paired table
# (avatar - plain, 95 % paired bootstrap over games) is written to
# bench/results/style/tables/<elo>-<name>.json; bench/style_report.py turns the tables into
# bench/results/style.md's sections and one SVG chart per level.
set -euo pipefail
cd "$(dirname "$0")/.."
pgn=${STYLE_PGN:-../shared/data/human/fics-blitz-dev.pgn}
n=${STYLE_POSITIONS:-1000}
levels=${STYLE_LEVELS:-"1500 2100"}
avatars=${STYLE_AVATARS:-$(ls avatars/*.avt | xargs -n1 basename | sed 's/\.avt$//' | tr '\n' ' ')}
jobs=${STYLE_JOBS:-1}
[ -f "$pgn" ] || { echo "bench/style.sh: $pgn not found (needs ../shared/data)" >&2; exit 1; }
# STYLE_BIN: a frozen copy of the binary to measure (default: build and use target/release).
if [ -n "${STYLE_BIN:-}" ]; then bin=$STYLE_BIN; else nice -n 10 cargo build --release --quiet; bin=target/release/sparring; fi
out=${STYLE_OUT:-bench/results/style}
mkdir -p "$out/records" "$out/tables"
common=(--positions "$n" --seed "${STYLE_SAMPLE_SEED:-1}" --jobs "$jobs")
for elo in $levels; do
  if [ "$elo" = strong ]; then
    level=(--option Profile=strong --go "nodes ${STYLE_NODES:-20000}")
  else
    level=(--option UCI_LimitStrength=true --option "UCI_Elo=$elo")
  fi
  echo "== $elo plain" >&2
  nice -n 10 "$bin" style "$pgn" "${common[@]}" "${level[@]}" --record "$out/records/$elo-plain.tsv" \
    --json > "$out/tables/$elo-plain.json"
  # The noise floor: the plain point with another seed, paired with Seed 1 like every avatar.
  echo "== $elo plain, seed 2" >&2
  nice -n 10 "$bin" style "$pgn" "${common[@]}" "${level[@]}" --option Seed=2 \
    --record "$out/records/$elo-seed2.tsv" --compare "$out/records/$elo-plain.tsv" --json \
    > "$out/tables/$elo-seed2.json.part" && mv "$out/tables/$elo-seed2.json.part" "$out/tables/$elo-seed2.json"
  for a in $avatars; do
    echo "== $elo $a" >&2
    nice -n 10 "$bin" style "$pgn" "${common[@]}" "${level[@]}" --option "Avatar File=avatars/$a.avt" \
      --record "$out/records/$elo-$a.tsv" --compare "$out/records/$elo-plain.tsv" --json \
      > "$out/tables/$elo-$a.json.part" && mv "$out/tables/$elo-$a.json.part" "$out/tables/$elo-$a.json"
  done
done
bench/py.sh bench/style_report.py "$out"
