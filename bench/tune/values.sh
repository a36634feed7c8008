#!/usr/bin/env bash
# Fit every value of the evaluator (`sparring tune --values`, Texel local search) to Stockfish 15.1's
# depth-9 scores of quiet positions, as for search generation 4's `src/eval/tuned.json`.
# Data: bench/tune/data/sf15-d9-quiet.tsv.xz = human.tsv + engine.tsv of `bench/tune/run.sh`
# (152 488 lines: 98 008 FICS positions + 54 480 from engine games; 108 001 usable quiet ones).
# Usage: bench/tune/values.sh OUT.json [extra sparring-tune flags]   (~14 min on 2 cores)
# The shipped file is `bench/tune/values.sh src/eval/tuned.json` (12 passes, alpha fitted to the
# classic values, nothing anchored). The loss is summed in per-core chunks, so on a machine with a
# different core count the last digits of the losses, and so a few values, can differ.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/tune/values.sh OUT.json [flags]}; shift
cargo build --release --quiet
data=$(mktemp /tmp/sparring-tune-XXXXXX.tsv)
trap 'rm -f "$data"' EXIT
xz -dc bench/tune/data/sf15-d9-quiet.tsv.xz > "$data"
target/release/sparring tune "$data" --values --passes 12 --minutes 60 --out "$out" "$@"
