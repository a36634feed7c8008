#!/usr/bin/env python3
"""Do budgeted weak settings still play their budgeted move on a short clock? For UCI_Elo 2100 and
2400 (20,000 and 90,000 nodes), 40 STS positions with fixed seeds: the move with no clock against the
move with `go wtime T winc 100` (Move Overhead 100). Usage: weak_clock.py BINARY... (stdlib only)."""
import subprocess,sys,time
from pathlib import Path
def run(binary, elo, clocks, fens):
    p=subprocess.Popen([binary],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
    def send(l): p.stdin.write(l+"\n")
    def until(pfx):
        out=[]
        while True:
            l=p.stdout.readline().strip(); out.append(l)
            if l.startswith(pfx): return out
    send("uci"); until("uciok")
    send("setoption name UCI_LimitStrength value true"); send(f"setoption name UCI_Elo value {elo}"); send("setoption name Move Overhead value 100")
    send("isready"); until("readyok")
    res={}
    for c in clocks:
        moves=[]
        for i,f in enumerate(fens):
            send("ucinewgame"); send(f"setoption name Seed value {1000+i}"); send(f"position fen {f}")
            send(f"go wtime {c} btime {c} winc 100 binc 100" if c else "go")
            out=until("bestmove")
            moves.append(out[-1].split()[1])
        res[c]=moves
    send("quit"); return res
fens=[" ".join(l.split()[:4])+" 0 1" for l in Path("/work/shared/data/tactical/sts-1500.epd").read_text().splitlines()[:40]]
for binary in sys.argv[1:]:
    for elo in (2100,2400):
        r=run(binary,elo,[0,10000,1500,600,300],fens)
        base=r[0]
        print(binary,elo," ".join(f"{c}ms: {sum(a!=b for a,b in zip(base,r[c]))}/{len(fens)} differ" for c in r if c),flush=True)
