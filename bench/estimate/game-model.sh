#!/usr/bin/env bash
# The game model (the default `sparring strength --model game`, issue 25): analyse, fit, evaluate.
#
#   [POP=fics|fide] bench/estimate/game-model.sh [CHUNKS (default "0 1 2 3 4 5 6 7 8 9")]
#
# POP=fide does steps 1-2 on ../shared/data/human/fide-online-dev.pgn instead (FIDE ratings,
# online rapid and blitz) into calibration/strength-game-fide.json (`--model fide`) and
# bench/results/estimate-game-fide/; CHUNKS "0 2 4 6 8" analyses every other game.
#
# 1. Analyses ../shared/data/human/fics-blitz-dev.pgn with the internal oracle at depth 6, pairing
#    exact, in ten resumable chunks (games n with n % 10 == K) into target/estimate/plies-d6-K.csv
#    (per-ply CSV; bulky, so it stays out of the repository). A chunk already there is kept.
# 2. `sparring strength train` on the chunks present: fit / validation / test by game index (the
#    human move model's split), writes calibration/strength-game.json, the report
#    bench/results/estimate-game/report.md and the error-against-games table by-games.csv + .svg;
#    then what the features can give (feature_check.py: ridge by feature group, boosted trees),
#    in feature-check.md.
# 3. Throughput of each model on one core (every 200th game), in throughput.md.
# 4. The FIDE check: estimates on the first 200 games of fide-online-dev.pgn by rating band
#    (fide-check.md): the model is fitted on FICS blitz, so the point is whether it still rises with
#    the FIDE players' ratings, not whether it matches them.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHUNKS=${1:-"0 1 2 3 4 5 6 7 8 9"}
FIDE=../shared/data/human/fide-online-dev.pgn
case "${POP:-fics}" in
  fics) PGN=../shared/data/human/fics-blitz-dev.pgn; R=bench/results/estimate-game; C=target/estimate
        MODEL=calibration/strength-game.json; SCALE="FICS blitz" ;;
  fide) PGN=$FIDE; R=bench/results/estimate-game-fide; C=target/estimate-fide
        MODEL=calibration/strength-game-fide.json; SCALE="FIDE (online rapid and blitz, 2021-22)" ;;
  *) echo "POP must be fics or fide" >&2; exit 2 ;;
esac
mkdir -p "$R" "$C"
cargo build --release --quiet
BIN=${BIN:-target/release/sparring}
for k in $CHUNKS; do
  out=$C/plies-d6-$k.csv
  [ -s "$out" ] && continue
  echo "[$(date +%T)] analysing chunk $k"
  "$BIN" strength "$PGN" --model refit --depth 6 --pairing exact --jobs "${JOBS:-2}" --every 10 --offset "$k" \
    --format csv --plies --quiet > "$out.tmp" 2> "$C/log-$k.txt"
  mv "$out.tmp" "$out"
done
plies=()
for f in "$C"/plies-d6-*.csv; do plies+=(--plies "$f"); done
"$BIN" strength train "$PGN" "${plies[@]}" --depth 6 --pairing exact --jobs "${JOBS:-2}" \
  --scale "$SCALE" --out "$MODEL" --report "$R/report.md" --by-games "$R/by-games.csv" \
  --features-out "$C/features.csv"
bench/py.sh bench/estimate/plot_by_games.py "$R/by-games.csv" "$R/by-games.svg"
bench/py.sh bench/estimate/feature_check.py "$C/features.csv" > "$R/feature-check.md"
cat "$R/feature-check.md"
[ "${POP:-fics}" = fics ] || exit 0
{
  echo "# Throughput of each model (plies per second, one job, every 200th game of fics-blitz-dev.pgn)"
  echo
  echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores."
  echo
  echo "| model | plies/s |"
  echo "|---|---|"
  for m in pawnbook refit game; do
    s=$("$BIN" strength "$PGN" --model "$m" --every 200 --jobs 1 --format csv --quiet 2>&1 >/dev/null | grep -o '[0-9.]* plies/s' | tail -1)
    echo "| $m | ${s% plies/s} |"
  done
} > "$R/throughput.md"
cat "$R/throughput.md"
if [ -f "$FIDE" ]; then
  "$BIN" strength "$FIDE" --limit 200 --jobs "${JOBS:-2}" --format csv --quiet > "$C/fide-200.csv" 2> "$C/fide-200.log" || true
  python3 bench/estimate/by_band.py "$C/fide-200.csv" "$C/fide-200.log" > "$R/fide-check.md"
  cat "$R/fide-check.md"
fi
