#!/usr/bin/env bash
# Peak resident memory (VmHWM) of the engine after a search at Hash 16 and 256 MB (issue 8).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
for hash in 16 256; do
  fifo=$(mktemp -u); mkfifo "$fifo"
  ./target/release/sparring < "$fifo" > /dev/null & pid=$!
  exec 3> "$fifo"
  echo "setoption name Hash value $hash" >&3
  echo "position startpos" >&3
  echo "go movetime 3000" >&3
  sleep 4
  echo "setoption name UCI_LimitStrength value true" >&3
  echo "go movetime 500" >&3
  sleep 1
  hwm=$(grep VmHWM /proc/$pid/status | awk '{print $2}')
  echo "quit" >&3; exec 3>&-; wait $pid || true; rm -f "$fifo"
  echo "Hash $hash MB: peak RSS $((hwm / 1024)) MB"
done
