//! Alpha-beta search: iterative deepening with aspiration windows over a PVS negamax with
//! quiescence, transposition table, null move, LMR and the usual pruning (see `parameters.rs`).
//!
//! The root can score every legal move exactly (MultiPV up to all moves), which the weakening
//! policies need. Node limits are exact, so node-budgeted searches are reproducible.

mod alphabeta;
pub mod bench;
pub mod history;
pub mod movepick;
pub mod parameters;
pub mod timeman;
pub mod tt;

use crate::board::Game;
use crate::eval::EvalConfig;
use crate::tablebase::Tablebases;
use history::History;
use shakmaty::Move;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tt::TranspositionTable;

use crate::score::{INFINITY, MATE, MATE_BOUND, MAX_PLY, mate_moves};

/// The number of the one search, as ladder (`search_generation`) and profile (`[search]
/// generation`) files record it. Earlier searches (1-5) are retired: a file that names one, or a
/// budgeted one that names none (written for generation 1), is refused and must be refitted.
/// What this search is (continuation, capture and correction histories, singular extensions, the
/// tuned evaluation values, a sudden-death clock shared over `SUDDEN_DEATH_MOVES_TO_GO` moves, which changes clock play only) is pinned
/// by its `bench` signature, which every file fitted on it records as well.
/// Table size of a look searcher: the human move model's and human time's shallow looks (each
/// clears it before it looks, so what it saw before never matters). The engine owns one
/// (`player::Searchers::look`); a tool makes one per worker with [`Searcher::for_look`].
pub const LOOK_HASH_MB: usize = 1;

pub const SEARCH_GENERATION: u32 = 6;

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
    /// Number of principal variations (0 is treated as 1); `usize::MAX` scores every root move exactly.
    pub multipv: usize,
    /// The node limit is not enforced before this depth is complete (for every MultiPV line), so a
    /// small budget still scores every root move. `stop` and time limits still apply. 0 = off.
    pub min_depth: i32,
    /// Search threads (Lazy SMP; 0 and 1 both mean one). Only searches without a node limit and with
    /// one PV line use helpers, so every node-budgeted (weak, reproducible) search stays single-threaded.
    pub threads: usize,
}

/// One scored root move.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Side to move's view, centipawns or mate score.
    pub score: i32,
    pub pv: Vec<Move>,
    /// Depth at which `score` was obtained.
    pub depth: i32,
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub seldepth: i32,
    pub nodes: u64,
    pub tbhits: u64,
    pub time: Duration,
    /// The root moves scored exactly by the last completed iteration, best first (MultiPV order).
    pub root_moves: Vec<RootMove>,
}

/// Score bound of an `info` line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// Progress of the search, for `info` lines.
#[derive(Clone, Debug)]
pub struct Info<'a> {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub tbhits: u64,
    pub pv: &'a [Move],
}

/// Receives search progress; the UCI layer prints it, silent analysis ignores it.
pub trait Reporter {
    fn info(&mut self, info: &Info);
    fn currmove(&mut self, _depth: i32, _mv: Move, _number: usize) {}
}

/// A reporter that drops everything.
pub struct Silent;
impl Reporter for Silent {
    fn info(&mut self, _info: &Info) {}
}

/// Shared flags between the UCI thread and a running search.
#[derive(Default, Debug)]
pub struct Control {
    pub stop: AtomicBool,
    /// While set, time limits do not apply (`go ponder`); cleared by `ponderhit`.
    pub pondering: AtomicBool,
}

impl Control {
    pub fn new() -> Arc<Control> {
        Arc::new(Control::default())
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One search call's inputs besides the position and the stop flags: what it may spend, how it
/// evaluates, which tables it may probe and the time it keeps back. A value, so a searcher carries
/// nothing from one caller's settings into the next call.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub limits: Limits,
    /// Evaluator flags and weights (the values inside the groups are always the tuned ones).
    pub eval: EvalConfig,
    pub tablebases: Option<Arc<Tablebases>>,
    /// Kept back from every clock-derived limit (`Move Overhead`).
    pub move_overhead: Duration,
}

impl From<Limits> for Request {
    fn from(limits: Limits) -> Request {
        Request { limits, ..Default::default() }
    }
}

/// Owns the transposition table and heuristics, which persist from one search to the next.
pub struct Searcher {
    tt: TranspositionTable,
    history: History,
    /// The helper threads' histories (Lazy SMP), kept warm from one search to the next.
    helper_histories: Vec<History>,
}

impl Searcher {
    /// A searcher for the shallow looks ([`LOOK_HASH_MB`]).
    pub fn for_look() -> Searcher {
        Searcher::new(LOOK_HASH_MB)
    }

    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { tt: TranspositionTable::new(hash_mb), history: History::default(), helper_histories: Vec::new() }
    }

    pub fn resize_hash(&mut self, mb: usize) {
        self.tt.resize(mb);
    }

    /// Forget everything learnt: hash table, history, killers (`ucinewgame`, `Clear Hash`, and
    /// before every node-budgeted weak search so that it is reproducible).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.helper_histories.iter_mut().for_each(History::clear);
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Full search with progress reporting and an external stop flag.
    pub fn search(
        &mut self,
        game: &Game,
        request: &Request,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        alphabeta::run(self, game, request, control, reporter)
    }

    /// Silent analysis with the full evaluator and no tablebases (no `info` output), for the
    /// estimator, the oracles and tests.
    /// Every legal move searched once with the full window to `depth`, in move-generation order
    /// (see [`alphabeta::score_each`]): a MultiPV-all search of one iteration, much cheaper.
    pub fn score_each(&mut self, game: &Game, request: &Request, depth: i32) -> Vec<RootMove> {
        alphabeta::score_each(self, game, request, depth)
    }

    pub fn analyse(&mut self, game: &Game, limits: &Limits) -> SearchResult {
        let request = Request::from(limits.clone());
        alphabeta::run(self, game, &request, &Control::default(), &mut Silent)
    }
}
