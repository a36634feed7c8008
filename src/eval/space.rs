//! Space: safe squares in the centre on our side of the board (ranks 2-4 of files c-f, not
//! attacked by enemy pawns), counting twice those behind our own pawn chain, weighted by the
//! square of our piece count. Middlegame only, and only with enough pieces left.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, P};
use super::score::S;

/// Minimum total non-pawn material (phase units, 24 at the start) for space to count.
const THRESHOLD: i32 = 17;

/// Space score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color) -> S {
    if info.npm[0] + info.npm[1] < THRESHOLD {
        return S::ZERO;
    }
    let (us, them) = (ci(c), ci(!c));
    let area = CENTER_FILES & (rel_rank_bb(c, 1) | rel_rank_bb(c, 2) | rel_rank_bb(c, 3));
    let safe = area & !info.pcs[us][P] & !info.att[them][P];
    let behind = fill_backward(c, info.pcs[us][P]);
    let bonus = popcnt(safe) + popcnt(behind & safe & !info.att_all[them]);
    let weight = popcnt(info.occ[us]) - 1;
    S(bonus * weight * weight / 32, 0)
}
