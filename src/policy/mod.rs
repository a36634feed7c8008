//! Choosing a move from scored root moves (SPEC 3): plateau, Boltzmann, regret-gated slips, and the
//! uniform random move of the `random` profile.
//!
//! Everything here is a pure function of the scored root moves, the settings and the generator, so
//! the same seed gives the same move. [`choose`] draws in this fixed order (part of the seeding
//! protocol, see `profiles/SEEDING.md`):
//!
//! 1. one `uniform_f64` — the slip draw — always, even when it cannot matter;
//! 2. then at most one of: `pick_index` over the slip candidates (a slip), `uniform_f64` for the
//!    Boltzmann draw, or `pick_index` over the plateau / fastest mates.

pub mod prior;
pub mod style;

use crate::score::{MATE_BOUND, is_mated};
use crate::search::RootMove;
use crate::seed::{pick_index, uniform_f64};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use shakmaty::Move;

/// How a search profile or ladder level picks among scored root moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChoiceSettings {
    /// Moves within this many centipawns of the best are "tied for best" (0 = exact ties only).
    pub plateau_cp: i32,
    /// Boltzmann temperature inverse per pawn: P(a) ∝ exp(λ·v(a)/100), v in centipawns relative to the
    /// best. `None` = plateau choice.
    pub lambda: Option<f64>,
    /// Probability of a regret-gated slip.
    pub slip_p: f64,
    /// Slip gate: a slip plays a move whose regret (best − its score, cp) lies in [min, max].
    pub slip_min_cp: i32,
    pub slip_max_cp: i32,
    /// Largest regret (best − score, cp) the Boltzmann choice may take: moves worse than this are
    /// left out of it (a slip may still play them, inside its own gate). `None` = no cap. A point
    /// led by the human move model (large β) otherwise follows the model into any move it rates
    /// likely, however much the point's own search sees it losing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boltzmann_max_cp: Option<i32>,
    /// Slips lean on the position (0 = off, the rate is `slip_p` everywhere): the rate is
    /// `slip_p · exp(−slip_tilt · e / 100)`, capped at 1, where `e` is the best root score clamped
    /// to ±[`SLIP_TILT_CLAMP_CP`]. People err more when worse and less when ahead than their level's
    /// average (FICS: `bench/humanlike/eval_pressure.py`); a fixed rate leaves a point too steady
    /// when lost and too loose when winning.
    #[serde(skip_serializing_if = "is_zero")]
    pub slip_tilt: f64,
}

/// The evaluation (cp, side to move) beyond which [`ChoiceSettings::slip_tilt`] leans no further.
pub const SLIP_TILT_CLAMP_CP: i32 = 400;
/// The largest slip tilt accepted (per pawn): at it the rate moves ×e^±8 across the clamp.
pub const MAX_SLIP_TILT: f64 = 2.0;

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for ChoiceSettings {
    fn default() -> Self {
        ChoiceSettings::best()
    }
}

impl ChoiceSettings {
    /// Exact ties only, no Boltzmann, no slips: the `strong` choice.
    pub fn best() -> Self {
        ChoiceSettings {
            plateau_cp: 0,
            lambda: None,
            slip_p: 0.0,
            slip_min_cp: 0,
            slip_max_cp: 0,
            boltzmann_max_cp: None,
            slip_tilt: 0.0,
        }
    }

    /// What the slip rate is multiplied by when the best root score is `best` (exactly 1 when the
    /// tilt is 0).
    pub fn slip_scale(&self, best: i32) -> f64 {
        if self.slip_tilt == 0.0 {
            return 1.0;
        }
        let e = best.clamp(-SLIP_TILT_CLAMP_CP, SLIP_TILT_CLAMP_CP);
        (-self.slip_tilt * f64::from(e) / 100.0).exp()
    }

    /// The slip rate when the best root score is `best`: `slip_p` leaned by the tilt, capped at 1.
    pub fn slip_p_at(&self, best: i32) -> f64 {
        (self.slip_p * self.slip_scale(best)).min(1.0)
    }

    /// Checks the ranges: plateau ≥ 0, λ finite and > 0, 0 ≤ slip_p ≤ 1, 0 ≤ min ≤ max, cap ≥ 1,
    /// 0 ≤ slip_tilt ≤ [`MAX_SLIP_TILT`].
    pub fn validate(&self) -> Result<(), String> {
        if self.plateau_cp < 0 {
            return Err(format!("plateau_cp {} is negative", self.plateau_cp));
        }
        if let Some(l) = self.lambda
            && !(l.is_finite() && l > 0.0)
        {
            return Err(format!("lambda {l} must be a finite number > 0"));
        }
        if !(0.0..=1.0).contains(&self.slip_p) {
            return Err(format!("slip_p {} is outside [0, 1]", self.slip_p));
        }
        if self.slip_min_cp < 0 || self.slip_min_cp > self.slip_max_cp {
            return Err(format!("slip gate [{}, {}] must satisfy 0 <= min <= max", self.slip_min_cp, self.slip_max_cp));
        }
        if let Some(c) = self.boltzmann_max_cp
            && c < 1
        {
            return Err(format!("boltzmann_max_cp {c} must be at least 1"));
        }
        if !(self.slip_tilt.is_finite() && (0.0..=MAX_SLIP_TILT).contains(&self.slip_tilt)) {
            return Err(format!("slip_tilt {} is outside [0, {MAX_SLIP_TILT}]", self.slip_tilt));
        }
        Ok(())
    }
}

/// Which rule produced the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChoiceKind {
    /// The single best move (or the fastest found mate).
    Best,
    /// Uniform among several moves within `plateau_cp` of the best (or equally fast mates).
    Plateau,
    /// Sampled from the Boltzmann distribution.
    Boltzmann,
    /// A regret-gated slip.
    Slip,
    /// The `random` profile's uniform legal move.
    Random,
    /// The only legal move.
    Forced,
}

impl ChoiceKind {
    pub const fn name(self) -> &'static str {
        match self {
            ChoiceKind::Best => "best",
            ChoiceKind::Plateau => "plateau",
            ChoiceKind::Boltzmann => "boltzmann",
            ChoiceKind::Slip => "slip",
            ChoiceKind::Random => "random",
            ChoiceKind::Forced => "forced",
        }
    }
}

/// The chosen move and how it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    pub kind: ChoiceKind,
    /// Best score − the chosen move's score (0 when unknown, as for `Random`), saturating.
    pub regret_cp: i32,
    /// Size of the set the move was drawn from.
    pub candidates: usize,
}

fn regret(best: i32, score: i32) -> i32 {
    best.saturating_sub(score)
}

/// Chooses a move from `root` (every legal move, scored from the side to move's view in centipawns
/// or as mate scores, best first as `Searcher::analyse` returns them; the best score is taken as the
/// maximum, and ties keep the given order).
///
/// Rules, in order:
/// 1. the slip draw `u = uniform_f64` is taken (always, even when it cannot matter);
/// 2. one legal move → `Forced`;
/// 3. best score is a found mate for us (> `MATE_BOUND`) → the fastest mate (uniform among equally
///    fast ones), never a slip;
/// 4. `u < slip_p` (leaned by `slip_tilt` on the best score: [`ChoiceSettings::slip_p_at`]) and
///    some move is worse than the best (regret ≥ 1), has regret in
///    `[slip_min_cp, slip_max_cp]`, costs at least as much expected score as `slip_min_cp` costs
///    from an equal position ([`expected_score`]) and is not itself mated (score ≥ −`MATE_BOUND`)
///    → uniform among those moves (`Slip`);
/// 5. `lambda` set → Boltzmann over the moves that are not mated and whose regret is at most
///    `boltzmann_max_cp` (when set; the best move always is), weights `exp(λ·(score − best)/100)`
///    (times `exp(bonus)` in [`choose_biased`]), one `uniform_f64` (if every move is mated: rule 6);
/// 6. plateau → uniform among moves with regret ≤ `plateau_cp` (exact ties when the best score is a
///    mate score).
///
/// A move left unscored by an aborted search (score below −`MATE`, e.g. −`INFINITY`) counts as
/// mated: it is never a slip or Boltzmann candidate and never on the plateau of a scored move.
///
/// Panics when `root` is empty (no legal move: the caller answers `bestmove 0000`).
pub fn choose(root: &[RootMove], s: &ChoiceSettings, rng: &mut ChaCha20Rng) -> Choice {
    choose_biased(root, s, None, rng)
}

/// [`choose`] with a logit bonus per root move (same order as `root`): the human move model's
/// `β·ln P_human` or the human move prior ([`prior::MovePrior`]). It is added to the Boltzmann
/// weights of rule 5, `exp(λ·(score − best)/100 + bonus)`, and a slip (rule 4) draws among its
/// candidates with weights `exp(bonus)` instead of uniformly — the mistakes people make, not any
/// mistake — by one `uniform_f64` instead of a `pick_index`. `None` is exactly [`choose`].
///
/// Panics when `root` is empty or `bias` has a different length.
pub fn choose_biased(root: &[RootMove], s: &ChoiceSettings, bias: Option<&[f64]>, rng: &mut ChaCha20Rng) -> Choice {
    assert!(!root.is_empty(), "choose() needs at least one legal move");
    if let Some(b) = bias {
        assert_eq!(b.len(), root.len(), "one bias per root move");
    }
    let u = uniform_f64(rng);
    if root.len() == 1 {
        return Choice { mv: root[0].mv, kind: ChoiceKind::Forced, regret_cp: 0, candidates: 1 };
    }
    let best = root.iter().map(|r| r.score).max().unwrap_or(0);

    let pick_from = |set: Vec<&RootMove>, rng: &mut ChaCha20Rng, many: ChoiceKind| -> Choice {
        let i = pick_index(rng, set.len());
        Choice {
            mv: set[i].mv,
            kind: if set.len() == 1 { ChoiceKind::Best } else { many },
            regret_cp: regret(best, set[i].score),
            candidates: set.len(),
        }
    };

    if best > MATE_BOUND {
        let fastest: Vec<&RootMove> = root.iter().filter(|r| r.score == best).collect();
        return pick_from(fastest, rng, ChoiceKind::Plateau);
    }

    if u < s.slip_p_at(best) {
        // A slip must also cost winning chances: at least what `slip_min_cp` costs from an equal
        // position. So in a decided position (say +9 with the queen against a bare king) wandering
        // moves are not slips: people of every level make progress there, slowly, and still win.
        let gate: Vec<&RootMove> = slip_gate(root, s).into_iter().map(|i| &root[i]).collect();
        if !gate.is_empty() {
            let i = match bias {
                None => pick_index(rng, gate.len()),
                Some(b) => {
                    let idx = slip_gate(root, s);
                    let top = idx.iter().map(|&i| b[i]).fold(f64::NEG_INFINITY, f64::max);
                    let weights: Vec<f64> = idx.iter().map(|&i| (b[i] - top).exp()).collect();
                    weighted_index(&weights, uniform_f64(rng))
                }
            };
            return Choice {
                mv: gate[i].mv,
                kind: ChoiceKind::Slip,
                regret_cp: regret(best, gate[i].score),
                candidates: gate.len(),
            };
        }
    }

    if let Some(lambda) = s.lambda {
        let alive: Vec<(usize, &RootMove)> =
            root.iter().enumerate().filter(|(_, r)| boltzmann_candidate(best, r.score, s)).collect();
        if !alive.is_empty() {
            let weights: Vec<f64> = match bias {
                // Relative to the best, so every weight is in (0, 1] and the best one is exactly 1.
                None => alive.iter().map(|(_, r)| (lambda * f64::from(r.score - best) / 100.0).exp()).collect(),
                Some(b) => {
                    let logits: Vec<f64> =
                        alive.iter().map(|&(i, r)| lambda * f64::from(r.score - best) / 100.0 + b[i]).collect();
                    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    logits.iter().map(|l| (l - top).exp()).collect()
                }
            };
            let chosen = alive[weighted_index(&weights, uniform_f64(rng))].1;
            return Choice {
                mv: chosen.mv,
                kind: ChoiceKind::Boltzmann,
                regret_cp: regret(best, chosen.score),
                candidates: alive.len(),
            };
        }
    }

    let width = if best.abs() > MATE_BOUND { 0 } else { s.plateau_cp.max(0) };
    let plateau: Vec<&RootMove> = root.iter().filter(|r| regret(best, r.score) <= width).collect();
    pick_from(plateau, rng, ChoiceKind::Plateau)
}

/// Whether a move of this score may be drawn by the Boltzmann choice (rule 5 of [`choose`]): not
/// mated, and no worse than `boltzmann_max_cp` below the best when that cap is set.
pub fn boltzmann_candidate(best: i32, score: i32, s: &ChoiceSettings) -> bool {
    !is_mated(score) && s.boltzmann_max_cp.is_none_or(|c| regret(best, score) <= c)
}

/// The index a draw `u` in [0, 1) lands on when each index has the given weight (≥ 0, the first
/// maximal one positive), never one of weight zero.
fn weighted_index(weights: &[f64], u: f64) -> usize {
    let total: f64 = weights.iter().sum();
    let x = u * total;
    let mut acc = 0.0;
    let mut idx = weights.len() - 1;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if x < acc {
            idx = i;
            break;
        }
    }
    // Never land on a zero-weight move through rounding at the end of the sum.
    while weights[idx] == 0.0 {
        idx -= 1;
    }
    idx
}

/// Indices (into `root`) of the moves a slip may play: regret in `[max(1, slip_min_cp),
/// slip_max_cp]`, costing at least as much expected score as `slip_min_cp` costs from an equal
/// position, not mated (rule 4 of [`choose`]; the caller handles the found-mate case first).
pub fn slip_gate(root: &[RootMove], s: &ChoiceSettings) -> Vec<usize> {
    let Some(best) = root.iter().map(|r| r.score).max() else { return Vec::new() };
    let min_score_loss = expected_score(s.slip_min_cp.max(1)) - 0.5;
    (0..root.len())
        .filter(|&i| !is_mated(root[i].score))
        .filter(|&i| (s.slip_min_cp.max(1)..=s.slip_max_cp).contains(&regret(best, root[i].score)))
        .filter(|&i| expected_score(best) - expected_score(root[i].score) >= min_score_loss)
        .collect()
}

/// Expected score (0..1) of a centipawn evaluation, for slip gating: the logistic curve
/// `1 / (1 + exp(-cp / EXPECTED_SCORE_SCALE_CP))`, about 0.59 at +100 and 0.97 at +900.
pub const EXPECTED_SCORE_SCALE_CP: f64 = 270.0;

pub fn expected_score(cp: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(cp) / EXPECTED_SCORE_SCALE_CP).exp())
}

/// A uniform legal move (the `random` profile): one `pick_index`. Panics when `legal` is empty.
pub fn random_move(legal: &[Move], rng: &mut ChaCha20Rng) -> Move {
    legal[pick_index(rng, legal.len())]
}

/// [`random_move`] wrapped as a [`Choice`] of kind `Random` (regret unknown, reported as 0).
pub fn random_choice(legal: &[Move], rng: &mut ChaCha20Rng) -> Choice {
    Choice { mv: random_move(legal, rng), kind: ChoiceKind::Random, regret_cp: 0, candidates: legal.len() }
}
