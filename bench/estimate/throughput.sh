#!/usr/bin/env bash
# Plies per second of the internal oracle (pairing exact, 1 worker, cache on) on a fixed
# deterministic subset of the FICS dev set: every 200th game (64 games, 4,438 plies).
#
#   bench/estimate/throughput.sh [DEPTHS...]      (default: 4 5 6 7 8)
#
# Writes bench/results/estimate-throughput.md. The machine's load at the time is recorded too,
# since the numbers are wall-clock based.
set -euo pipefail
cd "$(dirname "$0")/../.."
DEPTHS=${*:-4 5 6 7 8}
EVERY=200   # every EVERY-th game of the dev set
cargo build --release --quiet
OUT=bench/results/estimate-throughput.md
{
  echo "# Strength estimator throughput"
  echo
  echo "Internal oracle, pairing exact, 1 job, every ${EVERY}th game of fics-blitz-dev.pgn."
  echo "Load average before the run: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores."
  echo
  echo "| depth | games | plies | seconds | plies/s |"
  echo "|---|---|---|---|---|"
  for d in $DEPTHS; do
    line=$(target/release/sparring strength ../shared/data/human/fics-blitz-dev.pgn --depth "$d" \
      --every "$EVERY" --jobs 1 --format csv --quiet 2>&1 >/dev/null | grep 'plies/s' | tail -1)
    # "sparring strength: 64 games (0 skipped), 4438 plies in 1.7 s (2637.0 plies/s)"
    echo "$line" | sed -E 's/.*: ([0-9]+) games .*, ([0-9]+) plies in ([0-9.]+) s \(([0-9.]+) plies\/s\)/| '"$d"' | \1 | \2 | \3 | \4 |/'
  done
} > "$OUT"
cat "$OUT"
