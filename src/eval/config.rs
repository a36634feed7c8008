//! Which evaluation term groups exist and how much each one weighs (the knowledge knob).

use shakmaty::Color;

/// The 13 term groups of the evaluator, named as avatar files name them.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Term {
    Material,
    Imbalance,
    PawnStructure,
    Knight,
    Bishop,
    Rook,
    Queen,
    Mobility,
    KingSafety,
    Threats,
    PassedPawns,
    Space,
    Winnable,
}

impl Term {
    pub const COUNT: usize = 13;
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Imbalance,
        Term::PawnStructure,
        Term::Knight,
        Term::Bishop,
        Term::Rook,
        Term::Queen,
        Term::Mobility,
        Term::KingSafety,
        Term::Threats,
        Term::PassedPawns,
        Term::Space,
        Term::Winnable,
    ];

    /// The key used in avatar files and the `eval` table.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Imbalance => "Imbalance",
            Term::PawnStructure => "PawnStructure",
            Term::Knight => "Knight",
            Term::Bishop => "Bishop",
            Term::Rook => "Rook",
            Term::Queen => "Queen",
            Term::Mobility => "Mobility",
            Term::KingSafety => "KingSafety",
            Term::Threats => "Threats",
            Term::PassedPawns => "PassedPawns",
            Term::Space => "Space",
            Term::Winnable => "Winnable",
        }
    }

    /// Case-insensitive lookup of a key.
    pub fn from_name(name: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Per-group presence flags and middlegame/endgame weights in percent.
/// The search uses it unchanged; it is applied in exactly one place (`eval::evaluate`).
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct EvalConfig {
    pub enabled: [bool; Term::COUNT],
    /// The weights of both sides' groups, or with [`EvalConfig::sided`] of the side it names.
    pub mg_weight: [u16; Term::COUNT],
    pub eg_weight: [u16; Term::COUNT],
    /// A configuration that takes a side (an avatar with `own.`/`opp.` weights): the other side's
    /// groups weigh these instead. None = both sides alike (every profile and ladder point).
    pub sided: Option<Box<SidedWeights>>,
}

/// The weights of the opponent's groups in a configuration that takes a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct SidedWeights {
    /// The side whose groups `mg_weight`/`eg_weight` weigh (the engine's, at the root).
    pub us: Color,
    pub them_mg: [u16; Term::COUNT],
    pub them_eg: [u16; Term::COUNT],
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            enabled: [true; Term::COUNT],
            mg_weight: [100; Term::COUNT],
            eg_weight: [100; Term::COUNT],
            sided: None,
        }
    }
}

impl EvalConfig {
    /// Everything on at 100 %: the full-strength evaluator.
    pub fn full() -> Self {
        Self::default()
    }

    pub fn is_enabled(&self, t: Term) -> bool {
        self.enabled[t.index()]
    }

    pub fn set_enabled(&mut self, t: Term, on: bool) {
        self.enabled[t.index()] = on;
    }

    /// True when every group is on and weighted 100 % (the `strong` evaluator).
    pub fn is_full(&self) -> bool {
        *self == Self::default()
    }
}
