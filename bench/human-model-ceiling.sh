#!/usr/bin/env bash
# The ceiling of the ladder's human-move match (issue 22): every point turned into the human move
# model's argmax (β 20 — the ladder's largest — λ 0.0001, no slips; so the model's most likely
# move, the search only excluding mated moves), its exact expected match on every test-part
# position of the humanlike bench (the first sample and its extension), beside Maia at the nearest
# rating on the same positions (bench/humanlike/vs_maia.py). No choice that draws on the model can
# match people more often than its argmax does on average, except by what the search adds (see
# ceiling.md). About 2 minutes on 2 cores.
#   bench/human-model-ceiling.sh [OUT_DIR]       (default bench/results/human-model/ceiling)
set -euo pipefail
BIN=${BIN:-target/release/sparring}
OUT=${1:-bench/results/human-model/ceiling}
H=bench/humanlike
W=${WORK:-target/human-model-ceiling}
mkdir -p "$OUT" "$W"
sed -e 's/^lambda = .*/lambda = 0.0001/' -e 's/^beta = .*/beta = 20.0/' -e 's/^slip_p = .*/slip_p = 0.0/' \
    -e 's/^description = "/description = "CEILING, not a ladder: the human move model'"'"'s argmax at each point. /' \
    profiles/ladder.toml > "$OUT/ceiling.toml"
cat "$H/oracle.jsonl" "$H/oracle-test2.jsonl" > "$W/oracle-internal-all.jsonl"
"$BIN" calibrate model-check --ladder "$OUT/ceiling.toml" --oracle internal="$W/oracle-internal-all.jsonl" \
    --points 800:900 1000:1100 1200:1300 1400:1500 1600:1700 1800:1900 2000:2100 2200:2300 \
    --out "$OUT/check-test-part.csv" --decisions-out "$W/decisions.csv" 2> /dev/null
bench/py.sh "$H/vs_maia.py" "$OUT/vs-maia-test-part.csv" --expected "$W/decisions.csv" > /dev/null
cat "$OUT/vs-maia-test-part.csv"
