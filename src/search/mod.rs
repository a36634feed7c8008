//! Alpha-beta search. (Facade committed first so other modules can build against it; the real
//! search replaces the bodies.)

use crate::board::Game;
use crate::eval::EvalConfig;
use shakmaty::{Move, Position};
use std::time::Duration;

/// Score of a mate in 0 plies; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
pub const MAX_PLY: usize = 128;
/// Scores above this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Signed moves to mate for a mate score (positive: side to move mates), `None` for a normal score.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// What the search may spend. All `None`/false means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Time left on our clock, our increment, moves to the next time control.
    pub time: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations; `usize::MAX` scores every root move exactly.
    pub multipv: usize,
}

/// One scored root move.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Side to move's view, centipawns or mate score.
    pub score: i32,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub seldepth: i32,
    pub nodes: u64,
    /// The root moves scored exactly by the last completed iteration, best first (MultiPV order).
    pub root_moves: Vec<RootMove>,
}

/// Owns the transposition table and heuristics; one per engine.
pub struct Searcher {
    pub eval: EvalConfig,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        let _ = hash_mb;
        Searcher {
            eval: EvalConfig::default(),
        }
    }

    /// Silent analysis (no `info` output), for the estimator and tests.
    pub fn analyse(&mut self, game: &Game, limits: &Limits) -> SearchResult {
        let _ = limits;
        let pos = game.pos();
        let mut best: Option<(Move, i32)> = None;
        for m in pos.legal_moves() {
            let mut p = pos.clone();
            p.play_unchecked(m);
            let s = -crate::eval::evaluate(&p, &self.eval);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((m, s));
            }
        }
        SearchResult {
            best: best.map(|b| b.0),
            score: best.map_or(0, |b| b.1),
            depth: 1,
            ..Default::default()
        }
    }
}
