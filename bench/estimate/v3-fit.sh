#!/usr/bin/env bash
# Estimator v3 (issue 63): fits and reports on the caches of bench/estimate/v3.sh.
#
#   bench/estimate/v3-fit.sh
#
# For each population (FICS blitz, FIDE-rated players online) on its chunks with both caches:
#   - `train --stack game|fide`: the v2 model's single-game score plus the Maia-3 features, fitted on
#     the fit part, ridge and spread on the validation part -> calibration/strength-v3.json (`--model
#     v3`) and calibration/strength-v3-fide.json (`--model v3-fide`);
#   - `train --maia` (every v2 feature refitted with Maia-3's on these games; the alternative, kept only
#     if its validation MAE is lower) -> target/estimate-v3/POP/full.json;
#   - `train --evaluate` of the v2 model and of the other population's v3 on the same test games.
# Then each model's per-player floor (bench/estimate/floor.py). Reports in bench/results/estimate-v3/.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/sparring}
R=bench/results/estimate-v3
mkdir -p "$R"
caches() { # POP -> --plies/--likelihood flags for every chunk with both files
  local C=target/estimate-v3/$1 f k
  for f in "$C"/likelihood-*.csv; do
    k=${f##*likelihood-}; k=${k%.csv}
    [ -s "$C/plies-$k.csv" ] && echo "--plies $C/plies-$k.csv --likelihood $f"
  done
}
FICS=../shared/data/human/fics-blitz-dev.pgn
FIDE=../shared/data/human/fide-online-dev.pgn
FIDE_SCALE="FIDE (online rapid and blitz, 2021-22)"
# shellcheck disable=SC2046
{
  "$BIN" strength train $FICS $(caches fics) --stack game --scale "FICS blitz" --jobs 2 \
    --out calibration/strength-v3.json --report $R/fics-v3.md --by-games $R/fics-v3-by-games.csv
  "$BIN" strength train $FICS $(caches fics) --maia --scale "FICS blitz" --jobs 2 \
    --out target/estimate-v3/fics/full.json --report $R/fics-full.md
  "$BIN" strength train $FIDE $(caches fide) --stack fide --scale "$FIDE_SCALE" --jobs 2 \
    --out calibration/strength-v3-fide.json --report $R/fide-v3.md --by-games $R/fide-v3-by-games.csv
  "$BIN" strength train $FIDE $(caches fide) --maia --scale "$FIDE_SCALE" --jobs 2 \
    --out target/estimate-v3/fide/full.json --report $R/fide-full.md
  for m in game fide calibration/strength-v3.json calibration/strength-v3-fide.json; do
    n=$(basename "$m" .json)
    "$BIN" strength train $FICS $(caches fics) --evaluate "$m" --jobs 2 --report "$R/eval-fics-$n.md" > /dev/null
    "$BIN" strength train $FIDE $(caches fide) --evaluate "$m" --jobs 2 --report "$R/eval-fide-$n.md" > /dev/null
  done
} 2>&1 | grep -v "^\s*$" | tail -n 400 > target/estimate-v3/fit.log
bench/py.sh bench/estimate/floor.py calibration/strength-game.json calibration/strength-game-fide.json \
  calibration/strength-v3.json calibration/strength-v3-fide.json > $R/floor.md
grep -h "^Per game side" $R/*.md
