//! Imbalance: quadratic interactions of piece counts (in the spirit of Stockfish's material
//! imbalance tables), including the bishop pair as a pseudo piece type. The cross terms between
//! minors, rooks and queens are what score "minor vs rook" and "pieces vs queen" trades.
//!
//! Index order: bishop pair, pawn, knight, bishop, rook, queen. The sum is divided by
//! `DIVISOR` to give centipawns and is applied equally to middlegame and endgame.

use shakmaty::Color;

use super::bb::*;
use super::info::{B, EvalInfo, N, P, Q, R};
use super::score::S;
use serde::{Deserialize, Serialize};

const DIVISOR: i32 = 32;

/// The Imbalance group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImbalanceWeights {
    /// Weight of (our piece type i) x (our piece type j), j <= i.
    pub ours: [[i32; 6]; 6],
    /// Weight of (our piece type i) x (their piece type j), j <= i.
    pub theirs: [[i32; 6]; 6],
}

fn counts(info: &EvalInfo, c: Color) -> [i32; 6] {
    let k = &info.counts[ci(c)];
    [(k[B] >= 2) as i32, k[P], k[N], k[B], k[R], k[Q]]
}

/// Imbalance score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, iw: &ImbalanceWeights) -> S {
    let us = counts(info, c);
    let them = counts(info, !c);
    let mut v = 0;
    for i in 0..6 {
        if us[i] == 0 {
            continue;
        }
        let mut w = 0;
        for j in 0..=i {
            w += iw.ours[i][j] * us[j] + iw.theirs[i][j] * them[j];
        }
        v += us[i] * w;
    }
    let v = v / DIVISOR;
    S(v, v)
}
