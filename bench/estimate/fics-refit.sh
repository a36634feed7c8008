#!/usr/bin/env bash
# Refit the shipped strength model on the FICS blitz dev set and evaluate it on held-out games.
#
#   bench/estimate/fics-refit.sh [DEPTH] [EVERY]
#
# 1. Analyses every EVERY-th game (default 1 = all 12,948) of ../shared/data/human/fics-blitz-dev.pgn
#    with the internal oracle at DEPTH (default 8), pairing exact, one worker, and writes the
#    per-game-side samples CSV plus the run log (plies/s) to bench/results/.
# 2. Fits the coefficients on the even-numbered games only (weighted least squares, weight = eligible
#    plies) and evaluates on the odd-numbered games, which the fit never sees: per-game MAE and
#    per-player 10-game rolling MAE against always predicting the fitting part's mean rating.
# 3. Writes the fitted model to calibration/strength-model.json and the report to bench/results/.
# The shipped `refit` line's run (6 3) and the material-only experiment (6 1): their reports and logs
# are packed in bench/results/estimate-refit.tar.xz.
set -euo pipefail
cd "$(dirname "$0")/../.."
DEPTH=${1:-8}
EVERY=${2:-1}
PGN=../shared/data/human/fics-blitz-dev.pgn
OUT=bench/results
TAG=fics-d${DEPTH}-every${EVERY}
cargo build --release --quiet
BIN=target/release/sparring
if [ ! -s "$OUT/estimate-$TAG-sides.csv" ]; then
  "$BIN" strength "$PGN" --oracle internal --depth "$DEPTH" --pairing exact --jobs 1 \
    --every "$EVERY" --format csv --quiet \
    > "$OUT/estimate-$TAG-sides.csv.tmp" 2> "$OUT/estimate-$TAG-analysis.log"
  mv "$OUT/estimate-$TAG-sides.csv.tmp" "$OUT/estimate-$TAG-sides.csv"
fi
cat "$OUT/estimate-$TAG-analysis.log"
# The samples CSV carries no oracle record, so start from a template that names the oracle used.
TEMPLATE=$(mktemp)
python3 - "$DEPTH" > "$TEMPLATE" <<'PY'
import json, sys
m = json.load(open("calibration/strength-model.json"))
m.update(oracle="internal", depth=int(sys.argv[1]), nodes=None, pairing="exact")
print(json.dumps(m, indent=2))
PY
"$BIN" strength refit --samples "$OUT/estimate-$TAG-sides.csv" --model "$TEMPLATE" \
  --fit-part even --weights plies --every "$EVERY" --out calibration/strength-model.json \
  --report "$OUT/estimate-$TAG-refit.md"
rm -f "$TEMPLATE"
