//! What the time model sees of a move: the clock, the rating, the game's progress and how hard
//! the position looks, as one feature vector ([`Situation::features`]).
//!
//! Difficulty comes from a cheap look of its own ([`look`]): every legal move searched once with
//! the full window to [`LOOK_DEPTH`] (`Searcher::score_each`), the one search (time model v3 was
//! fitted on it; v1 and v2 on the retired generation 1's looks, which a file of theirs now gets
//! instead),
//! the default evaluator, no tablebases, a cleared look searcher (`Searcher::for_look`) — so it depends on the
//! position (and its history) only, never on the setting that plays, `Hash` or the machine's
//! speed. The fit tool (`sparring clock`) computes the same features from the same look.

use crate::board::Game;
use crate::search::{Limits, Request, Searcher};
use shakmaty::{Chess, Move, Position, Role};

/// Depth of the difficulty look.
pub const LOOK_DEPTH: i32 = 2;
/// Root moves within this many centipawns of the best count as "near-best".
pub const NEAR_CP: i32 = 50;
/// Scores are clamped to ±this before any feature uses them (mates included).
pub const CLAMP_CP: i32 = 1000;

/// The feature names, in the order of [`Situation::features`]; a parameter file lists them and is
/// refused when they differ (the set is part of the file format).
pub const NAMES: [&str; 17] = [
    "one",
    "ln_clock",
    "ln_inc",
    "inc_share",
    "low_clock",
    "rating",
    "rating_ln_clock",
    "opening",
    "moves",
    "phase",
    "ln_legal",
    "ln_near",
    "gap",
    "decided",
    "swing",
    "check",
    "recapture",
];
/// Number of features.
pub const COUNT: usize = NAMES.len();

/// How hard a position looks to the cheap search, from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Difficulty {
    pub legal: u32,
    /// Root moves within [`NEAR_CP`] of the best (at least 1 when there is a legal move).
    pub near: u32,
    /// Best minus second-best score, clamped (cp); [`CLAMP_CP`] with one legal move.
    pub gap_cp: i32,
    /// Best score, clamped (cp).
    pub best_cp: i32,
    /// How much the opponent's last move changed the evaluation (cp, clamped; 0 when unknown).
    pub swing_cp: i32,
    pub in_check: bool,
    /// The last move captured and a legal move captures back on that square.
    pub recapture: bool,
}

/// The look's scores of every legal move of `game`'s position (side to move's view, clamped),
/// best first.
fn look_scores(searcher: &mut Searcher, game: &Game) -> Vec<i32> {
    searcher.clear();
    let root = searcher.score_each(game, &Request::from(Limits::default()), LOOK_DEPTH);
    let mut scores: Vec<i32> = root.iter().map(|r| r.score.clamp(-CLAMP_CP, CLAMP_CP)).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores
}

/// The best score of the look (side to move's view, clamped); `None` without legal moves.
pub fn look_best(searcher: &mut Searcher, game: &Game) -> Option<i32> {
    look_scores(searcher, game).first().copied()
}

/// The difficulty of `game`'s position. `prev_best` is the look's best score of the position
/// before the opponent's last move (the opponent's view), when known: the swing is how far the
/// evaluation moved with that move, `|best + prev_best|`.
pub fn look(searcher: &mut Searcher, game: &Game, prev_best: Option<i32>) -> Difficulty {
    let pos = game.pos();
    let scores = look_scores(searcher, game);
    let legal = pos.legal_moves();
    let best = scores.first().copied().unwrap_or(0);
    let near = scores.iter().filter(|&&s| s >= best - NEAR_CP).count() as u32;
    let gap = match scores.get(1) {
        Some(&second) => (best - second).clamp(0, CLAMP_CP),
        None => CLAMP_CP,
    };
    let swing = prev_best.map_or(0, |p| (best + p).abs().min(CLAMP_CP));
    Difficulty {
        legal: legal.len() as u32,
        near,
        gap_cp: gap,
        best_cp: best,
        swing_cp: swing,
        in_check: pos.is_check(),
        recapture: recapture(game.last_move(), &legal),
    }
}

fn recapture(last: Option<Move>, legal: &[Move]) -> bool {
    let Some(last) = last else { return false };
    if !last.is_capture() {
        return false;
    }
    let to = last.to();
    legal.iter().any(|m| m.is_capture() && m.to() == to)
}

/// The game phase from the material left: 1 at the start (all minor and major pieces), 0 with
/// only kings and pawns (weights 1/1/2/4 for N/B/R/Q, total 24).
pub fn phase(pos: &Chess) -> f64 {
    let b = pos.board();
    let w = |r: Role| b.by_role(r).count() as f64;
    let v = w(Role::Knight) + w(Role::Bishop) + 2.0 * w(Role::Rook) + 4.0 * w(Role::Queen);
    (v / 24.0).min(1.0)
}

/// Everything the model sees of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Situation {
    /// The player's rating (human scale).
    pub rating: f64,
    /// Clock left before the move, seconds.
    pub clock_s: f64,
    /// Increment per move, seconds.
    pub inc_s: f64,
    /// Fullmove number of the position.
    pub fullmove: u32,
    /// [`phase`] of the position.
    pub phase: f64,
    pub difficulty: Difficulty,
}

impl Situation {
    /// The feature vector, in the order of [`NAMES`].
    pub fn features(&self) -> [f64; COUNT] {
        let d = &self.difficulty;
        let clock = self.clock_s.max(0.1);
        let ln_clock = clock.ln();
        let rating = (self.rating - 1700.0) / 400.0;
        let moves = f64::from(self.fullmove.max(1));
        [
            1.0,
            ln_clock,
            (1.0 + self.inc_s.max(0.0)).ln(),
            (self.inc_s.max(0.0) / clock).min(2.0),
            (30f64.ln() - ln_clock).max(0.0),
            rating,
            rating * ln_clock,
            ((10.0 - moves) / 10.0).max(0.0),
            (moves / 40.0).min(2.0),
            self.phase,
            f64::from(d.legal.max(1)).ln(),
            f64::from(d.near.max(1)).ln(),
            f64::from(d.gap_cp) / 100.0,
            (f64::from(d.best_cp.abs()) / 300.0).min(2.0),
            f64::from(d.swing_cp) / 100.0,
            f64::from(u8::from(d.in_check)),
            f64::from(u8::from(d.recapture)),
        ]
    }
}
