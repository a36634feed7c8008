//! The evaluator's values gathered into one parameter vector, `Weights`, so that generations can
//! carry different values and `sparring tune` can fit them.
//!
//! Each term group owns its part (`KnightWeights` in `knight.rs`, ...) with the values it has
//! always had as `CLASSIC`; this file only assembles them. `Params` adds what is derived from the
//! weights (the 64-square piece-square tables) and a cache `tag`: the per-thread pawn caches keep
//! the tag with each entry, so two sets of weights never share an entry (tag 0 = do not cache,
//! for weights that change all the time, as in the tuner).

use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

use super::bishop::{self, BishopWeights};
use super::imbalance::{self, ImbalanceWeights};
use super::king::{self, KingWeights};
use super::knight::{self, KnightWeights};
use super::material::{self, MaterialWeights, Psq};
use super::mobility::{self, MobilityWeights};
use super::passed::{self, PassedWeights};
use super::pawns::{self, PawnWeights};
use super::queen::{self, QueenWeights};
use super::rook::{self, RookWeights};
use super::threats::{self, ThreatWeights};

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

/// The hand-set values of search generations 1-3 (bench signatures 815444 / 768864 / 1303439).
pub const CLASSIC_WEIGHTS: Weights = Weights {
    tempo: 14,
    material: material::CLASSIC,
    imbalance: imbalance::CLASSIC,
    pawns: pawns::CLASSIC,
    knight: knight::CLASSIC,
    bishop: bishop::CLASSIC,
    rook: rook::CLASSIC,
    queen: queen::CLASSIC,
    mobility: mobility::CLASSIC,
    king: king::CLASSIC,
    threats: threats::CLASSIC,
    passed: passed::CLASSIC,
};

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

/// The classic parameters.
pub static CLASSIC: Params = Params::new(1, CLASSIC_WEIGHTS);

/// The tuned parameters (`tuned.json`, written by `sparring tune --full`), parsed on first use.
pub static TUNED: LazyLock<Params> = LazyLock::new(|| {
    let w: Weights = serde_json::from_str(include_str!("tuned.json")).expect("src/eval/tuned.json is valid weights");
    Params::new(2, w)
});

/// Which set of values an evaluation uses; search generations pick theirs.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum ParamSet {
    #[default]
    Classic,
    Tuned,
}

impl ParamSet {
    pub fn get(self) -> &'static Params {
        match self {
            ParamSet::Classic => &CLASSIC,
            ParamSet::Tuned => &TUNED,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            ParamSet::Classic => "classic",
            ParamSet::Tuned => "tuned",
        }
    }
}
