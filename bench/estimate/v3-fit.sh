#!/usr/bin/env bash
# Estimator v3 (issue 63): fits and reports on the caches of bench/estimate/v3.sh.
#
#   bench/estimate/v3-fit.sh [STEPS]   (default: fics fide cross throughput pack)
#
# For each population (FICS blitz, FIDE-rated players online) on its chunks with both caches:
#   - `train --maia`: every v2 feature and the Maia-3 features refitted on these games' fit part,
#     ridge and spread on the validation part -> calibration/strength-v3.json (`--model v3`) and
#     calibration/strength-v3-fide.json (`--model v3-fide`);
#   - `train --stack game|fide` (the v2 model's score plus the Maia-3 features: the alternative, lower
#     validation MAE on neither population, 154.3 vs 154.2 and 258.3 vs 253.2) ->
#     target/estimate-v3/POP/stack.json, report POP-stack.md;
#   - `train --evaluate` of the v2 model and of the other population's v3 on the same test games.
# Then each model's per-player floor (bench/estimate/floor.py); `throughput`: plies per second of each
# named model on one core and `--jobs 2` against `--jobs 1` for v3 (wants both cores free; the
# shipped models, so after the fit is built in); `pack`: every report into
# bench/results/estimate-v3/raw.tar.xz (its README summarises them).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/sparring}
R=target/estimate-v3/reports   # packed into bench/results/estimate-v3/raw.tar.xz by the pack step
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
STEPS=${*:-fics fide cross throughput pack}
# shellcheck disable=SC2046
for step in $STEPS; do
  case $step in
    fics)
      "$BIN" strength train $FICS $(caches fics) --maia --scale "FICS blitz" --jobs 2 \
        --out calibration/strength-v3.json --report $R/fics-v3.md --by-games $R/fics-v3-by-games.csv
      "$BIN" strength train $FICS $(caches fics) --stack game --scale "FICS blitz" --jobs 2 \
        --out target/estimate-v3/fics/stack.json --report $R/fics-stack.md ;;
    fide)
      "$BIN" strength train $FIDE $(caches fide) --maia --scale "$FIDE_SCALE" --jobs 2 \
        --out calibration/strength-v3-fide.json --report $R/fide-v3.md --by-games $R/fide-v3-by-games.csv
      "$BIN" strength train $FIDE $(caches fide) --stack fide --scale "$FIDE_SCALE" --jobs 2 \
        --out target/estimate-v3/fide/stack.json --report $R/fide-stack.md ;;
    cross)
      for m in game fide calibration/strength-v3.json calibration/strength-v3-fide.json; do
        n=$(basename "$m" .json)
        "$BIN" strength train $FICS $(caches fics) --evaluate "$m" --jobs 2 --report "$R/eval-fics-$n.md" > /dev/null
        "$BIN" strength train $FIDE $(caches fide) --evaluate "$m" --jobs 2 --report "$R/eval-fide-$n.md" > /dev/null
      done
      bench/py.sh bench/estimate/floor.py calibration/strength-game.json calibration/strength-game-fide.json \
        calibration/strength-v3.json calibration/strength-v3-fide.json > $R/floor.md ;;
    throughput)
      T=target/estimate-v3/throughput; mkdir -p "$T"
      rate() { grep -o '[0-9.]* plies/s' | tail -1 | cut -d' ' -f1; }
      {
        echo "# Throughput of each model (plies per second)"
        echo
        echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(date -u +%F)."
        echo
        echo "| model | FICS: every 400th game, 1 job | FIDE: first 30 games, 1 job |"
        echo "|---|---|---|"
        for m in pawnbook refit game v3; do
          a=$("$BIN" strength $FICS --model $m --every 400 --jobs 1 --format csv --quiet 2>&1 >/dev/null | rate)
          b=$("$BIN" strength $FIDE --model $m --limit 30 --jobs 1 --format csv --quiet 2>&1 >/dev/null | rate)
          echo "| $m | $a | $b |"
        done
        echo
        s1=$("$BIN" strength $FIDE --model v3 --limit 30 --jobs 1 --format csv --quiet 2>&1 > "$T/jobs1.csv" | rate)
        s2=$("$BIN" strength $FIDE --model v3 --limit 30 --jobs 2 --format csv --quiet 2>&1 > "$T/jobs2.csv" | rate)
        same=$(cmp -s "$T/jobs1.csv" "$T/jobs2.csv" && echo "identical" || echo "DIFFERENT")
        echo "v3 on the first 30 FIDE games: $s1 plies/s with \`--jobs 1\`, $s2 with \`--jobs 2\`; the CSVs are $same."
      } > "$R/throughput.md"
      cat "$R/throughput.md" ;;
    pack)
      tar -cJf bench/results/estimate-v3/raw.tar.xz -C "$R" . ;;
    *) echo "unknown step $step (fics, fide, cross, throughput, pack)" >&2; exit 2 ;;
  esac
done 2>&1 | grep -v "^\s*$" >> target/estimate-v3/fit.log
grep -h "^Per game side" $R/*.md || true
