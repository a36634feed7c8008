#!/usr/bin/env python3
"""Reference move logits of Maia-3 5M from onnxruntime, for the Rust forward pass to match.

    bench/py.sh bench/human-model/maia3_reference.py [--positions N] [--out PREFIX] [--known FILE]

Picks N positions (default 1000; 80 % from ../shared/data/human/fics-blitz-dev.pgn, 20 % from
fide-online-dev.pgn, seeded) at a random ply of a random game, each with its game history, one in
ten given as a lone position (no history), and evaluates each at 5 rating pairs: the players' own
ratings (mover, opponent), (800, 800), (1500, 1500), (2200, 2200), (1100, 1900). Writes

- PREFIX.jsonl (default target/maia3-reference.jsonl): one line per position: the UCI moves from
  the start (`moves`), whether the history is used (`history`), the rating pairs (`pairs`);
- PREFIX.f32: the 4352 logits of each (position, pair), float32 little-endian, in that order
  (1000 × 5 × 4352 × 4 bytes = 87 MB: not committed; regenerate with this script);
- with --known FILE (tests/golden/maia3-known.json): 20 of them, plus the README's Ruy Lopez
  position at 800, 1500 and 2200, with the logits of the legal moves only, for the test that always
  runs (`maia3_known_answers`).

Compare with `cargo run --release --example maia3 -- compare target/maia3-reference`.
The input encoding here is written from the format (see src/human/maia3/encode.rs): 8 positions,
each from its own mover's view, padded at the old end with the oldest.
"""
import argparse
import json
import random
from pathlib import Path

import chess
import chess.pgn
import numpy as np
import onnxruntime as ort

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
MODEL = SHARED / "anchors" / "maia3" / "maia3-5m.onnx"
PAIRS = [(800, 800), (1500, 1500), (2200, 2200), (1100, 1900)]
PROMO = {chess.QUEEN: 0, chess.ROOK: 1, chess.BISHOP: 2, chess.KNIGHT: 3}


def planes(board):
    """[64, 12] from the view of the board's side to move."""
    out = np.zeros((64, 12), np.float32)
    for sq, piece in board.piece_map().items():
        view = sq if board.turn == chess.WHITE else chess.square_mirror(sq)
        out[view, piece.piece_type - 1 + (0 if piece.color == board.turn else 6)] = 1.0
    return out


def tokens(boards):
    """boards: the history, oldest first (1..8)."""
    pad = 8 - len(boards)
    t = np.zeros((64, 96), np.float32)
    for slot in range(8):
        t[:, slot * 12: slot * 12 + 12] = planes(boards[max(slot - pad, 0)])
    return t


def history(moves, use_history):
    board = chess.Board()
    boards = [board.copy()]
    for m in moves:
        board.push(m)
        boards.append(board.copy())
    if not use_history:
        return [boards[-1]]
    return boards[-8:]


def vocab_index(move, turn):
    f, t = move.from_square, move.to_square
    if turn == chess.BLACK:
        f, t = chess.square_mirror(f), chess.square_mirror(t)
    if move.promotion:
        return 4096 + (chess.square_file(f) * 8 + chess.square_file(t)) * 4 + PROMO[move.promotion]
    return f * 64 + t


def games(path, limit):
    with open(path) as f:
        for _ in range(limit):
            g = chess.pgn.read_game(f)
            if g is None:
                return
            yield g


def pick(rng, path, count, pool):
    chosen = []
    gs = [g for g in games(path, pool) if len(list(g.mainline_moves())) > 0
          and g.headers.get("WhiteElo", "").isdigit() and g.headers.get("BlackElo", "").isdigit()]
    for g in rng.sample(gs, count):
        moves = list(g.mainline_moves())
        ply = rng.randrange(len(moves)) if rng.random() > 0.1 else rng.randrange(min(len(moves), 8))
        we, be = int(g.headers["WhiteElo"]), int(g.headers["BlackElo"])
        mover = (we, be) if ply % 2 == 0 else (be, we)
        chosen.append({"moves": [m.uci() for m in moves[:ply]], "history": rng.random() >= 0.1,
                       "pairs": [list(mover)] + [list(p) for p in PAIRS]})
    return chosen


def run(sess, case):
    moves = [chess.Move.from_uci(m) for m in case["moves"]]
    boards = history(moves, case["history"])
    t = tokens(boards)[None]
    out = []
    for s, o in case["pairs"]:
        feed = {"tokens": t, "self_elo": np.array([s], np.int64), "oppo_elo": np.array([o], np.int64)}
        out.append(sess.run(["logits_move"], feed)[0][0].astype("<f4"))
    return boards[-1], out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--out", default=str(ROOT / "target" / "maia3-reference"))
    ap.add_argument("--known")
    args = ap.parse_args()
    rng = random.Random(61)
    n_fide = args.positions // 5
    cases = pick(rng, SHARED / "data/human/fics-blitz-dev.pgn", args.positions - n_fide, 3000)
    cases += pick(rng, SHARED / "data/human/fide-online-dev.pgn", n_fide, 1000)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(MODEL), opts, providers=["CPUExecutionProvider"])
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    known = []
    with open(args.out + ".jsonl", "w") as fj, open(args.out + ".f32", "wb") as fb:
        for i, case in enumerate(cases):
            board, logits = run(sess, case)
            fj.write(json.dumps(case) + "\n")
            for l in logits:
                fb.write(l.tobytes())
            if args.known and i % (len(cases) // 20) == 0 and len(known) < 20:
                legal = {m.uci(): float(logits[i % 5][vocab_index(m, board.turn)]) for m in board.legal_moves}
                known.append({"moves": case["moves"], "history": case["history"], "self_elo": case["pairs"][i % 5][0],
                              "oppo_elo": case["pairs"][i % 5][1], "legal_logits": legal})
    print(f"wrote {len(cases)} positions x 5 pairs to {args.out}.jsonl/.f32")
    if args.known:
        ruy = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".split()
        for elo in (800, 1500, 2200):
            case = {"moves": ruy, "history": True, "pairs": [[elo, elo]]}
            board, logits = run(sess, case)
            legal = {m.uci(): float(logits[0][vocab_index(m, board.turn)]) for m in board.legal_moves}
            known.append({"moves": ruy, "history": True, "self_elo": elo, "oppo_elo": elo, "legal_logits": legal})
        Path(args.known).write_text(json.dumps({"source": "bench/human-model/maia3_reference.py (onnxruntime "
                                                + ort.__version__ + ")", "cases": known}, indent=0) + "\n")
        print(f"wrote {len(known)} known answers to {args.known}")


if __name__ == "__main__":
    main()
