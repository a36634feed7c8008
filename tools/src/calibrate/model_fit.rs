//! `sparring calibrate model-fit`: fits how each ladder point uses the human move model.
//!
//! A point chooses with `P(a) ∝ exp(λ·(v(a) − best)/100 + β·ln P_human(a | position, Elo))`
//! (slips aside). For each BAND:ELO pair the band's eligible bench positions (movers that are not
//! computer accounts, the position replayed from the PGN so the model sees the last move) are
//! searched exactly as the point searches them in play ([`Player::search_weak`]); each root move
//! gets its oracle loss and its model log-probability. A point that looks deeper now and then is
//! searched both ways (its own budget, and its deeper look), and its choice is the mixture of the
//! two in its deeper-look proportion. The choice is then a model with no randomness left in it, so
//! the expected rate of playing the human's move, the expected mean loss and the
//! Kolmogorov–Smirnov distance of the expected loss distribution to the humans' follow exactly.
//!
//! **The objective** (issue 23: both halves on one scale). A setting (λ, β, slip rate; with
//! `--deep-p`, the deeper-look probability too) from the grid [`LAMBDAS`] × [`BETAS`] × [`SLIPS`]
//! is *per-move feasible* when, on the fit and
//! validation parts' games, its mean loss is within `COMFORT`·[`MEAN_TOLERANCE`] of the target
//! and its KS within `COMFORT`·[`KS_TOLERANCE`] of the humans' on the same positions (the slack
//! keeps the held-out part inside the limits). The target ([`Target`], `--mean-target`) is the
//! humans' smooth curve at the point's Elo, fitted on the same part of the same oracle's cache (the
//! default since session 34: a thin band's own mean moved the fit by up to 15 %), or the band's
//! people on the same positions. Points are fitted in Elo order, a point's slip rate at most the one below it. Without
//! self-play the feasible setting with the highest expected match is kept (none feasible: the one
//! nearest the limits). With `--step-games N` the lowest point fitted has no point below to play,
//! so it takes the weakest feasible setting (the highest expected mean loss the limits allow),
//! which leaves the points above the most room to be stronger; for the others the feasible
//! settings are reduced to one per deeper-look probability and λ
//! (the best match there; larger λ and a deeper look play stronger at the same per-move loss), and the point
//! plays the fitted point below it N games for candidates chosen by bisection over λ, starting
//! from the best match: a score below the step range ([`steps::step_range`], the Elo formula's
//! expectation ± [`steps::STEP_TOLERANCE`]) moves to larger λ, above it to smaller. The first
//! candidate inside the range is kept; if every candidate scored below the range, the strongest
//! feasible setting (lowest expected mean loss) is played last, since the best match at a λ need
//! not be the strongest setting there; if none is inside, the one nearest the expectation. The per-move
//! limits are never traded for the step: a step that the feasible set cannot reach is reported
//! as missed. The test part's games are the held-out report, next to the point as it is in the ladder given.
//!
//! **The model's rating input** (`--model-offsets`, a v7 ladder only): each position's
//! ln P_human is also taken at the point's model input shifted by each offset (the opponent input
//! with it when it follows the point's), and the offset becomes one more dimension of the grid
//! (λ × β × offset × slip rate; the frontier keeps the best match per λ over all of them). Ladder
//! v21's first fit found that a sharpened model at a *lower* input errs like the band per move,
//! but that a lower input also costs games, so the input is chosen with the step, not apart from
//! it. A chosen offset is written as the point's `model_elo`.

use super::fit::COMFORT;
pub use super::fit::Expected;
use super::steps;
use crate::common::games::replay;
use crate::common::games::{GameRecord, is_computer};
use crate::common::quality::LOSS_CAP;
use crate::common::scored::OraclePosition;
use crate::common::split::{Part, part_of_index as part_of};
use shakmaty::Move;
use sparring::board::notation::uci as uci_of;
use sparring::human::maia3::History;
use sparring::player::{MoveRequest, Player, Setting, WEAK_HASH_MB};
use sparring::policy;
use sparring::profile::maia3_choice::Maia3Choice;
use sparring::profile::{Avatar, Ladder, LevelSettings};
use sparring::search::{Control, Searcher};
use std::fmt::Write as _;
use std::path::Path;

/// λ values tried (per pawn of the search's score).
pub const LAMBDAS: [f64; 16] = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0];
/// β values tried.
pub const BETAS: [f64; 16] = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 12.0, 20.0];
/// Slip rates tried (each at most the fitted rate of the point below).
pub const SLIPS: [f64; 14] = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10, 0.12, 0.15, 0.18, 0.22, 0.26];
/// Fewest fit-part decisions a second oracle needs before its limits bind the grid.
pub const MIN_SECOND_FIT: usize = 100;
/// Most self-play candidates tried for one point.
pub const MAX_STEP_TRIES: usize = 4;
/// Seed of the searches' deeper-look draws.
pub const MODEL_FIT_SEED: u64 = super::fit::FIT_SEED;

/// What a point's expected mean loss is held against (issue 23: "a point's per-move target is
/// that curve at its Elo").
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// The humans' smooth curve at the point's Elo, fitted on the same part of the same oracle's
    /// cache (`calibrate curve`): one thin band's noise does not move the point.
    Curve,
    /// The band's people on the same positions (paired; before session 34 the only target).
    Band,
}

/// The curve's mean loss at each point's Elo, on the part the fit uses (fit and validation), from
/// one oracle's positions; None for [`Target::Band`].
pub(super) fn curve_targets(
    target: Target,
    positions: &[OraclePosition],
    games: &[GameRecord],
    part: Part,
    elos: &[i32],
) -> Result<Option<std::collections::BTreeMap<i32, f64>>, String> {
    if target == Target::Band {
        return Ok(None);
    }
    let c = super::curve::build(positions, games, Some(part))
        .map_err(|e| format!("the humans' curve for the per-move target: {e} (use --mean-target band)"))?;
    Ok(Some(elos.iter().map(|&e| (e, c.at(0, f64::from(e)).0)).collect()))
}

/// `e` with its reference mean replaced by `target` where one is given: its error and cost are
/// then against the curve; KS and the match stay against the people on the same positions.
pub(super) fn aimed(mut e: Expected, target: Option<f64>) -> Expected {
    if let Some(t) = target {
        e.human_mean = t;
    }
    e
}

/// What one of the point's searches makes of a position: each root move's score against the best
/// (pawns; None: not a Boltzmann candidate, i.e. mated or past the choice's regret cap), the slip gate, and λ when the position is decided (the model left out).
#[derive(Clone)]
struct Branch {
    delta: Vec<Option<f64>>,
    gate: Vec<usize>,
    decided: Option<f64>,
    /// What the point's slip rate is multiplied by here ([`policy::ChoiceSettings::slip_scale`]
    /// at this search's best score; 1 without a slip tilt).
    slip_scale: f64,
}

/// One decision of the point on one human position: its search at its own budget (`shallow`) and,
/// for a point that looks deeper now and then, its deeper look (`deep`), root moves in the order
/// of `shallow`. A setting's choice is the mixture of the two with its deeper-look probability, so
/// the expectations are exact over that draw too.
pub(super) struct Decision {
    shallow: Branch,
    deep: Option<Branch>,
    /// ln P_human of the root moves at the point's own model input ...
    logp: Vec<f64>,
    /// ... and at each other model input the fit tries (offset, ln P), for a v7 point.
    shifted: Vec<(f64, Vec<f64>)>,
    pub(super) loss: Vec<i32>,
    pub(super) human: usize,
    pub(super) human_loss: i32,
    /// Which root moves are blunders (uncapped loss ≥ `BLUNDER_CP`), and whether the human's is.
    blunder: Vec<bool>,
    human_blunder: bool,
    test: bool,
    /// The position's (game, ply).
    pub(super) key: (usize, u32),
}

/// A setting of the grid: the choice (λ, β, slip rate), for a point with a deeper look how
/// often it takes it (ignored by a point without one), and for a v7 point how far its model
/// rating input lies from the point's own (`--model-offsets`; 0: the point's `model_elo`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting3 {
    pub lambda: f64,
    pub beta: f64,
    pub slip_p: f64,
    pub deep_p: f64,
    pub model_offset: f64,
}

/// The fit of one point.
pub struct PointFit {
    pub band: u32,
    pub elo: i32,
    pub chosen: Setting3,
    pub rows: Vec<(String, &'static str, Setting3, Expected)>,
    /// The per-move feasible settings, one per λ (the best expected match at that λ), by λ.
    pub frontier: Vec<(Setting3, Expected)>,
    /// The weakest per-move feasible setting (highest expected mean loss on the fit part).
    pub weakest: Option<Setting3>,
    /// The strongest per-move feasible setting (lowest expected mean loss on the fit part; the
    /// best match among equals): the last candidate of a step that the frontier leaves short.
    pub strongest: Option<Setting3>,
    /// The fit part's and the held-out (test part) decisions, to report a setting chosen later.
    fit: Vec<Decision>,
    test: Vec<Decision>,
    /// The same parts judged by the second oracle (empty without one).
    fit2: Vec<Decision>,
    test2: Vec<Decision>,
    /// The mean loss each oracle holds the point to on the fit part (None: the band's people)
    /// and on the test part.
    targets: Targets,
}

/// What one point's grid may range over and what it aims at.
pub struct PointGrid<'a> {
    /// The highest slip rate (the fitted rate of the point below).
    pub max_slip: f64,
    /// Deeper-look probabilities tried (empty: the point's own).
    pub deep_ps: &'a [f64],
    /// Offsets of the model's rating input from the point's own tried besides 0 (a v7 point only).
    pub model_offsets: &'a [f64],
    pub targets: Targets,
}

/// The reference mean losses of one point: (first oracle, second oracle) × (fit part, test part);
/// None where the band's people on the same positions are the reference.
#[derive(Clone, Copy, Debug, Default)]
pub struct Targets {
    pub fit: [Option<f64>; 2],
    pub test: [Option<f64>; 2],
}

impl PointFit {
    /// What a setting is expected to do on the fit part by the second oracle, where that oracle
    /// binds the limits (it scored at least [`MIN_SECOND_FIT`] of the fit part; None otherwise).
    pub fn second_fit_expected(&self, s: &Setting3) -> Option<Expected> {
        (self.fit2.len() >= MIN_SECOND_FIT)
            .then(|| aimed(expected(&self.fit2.iter().collect::<Vec<_>>(), s), self.targets.fit[1]))
    }
    /// What a setting is expected to do on the held-out part.
    pub fn held_out(&self, s: &Setting3) -> Expected {
        aimed(expected(&self.test.iter().collect::<Vec<_>>(), s), self.targets.test[0])
    }
    /// What a setting is expected to do on the fit part.
    pub fn fit_expected(&self, s: &Setting3) -> Expected {
        aimed(expected(&self.fit.iter().collect::<Vec<_>>(), s), self.targets.fit[0])
    }
    /// What a setting is expected to do on the fit and held-out parts by the second oracle (None
    /// without one).
    pub fn second_expected(&self, s: &Setting3) -> Option<(Expected, Expected)> {
        (!self.fit2.is_empty() || !self.test2.is_empty()).then(|| {
            (
                aimed(expected(&self.fit2.iter().collect::<Vec<_>>(), s), self.targets.fit[1]),
                aimed(expected(&self.test2.iter().collect::<Vec<_>>(), s), self.targets.test[1]),
            )
        })
    }
}

/// The band's positions the fit may use: eligible, mover not a computer account, replayable.
pub(super) fn usable<'a>(positions: &'a [OraclePosition], games: &[GameRecord]) -> Vec<&'a OraclePosition> {
    positions
        .iter()
        .filter(|p| {
            let Some(g) = games.get(p.pos.game) else { return false };
            let name = g.mover_name(p.pos.ply as usize);
            !is_computer(name)
        })
        .collect()
}

/// The point's two searches: at its own budget without the deeper look, and the deeper look
/// itself (None for a point without one).
fn searches(level: &LevelSettings) -> (Player, Option<Player>) {
    let player = |l: LevelSettings| Player { setting: Setting::Level(l), avatar: Avatar::neutral() };
    let mut shallow = level.clone();
    shallow.deep.p = 0.0;
    if level.deep.p <= 0.0 || level.deep.nodes <= level.nodes {
        return (player(shallow), None);
    }
    let mut deep = shallow.clone();
    deep.nodes = level.deep.nodes;
    deep.depth = None;
    (player(shallow), Some(player(deep)))
}

/// What the point's searches make of one position before any oracle judges it: the root moves
/// (UCI, in the first search's order), both searches' views and the model's log-probabilities.
pub(super) struct Searched {
    moves: Vec<String>,
    shallow: Branch,
    deep: Option<Branch>,
    logp: Vec<f64>,
    shifted: Vec<(f64, Vec<f64>)>,
}

/// The point's searches on each position (None where the fit leaves it out: one legal move, a
/// forced mate either way, a game that does not replay to the human's move), in input order.
pub(super) fn search_positions(
    level: &LevelSettings,
    positions: &[&crate::common::scored::SampledPosition],
    games: &[GameRecord],
    (jobs, offsets): (usize, &[f64]),
) -> Vec<Option<Searched>> {
    let (shallow, deep) = searches(level);
    let model = level.human.as_ref().map(|h| (h.model.clone(), h.rating));
    let decided_lambda = level.human.as_ref().map_or(1.0, |h| h.decided_lambda);
    let bare_king_lambda = level.human.as_ref().and_then(|h| h.bare_king_lambda);
    let shift_oppo = level.maia3.as_ref().is_some_and(|m| m.oppo_elo == m.self_elo);
    let jobs = jobs.max(1);
    let chunk = positions.len().div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let (shallow, deep, model) = (&shallow, &deep, &model);
                scope.spawn(move || {
                    let mut weak = Searcher::new(WEAK_HASH_MB);
                    let mut look = Searcher::for_look();
                    let control = Control::default();
                    part.iter()
                        .map(|p| {
                            let (game, human) = replay(games, p.game, p.ply)?;
                            if uci_of(human) != p.human {
                                return None;
                            }
                            let request = MoveRequest::new(&game, MODEL_FIT_SEED);
                            let bare = bare_king_lambda.filter(|_| sparring::human::v6::against_bare_king(game.pos()));
                            let res = shallow.search_weak(&mut weak, &request, &control);
                            let root = &res.root_moves;
                            let moves: Vec<Move> = root.iter().map(|r| r.mv).collect();
                            let deeper = deep.as_ref().map(|d| d.search_weak(&mut weak, &request, &control).root_moves);
                            let m3 = level.maia3.as_ref().map(|m3| with_game_history(m3, &games[p.game], p.ply));
                            let logp = match model {
                                Some((m, rating)) => m3
                                    .as_ref()
                                    .and_then(|m3| m3.log_probs(&game, &moves))
                                    .unwrap_or_else(|| m.game_log_probs(&mut look, &game, &moves, *rating)),
                                None => vec![0.0; moves.len()],
                            };
                            // The other model inputs of a v7 point: its own shifted by each offset
                            // (the opponent input with it where the point names none of its own).
                            let shifted = offsets
                                .iter()
                                .filter(|&&o| o != 0.0)
                                .filter_map(|&o| {
                                    let m3 = m3.as_ref()?;
                                    let oppo = if shift_oppo { m3.oppo_elo + o } else { m3.oppo_elo };
                                    let at = Maia3Choice { self_elo: m3.self_elo + o, oppo_elo: oppo, ..m3.clone() };
                                    Some((o, at.log_probs(&game, &moves)?))
                                })
                                .collect();
                            searched(root, deeper.as_deref(), &level.choice, (logp, shifted), decided_lambda, bare)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("model-fit worker")).collect()
    })
}

/// A v7 level's model inputs with the game's last positions before `ply` as the model's history
/// (as the engine has them from `position … moves …`).
fn with_game_history(m3: &Maia3Choice, game: &GameRecord, ply: u32) -> Maia3Choice {
    let history = History::game(&game.root, &game.moves[..ply as usize]).ok().map(std::sync::Arc::new);
    Maia3Choice { history, ..m3.clone() }
}

/// The point's decisions on several oracles' positions, each position searched once: per set, its
/// positions judged by that set's oracle (sets that share a position share its search). The
/// positions are searched in the order the sets give them, first set first, so one set alone is
/// searched exactly as before.
pub(super) fn decide(
    level: &LevelSettings,
    sets: &[Vec<&OraclePosition>],
    games: &[GameRecord],
    (jobs, offsets): (usize, &[f64]),
) -> Vec<Vec<Decision>> {
    let mut index: std::collections::HashMap<(usize, u32), usize> = std::collections::HashMap::new();
    let mut order: Vec<&crate::common::scored::SampledPosition> = Vec::new();
    for p in sets.iter().flatten() {
        index.entry((p.pos.game, p.pos.ply)).or_insert_with(|| {
            order.push(&p.pos);
            order.len() - 1
        });
    }
    let searched = search_positions(level, &order, games, (jobs, offsets));
    sets.iter()
        .map(|set| set.iter().filter_map(|p| judge(searched[index[&(p.pos.game, p.pos.ply)]].as_ref()?, p)).collect())
        .collect()
}

/// One search's view of the root moves `order` (the first search's order).
fn branch(
    root: &[sparring::search::RootMove],
    order: &[Move],
    choice: &policy::ChoiceSettings,
    decided_lambda: f64,
    bare_king_lambda: Option<f64>,
) -> Option<Branch> {
    let best = root.iter().map(|r| r.score).max()?;
    if best > sparring::score::MATE_BOUND || root.iter().all(|r| sparring::score::is_mated(r.score)) {
        return None;
    }
    let by_move: Vec<&sparring::search::RootMove> =
        order.iter().map(|m| root.iter().find(|r| r.mv == *m)).collect::<Option<_>>()?;
    // The gate indexes the search's own root list; map it to `order`.
    let gate = if bare_king_lambda.is_some() {
        // Against a bare king (when the ladder says so) the player does not slip.
        vec![]
    } else {
        policy::slip_gate(root, choice)
            .into_iter()
            .map(|i| order.iter().position(|m| *m == root[i].mv))
            .collect::<Option<Vec<usize>>>()?
    };
    Some(Branch {
        delta: by_move
            .iter()
            .map(|r| policy::boltzmann_candidate(best, r.score, choice).then(|| f64::from(r.score - best) / 100.0))
            .collect(),
        gate,
        decided: bare_king_lambda.or_else(|| sparring::human::v6::decided(best).then_some(decided_lambda)),
        slip_scale: choice.slip_scale(best),
    })
}

fn searched(
    root: &[sparring::search::RootMove],
    deeper: Option<&[sparring::search::RootMove]>,
    choice: &policy::ChoiceSettings,
    (logp, shifted): (Vec<f64>, Vec<(f64, Vec<f64>)>),
    decided_lambda: f64,
    bare_king_lambda: Option<f64>,
) -> Option<Searched> {
    if root.len() < 2 {
        return None;
    }
    let order: Vec<Move> = root.iter().map(|r| r.mv).collect();
    // A position either search sees as a forced mate (or lost everywhere) is left out, as the
    // realised search's was before: the fit models choices, not mating play.
    let shallow = branch(root, &order, choice, decided_lambda, bare_king_lambda)?;
    let deep = match deeper {
        Some(d) => Some(branch(d, &order, choice, decided_lambda, bare_king_lambda)?),
        None => None,
    };
    // Against a bare king the player always takes its deeper look.
    let shallow = match (&deep, bare_king_lambda) {
        (Some(d), Some(_)) => d.clone(),
        _ => shallow,
    };
    Some(Searched { moves: order.iter().map(|m| uci_of(*m)).collect(), shallow, deep, logp, shifted })
}

/// The decision `s` judged by one oracle's scores of the same position (None: the oracle does
/// not know the human's move among the searched ones).
pub(super) fn judge(s: &Searched, p: &OraclePosition) -> Option<Decision> {
    let human = s.moves.iter().position(|m| *m == p.pos.human)?;
    Some(Decision {
        shallow: s.shallow.clone(),
        deep: s.deep.clone(),
        logp: s.logp.clone(),
        shifted: s.shifted.clone(),
        loss: s.moves.iter().map(|m| p.loss(m).unwrap_or(LOSS_CAP)).collect(),
        human,
        human_loss: p.loss(&p.pos.human).unwrap_or(LOSS_CAP),
        blunder: s.moves.iter().map(|m| p.blunder(m).unwrap_or(true)).collect(),
        human_blunder: p.blunder(&p.pos.human).unwrap_or(true),
        test: part_of(p.pos.game) == Part::Test,
        key: (p.pos.game, p.pos.ply),
    })
}

impl Branch {
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "delta": self.delta,
            "gate": self.gate,
            "decided": self.decided,
            "slip_scale": self.slip_scale,
        })
    }
}

impl Decision {
    /// ln P_human of the root moves with the model's rating input `offset` from the point's own
    /// (an offset the decision was not searched with reads as 0).
    fn logp_at(&self, offset: f64) -> &[f64] {
        self.shifted.iter().find(|(o, _)| *o == offset).map_or(&self.logp, |(_, l)| l)
    }

    /// Everything the exact expectations use, per root move (for analysis outside the fit):
    /// both searches' views, the model's ln P_human, the oracle's loss and blunder flags.
    pub(super) fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.key.0,
            "ply": self.key.1,
            "shallow": self.shallow.to_json(),
            "deep": self.deep.as_ref().map(Branch::to_json),
            "logp": self.logp,
            "shifted": self.shifted,
            "loss": self.loss,
            "blunder": self.blunder,
            "human": self.human,
            "human_loss": self.human_loss,
            "human_blunder": self.human_blunder,
        })
    }
}

fn branch_probabilities(b: &Branch, logp: &[f64], s: &Setting3) -> Vec<f64> {
    // As the player does: in a decided position the model is left out.
    let s = &match b.decided {
        Some(lambda) => Setting3 { lambda, beta: 0.0, ..*s },
        None => *s,
    };
    let logits: Vec<f64> =
        b.delta.iter().zip(logp).map(|(dl, lp)| dl.map_or(f64::NEG_INFINITY, |x| s.lambda * x + s.beta * lp)).collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = logits.iter().map(|l| if l.is_finite() { (l - top).exp() } else { 0.0 }).collect();
    let total: f64 = w.iter().sum();
    let mut p: Vec<f64> = w.iter().map(|x| x / total).collect();
    // The setting's rate leaned as the player leans it (`ChoiceSettings::slip_p_at`).
    let slip_p = (s.slip_p * b.slip_scale).min(1.0);
    if !b.gate.is_empty() && slip_p > 0.0 {
        for x in &mut p {
            *x *= 1.0 - slip_p;
        }
        // A slip draws among the gate's moves with weights exp(β·ln P_human), as the policy does
        // (uniformly when β is 0 or the model is left out).
        let top = b.gate.iter().map(|&i| s.beta * logp[i]).fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = b.gate.iter().map(|&i| (s.beta * logp[i] - top).exp()).collect();
        let total: f64 = w.iter().sum();
        for (&i, wi) in b.gate.iter().zip(&w) {
            p[i] += slip_p * wi / total;
        }
    }
    p
}

/// The point's chance of each root move: its choice after its own search, mixed with its choice
/// after the deeper look in the setting's proportion.
pub(super) fn probabilities(d: &Decision, s: &Setting3) -> Vec<f64> {
    let logp = d.logp_at(s.model_offset);
    let shallow = || branch_probabilities(&d.shallow, logp, s);
    match &d.deep {
        Some(deep) if s.deep_p >= 1.0 => branch_probabilities(deep, logp, s),
        Some(deep) if s.deep_p > 0.0 => {
            let q = branch_probabilities(deep, logp, s);
            shallow().iter().zip(q).map(|(a, b)| (1.0 - s.deep_p) * a + s.deep_p * b).collect()
        }
        _ => shallow(),
    }
}

pub(super) fn expected(ds: &[&Decision], s: &Setting3) -> Expected {
    let probs: Vec<Vec<f64>> = ds.iter().map(|d| probabilities(d, s)).collect();
    let ours: f64 = probs
        .iter()
        .zip(ds)
        .map(|(p, d)| p.iter().zip(&d.blunder).filter(|(_, b)| **b).map(|(p, _)| p).sum::<f64>())
        .sum();
    let theirs = ds.iter().filter(|d| d.human_blunder).count() as f64;
    let mut e = Expected::over(probs.into_iter().zip(ds).map(|(p, d)| (p, &d.loss[..], d.human, d.human_loss)));
    if e.n > 0 {
        e.blunder = ours / e.n as f64;
        e.human_blunder = theirs / e.n as f64;
    }
    e
}

/// The grid searched on the fit part's decisions, the slip rate at most `max_slip`.
struct Grid {
    /// The feasible setting with the best expected match (none feasible: the one nearest the limits).
    best: (Setting3, Expected),
    /// The per-move feasible settings, one per deeper-look probability and λ (the best match
    /// there), by deeper-look probability, then λ.
    frontier: Vec<(Setting3, Expected)>,
    weakest: Option<Setting3>,
    strongest: Option<Setting3>,
}

/// The grid over `deep_ps` (the deeper-look probabilities tried) × λ × β × the model's rating
/// input (`offsets` from the point's own, 0 among them) × slip rate.
fn grid(
    fit: &[&Decision],
    second: Option<&[&Decision]>,
    targets: [Option<f64>; 2],
    max_slip: f64,
    (deep_ps, offsets): (&[f64], &[f64]),
) -> Grid {
    let mut best: Option<(Setting3, Expected, f64)> = None;
    let mut frontier: Vec<(Setting3, Expected)> = Vec::new();
    let mut weakest: Option<(Setting3, Expected)> = None;
    let mut strongest: Option<(Setting3, Expected)> = None;
    for (deep_p, lambda) in deep_ps.iter().flat_map(|&d| LAMBDAS.map(|l| (d, l))) {
        let mut at_lambda: Option<(Setting3, Expected)> = None;
        for (beta, model_offset) in BETAS.iter().flat_map(|&b| offsets.iter().map(move |&o| (b, o))) {
            for slip_p in SLIPS {
                if slip_p > max_slip + 1e-12 {
                    continue;
                }
                let s = Setting3 { lambda, beta, slip_p, deep_p, model_offset };
                let e = aimed(expected(fit, &s), targets[0]);
                // With a second oracle a setting must keep inside the limits by both.
                let cost = second.map_or(e.cost(), |d| e.cost().max(aimed(expected(d, &s), targets[1]).cost()));
                let better = match &best {
                    None => true,
                    Some((_, b, cb)) => {
                        let (ce, cb) = (cost.max(COMFORT), cb.max(COMFORT));
                        ce < cb || (ce == cb && e.match_rate > b.match_rate)
                    }
                };
                if better {
                    best = Some((s, e, cost));
                }
                if cost <= COMFORT && at_lambda.as_ref().is_none_or(|(_, b)| e.match_rate > b.match_rate) {
                    at_lambda = Some((s, e));
                }
                if cost <= COMFORT && weakest.as_ref().is_none_or(|(_, w)| e.mean > w.mean) {
                    weakest = Some((s, e));
                }
                if cost <= COMFORT
                    && strongest
                        .as_ref()
                        .is_none_or(|(_, w)| e.mean < w.mean || (e.mean == w.mean && e.match_rate > w.match_rate))
                {
                    strongest = Some((s, e));
                }
            }
        }
        frontier.extend(at_lambda);
    }
    Grid {
        best: best.map(|(s, e, _)| (s, e)).expect("a grid"),
        frontier,
        weakest: weakest.map(|(s, _)| s),
        strongest: strongest.map(|(s, _)| s),
    }
}

/// The point at `elo` as the fit searches it (the model asked about the point's Elo whatever its
/// β, no v8 prior) and its choice as a grid setting.
pub(super) fn point_level(ladder: &Ladder, elo: i32) -> Result<(LevelSettings, Setting3), String> {
    let mut level = ladder.at(elo);
    let lambda = level.choice.lambda.ok_or_else(|| format!("point {elo} has no lambda"))?;
    let now = Setting3 {
        lambda,
        beta: level.human.as_ref().map_or(0.0, |h| h.beta),
        slip_p: level.choice.slip_p,
        deep_p: level.deep.p,
        model_offset: 0.0,
    };
    level.prior = None;
    if level.human.is_none() {
        let model = sparring::profile::human_model::builtin(
            ladder.human_model.unwrap_or(sparring::profile::human_model::LATEST),
        )?;
        level.human = Some(sparring::profile::ladder::HumanChoice {
            beta: 0.0,
            decided_lambda: lambda,
            bare_king_lambda: ladder.bare_king_lambda,
            rating: f64::from(elo),
            avatar_tilt: sparring::human::v6::AVATAR_TILT,
            model,
        });
    }
    Ok((level, now))
}

/// Fits one point on its band's positions; its slip rate may not exceed `grid_of.max_slip` (the
/// fitted rate of the point below it, so that the ladder's slips fall with Elo). A point with a
/// deeper look is fitted over the deeper-look probabilities `grid_of.deep_ps` as well (empty: its
/// own only). `second`: the band's positions scored by a second oracle, whose limits bind the grid
/// too (`--also-oracle`). `grid_of.targets`: each oracle's reference mean (the humans' curve at the
/// point's Elo; None: the band's people on the same positions).
pub fn fit_point(
    ladder: &Ladder,
    (band, elo): (u32, i32),
    (positions, second): (&[OraclePosition], Option<&[OraclePosition]>),
    games: &[GameRecord],
    grid_of: PointGrid,
    jobs: usize,
) -> Result<PointFit, String> {
    let PointGrid { max_slip, deep_ps, model_offsets, targets } = grid_of;
    let (level, now) = point_level(ladder, elo)?;
    if model_offsets.iter().any(|&o| o != 0.0) && level.maia3.is_none() {
        return Err(format!("point {elo}: model offsets need a ladder with human_model = 7 (Maia-3)"));
    }
    let offsets: Vec<f64> = std::iter::once(0.0).chain(model_offsets.iter().copied().filter(|&o| o != 0.0)).collect();
    let base_deep = now.deep_p;
    let deep_ps: Vec<f64> = if base_deep > 0.0 && !deep_ps.is_empty() { deep_ps.to_vec() } else { vec![base_deep] };
    let t0 = std::time::Instant::now();
    let mut sets = vec![usable(positions, games)];
    sets.extend(second.map(|s| usable(s, games)));
    let mut decided = decide(&level, &sets, games, (jobs, &offsets)).into_iter();
    let ds = decided.next().unwrap_or_default();
    let ds2 = decided.next().unwrap_or_default();
    let fit: Vec<&Decision> = ds.iter().filter(|d| !d.test).collect();
    let test: Vec<&Decision> = ds.iter().filter(|d| d.test).collect();
    let fit2: Vec<&Decision> = ds2.iter().filter(|d| !d.test).collect();
    let test2: Vec<&Decision> = ds2.iter().filter(|d| d.test).collect();
    if second.is_some() {
        eprintln!(
            "model fit: band {band} point {elo}: second oracle {} decisions ({} fit, {} test)",
            ds2.len(),
            fit2.len(),
            test2.len()
        );
    }
    // A second oracle's limits bind only where it has scored enough of the fit part.
    let judge2 = (fit2.len() >= MIN_SECOND_FIT).then_some(&fit2[..]);
    if second.is_some() && judge2.is_none() {
        eprintln!(
            "model fit: band {band}: the second oracle has {} fit decisions (< {MIN_SECOND_FIT}); it only reports",
            fit2.len()
        );
    }
    eprintln!(
        "model fit: band {band} point {elo}: {} decisions ({} fit, {} test) in {:.0} s",
        ds.len(),
        fit.len(),
        test.len(),
        t0.elapsed().as_secs_f64()
    );
    if fit.len() < 100 || test.is_empty() {
        return Err(format!("band {band}: only {} fit decisions (need 100) and {} test", fit.len(), test.len()));
    }
    let [t_fit, t_fit2] = targets.fit;
    let [t_test, t_test2] = targets.test;
    let mut rows = vec![
        ("as is".to_string(), "fit", now, aimed(expected(&fit, &now), t_fit)),
        ("as is".to_string(), "test", now, aimed(expected(&test, &now), t_test)),
    ];
    let Grid { best: (chosen, e), frontier, weakest, strongest } =
        grid(&fit, judge2, [t_fit, t_fit2], max_slip, (&deep_ps, &offsets));
    rows.push(("with model".to_string(), "fit", chosen, e));
    rows.push(("with model".to_string(), "test", chosen, aimed(expected(&test, &chosen), t_test)));
    if !ds2.is_empty() {
        for (label, s) in [("as is", now), ("with model", chosen)] {
            rows.push((format!("{label} (second oracle)"), "fit", s, aimed(expected(&fit2, &s), t_fit2)));
            rows.push((format!("{label} (second oracle)"), "test", s, aimed(expected(&test2, &s), t_test2)));
        }
    }
    // The model's own top-1 (β alone, λ → 0) on the same decisions, for the report.
    let alone = Setting3 { lambda: 1e-9, beta: 50.0, slip_p: 0.0, deep_p: base_deep, model_offset: 0.0 };
    rows.push(("model alone".to_string(), "test", alone, aimed(expected(&test, &alone), t_test)));
    let (test, fit): (Vec<Decision>, Vec<Decision>) = ds.into_iter().partition(|d| d.test);
    let (test2, fit2): (Vec<Decision>, Vec<Decision>) = ds2.into_iter().partition(|d| d.test);
    Ok(PointFit { band, elo, chosen, rows, frontier, weakest, strongest, fit, test, fit2, test2, targets })
}

/// What `model fit` is asked to do.
pub struct FitArgs<'a> {
    pub oracle: &'a Path,
    /// A second oracle's cache (e.g. Stockfish's): a setting is per-move feasible only inside the
    /// limits by both oracles (where the second has scored at least [`MIN_SECOND_FIT`] of the
    /// band's fit part), and its figures are reported beside the first's.
    pub second: Option<&'a Path>,
    pub ladder: &'a Path,
    pub pgn: &'a Path,
    pub pairs: Vec<(u32, i32)>,
    pub jobs: usize,
    pub csv_out: &'a Path,
    /// Write the fitted ladder here (the input ladder with the fitted points' λ, β and slip rate;
    /// `version` replaces its version).
    pub ladder_out: Option<&'a Path>,
    pub version: Option<u32>,
    /// Self-play: games per candidate against the point below (None: per-move half only).
    pub steps: Option<steps::StepConfig>,
    /// Where candidate ladders and the steps CSV go.
    pub work: &'a Path,
    /// Deeper-look probabilities to fit for the points that have a deeper look (empty: each
    /// point's own).
    pub deep_ps: Vec<f64>,
    /// Offsets of the model's rating input tried besides the point's own (v7 ladders).
    pub model_offsets: Vec<f64>,
    /// What the mean loss is held against: the humans' curve at the point's Elo (each oracle's
    /// own, on the same part) or the band's people on the same positions.
    pub target: Target,
}

/// One self-play trial of the fit.
struct Trial {
    setting: Setting3,
    /// Its expected match with the human move on the fit part.
    match_rate: f64,
    result: steps::StepResult,
}

/// The ladder `base` with the point at `elo` set to `s`, cut above it (the points above are not
/// fitted yet, and a match only needs the two below).
pub(super) fn with_point(base: &Ladder, elo: i32, s: &Setting3, keep_above: bool) -> Result<Ladder, String> {
    let mut l = base.clone();
    let p = l.points.iter_mut().find(|p| p.elo == elo).ok_or_else(|| format!("the ladder has no point {elo}"))?;
    p.lambda = Some(round_to(s.lambda, 4));
    p.beta = Some(round_to(s.beta, 4));
    p.slip_p = round_to(s.slip_p, 5);
    if s.model_offset != 0.0 {
        // The model's rating input moves by the offset; an opponent input that follows it (none
        // of its own, or the same) moves with it, as the fit searched it.
        let own = p.model_elo.unwrap_or(f64::from(elo));
        let moved = round_to(own + s.model_offset, 1);
        if p.model_oppo_elo == Some(own) {
            p.model_oppo_elo = Some(moved);
        }
        p.model_elo = Some(moved);
    }
    if p.deep_nodes > p.nodes {
        p.deep_p = round_to(s.deep_p, 4);
    }
    if keep_above {
        // Slips must fall with Elo: a point above that is not fitted yet is held to this rate.
        for p in l.points.iter_mut().filter(|p| p.elo > elo) {
            p.slip_p = p.slip_p.min(round_to(s.slip_p, 5));
        }
    } else {
        l.points.retain(|p| p.elo <= elo);
    }
    Ladder::parse(&l.to_toml()).map_err(|e| format!("candidate ladder for {elo}: {e}"))
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let k = 10f64.powi(decimals);
    (x * k).round() / k
}

/// Chooses among the point's per-move feasible settings by self-play against `lower` (fitted,
/// in `fitted`): bisection over λ from the best expected match (see the module documentation).
fn choose_by_steps(
    fitted: &Ladder,
    f: &PointFit,
    lower: i32,
    cfg: &steps::StepConfig,
    work: &Path,
    log: &mut String,
) -> Result<Option<Setting3>, String> {
    let n = f.frontier.len();
    if n == 0 {
        return Ok(None);
    }
    let gap = f.elo - lower;
    let (lo_score, hi_score) = steps::step_range(gap);
    let target = steps::expected_score(gap);
    let mut trials: Vec<Trial> = Vec::new();
    let mut play = |s: Setting3, match_rate: f64, trials: &mut Vec<Trial>| -> Result<f64, String> {
        let cand = with_point(fitted, f.elo, &s, false)?;
        let path = work.join(format!("candidate-{}-{}.toml", f.elo, trials.len()));
        std::fs::write(&path, cand.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
        let t0 = std::time::Instant::now();
        let result = steps::play_step(&path, f.elo, lower, cfg)?;
        let line = format!(
            "  step {} vs {lower}: deep {:.2} lambda {:.2} beta {:.2} slip {:.3} model {:+.0} (match {match_rate:.4}): {} games {:.1} % ± {:.1} [{:.0} s]",
            f.elo,
            s.deep_p,
            s.lambda,
            s.beta,
            s.slip_p,
            s.model_offset,
            result.games,
            result.score,
            result.error95,
            t0.elapsed().as_secs_f64()
        );
        eprintln!("{line}");
        log.push_str(&line);
        log.push('\n');
        trials.push(Trial { setting: s, match_rate, result });
        Ok(result.score)
    };
    let start =
        (0..n).max_by(|&a, &b| f.frontier[a].1.match_rate.total_cmp(&f.frontier[b].1.match_rate)).expect("non-empty");
    let (mut lo_i, mut hi_i) = (0usize, n - 1);
    let mut i = start;
    let mut tried: Vec<usize> = Vec::new();
    for _ in 0..MAX_STEP_TRIES {
        let score = play(f.frontier[i].0, f.frontier[i].1.match_rate, &mut trials)?;
        tried.push(i);
        if (lo_score..=hi_score).contains(&score) {
            break;
        }
        if score < lo_score {
            lo_i = i + 1;
        } else if i == 0 {
            break;
        } else {
            hi_i = i - 1;
        }
        if lo_i > hi_i || lo_i >= n {
            break;
        }
        let next = (lo_i + hi_i) / 2;
        if tried.contains(&next) {
            break;
        }
        i = next;
    }
    // Every candidate short of the window: the frontier keeps the best match per λ, which need not
    // be the strongest setting; the strongest feasible one gets the last try.
    let inside = |t: &Trial| (lo_score..=hi_score).contains(&t.result.score);
    if trials.iter().all(|t| t.result.score < lo_score)
        && let Some(s) = f.strongest
        && trials.iter().all(|t| t.setting != s)
    {
        play(s, f.fit_expected(&s).match_rate, &mut trials)?;
    }
    let pick = if let Some(t) = trials.iter().filter(|t| inside(t)).max_by(|a, b| a.match_rate.total_cmp(&b.match_rate))
    {
        t
    } else {
        trials
            .iter()
            .min_by(|a, b| (a.result.score - target).abs().total_cmp(&(b.result.score - target).abs()))
            .expect("one trial")
    };
    Ok(Some(pick.setting))
}

/// The highest slip rate a point at `elo` may take: that of the ladder's point below it (slips may
/// not rise with Elo), or 1 at the bottom. Fitting some of a ladder's points starts from it, so a
/// fitted point never makes a ladder the parser refuses.
fn slip_bound(ladder: &Ladder, elo: i32) -> f64 {
    ladder.points.iter().filter(|p| p.elo < elo).map(|p| p.slip_p).next_back().unwrap_or(1.0)
}

/// The command: fits every BAND:ELO pair, prints the ladder lines, writes a CSV (and, when asked,
/// the fitted ladder).
// Long: one pass over the points in Elo order, with its report.
pub fn run(args: &FitArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(args.ladder).map_err(|e| format!("{}: {e}", args.ladder.display()))?;
    let ladder = Ladder::parse(&text).map_err(|e| e.to_string())?;
    let games = crate::common::games::read_games(args.pgn)?;
    let all = crate::common::scored::load_oracle(args.oracle)?;
    let eligible = crate::common::bands::eligible(&all, None);
    let eligible2 = match args.second {
        Some(path) => crate::common::bands::eligible(&crate::common::scored::load_oracle(path)?, None),
        None => Vec::new(),
    };
    std::fs::create_dir_all(args.work).map_err(|e| format!("{}: {e}", args.work.display()))?;
    let mut csv = String::from(
        "band,elo,model,set,deep_p,lambda,beta,slip_p,n,mean_loss,human_mean_loss,mean_error_pct,ks,match_rate,model_offset\n",
    );
    let mut out = String::new();
    let mut pairs = args.pairs.clone();
    pairs.sort_by_key(|&(_, elo)| elo);
    let elos: Vec<i32> = pairs.iter().map(|&(_, e)| e).collect();
    let curve = |pos: &[OraclePosition], part: Part| curve_targets(args.target, pos, &games, part, &elos);
    // The test part's curve only reports; a cache that scored too little of it reports against
    // the band's people instead.
    let report_curve = |pos: &[OraclePosition]| {
        curve(pos, Part::Test).unwrap_or_else(|e| {
            eprintln!("model fit: no test-part curve ({e}); the held-out rows compare with the band's people");
            None
        })
    };
    let (curve_fit, curve_test) = (curve(&eligible, Part::Fit)?, report_curve(&eligible));
    let (curve_fit2, curve_test2) =
        if args.second.is_some() { (curve(&eligible2, Part::Fit)?, report_curve(&eligible2)) } else { (None, None) };
    let at = |c: &Option<std::collections::BTreeMap<i32, f64>>, elo: i32| c.as_ref().and_then(|m| m.get(&elo).copied());
    if let Some(c) = &curve_fit {
        eprintln!("model fit: per-move target: the humans' curve (fit part) at {c:.1?}");
    }
    let mut max_slip = pairs.first().map_or(1.0, |&(_, lowest)| slip_bound(&ladder, lowest));
    let mut fitted = ladder.clone();
    let mut below: Option<i32> = None;
    for &(band, elo) in &pairs {
        let positions: Vec<OraclePosition> = eligible.iter().filter(|p| p.pos.band == band).cloned().collect();
        let second: Vec<OraclePosition> = eligible2.iter().filter(|p| p.pos.band == band).cloned().collect();
        let second = args.second.map(|_| &second[..]);
        let targets = Targets {
            fit: [at(&curve_fit, elo), at(&curve_fit2, elo)],
            test: [at(&curve_test, elo), at(&curve_test2, elo)],
        };
        let grid_of = PointGrid { max_slip, deep_ps: &args.deep_ps, model_offsets: &args.model_offsets, targets };
        let mut f = fit_point(&fitted, (band, elo), (&positions, second), &games, grid_of, args.jobs)?;
        let mut part = String::new();
        let _ = writeln!(
            part,
            "\nband {band} point {elo}: {} per-move feasible settings by deeper look and lambda",
            f.frontier.len()
        );
        // The self-play trials print their lines as they finish; the rest of the part is printed
        // once the point is fitted (each line once).
        eprint!("{part}");
        let stepped = match (&args.steps, below) {
            (Some(cfg), Some(lower)) => choose_by_steps(&fitted, &f, lower, cfg, args.work, &mut part)?,
            (Some(_), None) => f.weakest,
            (None, _) => None,
        };
        let printed = part.len();
        if let Some(s) = stepped {
            let fit_part = f.fit_expected(&s);
            let held = f.held_out(&s);
            let label = if below.is_some() { "with steps" } else { "weakest" };
            f.rows.push((label.to_string(), "fit", s, fit_part));
            f.rows.push((label.to_string(), "test", s, held));
            if let Some((fit2, test2)) = f.second_expected(&s) {
                f.rows.push((format!("{label} (second oracle)"), "fit", s, fit2));
                f.rows.push((format!("{label} (second oracle)"), "test", s, test2));
            }
            f.chosen = s;
        }
        max_slip = f.chosen.slip_p;
        fitted = with_point(&fitted, elo, &f.chosen, true)?;
        below = Some(elo);
        let _ = writeln!(
            part,
            "  model        set    deep  lambda  beta   slip     n   mean  target   error     KS   match  blunders (humans)"
        );
        for (label, set, s, e) in &f.rows {
            let fields = format!(
                "{:.3},{:.3},{:.3},{:.4},{},{:.2},{:.2},{:.2},{:.4},{:.4}",
                s.deep_p,
                s.lambda,
                s.beta,
                s.slip_p,
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate
            );
            let _ = writeln!(csv, "{band},{elo},{label},{set},{fields},{}", s.model_offset);
            let _ = writeln!(
                part,
                "  {label:<12} {set:<5} {:5.2} {:7.2} {:5.2} {:6.3} {:5} {:6.1} {:7.1} {:+6.1} % {:.3} {:.4}  {:5.2} % ({:5.2} %)",
                s.deep_p,
                s.lambda,
                s.beta,
                s.slip_p,
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate,
                100.0 * e.blunder,
                100.0 * e.human_blunder
            );
        }
        let _ = writeln!(part, "  frontier (fit part; the best expected match at each deeper look and lambda):");
        for (s, e) in &f.frontier {
            let second = f
                .second_expected(s)
                .map(|(e2, _)| format!("  second oracle {:+5.1} % KS {:.3}", 100.0 * e2.error(), e2.ks))
                .unwrap_or_default();
            let _ = writeln!(
                part,
                "    deep {:4.2}  lambda {:5.2}  beta {:5.2}  slip {:.3}  model {:+5.0}: mean {:5.1} ({:+5.1} %)  KS {:.3}  match {:.4}  blunders {:4.2} % ({:4.2} %){second}",
                s.deep_p,
                s.lambda,
                s.beta,
                s.slip_p,
                s.model_offset,
                e.mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate,
                100.0 * e.blunder,
                100.0 * e.human_blunder
            );
        }
        let _ = writeln!(
            part,
            "  ladder lines: lambda = {:.2}  beta = {:.2}  slip_p = {:.3}  deep_p = {:.2}  (model input {:+.0} from the point's)",
            f.chosen.lambda, f.chosen.beta, f.chosen.slip_p, f.chosen.deep_p, f.chosen.model_offset
        );
        eprint!("{}", &part[printed..]);
        out.push_str(&part);
        std::fs::write(args.csv_out, &csv).map_err(|e| format!("{}: {e}", args.csv_out.display()))?;
        if let Some(path) = args.ladder_out {
            let mut l = fitted.clone();
            if let Some(v) = args.version {
                l.version = v;
            }
            std::fs::write(path, l.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    println!("{out}\nCSV: {}", args.csv_out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_fitted_alone_keeps_the_slip_rate_of_the_point_below() {
        let ladder = Ladder::builtin();
        let below_1700 = ladder.points.iter().find(|p| p.elo == 1500).unwrap().slip_p;
        assert_eq!(slip_bound(&ladder, 1700), below_1700);
        assert_eq!(slip_bound(&ladder, 1600), below_1700);
        assert_eq!(slip_bound(&ladder, ladder.points[0].elo), 1.0);
        // Every setting the grid may then choose gives a ladder the parser accepts.
        for s in every_setting(slip_bound(&ladder, 1700)) {
            with_point(&ladder, 1700, &s, true).expect("a valid ladder");
        }
    }

    /// 100 decisions on one kind of position: the best move (loss 0), a 60 cp mistake the model
    /// likes, a 300 cp blunder; the humans play them 50 / 40 / 10 times.
    fn decisions() -> Vec<Decision> {
        (0..100)
            .map(|i| {
                let human = if i < 50 {
                    0
                } else if i < 90 {
                    1
                } else {
                    2
                };
                let loss = vec![0, 60, 300];
                Decision {
                    shallow: Branch {
                        delta: vec![Some(0.0), Some(-0.6), Some(-3.0)],
                        gate: vec![1, 2],
                        decided: None,
                        slip_scale: 1.0,
                    },
                    deep: None,
                    logp: vec![0.4f64.ln(), 0.5f64.ln(), 0.1f64.ln()],
                    shifted: vec![],
                    human_loss: loss[human],
                    loss,
                    human,
                    blunder: vec![false, false, true],
                    human_blunder: human == 2,
                    test: false,
                    key: (i, 0),
                }
            })
            .collect()
    }

    #[test]
    fn a_branch_leans_the_slip_rate_as_the_player_does() {
        // Branch scale 3 (a position where a tilted point is behind): slip rate 0.1 → 0.3; a scale
        // that would pass 1 is capped there, leaving nothing to the Boltzmann choice.
        let logp = [0.4f64.ln(), 0.5f64.ln(), 0.1f64.ln()];
        let s = Setting3 { lambda: 1.0, beta: 0.0, slip_p: 0.1, deep_p: 0.0, model_offset: 0.0 };
        let at = |scale: f64| {
            let b = Branch {
                delta: vec![Some(0.0), Some(-0.6), Some(-3.0)],
                gate: vec![1, 2],
                decided: None,
                slip_scale: scale,
            };
            branch_probabilities(&b, &logp, &s)
        };
        let (flat, leaned, capped) = (at(1.0), at(3.0), at(20.0));
        let w: Vec<f64> = [0.0f64, -0.6, -3.0].iter().map(|x| x.exp()).collect();
        let total: f64 = w.iter().sum();
        for (i, (&f, &l)) in flat.iter().zip(&leaned).enumerate() {
            let slip = |rate: f64| if i == 0 { 0.0 } else { rate / 2.0 };
            assert!((f - (0.9 * w[i] / total + slip(0.1))).abs() < 1e-12, "{i}: {f}");
            assert!((l - (0.7 * w[i] / total + slip(0.3))).abs() < 1e-12, "{i}: {l}");
        }
        assert_eq!(capped, vec![0.0, 0.5, 0.5]);
    }

    fn every_setting(max_slip: f64) -> Vec<Setting3> {
        let mut all = Vec::new();
        for lambda in LAMBDAS {
            for beta in BETAS {
                for slip_p in SLIPS.into_iter().filter(|&s| s <= max_slip + 1e-12) {
                    all.push(Setting3 { lambda, beta, slip_p, deep_p: 0.0, model_offset: 0.0 });
                }
            }
        }
        all
    }

    #[test]
    fn a_curve_target_moves_the_mean_the_grid_aims_at() {
        // The humans here lose 54 cp a move; a curve that says people of the point's Elo lose 40
        // (or 70) moves every feasible setting there, while KS stays against the people.
        let ds = decisions();
        let refs: Vec<&Decision> = ds.iter().collect();
        assert!(
            (expected(&refs, &Setting3 { lambda: 1.0, beta: 1.0, slip_p: 0.0, deep_p: 0.0, model_offset: 0.0 })
                .human_mean
                - 54.0)
                .abs()
                < 1e-9
        );
        for target in [40.0, 70.0] {
            let g = grid(&refs, None, [Some(target), None], 0.05, (&[0.0], &[0.0]));
            assert!(!g.frontier.is_empty(), "target {target}: nothing feasible");
            for (s, e) in &g.frontier {
                assert_eq!(e.human_mean, target);
                let raw = expected(&refs, s);
                assert!(
                    (raw.mean - target).abs() <= COMFORT * super::super::fit::MEAN_TOLERANCE * target + 1e-9,
                    "{s:?}: {}",
                    raw.mean
                );
                assert_eq!(raw.ks, e.ks);
            }
        }
        // A second oracle's own target binds too: one that no setting can meet leaves nothing feasible.
        let g = grid(&refs, Some(&refs), [Some(54.0), Some(5.0)], 0.05, (&[0.0], &[0.0]));
        assert!(g.frontier.is_empty());
    }

    #[test]
    fn the_grid_keeps_feasible_settings_and_finds_both_extremes() {
        let ds = decisions();
        let refs: Vec<&Decision> = ds.iter().collect();
        let g = grid(&refs, None, [None, None], 0.05, (&[0.0], &[0.0]));
        let feasible: Vec<(Setting3, Expected)> = every_setting(0.05)
            .into_iter()
            .map(|s| (s, expected(&refs, &s)))
            .filter(|(_, e)| e.cost() <= COMFORT)
            .collect();
        assert!(feasible.len() > 10, "{} feasible settings", feasible.len());
        // The frontier: feasible, one per λ, in λ order, each the best match at its λ.
        assert!(g.frontier.windows(2).all(|w| w[0].0.lambda < w[1].0.lambda));
        for (s, e) in &g.frontier {
            assert!(e.cost() <= COMFORT && s.slip_p <= 0.05);
            let top =
                feasible.iter().filter(|(f, _)| f.lambda == s.lambda).map(|(_, e)| e.match_rate).fold(0.0, f64::max);
            assert_eq!(e.match_rate, top);
        }
        // The best match overall, the strongest and the weakest feasible settings.
        let (_, best) = g.best;
        assert!(feasible.iter().all(|(_, e)| e.match_rate <= best.match_rate));
        let mean = |s: Setting3| expected(&refs, &s).mean;
        let (strong, weak) = (g.strongest.unwrap(), g.weakest.unwrap());
        assert!(feasible.iter().all(|(s, _)| mean(*s) >= mean(strong) && mean(*s) <= mean(weak)));
        assert!(mean(strong) < mean(weak));
        // The humans' mean loss is 54 cp: a feasible setting is within the comfort band of it.
        assert!((expected(&refs, &strong).human_mean - 54.0).abs() < 1e-9);
        // Blunders: the humans' third move (10 of 100) and the setting's chance of it.
        for s in [strong, weak] {
            let e = expected(&refs, &s);
            assert!((e.human_blunder - 0.10).abs() < 1e-12);
            let third = refs.iter().map(|d| probabilities(d, &s)[2]).sum::<f64>() / refs.len() as f64;
            assert!(third > 0.0 && (e.blunder - third).abs() < 1e-12);
        }
    }

    #[test]
    fn a_second_oracle_binds_the_grid_too() {
        let ds = decisions();
        let refs: Vec<&Decision> = ds.iter().collect();
        // The same oracle twice changes nothing.
        let alone = grid(&refs, None, [None, None], 0.05, (&[0.0], &[0.0]));
        let twice = grid(&refs, Some(&refs), [None, None], 0.05, (&[0.0], &[0.0]));
        assert_eq!(
            alone.frontier.iter().map(|f| f.0).collect::<Vec<_>>(),
            twice.frontier.iter().map(|f| f.0).collect::<Vec<_>>()
        );
        assert_eq!(alone.best.0, twice.best.0);
        // A second judge that calls the model's favourite (the 60 cp move) a 150 cp mistake and the
        // blunder a 60 cp one: the frontier keeps only settings inside the limits by both, and one
        // that the first judge alone would have kept is gone.
        let other: Vec<Decision> = decisions()
            .into_iter()
            .map(|mut d| {
                d.loss = vec![0, 150, 60];
                d.human_loss = d.loss[d.human];
                d
            })
            .collect();
        let other_refs: Vec<&Decision> = other.iter().collect();
        let both = grid(&refs, Some(&other_refs), [None, None], 0.05, (&[0.0], &[0.0]));
        assert!(!both.frontier.is_empty());
        for (s, e) in &both.frontier {
            assert!(e.cost() <= COMFORT && expected(&other_refs, s).cost() <= COMFORT, "{s:?}");
        }
        let dropped: Vec<Setting3> =
            alone.frontier.iter().map(|f| f.0).filter(|s| expected(&other_refs, s).cost() > COMFORT).collect();
        assert!(!dropped.is_empty(), "the second judge rejects part of the first's frontier");
        assert!(dropped.iter().all(|s| both.frontier.iter().all(|f| f.0 != *s)));
    }

    #[test]
    fn a_deeper_look_mixes_in_its_proportion() {
        // The deeper look sees the 60 cp move as the best: a point that takes it more often plays it
        // more often, in exact proportion, and the grid over deeper looks keeps its frontier in
        // deeper-look order.
        let mut ds = decisions();
        for d in &mut ds {
            d.deep = Some(Branch {
                delta: vec![Some(-0.2), Some(0.0), Some(-3.0)],
                gate: vec![2],
                decided: None,
                slip_scale: 1.0,
            });
        }
        let refs: Vec<&Decision> = ds.iter().collect();
        let at = |deep_p: f64| Setting3 { lambda: 4.0, beta: 1.0, slip_p: 0.05, deep_p, model_offset: 0.0 };
        let (shallow, deep) = (probabilities(refs[0], &at(0.0)), probabilities(refs[0], &at(1.0)));
        assert_eq!(shallow, branch_probabilities(&refs[0].shallow, &refs[0].logp, &at(0.0)));
        assert!(deep[1] > shallow[1]);
        let mixed = probabilities(refs[0], &at(0.25));
        for i in 0..3 {
            assert!((mixed[i] - (0.75 * shallow[i] + 0.25 * deep[i])).abs() < 1e-12);
        }
        assert!((mixed.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let e = |p: f64| expected(&refs, &at(p));
        assert!(e(0.0).mean < e(0.5).mean && e(0.5).mean < e(1.0).mean, "the 60 cp move costs more often");
        let g = grid(&refs, None, [None, None], 0.05, (&[0.0, 0.5, 1.0], &[0.0]));
        assert!(g.frontier.windows(2).all(|w| (w[0].0.deep_p, w[0].0.lambda) < (w[1].0.deep_p, w[1].0.lambda)));
        assert!(g.frontier.iter().any(|(s, _)| s.deep_p == 0.0));
        // A decision without a deeper look ignores the probability.
        let plain = decisions();
        assert_eq!(probabilities(&plain[0], &at(0.0)), probabilities(&plain[0], &at(1.0)));
    }

    #[test]
    fn a_regret_cap_leaves_worse_moves_to_the_slips_as_the_policy_does() {
        use sparring::search::RootMove;
        let moves: Vec<Move> =
            shakmaty::Position::legal_moves(&shakmaty::Chess::default()).into_iter().take(4).collect();
        // Regrets 0, 50, 150, 400 cp; the gate [100, 400] holds the last two.
        let root: Vec<RootMove> = [20, -30, -130, -380]
            .iter()
            .zip(&moves)
            .map(|(&score, &mv)| RootMove { mv, score, pv: vec![mv], depth: 5 })
            .collect();
        let open = policy::ChoiceSettings {
            lambda: Some(1.0),
            slip_p: 0.1,
            slip_min_cp: 100,
            slip_max_cp: 400,
            ..policy::ChoiceSettings::best()
        };
        let capped = policy::ChoiceSettings { boltzmann_max_cp: Some(100), ..open.clone() };
        let b_open = branch(&root, &moves, &open, 2.0, None).expect("a branch");
        let b_cap = branch(&root, &moves, &capped, 2.0, None).expect("a branch");
        assert_eq!(b_open.delta, vec![Some(0.0), Some(-0.5), Some(-1.5), Some(-4.0)]);
        assert_eq!(b_cap.delta, vec![Some(0.0), Some(-0.5), None, None]);
        assert_eq!(b_open.gate, b_cap.gate);
        // A model that rates the 150 cp move likely: uncapped the choice follows it, capped only a
        // slip plays it (its share of the slip, by the model's weights over the gate).
        let logp = vec![(0.1f64).ln(), (0.1f64).ln(), (0.7f64).ln(), (0.1f64).ln()];
        let s = Setting3 { lambda: 1.0, beta: 5.0, slip_p: 0.1, deep_p: 0.0, model_offset: 0.0 };
        let (p_open, p_cap) = (branch_probabilities(&b_open, &logp, &s), branch_probabilities(&b_cap, &logp, &s));
        assert!(p_open[2] > 0.5, "{p_open:?}");
        let gate_share = 0.7f64.powf(5.0) / (0.7f64.powf(5.0) + 0.1f64.powf(5.0));
        assert!((p_cap[2] - 0.1 * gate_share).abs() < 1e-12, "{p_cap:?}");
        assert!((p_cap.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // The same draw in the policy never takes the capped move outside a slip.
        let bias: Vec<f64> = logp.iter().map(|x| 5.0 * x).collect();
        for seed in 0..300 {
            let mut rng =
                sparring::seed::decision_rng(seed, 1, shakmaty::Color::White, 7, sparring::seed::tags::CHOICE);
            let c = policy::choose_biased(&root, &capped, Some(&bias), &mut rng);
            assert!(c.kind == policy::ChoiceKind::Slip || c.regret_cp <= 100, "seed {seed}: {c:?}");
        }
    }

    #[test]
    fn a_fitted_deeper_look_is_written_only_where_the_point_has_one() {
        let ladder = Ladder::builtin();
        let s = Setting3 { lambda: 1.0, beta: 1.0, slip_p: 0.0, deep_p: 0.75, model_offset: 0.0 };
        let with = with_point(&ladder, 1300, &s, true).unwrap();
        assert_eq!(with.points.iter().find(|p| p.elo == 1300).unwrap().deep_p, 0.75);
        // 1900 searches 20000 nodes with no deeper look of its own: the probability is not written.
        let without = with_point(&ladder, 1900, &s, true).unwrap();
        assert_eq!(without.points.iter().find(|p| p.elo == 1900).unwrap().deep_p, 0.0);
    }

    /// The model's rating input as a dimension: decisions searched at a second input (offset
    /// −300) whose ln P_human puts more weight on the humans' moves; the grid prefers that input
    /// at equal per-move cost, reads offset 0 as the point's own, and the chosen offset is written
    /// as the point's `model_elo` (with the opponent input where it followed the point's).
    #[test]
    fn the_model_input_is_a_dimension_of_the_grid() {
        let mut ds = decisions();
        for d in &mut ds {
            // At the lower input the model leans more to the humans' most common move (half of
            // them play it; the point's own input gives it 0.4).
            d.shifted = vec![(-300.0, vec![0.6f64.ln(), 0.3f64.ln(), 0.1f64.ln()])];
        }
        let refs: Vec<&Decision> = ds.iter().collect();
        let at = |model_offset: f64| Setting3 { lambda: 0.5, beta: 2.0, slip_p: 0.0, deep_p: 0.0, model_offset };
        assert_eq!(probabilities(refs[0], &at(0.0)), probabilities(refs[0], &at(123.0)), "an unsearched offset is 0");
        assert_ne!(probabilities(refs[0], &at(0.0)), probabilities(refs[0], &at(-300.0)));
        let only_own = grid(&refs, None, [None, None], 0.05, (&[0.0], &[0.0]));
        let both = grid(&refs, None, [None, None], 0.05, (&[0.0], &[0.0, -300.0]));
        assert!(only_own.frontier.iter().all(|(s, _)| s.model_offset == 0.0));
        assert!(both.best.1.match_rate > only_own.best.1.match_rate, "{:?} {:?}", both.best, only_own.best);
        assert_eq!(both.best.0.model_offset, -300.0);
        assert!(both.frontier.iter().any(|(s, _)| s.model_offset == -300.0), "{:?}", both.frontier);
        // Written into a ladder whose 1700 has no model_elo (its Elo is its input).
        let mut ladder = Ladder::builtin();
        let own = ladder.points.iter_mut().find(|p| p.elo == 1700).unwrap();
        (own.model_elo, own.model_oppo_elo) = (None, None);
        let moved = with_point(&ladder, 1700, &at(-300.0), true).unwrap();
        let p = moved.points.iter().find(|p| p.elo == 1700).unwrap();
        assert_eq!((p.model_elo, p.model_oppo_elo), (Some(1400.0), None));
        let kept = with_point(&ladder, 1700, &at(0.0), true).unwrap();
        assert_eq!(kept.points.iter().find(|p| p.elo == 1700).unwrap().model_elo, None);
        let mut named = ladder.clone();
        let q = named.points.iter_mut().find(|p| p.elo == 1700).unwrap();
        (q.model_elo, q.model_oppo_elo) = (Some(2000.0), Some(2000.0));
        let moved = with_point(&named, 1700, &at(-300.0), true).unwrap();
        let p = moved.points.iter().find(|p| p.elo == 1700).unwrap();
        assert_eq!((p.model_elo, p.model_oppo_elo), (Some(1700.0), Some(1700.0)));
    }

    #[test]
    fn no_slip_above_the_point_below() {
        let ds = decisions();
        let refs: Vec<&Decision> = ds.iter().collect();
        let g = grid(&refs, None, [None, None], 0.0, (&[0.0], &[0.0]));
        assert!(g.frontier.iter().all(|(s, _)| s.slip_p == 0.0));
        assert_eq!(g.best.0.slip_p, 0.0);
        assert!(g.strongest.is_some_and(|s| s.slip_p == 0.0) && g.weakest.is_some_and(|s| s.slip_p == 0.0));
    }
}
