//! The term-grouped, tapered classical evaluator (SPEC section 2).
//!
//! TEMPORARY: material-only scaffold so the search can be built; the full 13-group evaluator replaces it.

mod config;
mod score;

pub use config::{EvalConfig, Term};
pub use score::S;

use shakmaty::{Chess, Color, Position, Role};

/// Game phase of a middlegame with all pieces on the board.
pub const MAX_PHASE: i32 = 24;

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess, cfg: &EvalConfig) -> i32 {
    let _ = cfg;
    let b = pos.board();
    let vals = [
        (Role::Pawn, 100),
        (Role::Knight, 320),
        (Role::Bishop, 330),
        (Role::Rook, 500),
        (Role::Queen, 950),
    ];
    let mut v = 0;
    for (r, x) in vals {
        v += x
            * (b.by_piece(r.of(Color::White)).count() as i32
                - b.by_piece(r.of(Color::Black)).count() as i32);
    }
    if pos.turn() == Color::White { v } else { -v }
}

/// TEMPORARY until the term table lands.
pub fn trace(pos: &Chess, cfg: &EvalConfig) -> String {
    format!("Final evaluation: {} (side to move)", evaluate(pos, cfg))
}
