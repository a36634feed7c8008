#!/usr/bin/env bash
# Plies and time to mate from won 3-4 piece positions, strong vs strong at nodes=20000 per move,
# with and without Syzygy tables (issue 7). Writes bench/results/tb-conversion.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tb=../shared/data/syzygy/3-4
nodes=20000   # per move, both sides
epd=$(mktemp --suffix .epd)
cat > "$epd" <<'POS'
8/8/8/4k3/8/8/8/3QK3 w - - 0 1
8/8/8/8/4k3/8/8/R3K3 w - - 0 1
8/8/8/8/1k6/8/2r5/3QK3 w - - 0 1
8/8/4k3/8/8/8/8/2B1KN2 b - - 0 1
8/3k4/8/8/8/4K3/4P3/8 b - - 0 1
POS
out=bench/results/tb-conversion.md
{
  echo "# Conversion of won 3-4 piece endings, strong vs strong, nodes=$nodes per move"
  echo
  echo "| tables | position | result | plies | termination | engine time (s) |"
  echo "| --- | --- | --- | --- | --- | --- |"
} > "$out"
for mode in with without; do
  opt=""; [ $mode = with ] && opt="option.SyzygyPath=$tb"
  pgn=$(mktemp --suffix .pgn)
  ./target/release/sparring match -engine cmd=target/release/sparring name=A $opt -engine cmd=target/release/sparring name=B $opt \
    -each nodes=$nodes -games $(grep -c . "$epd") -openings file="$epd" format=epd order=sequential -maxmoves 200 \
    -pgnout "$pgn" -progress quiet >/dev/null
  python3 - "$pgn" "$mode" >> "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for block in re.split(r"\n(?=\[Event )", text):
    fen = re.search(r'\[FEN "([^"]*)"\]', block); res = re.search(r'\[Result "([^"]*)"\]', block)
    plies = re.search(r'\[PlyCount "(\d+)"\]', block); term = re.search(r'\[Termination "([^"]*)"\]', block)
    if not fen: continue
    t = sum(float(x) for x in re.findall(r"(\d+\.\d+)s\}", block))
    print(f"| {sys.argv[2]} | `{fen.group(1)}` | {res.group(1)} | {plies.group(1) if plies else '?'} | {term.group(1) if term else '?'} | {t:.2f} |")
PY
done
cat "$out"
