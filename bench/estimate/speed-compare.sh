#!/usr/bin/env bash
# Throughput of each `sparring strength` model before and after a change, measured in one run:
# every 200th game of fics-blitz-dev.pgn (64 games, 4438 plies), one job, the two binaries
# interleaved, RUNS runs each (default 3), median plies/s (the rate `strength` prints on stderr,
# wall clock of the analysis only). Also checks that both binaries print the same CSV.
#
#   bench/estimate/speed-compare.sh BEFORE_BIN AFTER_BIN [MODELS (default "pawnbook refit game")]
#
# Prints a markdown table (model | before | after) and the load averages around the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?usage: speed-compare.sh BEFORE_BIN AFTER_BIN [MODELS]}
after=${2:?usage: speed-compare.sh BEFORE_BIN AFTER_BIN [MODELS]}
MODELS=${3:-"pawnbook refit game"}
RUNS=${RUNS:-3}
PGN=../shared/data/human/fics-blitz-dev.pgn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rate() { # BIN MODEL OUT -> plies/s
  "$1" strength "$PGN" --model "$2" --every 200 --jobs 1 --format csv --quiet > "$3" 2> "$3.err"
  grep -o '[0-9.]* plies/s' "$3.err" | tail -1 | cut -d' ' -f1
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "| model | before plies/s (runs) | after plies/s (runs) |"
echo "|---|---|---|"
for m in $MODELS; do
  b=(); a=()
  for i in $(seq "$RUNS"); do
    b+=("$(rate "$before" "$m" "$tmp/b-$m.csv")")
    a+=("$(rate "$after" "$m" "$tmp/a-$m.csv")")
    cmp -s "$tmp/b-$m.csv" "$tmp/a-$m.csv" || { echo "$m: the two binaries' CSV differ" >&2; exit 1; }
  done
  echo "| $m | $(printf '%s\n' "${b[@]}" | median) (${b[*]}) | $(printf '%s\n' "${a[@]}" | median) (${a[*]}) |"
done
echo
echo "Load average: $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after, on $(nproc) cores; one job (one core) per run."
