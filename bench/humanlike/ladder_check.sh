#!/usr/bin/env bash
# Measures the built-in ladder against the humans (issue 6): every point on its band, held out,
# every point on one band (monotone), the points at Stockfish's UCI_Elo numbers, and the interval
# and paired-comparison tables; then writes bench/results/humanlike-ladder-v8.md (the v8 report).
#   bench/humanlike/ladder_check.sh VERSION      (about 25 minutes of CPU; two checks run at a time)
set -euo pipefail
cd "$(dirname "$0")/../.."
bench/unpack.sh   # the compressed human-position caches and self-play games (no-op once unpacked)
V=${1:?ladder version, e.g. 7}
cargo build --release --locked
BIN=target/release/sparring
H=bench/humanlike
R=bench/results
O="--oracle $H/oracle.jsonl"
$BIN calibrate check $O --out $R/humanlike-ladder.csv --moves-out $H/moves/ladder-v$V-bands.jsonl &
$BIN calibrate check $O --skip-first 700 --out $R/humanlike-ladder-heldout.csv \
    --moves-out $H/moves/ladder-v$V-bands-heldout.jsonl &
wait
$BIN calibrate check $O --points 1200:1350 1400:1500 1600:1700 1800:1900 2000:2100 2200:2300 \
    --out $R/humanlike-ladder-sfpoints.csv --moves-out $H/moves/ladder-v$V-sfpoints.jsonl &
$BIN calibrate check $O --points 1600:800 1600:900 1600:1100 1600:1300 1600:1500 1600:1700 1600:1900 1600:2100 \
    1600:2300 1600:2400 --out $R/humanlike-ladder-monotone.csv &
wait
bench/py.sh $H/point_ci.py $H/moves/ladder-v$V-bands.jsonl $H/oracle.jsonl $R/humanlike-ladder-ci.csv
bench/py.sh $H/point_ci.py $H/moves/ladder-v$V-bands-heldout.jsonl $H/oracle.jsonl $R/humanlike-ladder-heldout-ci.csv
bench/py.sh $H/paired_sf.py $H/moves/ladder-v$V-sfpoints.jsonl $H/oracle.jsonl $H/moves $R/humanlike-vs-stockfish-paired.csv
bench/py.sh $H/plot_ladder.py
bench/py.sh $H/ladder_report.py
