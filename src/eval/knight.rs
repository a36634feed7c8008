//! Knight: outposts (occupied or reachable), shelter behind a pawn, distance to the own king.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, N, P};
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Knight group's values (also the minor-behind-pawn bonus the Bishop group shares).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnightWeights {
    pub outpost: S,
    pub reachable_outpost: S,
    pub minor_behind_pawn: S,
    pub king_protector: S,
}

/// Outpost squares of colour `c`: on its 4th-6th ranks, defended by an own pawn and out of
/// reach of enemy pawns for good.
#[inline]
pub fn outposts(info: &EvalInfo, c: Color) -> u64 {
    let ranks = rel_rank_bb(c, 3) | rel_rank_bb(c, 4) | rel_rank_bb(c, 5);
    ranks & info.att[ci(c)][P] & !info.pawn_span[ci(!c)]
}

/// Knight score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, w: &KnightWeights) -> S {
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
            s += w.outpost;
        } else if p.att & out & !info.occ[us] != 0 {
            s += w.reachable_outpost;
        }
        if shielded & b != 0 {
            s += w.minor_behind_pawn;
        }
        s += w.king_protector * sq.distance(info.ksq[us]) as i32;
    }
    s
}
