//! KingSafety: pawn shelter and pawn storm on the files around the king, king proximity to the
//! own pawns (endgame), and the king-danger index built from the attackers of the king ring,
//! safe and unsafe checks, weak ring squares, pins and flank attacks. The danger is converted
//! quadratically into a middlegame penalty and linearly into a small endgame one.

use shakmaty::{Bitboard, Color, Square, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, K, N, P, Q, R};
use super::pawn_cache;
use super::score::S;
use serde::{Deserialize, Serialize};

/// The KingSafety group's values: shelter and storm tables, and the king-danger weights.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingWeights {
    /// Shelter bonus by distance of the file from the edge and relative rank of our pawn (0 = none).
    pub shelter: [[i32; 8]; 4],
    /// Storm penalty by file edge distance and relative rank of the enemy pawn (0 = none).
    pub storm: [[i32; 8]; 4],
    pub blocked_storm: S,
    pub pawnless_flank: S,
    pub flank_attack: S,
    pub pawn_distance: S,
    /// Danger of a safe check by piece type (knight .. queen; index 0 unused).
    pub safe_check: [i32; 5],
    /// Danger per piece of each type attacking the king ring (pawn .. king), times their count.
    pub attacker_weight: [i32; 6],
    /// Danger per weak king-ring square, unsafe check, pinned own piece, attack next to the king.
    pub weak_ring: i32,
    pub unsafe_check: i32,
    pub pinned: i32,
    pub adjacent_attack: i32,
    /// Danger per point of mobility (mg) the attacker has over the defender.
    pub mobility: i32,
    /// Danger without an enemy queen, with a defending knight, per 8 points of shelter, and constant.
    pub no_queen: i32,
    pub knight_defender: i32,
    pub shelter_per8: i32,
    pub offset: i32,
}

fn shelter_storm(info: &EvalInfo, c: Color, ksq: Square, w: &KingWeights) -> S {
    let (us, them) = (ci(c), ci(!c));
    let pawns = (info.pcs[0][P] | info.pcs[1][P]) & !forward_ranks(!c, ksq);
    let ours = pawns & info.pcs[us][P];
    let theirs = pawns & info.pcs[them][P];
    let mut s = S(3, 3);
    let centre = ksq.file().to_u32().clamp(1, 6);
    for f in centre - 1..=centre + 1 {
        let fb = file_bb(f);
        let b = ours & fb;
        let our_rank = if b != 0 { rel_rank(c, backmost(c, b)) } else { 0 };
        let b = theirs & fb;
        let their_rank = if b != 0 { rel_rank(c, backmost(c, b)) } else { 0 };
        let d = edge_distance(f);
        s += S(w.shelter[d][our_rank as usize], 0);
        if our_rank != 0 && our_rank == their_rank - 1 {
            if their_rank == 2 {
                s += w.blocked_storm;
            }
        } else {
            s -= S(w.storm[d][their_rank as usize], 0);
        }
    }
    s
}

/// The best shelter of colour `c`'s king (where it stands, or where castling would take it) and the
/// endgame term for its distance to the nearest own pawn.
fn king_pawns(info: &EvalInfo, c: Color, ksq: Square, w: &KingWeights) -> (S, S) {
    let us = ci(c);
    let mut shelter = shelter_storm(info, c, ksq, w);
    let back = if c == Color::White { 0 } else { 56 };
    if info.castle[us][0] {
        let t = shelter_storm(info, c, sq_of(back + 6), w);
        if t.mg > shelter.mg {
            shelter = t;
        }
    }
    if info.castle[us][1] {
        let t = shelter_storm(info, c, sq_of(back + 2), w);
        if t.mg > shelter.mg {
            shelter = t;
        }
    }
    let own_pawns = info.pcs[us][P];
    let mut distance = S::ZERO;
    if own_pawns != 0 {
        let mut d = 8;
        for p in squares(own_pawns) {
            d = d.min(p.distance(ksq) as i32);
        }
        distance = w.pawn_distance * d;
    }
    (shelter, distance)
}

/// King-safety score of colour `c` (about its own king; usually negative); the pawn terms go
/// through the per-thread cache under the weights' `tag`.
pub fn eval(info: &EvalInfo, c: Color, w: &KingWeights, tag: u32) -> S {
    let (us, them) = (ci(c), ci(!c));
    let ksq = info.ksq[us];

    // Shelter (also at the castling destinations while castling is still possible) and the
    // distance to the own pawns: both read only the pawns, the king square and castling rights.
    let key = ksq as u32 | (ci(c) as u32) << 6 | (info.castle[us][0] as u32) << 7 | (info.castle[us][1] as u32) << 8;
    let (shelter, pawn_distance) =
        pawn_cache::king_pawns(info.pcs[0][P], info.pcs[1][P], key, tag, || king_pawns(info, c, ksq, w));
    let mut s = shelter + pawn_distance;

    // King danger.
    let weak = info.att_all[them] & !info.att2[us] & (!info.att_all[us] | info.att[us][K] | info.att[us][Q]);
    let safe = !info.occ[them] & (!info.att_all[us] | (weak & info.att2[them]));
    let occ_no_q = Bitboard(info.all ^ info.pcs[us][Q]);
    let rook_lines = attacks::rook_attacks(ksq, occ_no_q).0;
    let bishop_lines = attacks::bishop_attacks(ksq, occ_no_q).0;
    let knight_sq = attacks::knight_attacks(ksq).0;

    let mut danger = 0;
    let mut unsafe_checks = 0u64;
    let rook_checks = rook_lines & info.att[them][R] & safe;
    if rook_checks != 0 {
        danger += w.safe_check[R];
    } else {
        unsafe_checks |= rook_lines & info.att[them][R];
    }
    let queen_checks = (rook_lines | bishop_lines) & info.att[them][Q] & safe & !info.att[us][Q] & !rook_checks;
    if queen_checks != 0 {
        danger += w.safe_check[Q];
    }
    let bishop_checks = bishop_lines & info.att[them][B] & safe & !queen_checks;
    if bishop_checks != 0 {
        danger += w.safe_check[B];
    } else {
        unsafe_checks |= bishop_lines & info.att[them][B];
    }
    let knight_checks = knight_sq & info.att[them][N];
    if knight_checks & safe != 0 {
        danger += w.safe_check[N];
    } else {
        unsafe_checks |= knight_checks;
    }

    let camp = rel_rank_bb(c, 0) | rel_rank_bb(c, 1) | rel_rank_bb(c, 2) | rel_rank_bb(c, 3) | rel_rank_bb(c, 4);
    let flank = king_flank(ksq.file().to_u32());
    let b1 = info.att_all[them] & flank & camp;
    let b2 = b1 & info.att2[them];
    let flank_attack = popcnt(b1) + popcnt(b2);

    danger += info.ka_count[them] * info.ka_weight[them]
        + w.weak_ring * popcnt(info.king_ring[us] & weak)
        + w.unsafe_check * popcnt(unsafe_checks)
        + w.pinned * popcnt(info.blockers[us] & info.occ[us])
        + w.adjacent_attack * info.ka_adj[them]
        + 3 * flank_attack * flank_attack / 8
        + w.mobility * (info.mob[them].mg - info.mob[us].mg)
        + w.no_queen * (info.pcs[them][Q] == 0) as i32
        + w.knight_defender * (info.att[us][N] & (info.att[us][K] | bit(ksq)) != 0) as i32
        + w.shelter_per8 * shelter.mg / 8
        + w.offset;
    if danger > 100 {
        s -= S(danger * danger / 8192, danger / 32);
    }

    let pawns = info.pcs[0][P] | info.pcs[1][P];
    if pawns & flank == 0 {
        s += w.pawnless_flank;
    }
    s += w.flank_attack * flank_attack;
    s + lone_king(info, c)
}

/// Lone-king danger (endgame): a bare king facing mating material belongs in the middle, away from
/// the enemy king. Gives every level a plan for K+Q/K+R vs K even without tablebases.
const LONE_KING_EDGE: i32 = 60;
const LONE_KING_PROXIMITY: i32 = 25;

fn lone_king(info: &EvalInfo, c: Color) -> S {
    let (us, them) = (ci(c), ci(!c));
    let bare =
        info.counts[us][P] + info.counts[us][N] + info.counts[us][B] + info.counts[us][R] + info.counts[us][Q] == 0;
    let c_them = &info.counts[them];
    let mating = c_them[Q] > 0 || c_them[R] > 0 || c_them[B] >= 2 || (c_them[B] >= 1 && c_them[N] >= 1);
    if !bare || !mating {
        return S(0, 0);
    }
    let k = info.ksq[us];
    let (f, r) = (k.file() as i32, k.rank() as i32);
    // Manhattan distance from the four centre squares: 0 in the centre, 6 in a corner.
    let centre = (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2;
    let e = info.ksq[them];
    let kings = (f - e.file() as i32).abs() + (r - e.rank() as i32).abs();
    S(0, -(LONE_KING_EDGE * centre + LONE_KING_PROXIMITY * (14 - kings)))
}
