//! Material: piece values plus piece-square tables (tapered).
//!
//! The tables are written for White on the queen-side half of the board (files a-d, ranks 1-8)
//! and mirrored horizontally for files e-h and vertically for Black.

use shakmaty::Color;

use super::bb::*;
use super::info::EvalInfo;
use super::score::S;
use serde::{Deserialize, Serialize};

/// Piece values in centipawns: pawn, knight, bishop, rook, queen.
const VALUE: [S; 5] = [S(85, 105), S(340, 310), S(355, 330), S(480, 540), S(1000, 1010)];

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

/// Generation 1-3 values.
pub const CLASSIC: MaterialWeights =
    MaterialWeights { value: VALUE, pawn: PAWN, knight: KNIGHT, bishop: BISHOP, rook: ROOK, queen: QUEEN, king: KING };

/// Full 64-square tables, value plus square bonus, per piece type, from White's side.
pub type Psq = [[S; 64]; 6];

const PAWN: Table = [
    [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
    [S(-4, -2), S(-2, -3), S(4, 2), S(10, -2)],
    [S(-6, -4), S(-4, -4), S(8, -2), S(14, -4)],
    [S(-4, 2), S(-2, 0), S(10, -4), S(22, -8)],
    [S(2, 8), S(2, 6), S(4, 2), S(12, -2)],
    [S(4, 18), S(6, 16), S(4, 12), S(4, 10)],
    [S(8, 30), S(10, 28), S(8, 24), S(6, 22)],
    [S(0, 0), S(0, 0), S(0, 0), S(0, 0)],
];

const KNIGHT: Table = [
    [S(-85, -48), S(-40, -38), S(-32, -22), S(-28, -10)],
    [S(-36, -30), S(-18, -20), S(-6, -8), S(0, 4)],
    [S(-26, -20), S(-2, -10), S(12, 0), S(18, 10)],
    [S(-14, -16), S(6, -2), S(22, 8), S(26, 16)],
    [S(-12, -18), S(10, -4), S(24, 6), S(28, 16)],
    [S(-8, -24), S(14, -14), S(30, -4), S(26, 10)],
    [S(-30, -32), S(-12, -22), S(10, -18), S(18, -2)],
    [S(-95, -50), S(-40, -42), S(-26, -30), S(-16, -12)],
];

const BISHOP: Table = [
    [S(-24, -28), S(-2, -16), S(-6, -18), S(-12, -6)],
    [S(-6, -16), S(4, -10), S(10, -4), S(2, 2)],
    [S(-4, -8), S(10, 0), S(2, -2), S(8, 6)],
    [S(-2, -10), S(6, -2), S(12, 0), S(18, 8)],
    [S(-6, -8), S(12, -2), S(10, -6), S(16, 10)],
    [S(-8, -12), S(2, -4), S(0, 0), S(4, 4)],
    [S(-10, -14), S(-10, -8), S(2, -2), S(0, 0)],
    [S(-26, -22), S(-2, -18), S(-6, -12), S(-10, -12)],
];

const ROOK: Table = [
    [S(-14, -4), S(-9, -6), S(-5, -4), S(2, -4)],
    [S(-10, -6), S(-6, -4), S(-2, -2), S(2, -2)],
    [S(-12, 2), S(-4, -4), S(0, 0), S(0, -4)],
    [S(-6, -2), S(-2, 2), S(-2, -2), S(-2, 2)],
    [S(-12, -2), S(-4, 4), S(-2, 4), S(2, -4)],
    [S(-10, 4), S(0, 0), S(4, -2), S(8, 6)],
    [S(-2, 4), S(6, 6), S(12, 10), S(12, 6)],
    [S(-8, 10), S(-8, 0), S(2, 10), S(6, 8)],
];

const QUEEN: Table = [
    [S(2, -34), S(-3, -26), S(-3, -20), S(2, -12)],
    [S(-2, -26), S(2, -14), S(4, -8), S(4, -2)],
    [S(-2, -18), S(2, -6), S(6, -2), S(4, 4)],
    [S(2, -12), S(2, 2), S(4, 8), S(4, 12)],
    [S(0, -10), S(6, 2), S(4, 10), S(2, 16)],
    [S(-2, -14), S(4, -2), S(2, 2), S(4, 8)],
    [S(-4, -22), S(2, -10), S(4, -6), S(4, 0)],
    [S(-2, -36), S(-2, -24), S(0, -18), S(-2, -14)],
];

const KING: Table = [
    [S(140, 0), S(168, 24), S(138, 44), S(100, 40)],
    [S(142, 26), S(156, 50), S(116, 68), S(82, 72)],
    [S(100, 48), S(128, 76), S(86, 92), S(56, 96)],
    [S(86, 58), S(96, 90), S(66, 104), S(48, 108)],
    [S(78, 62), S(88, 96), S(56, 112), S(36, 114)],
    [S(64, 58), S(82, 100), S(44, 106), S(20, 112)],
    [S(46, 32), S(64, 66), S(36, 70), S(16, 76)],
    [S(32, 4), S(46, 30), S(26, 38), S(0, 42)],
];

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
