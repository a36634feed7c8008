//! Queen: weak queen, i.e. an enemy rook or bishop lines up with the queen behind exactly one
//! piece (a pin against the queen or a discovered attack on it).

use shakmaty::{Bitboard, Color, attacks};

use super::bb::*;
use super::info::{B, EvalInfo, Q, R};
use super::score::S;
use serde::{Deserialize, Serialize};

/// The Queen group's values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueenWeights {
    /// A queen pinned or exposed to a discovered attack by a rook or bishop.
    pub weak_queen: S,
}

/// Queen score of colour `c`.
pub fn eval(info: &EvalInfo, c: Color, w: &QueenWeights) -> S {
    let (us, them) = (ci(c), ci(!c));
    let mut s = S::ZERO;
    for q in squares(info.pcs[us][Q]) {
        let snipers = (attacks::rook_attacks(q, Bitboard(0)).0 & info.pcs[them][R])
            | (attacks::bishop_attacks(q, Bitboard(0)).0 & info.pcs[them][B]);
        for sn in squares(snipers) {
            let b = attacks::between(q, sn).0 & info.all;
            if b != 0 && !more_than_one(b) {
                s += w.weak_queen;
                break;
            }
        }
    }
    s
}
