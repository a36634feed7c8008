//! Threats: enemy pieces attacked by minors and rooks (by the victim's type), attacked by the
//! king, hanging pieces, pieces whose moves are restricted, safe pawn attacks, pawn-push threats
//! and attacks on the enemy queen.

use shakmaty::{Bitboard, Color, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, K, N, P, Q, R};
use super::score::S;

/// Indexed by the attacked piece's type (pawn .. queen).
const BY_MINOR: [S; 5] = [S(3, 16), S(30, 20), S(40, 28), S(44, 60), S(40, 80)];
const BY_ROOK: [S; 5] = [S(2, 22), S(19, 36), S(19, 30), S(0, 19), S(26, 20)];
const BY_RANK: S = S(6, 0);
const BY_KING: S = S(12, 44);
const HANGING: S = S(35, 18);
const RESTRICTED: S = S(4, 4);
const SAFE_PAWN: S = S(86, 47);
const PAWN_PUSH: S = S(24, 20);
const KNIGHT_ON_QUEEN: S = S(8, 6);
const SLIDER_ON_QUEEN: S = S(30, 9);

#[inline]
fn role_at(info: &EvalInfo, them: usize, b: u64) -> usize {
    (0..5).find(|&r| info.pcs[them][r] & b != 0).unwrap_or(P)
}

/// Threats made by colour `c` against the other side.
pub fn eval(info: &EvalInfo, c: Color) -> S {
    let (us, them) = (ci(c), ci(!c));
    let their_pieces = info.occ[them] & !info.pcs[them][K];
    let non_pawn = their_pieces & !info.pcs[them][P];
    let strongly_protected = info.att[them][P] | (info.att2[them] & !info.att2[us]);
    let defended = non_pawn & strongly_protected;
    let weak = their_pieces & !strongly_protected & info.att_all[us];
    let mut s = S::ZERO;

    if defended | weak != 0 {
        for sq in squares((defended | weak) & (info.att[us][N] | info.att[us][B])) {
            let r = role_at(info, them, bit(sq));
            s += BY_MINOR[r];
            if r != P {
                s += BY_RANK * rel_rank(!c, sq);
            }
        }
        for sq in squares(weak & info.att[us][R]) {
            let r = role_at(info, them, bit(sq));
            s += BY_ROOK[r];
            if r != P {
                s += BY_RANK * rel_rank(!c, sq);
            }
        }
        if weak & info.att[us][K] != 0 {
            s += BY_KING;
        }
        let loose = !info.att_all[them] | (non_pawn & info.att2[us]);
        s += HANGING * popcnt(weak & loose);
    }

    let restricted = info.att_all[them] & !strongly_protected & info.att_all[us];
    s += RESTRICTED * popcnt(restricted);

    let safe = !info.att_all[them] | info.att_all[us];
    let pawns = info.pcs[us][P];
    s += SAFE_PAWN * popcnt(pawn_attacks(c, pawns & safe) & non_pawn);

    let mut push = up(c, pawns) & !info.all;
    push |= up(c, push & rel_rank_bb(c, 2)) & !info.all;
    push &= !info.att[them][P] & safe;
    s += PAWN_PUSH * popcnt(pawn_attacks(c, push) & non_pawn);

    // Attacks on a lone enemy queen from squares we could safely move to.
    let q = info.pcs[them][Q];
    if q != 0 && !more_than_one(q) {
        let qsq = sq_of(q.trailing_zeros());
        let safe2 = info.mob_area[us] & !strongly_protected;
        let b = info.att[us][N] & attacks::knight_attacks(qsq).0;
        s += KNIGHT_ON_QUEEN * popcnt(b & safe2);
        let occ = Bitboard(info.all);
        let b = (info.att[us][B] & attacks::bishop_attacks(qsq, occ).0)
            | (info.att[us][R] & attacks::rook_attacks(qsq, occ).0);
        s += SLIDER_ON_QUEEN * popcnt(b & safe2 & info.att2[us]);
    }
    s
}
