//! Move ordering: hash move, good captures by MVV-LVA (SEE-checked), killers, counter move,
//! quiet moves by history, bad captures last. Captures are ordered within their
//! class by MVV-LVA plus a fraction of their capture history. Moves are picked lazily by selection.

use super::history::{ContContext, History};
use super::parameters::{
    CAPTURE_HISTORY_ORDER_DIVISOR, MVV_LVA_VICTIM_SCALE, ORDER_BAD_NOISY, ORDER_COUNTER, ORDER_GOOD_NOISY,
    ORDER_KILLER_1, ORDER_KILLER_2, ORDER_TT_MOVE,
};
use crate::board::see::{see_ge, value};
use shakmaty::{Chess, Move, MoveList, Position, Role};

/// A 16-bit move code: from | to << 6 | promotion << 12 (castling: king square to rook square).
#[inline]
pub fn encode(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promo << 12)
}

/// Captures, en passant and promotions.
#[inline]
pub fn is_noisy(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Orders a node's move list in place (it borrows the list, so no per-node copy is made).
pub struct MovePicker<'m> {
    moves: &'m mut MoveList,
    scores: [i32; 256],
    next: usize,
}

/// What a main-search node knows for ordering its moves.
pub struct Hints<'a> {
    /// The hash move's code (0: none).
    pub tt_move: u16,
    pub killers: [u16; 2],
    /// The counter move to the previous move (0: none).
    pub counter: u16,
    pub history: &'a History,
    pub ctx: &'a ContContext,
}

impl<'m> MovePicker<'m> {
    /// Scores every move of `moves` for the main search.
    pub fn new(pos: &Chess, moves: &'m mut MoveList, hints: &Hints) -> MovePicker<'m> {
        let Hints { tt_move, killers, counter, history, ctx } = *hints;
        let mut scores = [0i32; 256];
        for (i, &m) in moves.iter().enumerate() {
            let code = encode(m);
            scores[i] = if code == tt_move && tt_move != 0 {
                ORDER_TT_MOVE
            } else if is_noisy(m) {
                let capture = history.capture_score(pos.turn(), m) / CAPTURE_HISTORY_ORDER_DIVISOR;
                let mvv = mvv_lva(m) + capture;
                if see_ge(pos, m, 0) { ORDER_GOOD_NOISY + mvv } else { ORDER_BAD_NOISY + mvv }
            } else if code == killers[0] {
                ORDER_KILLER_1
            } else if code == killers[1] {
                ORDER_KILLER_2
            } else if code == counter && counter != 0 {
                ORDER_COUNTER
            } else {
                history.quiet_score(pos.turn(), m, ctx)
            };
        }
        MovePicker { moves, scores, next: 0 }
    }

    /// Noisy moves only (quiescence), by MVV-LVA.
    pub fn noisy(moves: &'m mut MoveList, tt_move: u16) -> MovePicker<'m> {
        let mut scores = [0i32; 256];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if encode(m) == tt_move && tt_move != 0 { ORDER_TT_MOVE } else { mvv_lva(m) };
        }
        MovePicker { moves, scores, next: 0 }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next best-scored move and its ordering score.
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }
}

/// Most valuable victim, least valuable attacker; promotions count as winning the promoted piece.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = if m.is_en_passant() { value(Role::Pawn) } else { m.capture().map_or(0, value) };
    let promo = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    (victim + promo) * MVV_LVA_VICTIM_SCALE - (m.role() as i32)
}

/// True for ordering scores of captures that lost material by SEE (halfway down to their class,
/// far below every quiet move's history score).
#[inline]
pub fn is_bad_noisy_score(score: i32) -> bool {
    score < ORDER_BAD_NOISY / 2
}

/// For a quiet move: true for the ordering scores of the killers and the counter move (and of the
/// hash move, which is searched first and so never reduced): every score from `ORDER_COUNTER` up.
#[inline]
pub fn is_refutation_score(score: i32) -> bool {
    score >= ORDER_COUNTER
}
