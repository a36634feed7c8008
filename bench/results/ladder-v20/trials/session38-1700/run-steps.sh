#!/usr/bin/env bash
# Session 38's 1700 trial: self-play steps of each candidate ladder on selection seeds (L2 of
# session 37 on seeds 44, 45: 65.2 %, 66.4 % over 400 games each). Jobs CAND@SEED[@P1,P2,...]
# (points default 1500,1700); 400 games a step (GAMES). Resumable: a CSV that exists is kept.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
D=bench/results/ladder-v20/trials/session38-1700
BIN=${BIN:-target/frozen/sparring-s38}
for job in "$@"; do
  IFS=@ read -r c s pts <<< "$job"
  pts=${pts:-1500,1700}
  out=$D/$c-steps-$s${3:+}$( [ "$pts" = 1500,1700 ] || echo "-${pts//,/-}" ).csv
  [ -s "$out" ] && { echo "kept $out"; continue; }
  $BIN humanlike steps --ladder $D/$c.toml --points ${pts//,/ } --games ${GAMES:-400} --concurrency 2 --srand $s --out $out.part >/dev/null 2>&1
  mv $out.part $out
  echo "$c seed $s: $(tail -n +2 $out | cut -d, -f1,2,5 | paste -sd' ')"
done
