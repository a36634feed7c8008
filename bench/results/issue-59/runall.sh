#!/bin/bash
# Issue 59 clock and strength matches, one after another, each resumable by its JSON.
NEW=/tmp/sparring-new-59; OLD=/tmp/sparring-old-59
source "$(dirname "$0")/lib.sh"
E_NEW=(-engine cmd=$NEW name=sparring-new "option.Move Overhead=100")
E_OLD=(-engine cmd=$OLD name=sparring-old "option.Move Overhead=100")
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
