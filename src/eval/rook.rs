//! Rook: open / semi-open file, file shared with a queen, trapped by its own uncastled king
//! while short of mobility, and the 7th rank.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, P, Q, R};
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Rook group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RookWeights {
    pub open_file: S,
    pub semi_open_file: S,
    pub queen_file: S,
    /// Doubled when the king can no longer castle.
    pub trapped: S,
    pub seventh: S,
}

/// Rook score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, w: &RookWeights) -> S {
    let (us, them) = (ci(c), ci(!c));
    if info.pcs[us][R] == 0 {
        return S::ZERO;
    }
    let queens = info.pcs[0][Q] | info.pcs[1][Q];
    let ksq = info.ksq[us];
    let kf = ksq.file().to_u32();
    let no_castling = !(info.castle[us][0] || info.castle[us][1]);
    let mut s = S::ZERO;
    for p in info.pieces(c).iter().filter(|p| p.role as usize == R) {
        let sq = p.square();
        let f = sq.file().to_u32();
        let file = file_bb(f);
        if file & queens != 0 {
            s += w.queen_file;
        }
        if file & info.pcs[us][P] == 0 {
            s += if file & info.pcs[them][P] == 0 { w.open_file } else { w.semi_open_file };
        } else if p.mob <= 3 && rel_rank(c, ksq) == 0 && (kf < 4) == (f < kf) {
            s += w.trapped * (1 + no_castling as i32);
        }
        if rel_rank(c, sq) == 6 && (rel_rank(c, info.ksq[them]) == 7 || info.pcs[them][P] & rel_rank_bb(c, 6) != 0) {
            s += w.seventh;
        }
    }
    s
}
