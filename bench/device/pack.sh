#!/usr/bin/env bash
# Packs what bench/device/run.sh needs into target/devpack (xz-compressed so that the working tree
# plus the pack stays under the device tool's 64 MiB transfer limit): the newest sparring build,
# a generation-1 reference build (OLD=path, default: the build of the commit in GEN1_REF), Debian's
# Stockfish 15.1 and a slice of the 8moves_v3 openings. Run it on the main machine, then call the
# device with `bash bench/device/run.sh` and carry `target/devpack`.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=target/devpack
mkdir -p "$P"
cargo build --release --quiet
[ -x /usr/games/stockfish ] || { apt-get update -qq && apt-get install -y -qq stockfish; }
OLD=${OLD:?set OLD to a sparring binary to compare with (e.g. a build of 98d78dd, generation 1 only)}
xz -T2 -6 -c target/release/sparring > "$P/sparring.xz"
xz -T2 -6 -c "$OLD" > "$P/gen1.xz"
xz -T2 -6 -c /usr/games/stockfish > "$P/stockfish.xz"
PGN=../shared/data/openings/8moves_v3.pgn
python3 - "$PGN" "$P/openings.pgn" <<'PY'
import sys
text = open(sys.argv[1]).read(400_000)
cut = text.rfind('\n\n[Event')
open(sys.argv[2], 'w').write(text[:cut + 1])
PY
du -sh "$P"
