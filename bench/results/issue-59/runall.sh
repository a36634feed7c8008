#!/bin/bash
# Issue 59 clock and strength matches, one after another, each resumable by its JSON.
NEW=/tmp/sparring-new-59; OLD=/tmp/sparring-old-59; SF=/usr/games/stockfish; ETH=/usr/games/ethereal-chess
BOOK=/work/shared/data/openings/noob_3moves.epd
m() { # name tc games srand engine1-args... -- engine2-args...
  local name=$1 tc=$2 games=$3 srand=$4; shift 4
  [ -f /tmp/m59/$name.json ] && return
  rm -f /tmp/m59/$name.pgn
  $NEW match "$@" -each tc=$tc timemargin=200 option.Hash=16 -games 2 -rounds $((games/2)) -repeat -concurrency 1 \
    -srand $srand -openings file=$BOOK order=random -pgnout /tmp/m59/$name.pgn -jsonout /tmp/m59/$name.json \
    -progress lines > /tmp/m59/$name.log 2>&1
}
E_NEW=(-engine cmd=$NEW name=sparring-new "option.Move Overhead=100")
E_OLD=(-engine cmd=$OLD name=sparring-old "option.Move Overhead=100")
E_SF24=(-engine cmd=$SF name=sf2400 option.UCI_LimitStrength=true option.UCI_Elo=2400 "option.Move Overhead=100")
E_SF=(-engine cmd=$SF name=stockfish "option.Move Overhead=100")
E_ETH=(-engine cmd=$ETH name=ethereal)
m new-sf2400-10 10+0.1 20 59 "${E_NEW[@]}" "${E_SF24[@]}"
m old-sf2400-10 10+0.1 20 59 "${E_OLD[@]}" "${E_SF24[@]}"
m new-eth-10 10+0.1 20 59 "${E_NEW[@]}" "${E_ETH[@]}"
m new-sf-10 10+0.1 10 59 "${E_NEW[@]}" "${E_SF[@]}"
m new-sf2400-60 60+0 4 59 "${E_NEW[@]}" "${E_SF24[@]}"
m old-sf2400-60 60+0 4 59 "${E_OLD[@]}" "${E_SF24[@]}"
m new-eth-60 60+0 4 59 "${E_NEW[@]}" "${E_ETH[@]}"
for r in 1 2 3 4 5 6 7 8; do
  m new-sf2400-10-s$r 10+0.1 20 $((59+r)) "${E_NEW[@]}" "${E_SF24[@]}"
  m old-sf2400-10-s$r 10+0.1 20 $((59+r)) "${E_OLD[@]}" "${E_SF24[@]}"
done
