//! Winnable: how convertible the advantage is.
//!
//! Two parts, both adjustments of the endgame score in the direction of the side that is ahead:
//! 1. Initiative / complexity (as in Stockfish 11): passed pawns, pawn count, king outflanking
//!    and infiltration, pawns on both flanks and pure pawn endings make an advantage more
//!    convertible; a symmetric, blocked-looking position without passers less so. The
//!    adjustment has the sign of the endgame score and never flips it (it is at least -|eg|).
//! 2. The endgame scale factor (out of 64): opposite-coloured bishops, few pawns for the strong
//!    side, and pawnless positions with an insufficient material edge pull the endgame score
//!    towards zero. It is expressed additively as `eg * sf / 64 - eg`.
//!
//! The inputs are the weighted middlegame/endgame totals of the other twelve groups, so this
//! group reacts to the active configuration. The net adjustment (White's view) is attributed to
//! one column: to White's endgame when it favours White, otherwise to Black's endgame.

use shakmaty::Color;

use super::bb::*;
use super::info::{B, EvalInfo, N, P, Q, R};
use super::score::S;

fn npm_cp(info: &EvalInfo, c: usize) -> i32 {
    let k = &info.counts[c];
    340 * k[N] + 355 * k[B] + 480 * k[R] + 1000 * k[Q]
}

/// Endgame scale factor (64 = normal) for the side `strong` that is ahead.
fn scale_factor(info: &EvalInfo, strong: Color) -> i32 {
    let (s, w) = (ci(strong), ci(!strong));
    let (npm_s, npm_w) = (npm_cp(info, s), npm_cp(info, w));
    let pawns_s = info.counts[s][P];
    let mut sf = 64;
    if npm_s - npm_w <= 355 {
        if pawns_s == 0 {
            sf = if npm_s < 480 {
                0
            } else if npm_w <= 355 {
                4
            } else {
                14
            };
        } else if pawns_s == 1 {
            sf = 48;
        }
    }
    if sf == 64 || sf == 48 {
        let bishops = info.pcs[0][B] | info.pcs[1][B];
        let ocb = info.counts[0][B] == 1
            && info.counts[1][B] == 1
            && (info.pcs[0][B] & DARK != 0) != (info.pcs[1][B] & DARK != 0);
        if ocb && bishops != 0 {
            let only_bishops = info.npm[0] == 1 && info.npm[1] == 1;
            sf = if only_bishops {
                16 + 4 * popcnt(info.passed[0] | info.passed[1])
            } else {
                22 + 3 * popcnt(info.occ[s])
            };
        } else {
            sf = sf.min(40 + 8 * pawns_s);
        }
    }
    sf.min(64)
}

/// Returns the (White, Black) columns of the Winnable group given the weighted total `sum`
/// (White's view) of all other groups.
pub fn eval(info: &EvalInfo, sum: S) -> (S, S) {
    let eg = sum.eg;
    let pawns = info.pcs[0][P] | info.pcs[1][P];
    let (wk, bk) = (info.ksq[0], info.ksq[1]);
    let passed = popcnt(info.passed[0] | info.passed[1]);
    let outflanking = wk.file().distance(bk.file()) as i32 - wk.rank().distance(bk.rank()) as i32;
    let infiltration = wk.rank().to_u32() > 3 || bk.rank().to_u32() < 4;
    let both_flanks = pawns & QUEEN_SIDE != 0 && pawns & KING_SIDE != 0;
    let pure_pawn = info.npm[0] + info.npm[1] == 0;
    let almost_unwinnable = passed == 0 && outflanking < 0 && !both_flanks;
    let complexity = (9 * passed
        + 11 * popcnt(pawns)
        + 5 * outflanking
        + 12 * infiltration as i32
        + 21 * both_flanks as i32
        + 51 * pure_pawn as i32
        - 30 * almost_unwinnable as i32
        - 90)
        / 2;
    let v = eg.signum() * complexity.max(-eg.abs());
    let eg2 = eg + v;

    let mut adj = v;
    if eg2 != 0 {
        let strong = if eg2 > 0 { Color::White } else { Color::Black };
        let sf = scale_factor(info, strong);
        adj += eg2 * sf / 64 - eg2;
    }
    if adj > 0 { (S(0, adj), S::ZERO) } else { (S::ZERO, S(0, -adj)) }
}
