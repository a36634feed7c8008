#!/usr/bin/env bash
# Session 39's 1900 trial: self-play steps of each candidate ladder (v20 with 2100-2400's unused slip
# gates narrowed to [40, 150] cp and the 1900 point changed). Jobs CAND@SEED[@P1,P2,...] (points
# default 1700,1900); GAMES games a step (default 200). Resumable: a CSV that exists is kept.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
D=bench/results/ladder-v20/trials/session39-1900
BIN=${BIN:-target/frozen/sparring-s39}
for job in "$@"; do
  IFS=@ read -r c s pts <<< "$job"
  pts=${pts:-1700,1900}
  out=$D/$c-steps-$s$( [ "$pts" = 1700,1900 ] || echo "-${pts//,/-}" ).csv
  [ -s "$out" ] && { echo "kept $out"; continue; }
  $BIN humanlike steps --ladder $D/$c.toml --points ${pts//,/ } --games ${GAMES:-200} --concurrency 2 --srand $s --out $out.part >/dev/null 2>&1
  mv $out.part $out
  echo "$c seed $s: $(tail -n +2 $out | cut -d, -f1,2,5 | paste -sd' ')"
done
