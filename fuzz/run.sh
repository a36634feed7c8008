#!/usr/bin/env bash
# Fuzzes the UCI session handler and the avatar/profile parsers with libFuzzer (cargo-fuzz).
# Usage: fuzz/run.sh [SECONDS_PER_TARGET]   (issue 8 asks for >= 600)
# Installs cargo-fuzz if needed; works on the stable toolchain via RUSTC_BOOTSTRAP (cargo-fuzz
# passes nightly-only -Z flags). Crashes land in fuzz/artifacts/<target>/ — turn each into a test.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
for t in avatar profile uci_session; do
  mkdir -p "fuzz/corpus/$t"
  cargo fuzz run --release --sanitizer none "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -max_len=4096 2>&1 \
    | tee "fuzz/$t.log" | grep -E "^#[0-9]+ *(DONE|pulse)|Done [0-9]+ runs|crash|panicked" | tail -3
done
