//! A human move prior: which kinds of moves people reach for, independent of how good they are.
//!
//! Among moves an engine scores alike, people do not choose uniformly: they capture, recapture and
//! check more, move pieces that are attacked, push forward. A ladder point with a prior adds
//! `Σ wᵢ·fᵢ(move)` to each move's Boltzmann logit (`λ·(score − best)/100`), so between moves of
//! about equal value it leans the way the people of its band lean. The weights are fitted on those
//! people's moves by `sparring calibrate prior-fit` (conditional logit, maximum likelihood with an
//! L2 penalty) and frozen in the ladder file.
//!
//! Two features come from a glance: a shallow search ([`Glance::limits`], every root move scored,
//! from a cleared table, run by the player) — whether the move looks best at a glance, and how much worse than that it
//! looks. Everything else is a function of the position before the move and the move alone (no
//! history), so a decision still depends only on the setting, the seed and the position. The order of
//! [`FEATURE_NAMES`] is the order of the weights in the ladder file; changing a feature's meaning
//! changes what a frozen ladder plays, so it needs a new ladder version.

use crate::score::MATE_BOUND;
use crate::search::{Limits, RootMove};
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

/// Number of move features.
pub const FEATURES: usize = 20;
/// Depth of the glance (a quiescence search follows it, so captures are resolved).
pub const GLANCE_DEPTH: i32 = 1;
/// Node cap of the glance (it never needs it in a normal position).
pub const GLANCE_NODES: u64 = 20_000;
/// A glance loss is capped here (cp).
pub const GLANCE_CAP_CP: i32 = 300;

/// The features, in the order of the weights.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "capture",
    "victim_value",
    "check",
    "castling",
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "mover_attacked",
    "mover_hanging",
    "to_attacked",
    "forward",
    "promotion",
    "capture_into_attack",
    "to_defended",
    "mover_attacked_by_lesser",
    "glance_best",
    "glance_loss",
];

/// Largest |weight| a ladder file may give (a logit bonus of e^10 already overrides any score gap a
/// ladder point would care about).
pub const MAX_WEIGHT: f64 = 10.0;

/// Piece values for the prior's features only (pawns), king above everything.
fn value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// Where the moving piece lands (the king's square for castling, whatever the encoding).
fn destination(m: Move, us: Color) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(us),
        None => m.to(),
    }
}

/// What a shallow search makes of every root move.
#[derive(Clone, Debug, Default)]
pub struct Glance {
    scores: Vec<(Move, i32)>,
    best: i32,
}

impl Glance {
    /// The search limits of a glance: [`GLANCE_DEPTH`], every root move scored. The player runs it
    /// from a cleared table, with the setting's evaluator and without tablebases.
    pub fn limits() -> Limits {
        Limits {
            depth: Some(GLANCE_DEPTH),
            nodes: Some(GLANCE_NODES),
            multipv: usize::MAX,
            min_depth: 1,
            ..Default::default()
        }
    }

    /// The glance made of a search's scored root moves.
    pub fn from_root_moves(root: &[RootMove]) -> Glance {
        let scores: Vec<(Move, i32)> = root.iter().map(|r| (r.mv, r.score)).collect();
        let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
        Glance { scores, best }
    }

    /// How much worse than the best `m` looks, in pawns, capped ([`GLANCE_CAP_CP`]); a move the
    /// glance did not score counts as capped.
    pub fn loss(&self, m: Move) -> f64 {
        let cp = match self.scores.iter().find(|&&(x, _)| x == m) {
            Some(&(_, s)) if self.best.abs() < MATE_BOUND && s.abs() < MATE_BOUND => (self.best - s).max(0),
            Some(&(_, s)) if s == self.best => 0,
            _ => GLANCE_CAP_CP,
        };
        f64::from(cp.min(GLANCE_CAP_CP)) / 100.0
    }
}

/// The features of `m` (legal in `pos`), in [`FEATURE_NAMES`] order. Values are 0/1 except
/// `victim_value` (captured piece's value / 9), `forward` (ranks gained, clamped to ±2, / 2) and
/// `glance_loss` (pawns, ≤ 3).
pub fn features(pos: &Chess, m: Move, glance: &Glance) -> [f64; FEATURES] {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let from = m.from().expect("a chess move has a from square");
    let to = destination(m, us);
    let role = m.role();
    let occupied = board.occupied();
    let from_bb = Bitboard::from_square(from);
    // Attacks on the destination as they will be once the mover has left its square.
    let vacated = occupied ^ from_bb;

    let attackers_from = board.attacks_to(from, them, occupied);
    let defenders_from = board.attacks_to(from, us, occupied);
    let to_attacked = board.attacks_to(to, them, vacated).any();
    let to_defended = (board.attacks_to(to, us, vacated) & !from_bb).any();
    let lesser_attacker =
        attackers_from.into_iter().any(|sq| board.role_at(sq).is_some_and(|r| value(r) < value(role)));
    let capture = m.is_capture();
    let victim = if m.is_en_passant() { 1 } else { m.capture().map_or(0, value) };
    let gives_check = {
        let mut after = pos.clone();
        after.play_unchecked(m);
        after.is_check()
    };
    let gained = i32::from(u8::from(to.rank())) - i32::from(u8::from(from.rank()));
    let forward = if us == Color::White { gained } else { -gained };
    let b = |x: bool| if x { 1.0 } else { 0.0 };

    [
        b(capture),
        f64::from(victim.min(9)) / 9.0,
        b(gives_check),
        b(m.is_castle()),
        b(role == Role::Pawn),
        b(role == Role::Knight),
        b(role == Role::Bishop),
        b(role == Role::Rook),
        b(role == Role::Queen),
        b(role == Role::King),
        b(attackers_from.any()),
        b(attackers_from.any() && defenders_from.is_empty()),
        b(to_attacked),
        f64::from(forward.clamp(-2, 2)) / 2.0,
        b(m.is_promotion()),
        b(capture && to_attacked),
        b(to_defended),
        b(lesser_attacker),
        b(glance.loss(m) == 0.0),
        glance.loss(m),
    ]
}

/// Frozen prior weights of a ladder point.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePrior {
    pub weights: [f64; FEATURES],
}

impl MovePrior {
    /// From a ladder file's list; checks the length and the range.
    pub fn from_slice(w: &[f64]) -> Result<MovePrior, String> {
        let weights: [f64; FEATURES] = w.try_into().map_err(|_| {
            format!("prior has {} weights, expected {FEATURES} ({})", w.len(), FEATURE_NAMES.join(", "))
        })?;
        if let Some(bad) = weights.iter().find(|x| !x.is_finite() || x.abs() > MAX_WEIGHT) {
            return Err(format!("prior weight {bad} is not a finite number within ±{MAX_WEIGHT}"));
        }
        Ok(MovePrior { weights })
    }

    pub fn is_zero(&self) -> bool {
        self.weights.iter().all(|&w| w == 0.0)
    }

    /// The logit bonus of one move.
    pub fn bonus(&self, pos: &Chess, m: Move, glance: &Glance) -> f64 {
        dot(&self.weights, &features(pos, m, glance))
    }

    /// The logit bonus of each move, in order.
    pub fn bonuses(&self, pos: &Chess, moves: impl IntoIterator<Item = Move>, glance: &Glance) -> Vec<f64> {
        moves.into_iter().map(|m| self.bonus(pos, m, glance)).collect()
    }

    /// Linear interpolation between two priors (a missing one counts as all zeros).
    pub fn lerp(a: Option<&MovePrior>, b: Option<&MovePrior>, t: f64) -> Option<MovePrior> {
        if a.is_none() && b.is_none() {
            return None;
        }
        let zero = [0.0; FEATURES];
        let (wa, wb) = (a.map_or(&zero, |p| &p.weights), b.map_or(&zero, |p| &p.weights));
        let mut weights = [0.0; FEATURES];
        for i in 0..FEATURES {
            weights[i] = wa[i] + (wb[i] - wa[i]) * t;
        }
        Some(MovePrior { weights })
    }
}

/// Σ aᵢ·bᵢ.
pub fn dot(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
