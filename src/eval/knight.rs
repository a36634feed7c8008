//! Knight: outposts (occupied or reachable), shelter behind a pawn, distance to the own king.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, N, P};
use super::score::S;

const OUTPOST: S = S(32, 22);
const REACHABLE_OUTPOST: S = S(16, 5);
pub const MINOR_BEHIND_PAWN: S = S(9, 2);
const KING_PROTECTOR: S = S(-4, -4);

/// Outpost squares of colour `c`: on its 4th-6th ranks, defended by an own pawn and out of
/// reach of enemy pawns for good.
#[inline]
pub fn outposts(info: &EvalInfo, c: Color) -> u64 {
    let ranks = rel_rank_bb(c, 3) | rel_rank_bb(c, 4) | rel_rank_bb(c, 5);
    ranks & info.att[ci(c)][P] & !info.pawn_span[ci(!c)]
}

/// Knight score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color) -> S {
    let us = ci(c);
    let knights = info.pcs[us][N];
    if knights == 0 {
        return S::ZERO;
    }
    let out = outposts(info, c);
    let pawns = info.pcs[0][P] | info.pcs[1][P];
    let shielded = down(c, pawns);
    let mut s = S::ZERO;
    for p in info.pieces(c).iter().filter(|p| p.role as usize == N) {
        let sq = p.square();
        let b = bit(sq);
        if out & b != 0 {
            s += OUTPOST;
        } else if p.att & out & !info.occ[us] != 0 {
            s += REACHABLE_OUTPOST;
        }
        if shielded & b != 0 {
            s += MINOR_BEHIND_PAWN;
        }
        s += KING_PROTECTOR * sq.distance(info.ksq[us]) as i32;
    }
    s
}
