#!/usr/bin/env bash
# Human time use (issue 26): the time model behind the `Human Time` option, from the real clocks of
# ../shared/data/human/fide-online-dev.pgn (FIDE-rated players, online rapid and blitz events,
# 2020-22). Steps, each resumable or cheap:
#   1. extract: every second pair of games (stride 2: one even, one odd game index per pair), moves
#      from fullmove 2 on (first moves are often untimed), with the difficulty look of each
#      position -> bench/cache/human-time/fide-moves.csv (appends; a rerun resumes);
#   2. fit on the even game indices -> profiles/human/time-vN.toml (only with FIT=1: the shipped
#      file is frozen, a refit needs a new version and manifest entry);
#   3. check on the odd game indices (held out) -> bench/results/human-time/{fraction,difficulty}.csv
#      and the same on the fit part -> bench/results/human-time/fit-part/.
# Usage: bench/human-time.sh   (env: STRIDE=2, FIT=0, VERSION=3)
set -euo pipefail
cd "$(dirname "$0")/.."
PGN=../shared/data/human/fide-online-dev.pgn
MOVES=bench/cache/human-time/fide-moves.csv
STRIDE=${STRIDE:-2}
VERSION=${VERSION:-3}
BIN=${BIN:-target/release/sparring}
[ -f "$PGN" ] || { echo "skipped: $PGN not found"; exit 0; }
mkdir -p bench/cache/human-time bench/results/human-time
nice -n 15 "$BIN" clock extract --pgn "$PGN" --out "$MOVES" --stride "$STRIDE" --min-fullmove 2
if [ "${FIT:-0}" = 1 ]; then
  nice -n 15 "$BIN" clock fit --moves "$MOVES" --out "profiles/human/time-v$VERSION.toml" --version "$VERSION" \
    --source "fide-online-dev.pgn: FIDE-rated players, online rapid and blitz events (Tornelo, 2020-22); stride $STRIDE, fullmove >= 2"
fi
nice -n 15 "$BIN" clock check --moves "$MOVES" --out-dir bench/results/human-time
nice -n 15 "$BIN" clock check --moves "$MOVES" --part fit --out-dir bench/results/human-time/fit-part > /dev/null
