//! The evaluator's values gathered into one parameter vector, `Weights`, so that `sparring tune`
//! can fit them.
//!
//! Each term group owns the shape of its part (`KnightWeights` in `knight.rs`, ...); the values
//! are `tuned.json` (written by `sparring tune --values`, read once as [`TUNED`]), the only set the
//! engine evaluates with. `Params` adds what is derived from the weights (the 64-square
//! piece-square tables) and a cache `tag`: the per-thread pawn caches keep the tag with each
//! entry, so two sets of weights never share an entry (tag 0 = do not cache, for weights that
//! change all the time, as in the tuner).

use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

use super::bishop::BishopWeights;
use super::imbalance::ImbalanceWeights;
use super::king::KingWeights;
use super::knight::KnightWeights;
use super::material::{self, MaterialWeights, Psq};
use super::mobility::MobilityWeights;
use super::passed::PassedWeights;
use super::pawns::PawnWeights;
use super::queen::QueenWeights;
use super::rook::RookWeights;
use super::threats::ThreatWeights;

/// Every tunable value of the evaluator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weights {
    /// Bonus for the side to move, in centipawns (added outside the term groups).
    pub tempo: i32,
    pub material: MaterialWeights,
    pub imbalance: ImbalanceWeights,
    pub pawns: PawnWeights,
    pub knight: KnightWeights,
    pub bishop: BishopWeights,
    pub rook: RookWeights,
    pub queen: QueenWeights,
    pub mobility: MobilityWeights,
    pub king: KingWeights,
    pub threats: ThreatWeights,
    pub passed: PassedWeights,
}

/// Weights ready for evaluation.
#[derive(Clone, Debug)]
pub struct Params {
    /// Cache tag (see the module comment); 0 = never cached.
    pub tag: u32,
    pub w: Weights,
    pub psq: Psq,
}

impl Params {
    pub const fn new(tag: u32, w: Weights) -> Params {
        Params { tag, w, psq: material::psq(&w.material) }
    }
}

/// The evaluator's values (`tuned.json`, written by `sparring tune --values`), parsed on first use.
pub static TUNED: LazyLock<Params> = LazyLock::new(|| {
    let w: Weights = serde_json::from_str(include_str!("tuned.json")).expect("src/eval/tuned.json is valid weights");
    Params::new(2, w)
});
