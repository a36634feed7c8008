//! PawnStructure: isolated, doubled, backward, connected (phalanx / supported, by rank),
//! weak unopposed pawns and weak levers.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, P};
use super::pawn_cache;
use super::score::S;
use serde::{Deserialize, Serialize};

/// The PawnStructure group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PawnWeights {
    pub isolated: S,
    pub backward: S,
    pub doubled: S,
    pub weak_unopposed: S,
    /// A pawn attacked twice by enemy pawns and not defended by its own.
    pub weak_lever: S,
    /// Base bonus of a connected pawn by relative rank.
    pub connected: [i32; 8],
    /// Per supporting pawn.
    pub support: i32,
}

/// Pawn-structure score of colour `c` (through the per-thread pawn cache, under the weights' `tag`).
pub fn eval(info: &EvalInfo, c: Color, w: &PawnWeights, tag: u32) -> S {
    let both = pawn_cache::pawn_structure(info.pcs[0][P], info.pcs[1][P], tag, || {
        [compute(info, Color::White, w), compute(info, Color::Black, w)]
    });
    both[ci(c)]
}

/// Pawn-structure score of colour `c`, computed (it reads the pawns only).
fn compute(info: &EvalInfo, c: Color, w: &PawnWeights) -> S {
    let (us, them) = (ci(c), ci(!c));
    let ours = info.pcs[us][P];
    let theirs = info.pcs[them][P];
    let mut s = S::ZERO;
    for sq in squares(ours) {
        let b = bit(sq);
        let r = rel_rank(c, sq);
        let stop = up(c, b);
        let opposed = theirs & front_file(c, sq) != 0;
        let stoppers = theirs & passed_span(c, sq);
        let lever = theirs & pawn_attacks(c, b);
        let lever_push = theirs & pawn_attacks(c, stop);
        let doubled = ours & down(c, b) != 0;
        let neighbours = ours & adjacent_files(sq);
        let phalanx = neighbours & rank_bb(sq.rank().to_u32());
        let support = neighbours & down(c, rank_bb(sq.rank().to_u32()));
        // Backward: no friendly pawn behind or level on the adjacent files, and the advance is
        // stopped or controlled by enemy pawns.
        let backward =
            neighbours & fill_backward(c, rank_bb(sq.rank().to_u32())) == 0 && stoppers & (lever_push | stop) != 0;

        if support | phalanx != 0 {
            let k =
                w.connected[r as usize] * (2 + (phalanx != 0) as i32 - opposed as i32) + w.support * popcnt(support);
            s += S(k, k * (r - 2) / 4);
        } else if neighbours == 0 {
            s += w.isolated;
            if !opposed {
                s += w.weak_unopposed;
            }
        } else if backward {
            s += w.backward;
            if !opposed {
                s += w.weak_unopposed;
            }
        }
        if support == 0 {
            if doubled {
                s += w.doubled;
            }
            if more_than_one(lever) {
                s += w.weak_lever;
            }
        }
    }
    s
}
