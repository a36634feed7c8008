#!/usr/bin/env bash
# WAC-300 at a fixed time per position with the full-strength engine (issue 2 target: >= 270/300 at 1 s).
# Usage: bench/wac.sh [MOVETIME_MS]   — writes bench/results/wac-300-<ms>ms.txt
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:-1000}
cargo build --release --quiet
./target/release/sparring solve ../shared/data/tactical/wac-300.epd --movetime "$ms" | tee "bench/results/wac-300-${ms}ms.txt" | tail -1
