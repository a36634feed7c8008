# Prototype (issue 6, not shipped): a move-feature prior on top of the Regan-Haworth choice model.
# Builds per-move features of every eligible human position in bench/humanlike/oracle.jsonl.
# Needs chess, numpy, scipy (bench/requirements.txt): bench/py.sh bench/humanlike/experiments/prior_features.py, then prior_fit.py.
import json, math, sys, chess, numpy as np, pickle
VAL={chess.PAWN:1,chess.KNIGHT:3,chess.BISHOP:3,chess.ROOK:5,chess.QUEEN:9,chess.KING:0}
def feats(b, m):
    us=b.turn; pt=b.piece_type_at(m.from_square)
    cap=b.is_capture(m)
    victim = 1 if b.is_en_passant(m) else (VAL[b.piece_type_at(m.to_square)] if cap else 0)
    att_from=b.is_attacked_by(not us, m.from_square)
    def_from=b.is_attacked_by(us, m.from_square)
    att_to=b.is_attacked_by(not us, m.to_square)
    fr=chess.square_rank(m.from_square); tr=chess.square_rank(m.to_square)
    fwd=(tr-fr) if us==chess.WHITE else (fr-tr)
    chk=b.gives_check(m)
    f=[cap*1.0, victim/9.0, chk*1.0, b.is_castling(m)*1.0,
       *[1.0 if pt==t else 0.0 for t in (chess.PAWN,chess.KNIGHT,chess.BISHOP,chess.ROOK,chess.QUEEN,chess.KING)],
       att_from*1.0, (att_from and not def_from)*1.0, att_to*1.0, max(min(fwd,2),-2)/2.0, (m.promotion is not None)*1.0,
       (cap and att_to)*1.0]
    return f
rows=[json.loads(l) for l in open('bench/humanlike/oracle.jsonl')]
out=[]
for r in rows:
    ms=r['moves']; best=ms[0][1]
    if isinstance(best,str) or len(ms)<2: continue
    b=chess.Board(r['fen'])
    wv = best if b.turn==chess.WHITE else -best
    if abs(wv)>600: continue
    L=[];F=[];hi=None
    for k,(u,sc) in enumerate(ms):
        if isinstance(sc,str):
            loss = 0 if not sc.startswith('#-') else 300
        else: loss=min(max(best-sc,0),300)
        m=chess.Move.from_uci(u)
        if u==r['human']: hi=k
        L.append(loss); F.append(feats(b,m))
    if hi is None: continue
    out.append((r['band'], r['game'], np.array(L,float), np.array(F,float), hi))
pickle.dump(out, open('/tmp/prior-data.pkl','wb'))
print(len(out))
