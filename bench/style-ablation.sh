#!/usr/bin/env bash
# The schools' pawn terms, ablated (issue 24 §4): does a point that knows PawnStructure and
# PassedPawns (the strong profile; the 2100 Philidor point) damage its structure or push passed
# pawns differently when it forgets them? The same positions as bench/style.sh's held-out sample
# (seed 2, 2000 positions), paired against its plain records (bench/unpack.sh restores them).
#
#   bench/style-ablation.sh                 # strong and 2100
#   ABLATION_LEVELS=strong ABLATION_BIN=target/frozen/sparring bench/style-ablation.sh
#
# Resumable (records as in bench/style.sh). Writes bench/results/style/ablation/<level>.json.
set -euo pipefail
cd "$(dirname "$0")/.."
pgn=${STYLE_PGN:-../shared/data/human/fics-blitz-dev.pgn}
[ -f "$pgn" ] || { echo "bench/style-ablation.sh: $pgn not found (needs ../shared/data)" >&2; exit 1; }
if [ -n "${ABLATION_BIN:-}" ]; then bin=$ABLATION_BIN; else cargo build --release --quiet; bin=target/release/sparring; fi
bench/unpack.sh
out=bench/results/style/ablation
rec=bench/results/style/records
common=(--positions 2000 --seed 2 --jobs "${ABLATION_JOBS:-2}")
levels=${ABLATION_LEVELS:-"strong 2100"}
for level in $levels; do
  if [ "$level" = strong ]; then
    opts=(--option Profile=strong --go "nodes 20000")
  else
    opts=(--option UCI_LimitStrength=true --option "UCI_Elo=$level")
  fi
  [ -s "$out/$level.json" ] && continue
  echo "== $level without the pawn terms" >&2
  "$bin" style "$pgn" "${common[@]}" "${opts[@]}" --option "Avatar File=$(realpath "$out/no-pawn-terms.avt")" \
    --record "$out/$level.tsv" --compare "$rec/$level-plain.tsv" --json > "$out/$level.json.part"
  mv "$out/$level.json.part" "$out/$level.json"
done
