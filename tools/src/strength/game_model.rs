//! The game model (`--model game`, the default): a rating from everything one analysed game says
//! about a side, with a 90 % interval that is checked against held-out people.
//!
//! - **Features** ([`FEATURE_NAMES`]): for the side and for its opponent (the two players of a game
//!   are usually close in rating, so the opponent's play is evidence too) the number of eligible
//!   plies, the mean scaled error, the mean, median, 75th and 90th percentile of the capped loss
//!   (as `ln(1 + cp)`), the rates of best moves, of moves within 10 cp, of inaccuracies (50-99 cp),
//!   mistakes (100-299) and blunders (300+), and the mean scaled error in the opening (plies 1-20),
//!   middlegame (21-60) and endgame (61+); for the game its result from the side's view, the
//!   side's colour and the game's length; and, for both sides, the mean log-likelihood of the
//!   moves played under the human move model (`human::v6`) at six ratings 900-2400 — how
//!   much the moves look like those of people of each rating — and, from the same model, the
//!   side's maximum-likelihood rating on a 50-Elo grid, how hard its positions were (the mean
//!   entropy of the model's move distribution at 1500 and the mean `ln P` of the oracle's best
//!   move), and its mean scaled error on easy plies (people of 1500 find the best move at least
//!   half the time) and on hard ones. No rating tag is an input.
//! - A model file names the features it reads ([`GameModel::features`]), any subset of this
//!   build's, so `train --without` can leave some out and older files still load.
//! - **Score**: a ridge regression of the rating on the standardised features, fitted on the fit
//!   part of a rated file (`sparring strength train`). The score is the best single-game guess
//!   and is pulled towards the population's mean, as any honest single-game guess must be.
//! - **Estimate and interval**: the score given a rating R is taken as normal with mean
//!   `a + b (R − m)` and standard deviation `c + d (R − m)` (fitted on the validation part). For k
//!   games of one player the mean score has variance `σ² (ρ + (1 − ρ)/k)`, where ρ is the
//!   correlation of one player's residuals between games. The estimate is the posterior mean of R
//!   under the population's prior (normal, mean m, sd τ), on a 5-Elo grid: the best guess, pulled
//!   towards m. The 90 % interval is a confidence interval, not the posterior's: every grid
//!   rating R under which the mean score lies within its own 5-95 % range. So it holds the true
//!   rating 90 % of the time *whatever that rating is* (if the score model holds), at the ends of
//!   the population as in its middle, where a posterior interval covers the middle too often and
//!   the ends too rarely (it inherits the estimate's pull towards m).
//! - **Scale**: the model names the population it was fitted on (`scale`); estimates are on that
//!   scale and nothing else. [`GameModel::outside`] says when a rated file lies outside it.

use super::analyse::{GameAnalysis, PlyRecord};
use super::likelihood::{self, SideLikelihood};
use super::model::{LOSS_CAP, MIN_ELIGIBLE_PLIES, percentile, scaled_error};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Format tag of a game-model file.
pub const FORMAT: &str = "sparring-strength-game-1";
/// The shipped game model, compiled in.
pub const SHIPPED_JSON: &str = include_str!("../../../calibration/strength-game.json");
/// The game model fitted on FIDE-rated players' online games (`--model fide`), compiled in.
pub const FIDE_JSON: &str = include_str!("../../../calibration/strength-game-fide.json");
/// Estimator v3 fitted on FICS blitz (`--model v3`): `game`'s score and the Maia-3 features.
pub const V3_JSON: &str = include_str!("../../../calibration/strength-v3.json");
/// Estimator v3 fitted on FIDE-rated players' online games (`--model v3-fide`): `fide`'s score and
/// the Maia-3 features.
pub const V3_FIDE_JSON: &str = include_str!("../../../calibration/strength-v3-fide.json");

/// Per-side features, in order; each appears for the side (`own.`) and its opponent (`opp.`).
pub const SIDE_FEATURES: [&str; 14] = [
    "ln_plies",
    "ase",
    "ln_mean_loss",
    "ln_median_loss",
    "ln_p75_loss",
    "ln_p90_loss",
    "best_rate",
    "within_10_rate",
    "inaccuracy_rate",
    "mistake_rate",
    "blunder_rate",
    "ase_opening",
    "ase_middlegame",
    "ase_endgame",
];
/// Per-game features, after the side features.
pub const GAME_FEATURES: [&str; 3] = ["result", "white", "ln_game_plies"];
/// Ratings at which the human move model scores each played move: the side's mean
/// `ln P_human(played | position, R)` at each is a feature (`own.human_ll_R`).
pub const HUMAN_RATINGS: [f64; 6] = [900.0, 1200.0, 1500.0, 1800.0, 2100.0, 2400.0];
/// The rating grid on which each ply's likelihood is kept: 800-2400 (the human model's knots'
/// range; it is flat beyond) in steps of [`HUMAN_GRID_STEP`]. [`HUMAN_RATINGS`] lie on it.
pub const HUMAN_GRID_LO: f64 = 800.0;
pub const HUMAN_GRID_STEP: f64 = 50.0;
pub const HUMAN_GRID_N: usize = 33;
/// The rating at which the human model judges a position's difficulty (its entropy, and how
/// likely people are to find the oracle's best move).
pub const DIFFICULTY_RATING: f64 = 1500.0;
/// A ply is "easy" when people of [`DIFFICULTY_RATING`] play the oracle's best move with at
/// least this probability, "hard" otherwise.
pub const EASY_BEST_PROBABILITY: f64 = 0.5;
/// Per-side features from the human model, after the `human_ll_R` ones: the side's maximum
/// likelihood rating on the grid, the mean entropy of the model's move distribution, the mean
/// `ln P(best)`, and the mean scaled error on easy and on hard plies.
pub const HUMAN_SIDE_FEATURES: [&str; 5] = ["human_mle", "human_entropy", "human_best_ll", "ase_easy", "ase_hard"];

/// Estimator v3's per-side features from the human move model v7 (Maia-3), after the
/// [`HUMAN_SIDE_FEATURES`]: the mean `ln P` of the side's moves at each rating input of
/// [`likelihood::DEFAULT_GRID`] (`m3_ll_R`, on the model's own scale), the refined maximum of the
/// likelihood (`m3_best`) and its curvature per move (`m3_curvature`); moves from half-move
/// [`likelihood::FROM_PLY`] on, with the game's history, both inputs the grid rating. A model reads
/// them only if it names them (`sparring strength train --maia`), and then computes Maia-3 on every
/// game it estimates.
pub fn maia_side_features() -> Vec<String> {
    let mut v: Vec<String> = likelihood::DEFAULT_GRID.iter().map(|r| format!("m3_ll_{r}")).collect();
    v.extend(["m3_best".to_string(), "m3_curvature".to_string()]);
    v
}

/// The grid rating of index `i`.
pub fn human_grid(i: usize) -> f64 {
    HUMAN_GRID_LO + HUMAN_GRID_STEP * i as f64
}

/// The human model's view of one ply; every value `NaN` where it was not scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanPly {
    /// `ln P_human(played | position, R)` for R on the grid ([`human_grid`]).
    pub ll: [f64; HUMAN_GRID_N],
    /// Entropy (nats) of the model's move distribution at [`DIFFICULTY_RATING`].
    pub entropy: f64,
    /// `ln P_human(oracle's best move)` at [`DIFFICULTY_RATING`].
    pub best_ll: f64,
}

impl HumanPly {
    pub const UNSCORED: HumanPly = HumanPly { ll: [f64::NAN; HUMAN_GRID_N], entropy: f64::NAN, best_ll: f64::NAN };

    /// The log-likelihood at one of [`HUMAN_RATINGS`] (or any grid rating).
    pub fn at(&self, rating: f64) -> f64 {
        let i = ((rating - HUMAN_GRID_LO) / HUMAN_GRID_STEP).round().clamp(0.0, (HUMAN_GRID_N - 1) as f64);
        self.ll[i as usize]
    }
}
/// Last ply of the opening and of the middlegame for the phase features.
pub const OPENING_LAST_PLY: usize = 20;
pub const MIDDLEGAME_LAST_PLY: usize = 60;
/// Grid of ratings on which estimates and intervals are computed.
pub const GRID: (f64, f64, f64) = (0.0, 3600.0, 5.0);
/// Nominal coverage of the intervals.
pub const COVERAGE: f64 = 0.90;
/// The posterior quantile used for an interval end the estimate reaches: 95 % (and 5 %).
const COVERAGE_TAIL: f64 = 0.5 + COVERAGE / 2.0;
/// No interval reaches below this rating (see [`GameModel::rating_range`]).
pub const MIN_RATING: f64 = 100.0;

/// Every feature name, in the order of [`features`].
pub fn feature_names() -> Vec<String> {
    let mut v: Vec<String> = SIDE_FEATURES.iter().map(|f| format!("own.{f}")).collect();
    v.extend(SIDE_FEATURES.iter().map(|f| format!("opp.{f}")));
    v.extend(GAME_FEATURES.iter().map(|f| f.to_string()));
    for who in ["own", "opp"] {
        v.extend(HUMAN_RATINGS.iter().map(|r| format!("{who}.human_ll_{r:.0}")));
    }
    for who in ["own", "opp"] {
        v.extend(HUMAN_SIDE_FEATURES.iter().map(|f| format!("{who}.{f}")));
    }
    for who in ["own", "opp"] {
        v.extend(maia_side_features().iter().map(|f| format!("{who}.{f}")));
    }
    v.extend(BASE_MODELS.iter().map(|b| format!("base.{b}")));
    v
}

/// The shipped v2 models whose single-game score is a feature (`base.game`, `base.fide`): a v3 model
/// may stack on one of them (`train --stack`), reading the v2 features through that model's fit on
/// its whole fit part and adding the Maia-3 features on top.
pub const BASE_MODELS: [&str; 2] = ["game", "fide"];

/// The shipped model of a [`BASE_MODELS`] name, parsed once.
fn base_model(name: &str) -> &'static GameModel {
    static MODELS: std::sync::OnceLock<[GameModel; 2]> = std::sync::OnceLock::new();
    let [game, fide] = MODELS.get_or_init(|| [GameModel::shipped(), GameModel::shipped_fide()]);
    if name == "fide" { fide } else { game }
}

/// Whether a feature name is one of estimator v3's Maia-3 features.
pub fn is_maia_feature(name: &str) -> bool {
    name.contains(".m3_")
}

/// The features a training run reads: every one of [`feature_names`] but the difficulty features
/// ([`HUMAN_SIDE_FEATURES`]) unless `difficulty` — they gave no held-out gain on FICS blitz
/// (`bench/results/estimate-game/feature-check.md`) — and the Maia-3 features unless `maia`, never
/// the v2 models' scores (`base.*`, for `train --stack`), and none whose name contains one of
/// `without`.
pub fn selected_features(difficulty: bool, maia: bool, without: &[String]) -> Vec<String> {
    feature_names()
        .into_iter()
        .filter(|n| difficulty || !HUMAN_SIDE_FEATURES.iter().any(|f| n.ends_with(&format!(".{f}"))))
        .filter(|n| maia || !is_maia_feature(n))
        .filter(|n| !n.starts_with("base."))
        .filter(|n| !without.iter().any(|w| n.contains(w.as_str())))
        .collect()
}

/// Which plies the game model reads the human move model's likelihood of: the eligible ones
/// ([`human_summary`] reads no other), as a mask over the `moves` plies of the game.
pub fn human_plies(plies: &[PlyRecord], moves: usize) -> Vec<bool> {
    let mut wanted = vec![false; moves];
    for p in plies.iter().filter(|p| p.eligible) {
        if let Some(w) = p.ply.checked_sub(1).and_then(|i| wanted.get_mut(i)) {
            *w = true;
        }
    }
    wanted
}

/// `ln Σ exp(logits)`, stable.
fn log_sum_exp(logits: &[f64]) -> f64 {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logits.iter().map(|l| (l - top).exp()).sum::<f64>().ln() + top
}

/// For every ply of a game, the human move model's view ([`HumanPly`]): under the built-in model
/// (its own depth-1 look, the moves before as history), the log-likelihood of the move played at
/// every grid rating, the entropy of the distribution and the log-likelihood of the oracle's best
/// move (`plies[i].best`) at [`DIFFICULTY_RATING`]. Unscored where the model is unavailable, the
/// move was forced, or the ply is not one the game model reads ([`human_plies`]). The look, a
/// cleared depth-1 search of every legal move, is most of the cost, so it is taken only on those
/// plies; the values of a ply do not depend on which others are scored. Each weight of the model
/// is linear in the rating between knots, so the logits are computed once per knot and mixed for
/// each grid rating (equal to the policy's own to rounding, ~1e-6).
pub fn human_scores(
    version: u32,
    root: &shakmaty::Chess,
    moves: &[shakmaty::Move],
    plies: &[PlyRecord],
) -> Vec<HumanPly> {
    use shakmaty::Position;
    use sparring::human::v6::features::{self, History};
    let Ok(model) = sparring::profile::human_model::builtin(version) else {
        return vec![HumanPly::UNSCORED; moves.len()];
    };
    let wanted = human_plies(plies, moves.len());
    let mut look_searcher = sparring::search::Searcher::for_look();
    let grid: Vec<[(usize, f32); 2]> = (0..HUMAN_GRID_N).map(|i| model.basis(human_grid(i))).collect();
    let difficulty = model.basis(DIFFICULTY_RATING);
    let mut game = sparring::board::Game::new(root.clone());
    let (mut active, mut starts, mut logits) = (Vec::new(), Vec::new(), Vec::new());
    // at_knot[k][m]: move m's logit at knot k; a rating's logits mix two knots' rows.
    let mut at_knot: Vec<Vec<f64>>;
    let mix = |basis: &[(usize, f32); 2], at_knot: &[Vec<f64>], out: &mut Vec<f64>| {
        let (a, b) = (basis[0], basis[1]);
        out.clear();
        out.extend(at_knot[a.0].iter().zip(&at_knot[b.0]).map(|(x, y)| f64::from(a.1) * x + f64::from(b.1) * y));
    };
    let mut out = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate() {
        let mut row = HumanPly::UNSCORED;
        if wanted[i] {
            let legal: Vec<shakmaty::Move> = game.pos().legal_moves().into_iter().collect();
            let at = legal.iter().position(|m| *m == played);
            if let (Some(at), true) = (at, legal.len() > 1) {
                let look = sparring::human::v6::look(&mut look_searcher, &game, &legal);
                features::all(game.pos(), History::of(&game), &legal, Some(&look), &mut active, &mut starts);
                at_knot = model.knot_logits(game.pos(), &active, &starts);
                for (k, basis) in grid.iter().enumerate() {
                    mix(basis, &at_knot, &mut logits);
                    row.ll[k] = logits[at] - log_sum_exp(&logits);
                }
                mix(&difficulty, &at_knot, &mut logits);
                let z = log_sum_exp(&logits);
                row.entropy = -logits.iter().map(|l| (l - z).exp() * (l - z)).sum::<f64>();
                let best = plies.get(i).and_then(|p| p.best.as_deref());
                if let Some(b) = best.and_then(|b| legal.iter().position(|m| sparring::board::notation::uci(*m) == b)) {
                    row.best_ll = logits[b] - z;
                }
            }
        }
        out.push(row);
        game.make(played);
    }
    out
}

fn human_model_v4() -> u32 {
    4
}

/// Mean of each rating's log-likelihood over one colour's eligible plies (`NaN`s when none).
fn human_summary(g: &GameAnalysis, white: bool) -> [f64; 6] {
    let mut sum = [0.0; 6];
    let mut n = 0usize;
    for p in g.plies.iter().filter(|p| p.eligible && (p.color == "white") == white) {
        if let Some(row) = g.human_ll.get(p.ply - 1).filter(|r| r.ll.iter().all(|x| x.is_finite())) {
            for (k, r) in HUMAN_RATINGS.iter().enumerate() {
                sum[k] += row.at(*r);
            }
            n += 1;
        }
    }
    if n == 0 { [f64::NAN; 6] } else { sum.map(|x| x / n as f64) }
}

/// The human-model side features ([`HUMAN_SIDE_FEATURES`]) of one colour's eligible plies
/// (`NaN`s when none was scored).
fn human_side(g: &GameAnalysis, white: bool) -> [f64; 5] {
    let mut total = [0.0; HUMAN_GRID_N];
    let (mut n, mut entropy, mut best, mut nb) = (0usize, 0.0, 0.0, 0usize);
    let (mut easy, mut hard) = (Vec::new(), Vec::new());
    let mut all = Vec::new();
    for p in g.plies.iter().filter(|p| p.eligible && (p.color == "white") == white) {
        let Some(row) = g.human_ll.get(p.ply - 1).filter(|r| r.ll.iter().all(|x| x.is_finite())) else { continue };
        for (t, l) in total.iter_mut().zip(&row.ll) {
            *t += l;
        }
        n += 1;
        entropy += row.entropy;
        let e = p.cp_loss.map(|l| scaled_error(l.clamp(0, LOSS_CAP)));
        if let Some(e) = e {
            all.push(e);
        }
        if row.best_ll.is_finite() {
            best += row.best_ll;
            nb += 1;
            if let Some(e) = e {
                if row.best_ll.exp() >= EASY_BEST_PROBABILITY { easy.push(e) } else { hard.push(e) }
            }
        }
    }
    if n == 0 {
        return [f64::NAN; 5];
    }
    let mean_or =
        |v: &[f64], fallback: f64| if v.is_empty() { fallback } else { v.iter().sum::<f64>() / v.len() as f64 };
    let ase = mean_or(&all, f64::NAN);
    let mle = (0..HUMAN_GRID_N).max_by(|&a, &b| total[a].total_cmp(&total[b])).map_or(f64::NAN, human_grid);
    [
        mle,
        entropy / n as f64,
        if nb > 0 { best / nb as f64 } else { f64::NAN },
        mean_or(&easy, ase),
        mean_or(&hard, ase),
    ]
}

/// The Maia-3 side features ([`maia_side_features`]) of one side (`NaN`s when the game was not
/// read through Maia-3 or the side has no counted move).
fn maia_side(g: &GameAnalysis, white: bool) -> Vec<f64> {
    let n = likelihood::DEFAULT_GRID.len() + 2;
    let Some(s) = g.maia.as_ref().map(|m| &m[usize::from(!white)]).filter(|s| s.moves > 0) else {
        return vec![f64::NAN; n];
    };
    if s.grid != likelihood::DEFAULT_GRID {
        return vec![f64::NAN; n];
    }
    let k = s.moves as f64;
    let mut v: Vec<f64> = s.ll.iter().map(|l| l / k).collect();
    v.extend([s.best(), s.curvature() / k]);
    v
}

/// Both sides' Maia-3 reading of a game for the v3 features: [`likelihood::moves_likelihood`] on the
/// default grid from [`likelihood::FROM_PLY`]; `None` when the model or the game cannot be read.
pub fn maia_reading(root: &shakmaty::Chess, moves: &[shakmaty::Move]) -> Option<[SideLikelihood; 2]> {
    let model = sparring::human::maia3::builtin().ok()?;
    likelihood::moves_likelihood(model, root, moves, &likelihood::DEFAULT_GRID, likelihood::FROM_PLY).ok()
}

/// Mean scaled error of the losses of the plies in `lo..=hi`, `fallback` when there are none.
fn phase_ase(plies: &[(usize, i32)], lo: usize, hi: usize, fallback: f64) -> f64 {
    let e: Vec<f64> = plies.iter().filter(|(p, _)| (lo..=hi).contains(p)).map(|&(_, l)| scaled_error(l)).collect();
    if e.is_empty() { fallback } else { e.iter().sum::<f64>() / e.len() as f64 }
}

/// The side features of one colour's eligible plies; `None` when it has none.
pub fn side_summary(plies: &[PlyRecord], white: bool) -> Option<[f64; 14]> {
    let own: Vec<(usize, i32)> = plies
        .iter()
        .filter(|p| p.eligible && (p.color == "white") == white)
        .filter_map(|p| p.cp_loss.map(|l| (p.ply, l.clamp(0, LOSS_CAP))))
        .collect();
    if own.is_empty() {
        return None;
    }
    let n = own.len() as f64;
    let losses: Vec<f64> = own.iter().map(|&(_, l)| f64::from(l)).collect();
    let ase = own.iter().map(|&(_, l)| scaled_error(l)).sum::<f64>() / n;
    let rate = |f: &dyn Fn(f64) -> bool| losses.iter().filter(|&&l| f(l)).count() as f64 / n;
    let ln1 = |x: f64| (1.0 + x).ln();
    Some([
        n.ln(),
        ase,
        ln1(losses.iter().sum::<f64>() / n),
        ln1(percentile(&losses, 0.5)),
        ln1(percentile(&losses, 0.75)),
        ln1(percentile(&losses, 0.9)),
        rate(&|l| l == 0.0),
        rate(&|l| l <= 10.0),
        rate(&|l| (50.0..100.0).contains(&l)),
        rate(&|l| (100.0..300.0).contains(&l)),
        rate(&|l| l >= 300.0),
        phase_ase(&own, 1, OPENING_LAST_PLY, ase),
        phase_ase(&own, OPENING_LAST_PLY + 1, MIDDLEGAME_LAST_PLY, ase),
        phase_ase(&own, MIDDLEGAME_LAST_PLY + 1, usize::MAX, ase),
    ])
}

/// Eligible plies of one side.
pub fn eligible_plies(g: &GameAnalysis, white: bool) -> usize {
    g.plies.iter().filter(|p| p.eligible && (p.color == "white") == white).count()
}

/// The features of one side of a game (order of [`feature_names`]), or `None` when the side has
/// fewer than [`MIN_ELIGIBLE_PLIES`] eligible plies. An opponent with no eligible ply (or not
/// analysed) gets `NaN`s, which the model replaces by the fit part's means.
pub fn features(g: &GameAnalysis, white: bool) -> Option<Vec<f64>> {
    if eligible_plies(g, white) < MIN_ELIGIBLE_PLIES {
        return None;
    }
    let own = side_summary(&g.plies, white)?;
    let opp = side_summary(&g.plies, !white).unwrap_or([f64::NAN; 14]);
    let result = match (g.result.as_str(), white) {
        ("1-0", true) | ("0-1", false) => 1.0,
        ("1-0", false) | ("0-1", true) => -1.0,
        _ => 0.0,
    };
    let mut v = own.to_vec();
    v.extend(opp);
    v.extend([result, if white { 1.0 } else { 0.0 }, (g.plies.len().max(1) as f64).ln()]);
    v.extend(human_summary(g, white));
    v.extend(human_summary(g, !white));
    v.extend(human_side(g, white));
    v.extend(human_side(g, !white));
    v.extend(maia_side(g, white));
    v.extend(maia_side(g, !white));
    // The v2 models read only the features before these, all computed above.
    let base: Vec<f64> = BASE_MODELS.iter().map(|b| base_model(b).score(&v)).collect();
    v.extend(base);
    Some(v)
}

/// The ratings the model was fitted on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Population {
    pub mean: f64,
    pub sd: f64,
    pub p01: f64,
    pub p99: f64,
    pub samples: usize,
}

/// The score's distribution given a rating R: mean `a + b (R − m)`, sd `c + d (R − m)` (floored).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Spread {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    /// Correlation of one player's residuals between games.
    pub rho: f64,
}

/// The 95th percentile of the standard normal: a 90 % interval is ± this many sd.
pub const Z90: f64 = 1.644_853_626_951_472_2;

/// Smallest standard deviation of the score given a rating (Elo).
pub const MIN_SPREAD: f64 = 20.0;

/// `calibration/strength-game.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameModel {
    pub format: String,
    /// The rating scale the model is fitted to, in words (e.g. "FICS blitz").
    pub scale: String,
    pub oracle: String,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub pairing: String,
    #[serde(default)]
    pub oracle_fingerprint: Option<String>,
    /// The shipped human move model (version) whose log-likelihoods the features hold; files
    /// written before it was recorded were fitted with version 4.
    #[serde(default = "human_model_v4")]
    pub human_model: u32,
    /// The features the model reads, by name: any subset of this build's [`feature_names`], so a
    /// model fitted on fewer features still loads.
    pub features: Vec<String>,
    /// Where each of `features` lies in the full feature vector ([`features`]).
    #[serde(skip)]
    pub index: Vec<usize>,
    pub mean: Vec<f64>,
    pub sd: Vec<f64>,
    /// Intercept first, then one weight per standardised feature.
    pub weights: Vec<f64>,
    pub ridge: f64,
    pub population: Population,
    pub spread: Spread,
    /// How it was fitted and what the held-out part showed (informational).
    #[serde(default)]
    pub fitted: Option<serde_json::Value>,
}

/// A rating with its 90 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
    pub games: usize,
}

impl GameModel {
    /// Whether the model reads estimator v3's Maia-3 features (then every game it estimates is
    /// read through Maia-3: [`maia_reading`]).
    pub fn needs_maia(&self) -> bool {
        self.features.iter().any(|f| is_maia_feature(f))
    }

    pub fn shipped() -> GameModel {
        GameModel::from_json(SHIPPED_JSON).expect("shipped game model is valid")
    }

    /// Estimator v3 on the FICS blitz scale (`--model v3`).
    pub fn shipped_v3() -> GameModel {
        GameModel::from_json(V3_JSON).expect("shipped v3 model is valid")
    }

    /// Estimator v3 on the FIDE scale (`--model v3-fide`).
    pub fn shipped_v3_fide() -> GameModel {
        GameModel::from_json(V3_FIDE_JSON).expect("shipped v3-fide model is valid")
    }

    /// The model on the FIDE scale (`--model fide`).
    pub fn shipped_fide() -> GameModel {
        GameModel::from_json(FIDE_JSON).expect("shipped FIDE game model is valid")
    }

    pub fn from_json(s: &str) -> Result<GameModel, String> {
        let m: GameModel = serde_json::from_str(s).map_err(|e| format!("bad game model: {e}"))?;
        if m.format != FORMAT {
            return Err(format!("game model format '{}' not supported (expected '{FORMAT}')", m.format));
        }
        let mut m = m;
        m.use_features(m.features.clone())?;
        let k = m.features.len();
        if m.mean.len() != k || m.sd.len() != k || m.weights.len() != k + 1 {
            return Err("game model: feature, mean, sd and weight lists differ in length".to_string());
        }
        if !m.weights.iter().chain(&m.mean).chain(&m.sd).all(|x| x.is_finite()) || m.population.sd <= 0.0 {
            return Err("game model has non-finite coefficients".to_string());
        }
        Ok(m)
    }

    /// Makes the model read the features named `names` (each one of this build's).
    pub fn use_features(&mut self, names: Vec<String>) -> Result<(), String> {
        let all = feature_names();
        let index = names
            .iter()
            .map(|n| {
                all.iter()
                    .position(|a| a == n)
                    .ok_or_else(|| format!("game model feature '{n}' is unknown to this build"))
            })
            .collect::<Result<Vec<usize>, String>>()?;
        self.features = names;
        self.index = index;
        Ok(())
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        super::model::write_json(self, path)
    }

    /// The standardised row of the model's features (intercept first) from the full feature
    /// vector `x`; missing values become the mean (0).
    pub fn row(&self, x: &[f64]) -> Vec<f64> {
        let mut r = Vec::with_capacity(self.index.len() + 1);
        r.push(1.0);
        for ((&i, m), s) in self.index.iter().zip(&self.mean).zip(&self.sd) {
            let v = x[i];
            r.push(if v.is_finite() { (v - m) / s } else { 0.0 });
        }
        r
    }

    /// The single-game score (Elo units, shrunk towards the population mean).
    pub fn score(&self, x: &[f64]) -> f64 {
        self.row(x).iter().zip(&self.weights).map(|(a, b)| a * b).sum()
    }

    fn spread_at(&self, r: f64) -> (f64, f64) {
        let s = &self.spread;
        let d = r - self.population.mean;
        (s.a + s.b * d, (s.c + s.d * d).max(MIN_SPREAD))
    }

    /// The mean of `scores` (one player's games) and the factor on the single-game sd for it.
    fn mean_and_shrink(&self, scores: &[f64]) -> (f64, f64) {
        let k = scores.len().max(1) as f64;
        (scores.iter().sum::<f64>() / k, (self.spread.rho + (1.0 - self.spread.rho) / k).sqrt())
    }

    /// Posterior over the grid (inside [`GameModel::rating_range`]) for the mean of `scores` under
    /// the population's prior.
    fn posterior(&self, scores: &[f64]) -> Vec<(f64, f64)> {
        let (mean, shrink) = self.mean_and_shrink(scores);
        let tau = self.population.sd;
        let (lo, hi) = self.rating_range();
        let step = GRID.2;
        let n = ((hi - lo) / step) as usize + 1;
        let logs: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let r = lo + step * i as f64;
                let (mu, sd) = self.spread_at(r);
                let sd = sd * shrink;
                let z = (mean - mu) / sd;
                let p = (r - self.population.mean) / tau;
                (r, -0.5 * z * z - sd.ln() - 0.5 * p * p)
            })
            .collect();
        let top = logs.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<(f64, f64)> = logs.iter().map(|&(r, l)| (r, (l - top).exp())).collect();
        let z: f64 = w.iter().map(|x| x.1).sum();
        w.into_iter().map(|(r, p)| (r, p / z)).collect()
    }

    /// The ratings an interval may reach: the range the model was fitted on (its population's 1st
    /// to 99th percentile) widened by two population sd on each side, inside the grid and never
    /// below [`MIN_RATING`]. The score model is a straight line fitted inside that range; far
    /// beyond it, it says nothing (with one game and a flat slope it once let intervals reach 0).
    pub fn rating_range(&self) -> (f64, f64) {
        let p = &self.population;
        let lo = (p.p01 - 2.0 * p.sd).max(MIN_RATING).max(GRID.0);
        let hi = (p.p99 + 2.0 * p.sd).min(GRID.1).max(lo + GRID.2);
        (lo, hi)
    }

    /// The 90 % confidence interval: the lowest and highest grid rating inside
    /// [`GameModel::rating_range`] under which the mean of `scores` lies within ±[`Z90`] of its sd;
    /// when none does, the rating that puts it nearest.
    fn confidence(&self, scores: &[f64]) -> (f64, f64) {
        let (mean, shrink) = self.mean_and_shrink(scores);
        let (lo, hi) = self.rating_range();
        let step = GRID.2;
        let n = ((hi - lo) / step) as usize + 1;
        let mut inside: Option<(f64, f64)> = None;
        let mut nearest = (f64::INFINITY, self.population.mean);
        for i in 0..n {
            let r = lo + step * i as f64;
            let (mu, sd) = self.spread_at(r);
            let z = ((mean - mu) / (sd * shrink)).abs();
            if z <= Z90 {
                inside = Some(inside.map_or((r, r), |(a, _)| (a, r)));
            }
            if z < nearest.0 {
                nearest = (z, r);
            }
        }
        inside.unwrap_or((nearest.1, nearest.1))
    }

    /// Estimate and 90 % interval from the scores of one or more games of one player.
    ///
    /// The estimate is the posterior mean, pulled towards the population's mean; the interval is
    /// the confidence interval, which is not. Where the pull takes the estimate to or past an end
    /// of the confidence interval, that end is moved to the posterior's own 5 % (or 95 %) point, so
    /// the estimate lies strictly inside (at least one grid step from either end; it once sat on a
    /// bound, `1735 [1735, 2910]`).
    pub fn estimate(&self, scores: &[f64]) -> Estimate {
        let post = self.posterior(scores);
        let gap = GRID.2;
        let (range_lo, range_hi) = self.rating_range();
        // At least one grid step inside the range, so an interval around it fits there too (only
        // scores far outside anything the model was fitted on come near its ends).
        let elo = post.iter().map(|(r, p)| r * p).sum::<f64>().clamp(range_lo + gap, range_hi - gap);
        let (ci_lo, ci_hi) = self.confidence(scores);
        let quantile = |q: f64| {
            let mut acc = 0.0;
            for &(r, p) in &post {
                acc += p;
                if acc >= q {
                    return r;
                }
            }
            post.last().map_or(elo, |x| x.0)
        };
        let lo = if ci_lo <= elo - gap { ci_lo } else { quantile(1.0 - COVERAGE_TAIL).min(elo - gap) };
        let hi = if ci_hi >= elo + gap { ci_hi } else { quantile(COVERAGE_TAIL).max(elo + gap) };
        Estimate { elo, lo, hi, games: scores.len() }
    }

    /// A warning when rated sides lie outside the ratings the model was fitted on.
    pub fn outside(&self, ratings: &[f64]) -> Option<String> {
        if ratings.is_empty() {
            return None;
        }
        let (lo, hi) = (self.population.p01, self.population.p99);
        let out = ratings.iter().filter(|&&r| r < lo || r > hi).count();
        let mean = ratings.iter().sum::<f64>() / ratings.len() as f64;
        (out * 10 >= ratings.len()).then(|| {
            format!(
                "{out} of {} rated sides (mean rating {mean:.0}) lie outside the {:.0}-{:.0} range this model was \
                 fitted on ({}): estimates are on that scale, and are pulled towards its mean {:.0}; refit on your \
                 own rated games with `sparring strength train`, or pick the model fitted on another population \
                 (`--model v3` or `game`: FICS blitz, `--model v3-fide` or `fide`: FIDE-rated players online)",
                ratings.len(),
                lo,
                hi,
                self.scale,
                self.population.mean
            )
        })
    }
}
