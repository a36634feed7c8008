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
