//! Threats: enemy pieces attacked by minors and rooks (by the victim's type), attacked by the
//! king, hanging pieces, pieces whose moves are restricted, safe pawn attacks, pawn-push threats
//! and attacks on the enemy queen.

use shakmaty::{Bitboard, Color, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, K, N, P, Q, R};
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Threats group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreatWeights {
    /// Indexed by the attacked piece's type (pawn .. queen).
    pub by_minor: [S; 5],
    pub by_rook: [S; 5],
    /// Per relative rank of an attacked piece.
    pub by_rank: S,
    pub by_king: S,
    pub hanging: S,
    pub restricted: S,
    pub safe_pawn: S,
    pub pawn_push: S,
    pub knight_on_queen: S,
    pub slider_on_queen: S,
}

#[inline]
fn role_at(info: &EvalInfo, them: usize, b: u64) -> usize {
    (0..5).find(|&r| info.pcs[them][r] & b != 0).unwrap_or(P)
}

/// Threats made by colour `c` against the other side.
pub fn eval(info: &EvalInfo, c: Color, w: &ThreatWeights) -> S {
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
            s += w.by_minor[r];
            if r != P {
                s += w.by_rank * rel_rank(!c, sq);
            }
        }
        for sq in squares(weak & info.att[us][R]) {
            let r = role_at(info, them, bit(sq));
            s += w.by_rook[r];
            if r != P {
                s += w.by_rank * rel_rank(!c, sq);
            }
        }
        if weak & info.att[us][K] != 0 {
            s += w.by_king;
        }
        let loose = !info.att_all[them] | (non_pawn & info.att2[us]);
        s += w.hanging * popcnt(weak & loose);
    }

    let restricted = info.att_all[them] & !strongly_protected & info.att_all[us];
    s += w.restricted * popcnt(restricted);

    let safe = !info.att_all[them] | info.att_all[us];
    let pawns = info.pcs[us][P];
    s += w.safe_pawn * popcnt(pawn_attacks(c, pawns & safe) & non_pawn);

    let mut push = up(c, pawns) & !info.all;
    push |= up(c, push & rel_rank_bb(c, 2)) & !info.all;
    push &= !info.att[them][P] & safe;
    s += w.pawn_push * popcnt(pawn_attacks(c, push) & non_pawn);

    // Attacks on a lone enemy queen from squares we could safely move to.
    let q = info.pcs[them][Q];
    if q != 0 && !more_than_one(q) {
        let qsq = sq_of(q.trailing_zeros());
        let safe2 = info.mob_area[us] & !strongly_protected;
        let b = info.att[us][N] & attacks::knight_attacks(qsq).0;
        s += w.knight_on_queen * popcnt(b & safe2);
        let occ = Bitboard(info.all);
        let b = (info.att[us][B] & attacks::bishop_attacks(qsq, occ).0)
            | (info.att[us][R] & attacks::rook_attacks(qsq, occ).0);
        s += w.slider_on_queen * popcnt(b & safe2 & info.att2[us]);
    }
    s
}
