//! Material: piece values plus piece-square tables (tapered).
//!
//! The tables are written for White on the queen-side half of the board (files a-d, ranks 1-8)
//! and mirrored horizontally for files e-h and vertically for Black.

use shakmaty::Color;

use super::bb::*;
use super::info::EvalInfo;
use super::score::S;
use serde::{Deserialize, Serialize};

/// A piece-square table for White's queen-side half: `[rank][file a..d]`.
pub type Table = [[S; 4]; 8];

/// The Material group's values: piece values and piece-square tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaterialWeights {
    /// Pawn, knight, bishop, rook, queen.
    pub value: [S; 5],
    pub pawn: Table,
    pub knight: Table,
    pub bishop: Table,
    pub rook: Table,
    pub queen: Table,
    pub king: Table,
}

/// Full 64-square tables, value plus square bonus, per piece type, from White's side.
pub type Psq = [[S; 64]; 6];

/// Value plus square bonus for each piece type on each square, from White's side
/// (Black looks up the vertically flipped square).
pub const fn psq(w: &MaterialWeights) -> Psq {
    let tables: [&Table; 6] = [&w.pawn, &w.knight, &w.bishop, &w.rook, &w.queen, &w.king];
    let mut out = [[S::ZERO; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (r, f) = (sq / 8, sq % 8);
            let f = if f < 4 { f } else { 7 - f };
            let t = tables[role][r][f];
            let v = if role < 5 { w.value[role] } else { S::ZERO };
            out[role][sq] = S(v.mg + t.mg, v.eg + t.eg);
            sq += 1;
        }
        role += 1;
    }
    out
}

/// Material and piece-square score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, psq: &Psq) -> S {
    let us = ci(c);
    let flip = if us == 0 { 0 } else { 56 };
    let mut s = S::ZERO;
    for (role, table) in psq.iter().enumerate() {
        for sq in squares(info.pcs[us][role]) {
            s += table[sq.to_usize() ^ flip];
        }
    }
    s
}
