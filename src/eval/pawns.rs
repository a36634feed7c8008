//! PawnStructure: isolated, doubled, backward, connected (phalanx / supported, by rank),
//! weak unopposed pawns and weak levers.

use shakmaty::Color;

use super::bb::*;
use super::info::{EvalInfo, P};
use super::pawn_cache;
use super::score::S;

const ISOLATED: S = S(-4, -8);
const BACKWARD: S = S(-5, -12);
const DOUBLED: S = S(-6, -26);
const WEAK_UNOPPOSED: S = S(-7, -13);
/// A pawn attacked twice by enemy pawns and not defended by its own.
const WEAK_LEVER: S = S(0, -27);
/// Base bonus of a connected pawn by relative rank.
const CONNECTED: [i32; 8] = [0, 4, 4, 6, 14, 25, 42, 0];
const SUPPORT: i32 = 10;

/// Pawn-structure score of colour `c` (through the per-thread pawn cache).
pub fn eval(info: &EvalInfo, c: Color) -> S {
    let both = pawn_cache::pawn_structure(info.pcs[0][P], info.pcs[1][P], || {
        [compute(info, Color::White), compute(info, Color::Black)]
    });
    both[ci(c)]
}

/// Pawn-structure score of colour `c`, computed (it reads the pawns only).
fn compute(info: &EvalInfo, c: Color) -> S {
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
            let k = CONNECTED[r as usize] * (2 + (phalanx != 0) as i32 - opposed as i32) + SUPPORT * popcnt(support);
            s += S(k, k * (r - 2) / 4);
        } else if neighbours == 0 {
            s += ISOLATED;
            if !opposed {
                s += WEAK_UNOPPOSED;
            }
        } else if backward {
            s += BACKWARD;
            if !opposed {
                s += WEAK_UNOPPOSED;
            }
        }
        if support == 0 {
            if doubled {
                s += DOUBLED;
            }
            if more_than_one(lever) {
                s += WEAK_LEVER;
            }
        }
    }
    s
}
