#!/usr/bin/env bash
# Match-runner throughput: the same node-limited self-play match (sparring vs itself,
# -each nodes=2000, concurrency 1, OPENINGS x 2 colours) run by `sparring match` builds and by
# fastchess, alternating runners for ROUNDS rounds; wall time and CPU time (runner + engines, from
# /usr/bin/time) per run, and a check that every runner played the same games.
#
#   bench/match-speed.sh [ROUNDS]                 (default 5; ~1-2 min per run on an idle core)
#   RUNNERS="before=/path/to/old/sparring after=target/release/sparring" bench/match-speed.sh
#   FASTCHESS=/path/to/fastchess ENGINE=/path/to/sparring ENGINE_LABEL=abc123 OPENINGS=30 bench/match-speed.sh
#
# The engine under test is ENGINE for every runner (default: target/release/sparring), so the
# engines' work is identical and the differences are the runners'. fastchess is built by
# ../shared/anchors/fastchess/build.sh. Writes bench/results/match-speed.csv (one row per run,
# appended) and prints medians per runner.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
ENGINE=${ENGINE:-target/release/sparring}
FASTCHESS=${FASTCHESS:-$(command -v fastchess || echo /tmp/fastchess/fastchess)}
OPENINGS=${OPENINGS:-30}
RUNNERS=${RUNNERS:-"after=target/release/sparring"}
ENGINE_LABEL=${ENGINE_LABEL:-$(git rev-parse --short HEAD)}
BOOK=../shared/data/openings/noob_3moves.epd
[ -f "$BOOK" ] || { echo "match-speed: $BOOK not found" >&2; exit 1; }
[ -x "$ENGINE" ] || { echo "match-speed: no engine at $ENGINE (cargo build --release)" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
head -n "$OPENINGS" "$BOOK" > "$work/book.epd"
E="-engine cmd=$ENGINE name=a -engine cmd=$ENGINE name=b -each nodes=2000"
out=bench/results/match-speed.csv
[ -f "$out" ] || echo "date,runner,round,games,wall_s,cpu_s,moves_sha,engine" > "$out"
run() { # name command...
    local name=$1; shift
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > /dev/null 2>&1
    read -r wall user sys < "$work/time"
    local pgn="$work/$name.pgn"
    # the moves only (no timings or tags), to check that every runner played the same games
    local sha
    sha=$(grep -v '^\[' "$pgn" | tr '\n' ' ' | sed 's/{[^}]*}//g' | tr -s ' ' '\n' \
        | grep -v -E '^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$|^$' | sha256sum | cut -c1-12)
    local games
    games=$(grep -c '^\[Result' "$pgn")
    echo "$(date -u +%FT%TZ),$name,$r,$games,$wall,$(echo "$user + $sys" | bc),$sha,$ENGINE_LABEL" | tee -a "$out"
    rm -f "$pgn"
}
for r in $(seq 1 "$ROUNDS"); do
    for spec in $RUNNERS; do
        name=${spec%%=*}; bin=${spec#*=}
        run "$name" "$bin" match $E -openings file="$work/book.epd" -games 2 -rounds "$OPENINGS" -repeat \
            -srand 1 -pgnout "$work/$name.pgn" -progress quiet
    done
    if [ -x "$FASTCHESS" ]; then
        run fastchess "$FASTCHESS" $E tc=inf -openings file="$work/book.epd" format=epd order=sequential \
            -games 2 -rounds "$OPENINGS" -repeat -concurrency 1 -pgnout file="$work/fastchess.pgn"
    fi
done
echo "medians over the rows of this run (wall s, cpu s):"
tail -n "+2" "$out" | tail -n "$(( ROUNDS * ($(echo $RUNNERS | wc -w) + 1) ))" | python3 -c '
import sys, statistics as st, collections
rows = collections.defaultdict(list)
for line in sys.stdin:
    d, name, r, g, wall, cpu, sha = line.strip().split(",")[:7]
    rows[name].append((float(wall), float(cpu), sha))
for name, v in rows.items():
    print(f"  {name:10s} runs {len(v)}  wall {st.median(w for w, _, _ in v):7.2f}  cpu {st.median(c for _, c, _ in v):7.2f}  games {set(s for _, _, s in v)}")
'
