//! Bishop: bad bishop (own pawns on its colour, worse with blocked central pawns), long-diagonal
//! control of the centre, outposts, shelter behind a pawn, distance to the own king.
//! (The bishop pair itself is scored by the Imbalance group.)

use shakmaty::{Bitboard, Color, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, P};
use super::knight::outposts;
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Bishop group's values (the minor-behind-pawn bonus is the Knight group's).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BishopWeights {
    pub outpost: S,
    /// Per own pawn on the bishop's colour, times (undefended bishop + blocked central pawns).
    pub bishop_pawns: S,
    pub long_diagonal: S,
    pub king_protector: S,
}

/// Bishop score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, w: &BishopWeights, minor_behind_pawn: S) -> S {
    let us = ci(c);
    if info.pcs[us][B] == 0 {
        return S::ZERO;
    }
    let out = outposts(info, c);
    let own_pawns = info.pcs[us][P];
    let pawns = own_pawns | info.pcs[ci(!c)][P];
    let shielded = down(c, pawns);
    let blocked_centre = popcnt(own_pawns & down(c, info.all) & CENTER_FILES);
    let mut s = S::ZERO;
    for p in info.pieces(c).iter().filter(|p| p.role as usize == B) {
        let sq = p.square();
        let b = bit(sq);
        if out & b != 0 {
            s += w.outpost;
        }
        if shielded & b != 0 {
            s += minor_behind_pawn;
        }
        s += w.king_protector * sq.distance(info.ksq[us]) as i32;

        let colour = if DARK & b != 0 { DARK } else { !DARK };
        let same = popcnt(own_pawns & colour);
        let undefended = (info.att[us][P] & b == 0) as i32;
        s += w.bishop_pawns * (same * (undefended + blocked_centre));

        if more_than_one(attacks::bishop_attacks(sq, Bitboard(pawns)).0 & CENTER) {
            s += w.long_diagonal;
        }
    }
    s
}
