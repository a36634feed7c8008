//! Mobility: safe squares reachable by each knight, bishop, rook and queen (squares not attacked
//! by enemy pawns, not occupied by own blocked or low pawns, own king or queen, or pinned
//! pieces). The counting happens while `EvalInfo` builds the attack maps; this file owns the tables.

use shakmaty::Color;

use super::bb::ci;
use super::info::EvalInfo;
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Mobility group's tables: bonus by number of safe squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MobilityWeights {
    pub knight: [S; 9],
    pub bishop: [S; 14],
    pub rook: [S; 15],
    pub queen: [S; 28],
}

/// Generation 1-3 values.
pub const CLASSIC: MobilityWeights = MobilityWeights { knight: KNIGHT, bishop: BISHOP, rook: ROOK, queen: QUEEN };

const KNIGHT: [S; 9] =
    [S(-32, -40), S(-24, -28), S(-6, -14), S(-2, -6), S(2, 4), S(6, 8), S(10, 10), S(14, 12), S(18, 12)];

const BISHOP: [S; 14] = [
    S(-24, -30),
    S(-10, -14),
    S(6, -4),
    S(12, 4),
    S(18, 10),
    S(24, 16),
    S(26, 22),
    S(30, 24),
    S(32, 28),
    S(36, 30),
    S(40, 32),
    S(44, 32),
    S(46, 34),
    S(48, 36),
];

const ROOK: [S; 15] = [
    S(-30, -40),
    S(-14, -10),
    S(-4, 6),
    S(-2, 18),
    S(-1, 28),
    S(2, 38),
    S(5, 46),
    S(10, 52),
    S(16, 58),
    S(18, 64),
    S(20, 70),
    S(22, 74),
    S(24, 76),
    S(26, 78),
    S(30, 80),
];

const QUEEN: [S; 28] = [
    S(-14, -24),
    S(-8, -12),
    S(-2, -4),
    S(-1, 4),
    S(2, 14),
    S(6, 24),
    S(8, 30),
    S(10, 36),
    S(14, 40),
    S(16, 46),
    S(20, 50),
    S(22, 54),
    S(24, 56),
    S(26, 60),
    S(28, 62),
    S(30, 64),
    S(30, 66),
    S(32, 68),
    S(34, 70),
    S(36, 72),
    S(38, 76),
    S(40, 80),
    S(42, 84),
    S(44, 88),
    S(46, 92),
    S(50, 96),
    S(52, 98),
    S(56, 100),
];

/// Bonus for a piece of type `role` (1 = knight .. 4 = queen) with `n` safe squares.
#[inline(always)]
pub fn bonus(w: &MobilityWeights, role: usize, n: usize) -> S {
    match role {
        1 => w.knight[n.min(8)],
        2 => w.bishop[n.min(13)],
        3 => w.rook[n.min(14)],
        _ => w.queen[n.min(27)],
    }
}

/// Mobility score of colour `c` (accumulated by `EvalInfo::new`).
#[inline]
pub fn eval(info: &EvalInfo, c: Color) -> S {
    info.mob[ci(c)]
}
