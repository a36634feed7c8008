//! Quiet-move history: a butterfly table (side, from, to), continuation histories keyed by the
//! moves one and two plies back (piece and destination of each), killers and counter moves.

use super::MAX_PLY;
use super::movepick::encode;
use super::parameters::{HISTORY_BONUS_MAX, HISTORY_MAX};
use shakmaty::{Color, Move};

/// Number of (piece, destination) pairs: 12 coloured pieces times 64 squares.
const PIECE_TO: usize = 12 * 64;

/// The (piece, destination) index of a move made by `side`.
#[inline]
pub fn piece_to(side: Color, m: Move) -> usize {
    (side as usize * 6 + m.role() as usize - 1) * 64 + m.to() as usize
}

/// The continuation contexts of a node: the piece-to indices of the moves one and two plies back
/// (`None` after a null move or at the root).
pub type ContContext = [Option<usize>; 2];

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// `cont[context * PIECE_TO + piece_to(move)]`: how well a quiet move did after the context move.
    cont: Box<[i32]>,
    pub killers: [[u16; 2]; MAX_PLY + 4],
    counters: Box<[[u16; 64]; 64]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            cont: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            killers: [[0; 2]; MAX_PLY + 4],
            counters: Box::new([[0; 64]; 64]),
        }
    }
}

#[inline]
fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Clears what must not leak from one root position to another (killers).
    pub fn new_search(&mut self) {
        self.killers = [[0; 2]; MAX_PLY + 4];
    }

    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        let (f, t) = squares(m);
        self.butterfly[side as usize][f][t]
    }

    /// The ordering score of a quiet move: butterfly plus both continuation histories.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, ctx: &ContContext) -> i32 {
        let idx = piece_to(side, m);
        let mut s = self.quiet(side, m);
        for c in ctx.iter().flatten() {
            s += self.cont[c * PIECE_TO + idx];
        }
        s
    }

    pub fn counter(&self, prev: Option<Move>) -> u16 {
        prev.map_or(0, |p| {
            let (f, t) = squares(p);
            self.counters[f][t]
        })
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiets tried before it.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        side: Color,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: Option<Move>,
        ctx: &ContContext,
    ) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.adjust(side, best, bonus, ctx);
        for &m in tried {
            if m != best {
                self.adjust(side, m, -bonus, ctx);
            }
        }
        let code = encode(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if let Some(p) = prev {
            let (f, t) = squares(p);
            self.counters[f][t] = code;
        }
    }

    fn adjust(&mut self, side: Color, m: Move, bonus: i32, ctx: &ContContext) {
        let (f, t) = squares(m);
        gravity(&mut self.butterfly[side as usize][f][t], bonus);
        let idx = piece_to(side, m);
        for c in ctx.iter().flatten() {
            gravity(&mut self.cont[c * PIECE_TO + idx], bonus);
        }
    }
}

/// Moves an entry towards the bonus's sign, saturating at `HISTORY_MAX`.
#[inline]
fn gravity(e: &mut i32, bonus: i32) {
    *e += bonus - *e * bonus.abs() / HISTORY_MAX;
}
