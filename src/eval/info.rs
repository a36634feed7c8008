//! `EvalInfo`: everything the term groups share, computed once per `evaluate` call
//! (piece sets, attack maps per colour and piece type, king rings, pins, mobility, passed pawns).
//! Plain arrays only: building it never allocates.

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

use super::bb::*;
use super::mobility;
use super::params::Weights;
use super::score::S;

pub const P: usize = 0;
pub const N: usize = 1;
pub const B: usize = 2;
pub const R: usize = 3;
pub const Q: usize = 4;
pub const K: usize = 5;

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

/// One knight, bishop, rook or queen with its attacks (already restricted when pinned).
#[derive(Copy, Clone, Default)]
pub struct PieceAtt {
    pub sq: u8,
    pub role: u8,
    pub mob: u8,
    pub att: u64,
}

impl PieceAtt {
    #[inline(always)]
    pub fn square(&self) -> Square {
        sq_of(self.sq as u32)
    }
}

pub struct EvalInfo {
    /// Piece sets: `pcs[colour][P..=K]`.
    pub pcs: [[u64; 6]; 2],
    pub occ: [u64; 2],
    pub all: u64,
    pub ksq: [Square; 2],
    /// Squares attacked by colour and piece type.
    pub att: [[u64; 6]; 2],
    pub att_all: [u64; 2],
    /// Squares attacked at least twice by a colour.
    pub att2: [u64; 2],
    pub mob_area: [u64; 2],
    /// Pieces (either colour) that shield the king of this colour from an enemy slider.
    pub blockers: [u64; 2],
    pub king_ring: [u64; 2],
    /// Number of this colour's pieces attacking the enemy king ring, their total weight and
    /// the number of attacks on squares next to the enemy king.
    pub ka_count: [i32; 2],
    pub ka_weight: [i32; 2],
    pub ka_adj: [i32; 2],
    /// Mobility score per colour (the Mobility group's raw value, also used by king danger).
    pub mob: [S; 2],
    pub list: [[PieceAtt; 16]; 2],
    pub n: [usize; 2],
    pub passed: [u64; 2],
    /// Squares the pawns of a colour attack now or could attack after advancing.
    pub pawn_span: [u64; 2],
    /// Castling rights `[colour][kingside, queenside]`.
    pub castle: [[bool; 2]; 2],
    pub counts: [[i32; 6]; 2],
    /// Phase units (N, B = 1, R = 2, Q = 4) per colour.
    pub npm: [i32; 2],
}

impl EvalInfo {
    #[inline]
    pub fn pieces(&self, c: Color) -> &[PieceAtt] {
        &self.list[ci(c)][..self.n[ci(c)]]
    }

    pub fn new(pos: &Chess, w: &Weights) -> EvalInfo {
        let board = pos.board();
        let mut pcs = [[0u64; 6]; 2];
        let mut counts = [[0i32; 6]; 2];
        let mut occ = [0u64; 2];
        let mut ksq = [Square::E1, Square::E8];
        let mut castle = [[false; 2]; 2];
        for c in COLORS {
            let i = ci(c);
            for (r, role) in ROLES.into_iter().enumerate() {
                pcs[i][r] = board.by_piece(role.of(c)).0;
                counts[i][r] = popcnt(pcs[i][r]);
            }
            occ[i] = board.by_color(c).0;
            if let Some(k) = board.king_of(c) {
                ksq[i] = k;
            }
            castle[i] = [
                pos.castles().has(c, shakmaty::CastlingSide::KingSide),
                pos.castles().has(c, shakmaty::CastlingSide::QueenSide),
            ];
        }
        let all = occ[0] | occ[1];
        let mut info = EvalInfo {
            pcs,
            occ,
            all,
            ksq,
            att: [[0; 6]; 2],
            att_all: [0; 2],
            att2: [0; 2],
            mob_area: [0; 2],
            blockers: [0; 2],
            king_ring: [0; 2],
            ka_count: [0; 2],
            ka_weight: [0; 2],
            ka_adj: [0; 2],
            mob: [S::ZERO; 2],
            list: [[PieceAtt::default(); 16]; 2],
            n: [0; 2],
            passed: [0; 2],
            pawn_span: [0; 2],
            castle,
            counts,
            npm: [0; 2],
        };
        info.pawns_kings_pins();
        info.mobility_areas_and_king_rings();
        info.piece_attacks(w);
        info
    }

    /// Pawn and king attacks, pinned blockers, passed pawns, non-pawn material.
    #[inline]
    fn pawns_kings_pins(&mut self) {
        let info = self;
        let (pcs, counts, ksq, all) = (info.pcs, info.counts, info.ksq, info.all);
        for c in COLORS {
            let (us, them) = (ci(c), ci(!c));
            let pawns = pcs[us][P];
            let pa = pawn_attacks(c, pawns);
            let ka = attacks::king_attacks(ksq[us]).0;
            info.att[us][P] = pa;
            info.att[us][K] = ka;
            info.att_all[us] = pa | ka;
            info.att2[us] = pawn_double_attacks(c, pawns) | (pa & ka);
            info.pawn_span[us] = pawn_attacks(c, fill_forward(c, pawns));
            info.npm[us] = counts[us][N] + counts[us][B] + 2 * counts[us][R] + 4 * counts[us][Q];

            let k = ksq[us];
            let snipers = (attacks::rook_attacks(k, Bitboard(0)).0 & (pcs[them][R] | pcs[them][Q]))
                | (attacks::bishop_attacks(k, Bitboard(0)).0 & (pcs[them][B] | pcs[them][Q]));
            let mut blockers = 0;
            for s in squares(snipers) {
                let b = attacks::between(k, s).0 & all;
                if b != 0 && !more_than_one(b) {
                    blockers |= b;
                }
            }
            info.blockers[us] = blockers;

            let mut passed = 0;
            for s in squares(pawns) {
                if passed_span(c, s) & pcs[them][P] == 0 {
                    passed |= bit(s);
                }
            }
            info.passed[us] = passed;
        }
    }

    /// Mobility areas, and the king rings with the pawn attacks on them.
    #[inline]
    fn mobility_areas_and_king_rings(&mut self) {
        let info = self;
        let (pcs, occ, ksq, all) = (info.pcs, info.occ, info.ksq, info.all);
        for c in COLORS {
            let (us, them) = (ci(c), ci(!c));
            let low = rel_rank_bb(c, 1) | rel_rank_bb(c, 2);
            let stuck = pcs[us][P] & (down(c, all) | low);
            info.mob_area[us] = !(stuck | pcs[us][K] | pcs[us][Q] | (info.blockers[us] & occ[us]) | info.att[them][P]);

            // King ring: the king's neighbourhood, pushed off the edge, minus squares
            // doubly defended by own pawns.
            let k = ksq[us];
            let f = k.file().to_u32().clamp(1, 6);
            let r = k.rank().to_u32().clamp(1, 6);
            let centre = sq_of(r * 8 + f);
            let ring = (attacks::king_attacks(centre).0 | bit(centre)) & !pawn_double_attacks(c, pcs[us][P]);
            info.king_ring[us] = ring;
            info.ka_count[them] = popcnt(ring & info.att[them][P]);
        }
    }

    /// Knights, bishops, rooks, queens: attacks, king attackers, mobility, the piece list.
    #[inline]
    fn piece_attacks(&mut self, w: &Weights) {
        let info = self;
        let (pcs, ksq, all) = (info.pcs, info.ksq, info.all);
        let queens = pcs[0][Q] | pcs[1][Q];
        for c in COLORS {
            let (us, them) = (ci(c), ci(!c));
            let mut n = 0;
            for role in [N, B, R, Q] {
                for s in squares(pcs[us][role]) {
                    let mut a = match role {
                        N => attacks::knight_attacks(s).0,
                        B => attacks::bishop_attacks(s, Bitboard(all ^ queens)).0,
                        R => attacks::rook_attacks(s, Bitboard(all ^ queens ^ pcs[us][R])).0,
                        _ => attacks::queen_attacks(s, Bitboard(all)).0,
                    };
                    if info.blockers[us] & bit(s) != 0 {
                        a &= attacks::ray(ksq[us], s).0;
                    }
                    info.att2[us] |= info.att_all[us] & a;
                    info.att[us][role] |= a;
                    info.att_all[us] |= a;
                    if a & info.king_ring[them] != 0 {
                        info.ka_count[us] += 1;
                        info.ka_weight[us] += w.king.attacker_weight[role];
                        info.ka_adj[us] += popcnt(a & info.att[them][K]);
                    }
                    let m = popcnt(a & info.mob_area[us]);
                    info.mob[us] += mobility::bonus(&w.mobility, role, m as usize);
                    if n < 16 {
                        info.list[us][n] = PieceAtt { sq: s.to_u32() as u8, role: role as u8, mob: m as u8, att: a };
                        n += 1;
                    }
                }
            }
            info.n[us] = n;
        }
    }

    /// Game phase in 0..=MAX_PHASE from the non-pawn material on the board.
    pub fn phase(&self) -> i32 {
        (self.npm[0] + self.npm[1]).min(super::MAX_PHASE)
    }
}
