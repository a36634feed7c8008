#!/usr/bin/env bash
# Learning curve of the human move model (issue 22): the same training on a share of the FICS fit
# part's games, each model evaluated on the same held-out test part. Resumable: a share whose
# evaluation exists is skipped.
#   bench/human-model-curve.sh [SHARES...]     (default: 25 50; 100 is the shipped v5's settings)
# Settings are v5's (FICS only, hidden 64, 2 passes, no mirror) so that the 100 % point is the
# shipped model-v5 (bench/results/human-model/model-v5-eval.txt). About 10 min (25 %) and 20 min
# (50 %) on 2 cores. BIN defaults to target/release/sparring; OUT to target/human-model-curve.
set -euo pipefail
BIN=${BIN:-target/release/sparring}
OUT=${OUT:-target/human-model-curve}
mkdir -p "$OUT"
shares=("$@")
[ ${#shares[@]} -eq 0 ] && shares=(25 50)
for s in "${shares[@]}"; do
  if [ -s "$OUT/share-$s-eval.txt" ]; then echo "share $s: done"; continue; fi
  "$BIN" model train --fit-share "$s" --hidden 64 --passes 2 --version 5 \
    --out "$OUT/share-$s.bin" 2> "$OUT/share-$s-train.txt"
  "$BIN" model eval --model "$OUT/share-$s.bin" --out "$OUT/share-$s-eval.txt.part" > /dev/null
  mv "$OUT/share-$s-eval.txt.part" "$OUT/share-$s-eval.txt"
  echo "share $s: $(grep -m1 ' all ' "$OUT/share-$s-eval.txt")"
done
