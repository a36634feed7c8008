//! Bishop: bad bishop (own pawns on its colour, worse with blocked central pawns), long-diagonal
//! control of the centre, outposts, shelter behind a pawn, distance to the own king.
//! (The bishop pair itself is scored by the Imbalance group.)

use shakmaty::{Bitboard, Color, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, P};
use super::knight::{MINOR_BEHIND_PAWN, outposts};
use super::score::S;

const OUTPOST: S = S(15, 10);
const BISHOP_PAWNS: S = S(-2, -4);
const LONG_DIAGONAL: S = S(22, 0);
const KING_PROTECTOR: S = S(-3, -4);

/// Bishop score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color) -> S {
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
            s += OUTPOST;
        }
        if shielded & b != 0 {
            s += MINOR_BEHIND_PAWN;
        }
        s += KING_PROTECTOR * sq.distance(info.ksq[us]) as i32;

        let colour = if DARK & b != 0 { DARK } else { !DARK };
        let same = popcnt(own_pawns & colour);
        let undefended = (info.att[us][P] & b == 0) as i32;
        s += BISHOP_PAWNS * (same * (undefended + blocked_centre));

        if more_than_one(attacks::bishop_attacks(sq, Bitboard(pawns)).0 & CENTER) {
            s += LONG_DIAGONAL;
        }
    }
    s
}
