#!/usr/bin/env bash
# Device run (16 cores): full-strength sparring (newest search) vs Stockfish 15.1 UCI_Elo 2400 at
# 10+0.1 (100 games, concurrency 11) beside newest vs generation 1 at 5+0.05 (concurrency 4), both
# stopped with SIGINT after LIMIT seconds (default 530). Results go to $OUT. See pack.sh.
set -u
D=target/devpack
for f in stockfish gen1 sparring; do [ -x $D/$f ] || xz -dk $D/$f.xz 2>/dev/null || python3 -c "import lzma,sys; open(sys.argv[2],\"wb\").write(lzma.open(sys.argv[1]).read())" $D/$f.xz $D/$f; done
chmod +x $D/stockfish $D/sparring $D/gen1
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)"; } > $OUT/machine.txt
$D/sparring bench 2> /dev/null > $OUT/bench-latest.txt
$D/gen1 bench 11 2> /dev/null > $OUT/bench-gen1.txt   # the reference build: a commit from before generations (e.g. 98d78dd)
timeout -s INT ${LIMIT:-530} $D/sparring match -engine cmd=$D/sparring name=sparring \
  -engine cmd=$D/stockfish name=stockfish-2400 option.UCI_LimitStrength=true option.UCI_Elo=2400 \
  -each tc=10+0.1 option.Hash=16 -games 2 -rounds 50 -repeat -concurrency 11 \
  -openings file=$D/openings.pgn format=pgn order=random -srand 2026 \
  -pgnout $OUT/vs-sf2400.pgn -jsonout $OUT/vs-sf2400.json -progress lines > $OUT/vs-sf2400.txt 2>&1 &
A=$!
timeout -s INT ${LIMIT:-530} $D/sparring match -engine cmd=$D/sparring name=latest \
  -engine cmd=$D/gen1 name=gen1 \
  -each tc=5+0.05 option.Hash=16 -games 2 -rounds 200 -repeat -concurrency 4 \
  -openings file=$D/openings.pgn format=pgn order=random -srand 77 \
  -pgnout $OUT/latest-vs-gen1.pgn -jsonout $OUT/latest-vs-gen1.json -progress lines > $OUT/latest-vs-gen1.txt 2>&1 &
B=$!
wait $A; wait $B
tail -8 $OUT/vs-sf2400.txt; tail -8 $OUT/latest-vs-gen1.txt
