//! PassedPawns: bonus by relative rank, king proximity to the square in front of the pawn in
//! the endgame, free / safe path to promotion, and support for the advance.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, Q, R};
use super::score::S;
use serde::{Deserialize, Serialize};

/// The PassedPawns group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedWeights {
    /// By relative rank.
    pub rank: [S; 8],
    /// Per file of distance from the edge.
    pub file: S,
}

#[inline]
fn king_proximity(info: &EvalInfo, c: Color, sq: shakmaty::Square) -> i32 {
    (info.ksq[ci(c)].distance(sq) as i32).min(5)
}

/// Passed-pawn score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, w: &PassedWeights) -> S {
    let (us, them) = (ci(c), ci(!c));
    let heavy = info.pcs[0][R] | info.pcs[1][R] | info.pcs[0][Q] | info.pcs[1][Q];
    let mut s = S::ZERO;
    for sq in squares(info.passed[us]) {
        let r = rel_rank(c, sq);
        let mut bonus = w.rank[r as usize];
        if r > 2 {
            let w = 5 * r - 13;
            let block = up(c, bit(sq));
            let block_sq = sq_of(block.trailing_zeros());
            let prox = king_proximity(info, !c, block_sq) * 5 - king_proximity(info, c, block_sq) * 2;
            bonus += S(0, prox * w / 2);
            if r != 6 {
                let next = sq_of(up(c, block).trailing_zeros());
                bonus -= S(0, king_proximity(info, c, next) * w / 2);
            }
            if info.all & block == 0 {
                let to_queen = front_file(c, sq);
                let mut unsafe_sq = passed_span(c, sq);
                let behind = front_file(!c, sq) & heavy;
                if info.occ[them] & behind == 0 {
                    unsafe_sq &= info.att_all[them];
                }
                let mut k = if unsafe_sq == 0 {
                    35
                } else if unsafe_sq & to_queen == 0 {
                    20
                } else if unsafe_sq & block == 0 {
                    9
                } else {
                    0
                };
                if info.occ[us] & behind != 0 || info.att_all[us] & block != 0 {
                    k += 5;
                }
                bonus += S(k * w / 2, k * w / 2);
            }
        }
        bonus += w.file * edge_distance(sq.file().to_u32()) as i32;
        s += bonus;
    }
    s
}
