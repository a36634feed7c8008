# Sourced by runall.sh and runall2.sh: one 10+0.1 / 60+0 match of `sparring match` into /tmp/m59,
# resumable by its JSON. Needs NEW (the sparring binary that runs the match) set first.
SF=/usr/games/stockfish; ETH=/usr/games/ethereal-chess; TOGA=/usr/games/toga2
BOOK=/work/shared/data/openings/noob_3moves.epd
mkdir -p /tmp/m59
m() { # name tc games srand engine1-args... engine2-args...
  local name=$1 tc=$2 games=$3 srand=$4; shift 4
  [ -f /tmp/m59/$name.json ] && return
  rm -f /tmp/m59/$name.pgn
  $NEW match "$@" -each tc=$tc timemargin=200 option.Hash=16 -games 2 -rounds $((games/2)) -repeat -concurrency 1 \
    -srand $srand -openings file=$BOOK order=random -pgnout /tmp/m59/$name.pgn -jsonout /tmp/m59/$name.json \
    -progress lines > /tmp/m59/$name.log 2>&1
}
E_SF24=(-engine cmd=$SF name=sf2400 option.UCI_LimitStrength=true option.UCI_Elo=2400 "option.Move Overhead=100")
E_SF=(-engine cmd=$SF name=stockfish "option.Move Overhead=100")
E_ETH=(-engine cmd=$ETH name=ethereal)
E_TOGA=(-engine cmd=$TOGA name=toga2)
