//! Avatars fitted to a player (`sparring avatar fit`): the 26 group weights (13 groups × mg/eg, in
//! percent, 0-200) under which a ladder point's choice model gives the player's moves the highest
//! likelihood.
//!
//! The model of one decision, at the ladder point nearest the player's rating: every legal move is
//! played and resolved by a quiescence search of captures with the point's evaluator (its school's
//! flags and weights); the leaf's per-group, per-side trace makes the
//! move's value a linear function of the avatar's weights, `v(w) = Σ_k f_k · w_k + tempo`, exact at
//! w = 100 up to rounding (the leaf is held fixed). The weights are per side ([`KS`]: the mover's
//! own groups and the opponent's, as an `.avt` file's `own.`/`opp.` keys set them), so a sided
//! avatar is modelled as the engine plays it; a fit ties the two sides together (the 26
//! weights). The move's logit is the point's Boltzmann one with the human move model term and the
//! avatar's style tilt of that term ([`sparring::human::v6::style_tilt`]):
//! `λ · v(w) / 100 + β · (ln P_human(move) + T · Δ(w))`, where Δ(w) is the avatar's static
//! evaluation of the position right after the move less the plain one (pawns, within ±1, linear in
//! w inside the cap) and T is the point's avatar tilt ([`sparring::human::v6::AVATAR_TILT`] unless its ladder point says); it is mixed with the point's slip rate spread over
//! all legal moves ([`Model`]).
//! Positions with one legal move or a decided best value (beyond ±600 cp, where the point leaves
//! the model out) are skipped. The objective, the mean log-likelihood of the played moves less
//! `pull · Σ ((w_k − 100) / 100)²`, is concave in w without slips and tilt (nearly so with them); a
//! projected Newton-diagonal ascent with backtracking, from w = 100 in a fixed order, finds its
//! maximum deterministically. A fit may instead maximise the expected match, the mean probability
//! of the played move ([`Objective::Match`]): how often the point would play the player's move.
//!
//! Either objective can also hold the style ([`Settings::hold`]): the model's expected fingerprint
//! rates (for each rate of [`Rate`], the mean over the decisions in its denominator of
//! Σ P(move) · [the move counts]) are pulled towards the player's own rates on the same decisions,
//! losing `hold · Σ_r (expected_r − player_r)²` (rates as fractions). Without it a fit that raises the
//! match may do so by moving one rate (captures, say) away from the player's. Where the engine's
//! own gap to the player is measured ([`Settings::gap`]), the target is the model's plain rate less
//! that gap: the model and the searching engine need not agree on a rate's level, only on its change.

use crate::common::fingerprint::classify::{Facts, Rate, classify};
use crate::common::games::GameRecord;
use shakmaty::{Chess, Color, Move, Position};
use sparring::board::Game;
use sparring::board::see::see_ge;
use sparring::eval::{self, EvalConfig, MAX_PHASE, Term, Trace};
use sparring::human::maia3::History;
use sparring::human::v6::AVATAR_TILT_CAP_CP;
use sparring::profile::maia3_choice::Maia3Choice;
use sparring::profile::{Avatar, Ladder};
use sparring::score::MATE;
use sparring::search::Searcher;
use std::sync::Arc;

/// Weights a fit finds (both sides alike): 13 middlegame then 13 endgame.
pub const K: usize = 2 * Term::COUNT;
/// Weights of the model (per side): the mover's own 13 mg and 13 eg, then the opponent's.
pub const KS: usize = 2 * K;
/// Largest best value (cp) of a position that is fitted (where the point leaves the model out).
pub use sparring::human::v6::DECIDED_CP;
/// Node cap of one move's quiescence search.
const QS_NODES: u32 = 4000;

/// The ladder point the moves are modelled at.
#[derive(Clone)]
pub struct Point {
    pub elo: i32,
    /// Flags and weights of the point (no avatar).
    pub eval: EvalConfig,
    /// The choice: Boltzmann λ per pawn and the slip rate.
    pub model: Model,
    /// β and the human move model v6 with the rating it is asked about (None: no model term; with
    /// `maia3` it is only the fallback).
    pub human: Option<(f64, Arc<sparring::human::v6::HumanModel>, f64)>,
    /// The human move model v7 (Maia-3) at the point's model ratings, where the ladder names it:
    /// its `ln P_human` replaces v6's, asked with the game's last positions as the engine asks.
    pub maia3: Option<Maia3Choice>,
}

impl Point {
    /// The built-in ladder's point nearest `elo` (the lower one on a tie).
    pub fn nearest(elo: f64) -> Point {
        Point::nearest_in(&Ladder::builtin(), elo)
    }

    /// `ladder`'s point nearest `elo` (the lower one on a tie).
    pub fn nearest_in(ladder: &Ladder, elo: f64) -> Point {
        let p = ladder
            .points
            .iter()
            .min_by(|a, b| (f64::from(a.elo) - elo).abs().total_cmp(&(f64::from(b.elo) - elo).abs()))
            .expect("the ladder has points");
        let level = ladder.at(p.elo);
        let eval = level.eval.clone();
        Point {
            elo: level.elo,
            eval,
            model: Model {
                lambda: level.choice.lambda.unwrap_or(1.0),
                slip: level.choice.slip_p,
                tilt: level.human.as_ref().map_or(0.0, |h| h.beta * h.avatar_tilt),
                lean: level.human.as_ref().map_or(0.0, |h| h.beta),
            },
            human: level.human.as_ref().map(|h| (h.beta, h.model.clone(), h.rating)),
            maia3: level.maia3.as_deref().cloned(),
        }
    }
}

/// The point's choice as the fit models it: with probability `1 − slip` the Boltzmann choice over
/// the logits, with probability `slip` a slip (modelled as any legal move alike; the point's own
/// slips draw among the moves inside its regret gate, at a rate its slip tilt may lean on the
/// position: here the point's average rate stands for it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub lambda: f64,
    pub slip: f64,
    /// Logit per pawn of style difference Δ: β · the point's avatar tilt at a point with the human move
    /// model, 0 without it (the engine tilts only the model's term).
    pub tilt: f64,
    /// Logit per unit of an avatar's lean (`lean.KIND = 100` is one unit): the point's β where it
    /// chooses with the human move model, 0 without it (leans move only the model's term).
    pub lean: f64,
}

/// Largest |Δ| of the style tilt, in pawns.
const TILT_CAP: f64 = AVATAR_TILT_CAP_CP as f64 / 100.0;

/// One legal move: its value's slope per weight percent and its constant (cp, mover's view), and
/// the slope of its style difference Δ (pawns per weight percent away from 100).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    pub slope: [f64; KS],
    pub constant: f64,
    pub style: [f64; KS],
}

impl MoveValue {
    pub fn value(&self, w: &[f64; KS]) -> f64 {
        self.constant + self.slope.iter().zip(w).map(|(s, w)| s * w).sum::<f64>()
    }

    /// The style difference Δ(w) before the cap (pawns, mover's view).
    pub fn style_diff(&self, w: &[f64; KS]) -> f64 {
        self.style.iter().zip(w).map(|(s, w)| s * (w - 100.0)).sum::<f64>()
    }
}

/// The same weights for both sides: the model's vector of a fit's 26.
pub fn shared(w: &[f64; K]) -> [f64; KS] {
    placed(w, &PLAIN)
}

/// The plain point's per-side weights (every group at 100 %): the centre of a fit by default.
pub const PLAIN: [f64; KS] = [100.0; KS];

/// A fit's 26 shared weights laid on the per-side weights of its centre `base`: each side's weight
/// moves by w − 100, so a fit centred on a sided avatar keeps the avatar's own/opponent asymmetry
/// (on [`PLAIN`] this is [`shared`]).
pub fn placed(w: &[f64; K], base: &[f64; KS]) -> [f64; KS] {
    std::array::from_fn(|i| base[i] + w[i % K] - 100.0)
}

/// Per-side slopes of a trace's value for `mover` (cp per weight percent): the mover's groups
/// count for, the opponent's against, each tapered by the phase and weighted by the point's own
/// weights (the avatar's percent multiplies them).
fn side_slopes(t: &Trace, mover: Color) -> [f64; KS] {
    let (mg, eg) = (f64::from(t.phase) / f64::from(MAX_PHASE), f64::from(MAX_PHASE - t.phase) / f64::from(MAX_PHASE));
    let (own, opp) = if mover == Color::White { (&t.white, &t.black) } else { (&t.black, &t.white) };
    let mut s = [0.0; KS];
    for g in Term::ALL {
        let i = g.index();
        if !t.enabled[i] {
            continue;
        }
        let (wm, we) = (f64::from(t.mg_weight[i]) / 100.0, f64::from(t.eg_weight[i]) / 100.0);
        s[i] = f64::from(own[i].mg) * wm * mg / 100.0;
        s[Term::COUNT + i] = f64::from(own[i].eg) * we * eg / 100.0;
        s[K + i] = -f64::from(opp[i].mg) * wm * mg / 100.0;
        s[K + Term::COUNT + i] = -f64::from(opp[i].eg) * we * eg / 100.0;
    }
    s
}

/// One decision of the player.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The game it comes from.
    pub cluster: usize,
    /// Index of the played move in `moves`.
    pub played: usize,
    pub moves: Vec<MoveValue>,
    /// `β · ln P_human` per move (zeros without a model).
    pub offset: Vec<f64>,
    /// Each move's fingerprint facts (in `moves`' order).
    pub facts: Vec<Facts>,
}

/// Quiescence of captures (all evasions in check) from `pos` with `cfg`: the score for the side to
/// move and the leaf position it rests on (`None` at a mate or stalemate).
fn qs(pos: &Chess, mut alpha: i32, beta: i32, cfg: &EvalConfig, nodes: &mut u32, ply: i32) -> (i32, Option<Chess>) {
    *nodes += 1;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return (if pos.is_check() { -MATE + ply } else { 0 }, None);
    }
    let in_check = pos.is_check();
    let mut best = (-MATE, None);
    if !in_check {
        let stand = eval::evaluate(pos, cfg);
        if stand >= beta || *nodes >= QS_NODES {
            return (stand, Some(pos.clone()));
        }
        alpha = alpha.max(stand);
        best = (stand, Some(pos.clone()));
    }
    for m in legal {
        if !in_check && (!m.is_capture() || !see_ge(pos, m, 0)) {
            continue;
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        let (s, leaf) = qs(&next, -beta, -alpha, cfg, nodes, ply + 1);
        if -s > best.0 {
            best = (-s, leaf);
            alpha = alpha.max(-s);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The value of playing `m` in `pos` (see the module text).
pub fn move_value(pos: &Chess, m: Move, cfg: &EvalConfig) -> (i32, MoveValue) {
    let mut after = pos.clone();
    after.play_unchecked(m);
    // The tilt compares static evaluations of the position right after the move (as the engine's).
    let mut style = side_slopes(&eval::trace(&after, cfg), pos.turn());
    for x in &mut style {
        *x /= 100.0;
    }
    let mut nodes = 0;
    let (s, leaf) = qs(&after, -MATE, MATE, cfg, &mut nodes, 1);
    let score = -s;
    let Some(leaf) = leaf else {
        return (score, MoveValue { slope: [0.0; KS], constant: f64::from(score), style });
    };
    let t = eval::trace(&leaf, cfg);
    let sign = if pos.turn() == Color::White { 1.0 } else { -1.0 };
    (score, MoveValue { slope: side_slopes(&t, pos.turn()), constant: sign * f64::from(t.tempo_white), style })
}

/// Every legal move of a position with its value and model term.
#[derive(Clone, Debug)]
pub struct Choices {
    pub legal: Vec<Move>,
    pub moves: Vec<MoveValue>,
    /// `β · ln P_human` per move (zeros without a model).
    pub offset: Vec<f64>,
}

/// The choices in `game`'s position, or `None` when the position is not modelled (one legal move,
/// a decided position). `history` is the game's last positions up to this one (the human move
/// model v7 sees them as the engine's does; None: the position alone).
pub fn choices(look: &mut Searcher, game: &Game, point: &Point, history: Option<&History>) -> Option<Choices> {
    let pos = game.pos();
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    if legal.len() < 2 {
        return None;
    }
    let scored: Vec<(i32, MoveValue)> = legal.iter().map(|&m| move_value(pos, m, &point.eval)).collect();
    let best = scored.iter().map(|s| s.0).max().unwrap_or(0);
    if best.abs() >= DECIDED_CP {
        return None;
    }
    let offset = match &point.human {
        Some((beta, model, rating)) => {
            let v7 = point.maia3.as_ref().and_then(|m| {
                let asked = Maia3Choice { history: history.map(|h| Arc::new(h.clone())), ..m.clone() };
                asked.log_probs(game, &legal)
            });
            let logp = v7.unwrap_or_else(|| model.game_log_probs(look, game, &legal, *rating));
            logp.iter().map(|l| beta * l).collect()
        }
        None => vec![0.0; legal.len()],
    };
    Some(Choices { legal, moves: scored.into_iter().map(|s| s.1).collect(), offset })
}

/// The decision in `game`'s position for `played` (after the move `prev`, the game's last
/// positions `history`), or `None` when it is not fitted; the model's look runs on `look`
/// ([`Searcher::for_look`]).
pub fn decision(
    look: &mut Searcher,
    game: &Game,
    history: Option<&History>,
    prev: Option<Move>,
    played: Move,
    point: &Point,
    cluster: usize,
) -> Option<Decision> {
    let c = choices(look, game, point, history)?;
    let played = c.legal.iter().position(|&m| m == played)?;
    let facts = c.legal.iter().map(|&m| classify(game.pos(), prev, m)).collect();
    Some(Decision { cluster, played, moves: c.moves, offset: c.offset, facts })
}

/// Every fitted decision of the player `name` in `games` (game index = cluster); `progress` is
/// called once per game.
pub fn decisions(games: &[(usize, &GameRecord)], name: &str, point: &Point, progress: &dyn Fn()) -> Vec<Decision> {
    let mut out = Vec::new();
    let mut look = Searcher::for_look();
    for &(gi, g) in games {
        let mut game = Game::new(g.root.clone());
        let mut prev = None;
        let mut positions = vec![g.root.clone()];
        for &m in &g.moves {
            let mover = if game.pos().turn() == Color::White { &g.white } else { &g.black };
            if mover == name {
                let history = point.maia3.as_ref().map(|_| History::from_positions(positions.clone()));
                if let Some(d) = decision(&mut look, &game, history.as_ref(), prev, m, point, gi) {
                    out.push(d);
                }
            }
            game.make(m);
            positions.push(game.pos().clone());
            if positions.len() > sparring::human::maia3::encode::HISTORY {
                positions.remove(0);
            }
            game.reset_depth();
            prev = Some(m);
        }
        progress();
    }
    out
}

/// Logits of moves with `values` and model terms `offset` under weights `w`, with each logit's
/// slope per weight (the tilt's part is flat where Δ is capped).
fn logits_and_slopes(values: &[MoveValue], offset: &[f64], w: &[f64; KS], m: Model) -> (Vec<f64>, Vec<[f64; KS]>) {
    let c = m.lambda / 100.0;
    values
        .iter()
        .zip(offset)
        .map(|(v, o)| {
            let delta = v.style_diff(w);
            let mut slope = [0.0; KS];
            for (k, s) in slope.iter_mut().enumerate() {
                *s = c * v.slope[k];
            }
            if m.tilt != 0.0 && delta.abs() < TILT_CAP {
                for (k, s) in slope.iter_mut().enumerate() {
                    *s += m.tilt * v.style[k];
                }
            }
            (c * v.value(w) + o + m.tilt * delta.clamp(-TILT_CAP, TILT_CAP), slope)
        })
        .unzip()
}

/// Logits of moves with `values` and model terms `offset` under weights `w`.
pub fn logits(values: &[MoveValue], offset: &[f64], w: &[f64; KS], m: Model) -> Vec<f64> {
    logits_and_slopes(values, offset, w, m).0
}

/// Softmax probabilities of `logits`.
pub fn softmax(logits: &[f64]) -> Vec<f64> {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|x| x / z).collect()
}

fn mix(p: &[f64], m: Model) -> Vec<f64> {
    let uniform = m.slip / p.len() as f64;
    p.iter().map(|q| (1.0 - m.slip) * q + uniform).collect()
}

/// Probabilities of the moves of `d` under `w`: the Boltzmann part and the mixture with slips.
pub fn probabilities(d: &Decision, w: &[f64; KS], m: Model) -> (Vec<f64>, Vec<f64>) {
    let p = softmax(&logits(&d.moves, &d.offset, w, m));
    let mixed = mix(&p, m);
    (p, mixed)
}

/// What a fit maximises over the player's decisions (less the pull).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Objective {
    /// The mean log-likelihood of the played moves (concave without slips and tilt).
    Likelihood,
    /// The mean probability of the played move: the expected match, how often the point would
    /// play the player's move (not concave; the same ascent finds a local maximum from w = 100).
    Match,
}

/// What a fit maximises and how hard it is held.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub objective: Objective,
    /// Pull towards 100 %: the objective loses `pull · Σ((w − 100)/100)²`.
    pub pull: f64,
    /// Style hold: the objective loses `hold · Σ_r (expected_r − target_r)²` (see the module text).
    pub hold: f64,
    /// The engine's measured gap per rate (the plain point's moves − the player's, on the fitted
    /// part's positions), where known: the hold's target becomes the model's plain rate less that
    /// gap, so that the fit moves each rate by what the engine needs, not by what the model alone
    /// sees. None: the target is the player's own rate.
    pub gap: Option<Gap>,
    /// The centre: per-side weights the fit starts from and is pulled towards ([`PLAIN`], or a
    /// shipped avatar's); the fit moves both sides of each group alike (see [`placed`]).
    pub base: SideWeights,
}

/// Per-side weights ([`KS`] of them; a literal length for the same reason as [`Gap`]'s).
pub type SideWeights = [f64; 52];
const _: () = assert!(KS == 52);

/// One optional value per fingerprint rate, in [`Rate::ALL`] order (a literal length: rustc 1.95
/// trips over the associated constant in this struct's field type when it is copied in a closure).
pub type Gap = [Option<f64>; 11];
const _: () = assert!(Rate::COUNT == 11);

impl Settings {
    /// The likelihood with a pull and no style hold.
    pub fn likelihood(pull: f64) -> Settings {
        Settings { objective: Objective::Likelihood, pull, hold: 0.0, gap: None, base: PLAIN }
    }
}

/// The player's own rate of each fingerprint rate over `ds` (None where no decision is in its
/// denominator).
pub fn player_rates(ds: &[Decision]) -> [Option<f64>; Rate::COUNT] {
    let mut out = [None; Rate::COUNT];
    for r in Rate::ALL {
        let i = r as usize;
        let (n, k) = ds
            .iter()
            .filter_map(|d| d.facts[d.played][i])
            .fold((0usize, 0usize), |(n, k), x| (n + 1, k + usize::from(x)));
        if n > 0 {
            out[i] = Some(k as f64 / n as f64);
        }
    }
    out
}

/// What the style hold pulls each expected rate towards (see [`Settings::gap`]).
pub fn hold_targets(ds: &[Decision], model: Model, gap: Option<&Gap>) -> [Option<f64>; Rate::COUNT] {
    let theirs = player_rates(ds);
    let Some(gap) = gap else { return theirs };
    let plain = expected_rates(ds, &[100.0; KS], model);
    std::array::from_fn(|i| match (plain[i], gap[i]) {
        (Some(p), Some(g)) => Some((p - g).clamp(0.0, 1.0)),
        _ => theirs[i],
    })
}

/// The model's expected rate of each fingerprint rate over `ds` under the per-side weights `w`
/// (mean over the decisions in the rate's denominator of Σ P(move) · [the move counts]).
pub fn expected_rates(ds: &[Decision], w: &[f64; KS], model: Model) -> [Option<f64>; Rate::COUNT] {
    let mut sum = [0.0; Rate::COUNT];
    let mut n = [0usize; Rate::COUNT];
    for d in ds {
        let p = probabilities(d, w, model).1;
        for r in Rate::ALL {
            let i = r as usize;
            if d.facts[d.played][i].is_some() {
                n[i] += 1;
                sum[i] += d.facts.iter().zip(&p).filter(|(f, _)| f[i] == Some(true)).map(|(_, q)| q).sum::<f64>();
            }
        }
    }
    std::array::from_fn(|i| (n[i] > 0).then(|| sum[i] / n[i] as f64))
}

/// The style hold's sums over the decisions, for an objective with `N` parameters: per rate, the
/// decisions in its denominator, Σ of the expected rate and Σ of its slope per parameter.
struct HoldSums<const N: usize> {
    n: [usize; Rate::COUNT],
    sum: [f64; Rate::COUNT],
    grad: [[f64; N]; Rate::COUNT],
}

impl<const N: usize> HoldSums<N> {
    fn new() -> Self {
        HoldSums { n: [0; Rate::COUNT], sum: [0.0; Rate::COUNT], grad: [[0.0; N]; Rate::COUNT] }
    }

    /// Adds decision `d` with Boltzmann probabilities `p` and mixture `mixed`; `centred(a, k)` is
    /// move a's logit slope for parameter k less its mean under `p` (d mix_a = (1 − slip) · p_a ·
    /// that: the expected rate's slope is the covariance).
    fn add(&mut self, d: &Decision, p: &[f64], mixed: &[f64], slip: f64, centred: impl Fn(usize, usize) -> f64) {
        for r in Rate::ALL {
            let i = r as usize;
            if d.facts[d.played][i].is_none() {
                continue;
            }
            self.n[i] += 1;
            for (a, fa) in d.facts.iter().enumerate() {
                if fa[i] == Some(true) {
                    self.sum[i] += mixed[a];
                    for k in 0..N {
                        self.grad[i][k] += (1.0 - slip) * p[a] * centred(a, k);
                    }
                }
            }
        }
    }

    /// Subtracts `hold · Σ_r (expected_r − target_r)²` from the objective `f`, with its gradient
    /// and a Gauss-Newton curvature (the square's, without the gap's own second derivative).
    fn apply(&self, hold: f64, target: &[Option<f64>; Rate::COUNT], f: &mut f64, g: &mut [f64; N], h: &mut [f64; N]) {
        for (i, goal) in target.iter().enumerate() {
            let (Some(t), true) = (*goal, self.n[i] > 0) else { continue };
            let m = self.n[i] as f64;
            let gap = self.sum[i] / m - t;
            *f -= hold * gap * gap;
            for k in 0..N {
                let slope = self.grad[i][k] / m;
                g[k] -= 2.0 * hold * gap * slope;
                h[k] += 2.0 * hold * slope * slope;
            }
        }
    }
}

/// The played move `j`'s term of the objective `goal` (its log-probability or its probability under
/// the mixture with slips), the share by which a logit's slope moves it, and the curvature factor:
/// d ln mix_j = (1 − slip) · p_j / mix_j · d ln p_j (the Boltzmann share of the played move);
/// d mix_j = (1 − slip) · p_j · d ln p_j.
fn played_term(goal: Objective, p: &[f64], mixed: &[f64], j: usize, slip: f64) -> (f64, f64, f64) {
    match goal {
        Objective::Likelihood => (mixed[j].max(1e-300).ln(), (1.0 - slip) * p[j] / mixed[j].max(1e-300), 1.0),
        Objective::Match => (mixed[j], (1.0 - slip) * p[j], 1.0 - slip),
    }
}

/// The objective at the shared weights `w` (less the pull and the style hold), its gradient and a
/// diagonal curvature bound (positive); `target` holds the player's rates.
fn objective(
    ds: &[Decision],
    w: &[f64; K],
    model: Model,
    s: Settings,
    target: &[Option<f64>; Rate::COUNT],
) -> (f64, [f64; K], [f64; K]) {
    let (goal, pull) = (s.objective, s.pull);
    let n = ds.len().max(1) as f64;
    let (mut f, mut g, mut h) = (0.0, [0.0; K], [0.0; K]);
    let ws = placed(w, &s.base);
    // The style hold's sums: per rate, Σ expected rate, its gradient, and the decisions counted.
    let mut hold = HoldSums::<K>::new();
    for d in ds {
        let (l, slopes) = logits_and_slopes(&d.moves, &d.offset, &ws, model);
        let p = softmax(&l);
        let mixed = mix(&p, model);
        let j = d.played;
        let (value, share, curve) = played_term(goal, &p, &mixed, j, model.slip);
        f += value;
        for k in 0..K {
            // A shared weight moves both sides' slots.
            let e = |s: &[f64; KS]| s[k] + s[K + k];
            let mean: f64 = slopes.iter().zip(&p).map(|(s, p)| p * e(s)).sum();
            let var: f64 = slopes.iter().zip(&p).map(|(s, p)| p * (e(s) - mean).powi(2)).sum();
            g[k] += share * (e(&slopes[j]) - mean);
            h[k] += curve * var;
        }
        if s.hold > 0.0 {
            // d mix_a = (1 − slip) · p_a · (e_a − mean): the expected rate's slope is the covariance.
            let means: [f64; K] =
                std::array::from_fn(|k| slopes.iter().zip(&p).map(|(s, p)| p * (s[k] + s[K + k])).sum());
            hold.add(d, &p, &mixed, model.slip, |a, k| slopes[a][k] + slopes[a][K + k] - means[k]);
        }
    }
    f /= n;
    for k in 0..K {
        let z = (w[k] - 100.0) / 100.0;
        f -= pull * z * z;
        g[k] = g[k] / n - 2.0 * pull * z / 100.0;
        h[k] = h[k] / n + 2.0 * pull / 1e4;
    }
    if s.hold > 0.0 {
        hold.apply(s.hold, target, &mut f, &mut g, &mut h);
    }
    (f, g, h)
}

/// Mean log-likelihood of the played moves under the per-side weights `w` (no pull).
pub fn mean_log_likelihood(ds: &[Decision], w: &[f64; KS], model: Model) -> f64 {
    let n = ds.len().max(1) as f64;
    ds.iter().map(|d| probabilities(d, w, model).1[d.played].max(1e-300).ln()).sum::<f64>() / n
}

/// Mean probability of the played move (the expected match) under the per-side weights `w`.
pub fn mean_match(ds: &[Decision], w: &[f64; KS], model: Model) -> f64 {
    let n = ds.len().max(1) as f64;
    ds.iter().map(|d| probabilities(d, w, model).1[d.played]).sum::<f64>() / n
}

/// Keeps every side's weight of `w` laid on `base` within 0-200 %.
fn project(w: &mut [f64; K], base: &[f64; KS]) {
    for (k, x) in w.iter_mut().enumerate() {
        let (own, opp) = (base[k], base[K + k]);
        *x = x.clamp(100.0 - own.min(opp), 300.0 - own.max(opp));
    }
}

/// The weights that maximise the objective (see the module text), from w = 100 (the centre).
pub fn fit(ds: &[Decision], model: Model, s: Settings, progress: &dyn Fn(usize)) -> [f64; K] {
    let target = hold_targets(ds, model, s.gap.as_ref());
    ascend([100.0; K], 300, |w| objective(ds, w, model, s, &target), |w| project(w, &s.base), progress)
}

/// Projected Newton-diagonal ascent with backtracking from `x`: each step moves every coordinate
/// by `t · g / h` (t halved, at most 30 times, until the objective rises) and `project` keeps the
/// point feasible; it stops when no step rises or after `iterations` steps. `eval` gives the
/// objective, its gradient and a positive diagonal curvature; `progress` each step's index.
/// Deterministic: a fixed order, no draws.
fn ascend<const N: usize>(
    mut x: [f64; N],
    iterations: usize,
    eval: impl Fn(&[f64; N]) -> (f64, [f64; N], [f64; N]),
    project: impl Fn(&mut [f64; N]),
    progress: &dyn Fn(usize),
) -> [f64; N] {
    let (mut f, mut g, mut h) = eval(&x);
    for it in 0..iterations {
        progress(it);
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..30 {
            let mut next = x;
            for k in 0..N {
                next[k] += t * g[k] / h[k].max(1e-12);
            }
            project(&mut next);
            let (nf, ng, nh) = eval(&next);
            if nf > f {
                moved = nf - f > 1e-12;
                (x, f, g, h) = (next, nf, ng, nh);
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    x
}

/// The player's decisions in two folds of their games (alternate games in order), for the
/// cross-validations of [`choose_pull`] and [`choose_lean_pull`].
fn two_folds(ds: &[Decision]) -> [Vec<Decision>; 2] {
    let mut games: Vec<usize> = ds.iter().map(|d| d.cluster).collect();
    games.sort_unstable();
    games.dedup();
    let fold = |d: &Decision| games.binary_search(&d.cluster).map_or(0, |i| i % 2);
    std::array::from_fn(|f| ds.iter().filter(|d| fold(d) == f).cloned().collect::<Vec<_>>())
}

/// Pulls a fit chooses among ([`choose_pull`]), from none (only the 0-200 bounds hold the
/// weights) to strong. Session 36's grid began at 0.002 and its match fits chose that edge for five
/// of seven players, so the grid now reaches below it.
pub const PULL_GRID: [f64; 8] = [0.0, 0.0005, 0.002, 0.01, 0.03, 0.1, 0.3, 1.0];

/// The mean of what `goal` maximises (no pull, no hold) over `ds` under the per-side weights `ws`.
pub fn goal_value(ds: &[Decision], ws: &[f64; KS], model: Model, goal: Objective) -> f64 {
    match goal {
        Objective::Likelihood => mean_log_likelihood(ds, ws, model),
        Objective::Match => mean_match(ds, ws, model),
    }
}

/// The pull of [`PULL_GRID`] whose fits best predict games they did not see: two folds of the
/// player's games (alternate games in order), each fitted with the other held out; the score of a
/// pull is its held-out goal value averaged over both folds. Returns the chosen pull and every
/// pull's score (the smallest pull wins a tie); `progress` is called with each pull's index.
/// Deterministic.
pub fn choose_pull(ds: &[Decision], model: Model, s: Settings, progress: &dyn Fn(usize)) -> (f64, Vec<(f64, f64)>) {
    choose_pull_among(ds, model, s, &PULL_GRID, progress)
}

/// [`choose_pull`] over the pulls of `grid` (the first wins a tie).
fn choose_pull_among(
    ds: &[Decision],
    model: Model,
    s: Settings,
    grid: &[f64],
    progress: &dyn Fn(usize),
) -> (f64, Vec<(f64, f64)>) {
    let parts = two_folds(ds);
    let scores: Vec<(f64, f64)> = grid
        .iter()
        .enumerate()
        .map(|(i, &pull)| {
            progress(i);
            let held: f64 = (0..2)
                .map(|f| {
                    let w = fit(&parts[1 - f], model, Settings { pull, ..s }, &|_| {});
                    goal_value(&parts[f], &placed(&w, &s.base), model, s.objective)
                })
                .sum();
            (pull, held / 2.0)
        })
        .collect();
    let best = scores.iter().copied().fold((grid[0], f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
    (best.0, scores)
}

/// The centre a fit starts from and is pulled towards, chosen with the pull: for each of
/// `centres` (per-side weights; put the plain point's, [`PLAIN`], first), the pull of
/// [`PULL_GRID`] (or only `pull`, where given) whose two-fold fits best predict held-out games, as
/// [`choose_pull`]; the centre with the best such score wins (the earlier on a tie). Returns its
/// index, its pull and each centre's best held-out score; `progress` counts the fits' pulls
/// (centres × pulls). Deterministic.
pub fn choose_centre(
    ds: &[Decision],
    model: Model,
    s: Settings,
    centres: &[[f64; KS]],
    pull: Option<f64>,
    progress: &dyn Fn(usize),
) -> (usize, f64, Vec<f64>) {
    let grid: Vec<f64> = pull.map_or(PULL_GRID.to_vec(), |p| vec![p]);
    let mut best = (0, grid[0], f64::NEG_INFINITY);
    let mut scores = Vec::new();
    for (c, base) in centres.iter().enumerate() {
        let (p, list) =
            choose_pull_among(ds, model, Settings { base: *base, ..s }, &grid, &|i| progress(c * grid.len() + i));
        let score = list.iter().find(|x| x.0 == p).map_or(f64::NEG_INFINITY, |x| x.1);
        if score > best.2 {
            best = (c, p, score);
        }
        scores.push(score);
    }
    (best.0, best.1, scores)
}

/// The weights laid on the centre `base` as an avatar (each side rounded to whole percent; sided
/// where the centre is).
pub fn to_avatar(w: &[f64; K], base: &[f64; KS], file: &str) -> Avatar {
    let ws = placed(w, base);
    let pct = |i: usize| ws[i].round().clamp(0.0, 200.0) as u16;
    let mut a = Avatar::both(file, [100; Term::COUNT], [100; Term::COUNT]);
    for t in Term::ALL {
        let i = t.index();
        (a.mg[i], a.eg[i]) = (pct(i), pct(Term::COUNT + i));
        (a.opp_mg[i], a.opp_eg[i]) = (pct(K + i), pct(K + Term::COUNT + i));
    }
    a
}

/// An avatar's weights as the model's per-side vector (the mover's groups weighed by `mg`/`eg`,
/// the opponent's by `opp_mg`/`opp_eg`).
pub fn weights_of(a: &Avatar) -> [f64; KS] {
    let mut w = [100.0; KS];
    for t in Term::ALL {
        let i = t.index();
        w[i] = f64::from(a.mg[i]);
        w[Term::COUNT + i] = f64::from(a.eg[i]);
        w[K + i] = f64::from(a.opp_mg[i]);
        w[K + Term::COUNT + i] = f64::from(a.opp_eg[i]);
    }
    w
}

/// Per game (cluster): (Σ P(played), Σ top-1 hit, Σ ln P(played), decisions) under `w`.
pub fn per_game(ds: &[Decision], w: &[f64; KS], model: Model) -> std::collections::BTreeMap<usize, [f64; 4]> {
    let mut out: std::collections::BTreeMap<usize, [f64; 4]> = std::collections::BTreeMap::new();
    for d in ds {
        let p = probabilities(d, w, model).1;
        let top = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b]).then(b.cmp(&a))).unwrap_or(0);
        let e = out.entry(d.cluster).or_default();
        e[0] += p[d.played];
        e[1] += f64::from(u8::from(top == d.played));
        e[2] += p[d.played].max(1e-300).ln();
        e[3] += 1.0;
    }
    out
}

/// Largest |lean| a fit gives, in natural-log units ([`sparring::profile::avatar::MAX_LEAN`] / 100).
pub const LEAN_CAP: f64 = sparring::profile::avatar::MAX_LEAN as f64 / 100.0;

/// Pulls a lean fit chooses among by two-fold cross-validation ([`choose_lean_pull`]): the loss
/// is `pull · Σ lean²` (leans in natural-log units).
pub const LEAN_PULL_GRID: [f64; 8] = [0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0];

/// The decisions with each move's model term moved by `leans` (natural-log units per kind, times
/// the point's β as the engine applies them): how the point chooses with an avatar that leans.
pub fn with_leans(ds: &[Decision], leans: &[f64; Rate::COUNT], model: Model) -> Vec<Decision> {
    ds.iter()
        .map(|d| {
            let mut d = d.clone();
            for (o, f) in d.offset.iter_mut().zip(&d.facts) {
                *o += model.lean * lean_sum(f, leans);
            }
            d
        })
        .collect()
}

fn lean_sum(f: &Facts, leans: &[f64; Rate::COUNT]) -> f64 {
    f.iter().zip(leans).filter(|(x, _)| **x == Some(true)).map(|(_, l)| l).sum()
}

/// An avatar's leans in natural-log units.
pub fn leans_of(a: &Avatar) -> [f64; Rate::COUNT] {
    std::array::from_fn(|i| f64::from(a.lean[i]) / 100.0)
}

/// The lean objective at `b` (see [`fit_leans`]), its gradient and a diagonal curvature bound.
fn lean_objective(
    ds: &[Decision],
    base: &[Vec<f64>],
    b: &[f64; Rate::COUNT],
    model: Model,
    s: Settings,
    target: &[Option<f64>; Rate::COUNT],
) -> (f64, [f64; Rate::COUNT], [f64; Rate::COUNT]) {
    const C: usize = Rate::COUNT;
    let n = ds.len().max(1) as f64;
    let (mut f, mut g, mut h) = (0.0, [0.0; C], [0.0; C]);
    let mut hold = HoldSums::<C>::new();
    for (d, l0) in ds.iter().zip(base) {
        // Each move's slope per lean: β where the move is of that kind.
        let slopes: Vec<[f64; C]> = d
            .facts
            .iter()
            .map(|fa| std::array::from_fn(|c| if fa[c] == Some(true) { model.lean } else { 0.0 }))
            .collect();
        let l: Vec<f64> =
            l0.iter().zip(&slopes).map(|(x, sl)| x + sl.iter().zip(b).map(|(a, c)| a * c).sum::<f64>()).collect();
        let p = softmax(&l);
        let mixed = mix(&p, model);
        let j = d.played;
        let (value, share, curve) = played_term(s.objective, &p, &mixed, j, model.slip);
        f += value;
        let means: [f64; C] = std::array::from_fn(|c| slopes.iter().zip(&p).map(|(sl, q)| q * sl[c]).sum());
        for c in 0..C {
            let var: f64 = slopes.iter().zip(&p).map(|(sl, q)| q * (sl[c] - means[c]).powi(2)).sum();
            g[c] += share * (slopes[j][c] - means[c]);
            h[c] += curve * var;
        }
        if s.hold > 0.0 {
            hold.add(d, &p, &mixed, model.slip, |a, c| slopes[a][c] - means[c]);
        }
    }
    f /= n;
    for c in 0..C {
        f -= s.pull * b[c] * b[c];
        g[c] = g[c] / n - 2.0 * s.pull * b[c];
        h[c] = h[c] / n + 2.0 * s.pull;
    }
    if s.hold > 0.0 {
        hold.apply(s.hold, target, &mut f, &mut g, &mut h);
    }
    (f, g, h)
}

/// The leans (natural-log units per kind of move, within ±[`LEAN_CAP`]) that maximise the
/// objective of `s` (its goal less `s.pull · Σ lean²` and its style hold) over `ds` with the
/// per-side weights `w` held: the second half of a fit, for points that choose with the human
/// move model, where the evaluation weights reach the choice only through the style tilt. Zero
/// where the point has no model. Deterministic (projected Newton-diagonal ascent from 0).
pub fn fit_leans(ds: &[Decision], w: &[f64; KS], model: Model, s: Settings) -> [f64; Rate::COUNT] {
    let b = [0.0; Rate::COUNT];
    if model.lean == 0.0 || ds.is_empty() {
        return b;
    }
    let target = hold_targets(ds, model, s.gap.as_ref());
    let base: Vec<Vec<f64>> = ds.iter().map(|d| logits(&d.moves, &d.offset, w, model)).collect();
    let cap = |b: &mut [f64; Rate::COUNT]| b.iter_mut().for_each(|x| *x = x.clamp(-LEAN_CAP, LEAN_CAP));
    ascend(b, 200, |b| lean_objective(ds, &base, b, model, s, &target), cap, &|_| {})
}

/// The lean pull of [`LEAN_PULL_GRID`] whose lean fits best predict games they did not see (two
/// folds of the player's games, as [`choose_pull`]), with every pull's held-out score.
pub fn choose_lean_pull(ds: &[Decision], w: &[f64; KS], model: Model, s: Settings) -> (f64, Vec<(f64, f64)>) {
    let parts = two_folds(ds);
    let scores: Vec<(f64, f64)> = LEAN_PULL_GRID
        .iter()
        .map(|&pull| {
            let held: f64 = (0..2)
                .map(|f| {
                    let b = fit_leans(&parts[1 - f], w, model, Settings { pull, ..s });
                    let leaned = with_leans(&parts[f], &b, model);
                    match s.objective {
                        Objective::Likelihood => mean_log_likelihood(&leaned, w, model),
                        Objective::Match => mean_match(&leaned, w, model),
                    }
                })
                .sum();
            (pull, held / 2.0)
        })
        .collect();
    let best =
        scores.iter().copied().fold((LEAN_PULL_GRID[0], f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
    (best.0, scores)
}

/// The expected match of a fit with the settings `s` (its objective, pull and centre fixed) on
/// games it did not see: two folds of the player's games (as [`choose_pull`]), each fitted on the
/// other, weights first and then, where `lean_pull` is given and the point chooses with the human
/// move model, the leans at that pull; the mean of both folds' held-out expected match. What a fit
/// records so that a choice between fits (of the two objectives, say) needs no other games.
pub fn held_out_match(ds: &[Decision], model: Model, s: Settings, lean_pull: Option<f64>) -> f64 {
    let parts = two_folds(ds);
    let fold = |f: usize| {
        let (train, test) = (&parts[1 - f], &parts[f]);
        let w = placed(&fit(train, model, s, &|_| {}), &s.base);
        let b = match lean_pull {
            Some(pull) => fit_leans(train, &w, model, Settings { pull, ..s }),
            None => [0.0; Rate::COUNT],
        };
        mean_match(&with_leans(test, &b, model), &w, model)
    };
    (fold(0) + fold(1)) / 2.0
}

/// Fitted leans as an avatar's integers (hundredths, rounded).
pub fn lean_percent(b: &[f64; Rate::COUNT]) -> [i16; Rate::COUNT] {
    std::array::from_fn(|c| (b[c] * 100.0).round().clamp(-LEAN_CAP * 100.0, LEAN_CAP * 100.0) as i16)
}
