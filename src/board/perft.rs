//! Perft: counts leaf nodes of the legal move tree through the engine's own make/unmake and
//! incremental key path.

use super::Game;
use shakmaty::Position;

/// Leaf count at `depth`. With `check_keys`, every incremental key is compared with a full
/// recomputation and a mismatch panics (used by the perft test suite).
pub fn perft(game: &mut Game, depth: u32, check_keys: bool) -> u64 {
    if check_keys {
        assert_eq!(game.key(), super::zobrist(game.pos()), "incremental key mismatch");
    }
    let moves = game.pos().legal_moves();
    if depth <= 1 && !check_keys {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for m in moves {
        game.make(m);
        total += perft(game, depth - 1, check_keys);
        game.unmake();
    }
    total
}

/// Per-root-move counts ("divide"), as printed by `go perft N`.
pub fn divide(game: &mut Game, depth: u32) -> Vec<(shakmaty::Move, u64)> {
    let moves = game.pos().legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        game.make(m);
        let n = if depth <= 1 { 1 } else { perft(game, depth - 1, false) };
        game.unmake();
        out.push((m, n));
    }
    out
}
