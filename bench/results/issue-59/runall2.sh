#!/bin/bash
# Issue 59, second round (session of 2026-12-06 night): Stockfish at full strength to 20 games at
# 10+0.1 and 60+0 for the clock table, then the strength before/after at 10+0.1 in 20-game chunks
# against Stockfish UCI_Elo 2400 and Toga II, old and new interleaved so that machine load falls
# on both alike. Concurrency 1; each chunk resumable by its JSON in /tmp/m59.
NEW=/tmp/sparring-new-59c   # main b54b035 (clock shared over 40 moves)
OLD=/tmp/sparring-old-59    # main 1a85ac8 (clock shared over 16 moves)
source "$(dirname "$0")/lib.sh"
E_NEW=(-engine cmd=$NEW name=sparring-new "option.Move Overhead=100")
E_OLD=(-engine cmd=$OLD name=sparring-old "option.Move Overhead=100")
m new-sf-10-b 10+0.1 10 159 "${E_NEW[@]}" "${E_SF[@]}"
m new-sf-60 60+0 20 159 "${E_NEW[@]}" "${E_SF[@]}"
for r in 2 3 4 5 6 7 8 9 10 11; do   # sf2400: 240 games a side, Toga II: 200
  m new-sf2400-10-s$r 10+0.1 20 $((59+r)) "${E_NEW[@]}" "${E_SF24[@]}"
  m old-sf2400-10-s$r 10+0.1 20 $((59+r)) "${E_OLD[@]}" "${E_SF24[@]}"
  m new-toga-10-s$r 10+0.1 20 $((59+r)) "${E_NEW[@]}" "${E_TOGA[@]}"
  m old-toga-10-s$r 10+0.1 20 $((59+r)) "${E_OLD[@]}" "${E_TOGA[@]}"
done
