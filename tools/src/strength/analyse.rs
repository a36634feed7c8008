//! Per-ply analysis: the oracle's value of each position and of the move played, the centipawn
//! loss, eligibility and scaled error; then per-game-side statistics. Games are spread over
//! `jobs` worker threads, each with its own oracle that it reuses for all its games.
//!
//! Every game is analysed as if it were the only one: the oracle starts each game afresh
//! ([`Oracle::new_game`]) and the memo of oracle answers lives for one game. So a game's figures
//! depend on nothing but the game and the settings — not on `jobs`, on which worker took it, or on
//! the games before it.
//!
//! Valuing the played move ("pairing"):
//! - `exact` (default): the position is searched with budget B and gives the best move and the
//!   position value V. If the played move is the best move its value is V (loss 0); otherwise the
//!   position after it is searched with budget B − 1 ply, so the played move is looked at exactly
//!   as deeply as the root moves of the first search.
//! - `reuse`: every position is searched once with budget B; the played move's value is the
//!   negated value of the next position, which that ply needs anyway (one search per ply; the
//!   played move is then looked at one ply deeper than the best move).
//!
//! Within a game, results are memoised by (Zobrist key, budget), so a repeated position is searched
//! once, and the internal searcher's hash table carries from ply to ply.

use super::model::{self, SideStats, Strength, StrengthModel};
use super::pgn::{GameError, PgnGame};
use crate::common::oracle::{Budget, Eval, Oracle, OracleChoice};
use crate::common::quality;
use serde::Serialize;
use shakmaty::{Chess, Color, Position};
use sparring::board::notation::uci;
use sparring::board::zobrist;
use sparring::score::{MATE, Score};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Pairing {
    Exact,
    Reuse,
}

impl Pairing {
    pub fn as_str(self) -> &'static str {
        match self {
            Pairing::Exact => "exact",
            Pairing::Reuse => "reuse",
        }
    }
}

/// Why a ply does not count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Exclusion {
    /// Only one legal move.
    Forced,
    /// The oracle's value of the position is a mate score.
    Mate,
    /// |value from White's view| > 600.
    Decided,
    /// Not analysed (the side is filtered out).
    Skipped,
}

/// The verdict on one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// max(0, value − played value) in centipawns (mate scores count as ±10 000); 0 when the
    /// played move is the oracle's best move. `None` for a forced move (not searched).
    pub cp_loss: Option<i32>,
    pub excluded: Option<Exclusion>,
}

impl Verdict {
    pub fn eligible(&self) -> bool {
        self.excluded.is_none()
    }
}

/// Judges one ply. `value` and `played_value` are from the side to move's view (engine score
/// convention); they are ignored for a forced move.
pub fn judge_ply(legal_moves: usize, value: i32, played_value: i32, played_is_best: bool) -> Verdict {
    if legal_moves <= 1 {
        return Verdict { cp_loss: None, excluded: Some(Exclusion::Forced) };
    }
    let cp_loss = if played_is_best { 0 } else { quality::value_loss(value, played_value) };
    // The shared rule; |value| is the same from either side's view, so "from White's view" needs
    // no sign flip.
    let excluded = match quality::exclusion(legal_moves, Score::from_internal(value)) {
        Some(quality::Excluded::Forced) => Some(Exclusion::Forced),
        Some(quality::Excluded::Mate) => Some(Exclusion::Mate),
        Some(quality::Excluded::Decided) => Some(Exclusion::Decided),
        None => None,
    };
    Verdict { cp_loss: Some(cp_loss), excluded }
}

/// One analysed ply.
#[derive(Clone, Debug, Serialize)]
pub struct PlyRecord {
    /// 1-based ply number within the game.
    pub ply: usize,
    pub color: &'static str,
    /// The move played (UCI notation).
    pub played: String,
    /// The oracle's preferred move (UCI), when searched.
    pub best: Option<String>,
    /// Value of the position, side to move's view (cp; mate scores in engine convention).
    pub value: Option<i32>,
    /// Value of the played move, side to move's view.
    pub played_value: Option<i32>,
    pub cp_loss: Option<i32>,
    pub eligible: bool,
    pub excluded: Option<Exclusion>,
    pub scaled_error: Option<f64>,
}

/// One side of an analysed game.
#[derive(Clone, Debug, Serialize)]
pub struct SideResult {
    pub color: &'static str,
    pub player: String,
    pub rating: Option<i32>,
    pub analysed: bool,
    pub stats: Option<SideStats>,
    /// Present when the side has ≥ 12 eligible plies.
    pub strength: Option<Strength>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GameAnalysis {
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub plies: Vec<PlyRecord>,
    pub sides: [SideResult; 2],
    /// Per ply, the human move model's view of the move (`game_model::human_scores`); empty
    /// unless the game model asked for it.
    #[serde(skip)]
    pub human_ll: Vec<super::game_model::HumanPly>,
    /// Both sides' likelihood under Maia-3 over the v3 grid (`game_model::maia_reading`); `None`
    /// unless the game model reads it.
    #[serde(skip)]
    pub maia: Option<[super::likelihood::SideLikelihood; 2]>,
}

/// What each analysis uses.
#[derive(Clone, Debug)]
pub struct Settings {
    pub budget: Budget,
    pub pairing: Pairing,
    /// Case-insensitive player name: only that player's sides are analysed.
    pub player: Option<String>,
    /// Also score every move with this shipped version of the human move model (the game model's
    /// features; the version the model was fitted with).
    pub human_model: Option<u32>,
    /// Also read both sides' moves through Maia-3 (estimator v3's features).
    pub maia: bool,
}

/// One game's memo of oracle answers, keyed by (Zobrist key, budget). [`analyse_game`] empties
/// it at the start of every game; the hit and miss counts add up over games.
pub struct EvalMemo {
    map: HashMap<(u64, Budget), Eval>,
    capacity: usize,
    pub hits: u64,
    pub misses: u64,
}

impl EvalMemo {
    /// A memo of at most `capacity` answers (0: no memo).
    pub fn new(capacity: usize) -> EvalMemo {
        EvalMemo { map: HashMap::new(), capacity, hits: 0, misses: 0 }
    }

    fn get(&mut self, key: (u64, Budget)) -> Option<Eval> {
        let r = self.map.get(&key).copied();
        if r.is_some() {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        r
    }

    fn put(&mut self, key: (u64, Budget), e: Eval) {
        if self.map.len() < self.capacity {
            self.map.insert(key, e);
        }
    }
}

/// Per-game worker state: the game's positions and a memo of this game's oracle answers.
struct GameCtx<'a> {
    game: &'a PgnGame,
    positions: Vec<Chess>,
    keys: Vec<u64>,
}

impl GameCtx<'_> {
    /// Value of position `i` (after `i` plies) for its side to move, with the oracle's best move.
    fn eval(&self, oracle: &mut dyn Oracle, cache: &mut EvalMemo, i: usize, budget: Budget) -> Result<Eval, String> {
        let pos = &self.positions[i];
        if pos.is_checkmate() {
            return Ok(Eval { score: -MATE, best: None });
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            return Ok(Eval { score: 0, best: None });
        }
        let key = (self.keys[i], budget);
        if let Some(e) = cache.get(key) {
            return Ok(e);
        }
        let e = oracle.evaluate(&self.game.root, &self.game.moves[..i], budget)?;
        cache.put(key, e);
        Ok(e)
    }
}

fn matches_player(filter: &Option<String>, name: &str) -> bool {
    filter.as_ref().is_none_or(|f| f.eq_ignore_ascii_case(name.trim()))
}

/// Analyses one game with the given oracle, which it first starts afresh ([`Oracle::new_game`]);
/// `cache` is emptied too, so the result depends on the game and the settings only.
pub fn analyse_game(
    oracle: &mut dyn Oracle,
    cache: &mut EvalMemo,
    game: &PgnGame,
    settings: &Settings,
    model: &StrengthModel,
) -> Result<GameAnalysis, String> {
    oracle.new_game()?;
    cache.map.clear();
    let mut positions = Vec::with_capacity(game.moves.len() + 1);
    let mut pos = game.root.clone();
    positions.push(pos.clone());
    for &m in &game.moves {
        pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    let keys = positions.iter().map(zobrist).collect();
    let ctx = GameCtx { game, positions, keys };
    let want = [matches_player(&settings.player, &game.white), matches_player(&settings.player, &game.black)];
    let budget = settings.budget;
    let mut plies = Vec::with_capacity(game.moves.len());
    for (i, &played) in game.moves.iter().enumerate() {
        let pos = &ctx.positions[i];
        let white = pos.turn() == Color::White;
        let side = if white { 0 } else { 1 };
        let mut rec = PlyRecord {
            ply: i + 1,
            color: if white { "white" } else { "black" },
            played: uci(played),
            best: None,
            value: None,
            played_value: None,
            cp_loss: None,
            eligible: false,
            excluded: Some(Exclusion::Skipped),
            scaled_error: None,
        };
        if !want[side] {
            plies.push(rec);
            continue;
        }
        let legal = pos.legal_moves().len();
        if legal <= 1 {
            rec.excluded = Some(Exclusion::Forced);
            plies.push(rec);
            continue;
        }
        let here = ctx.eval(oracle, cache, i, budget)?;
        let played_is_best = here.best == Some(played);
        let played_value = if played_is_best {
            here.score
        } else {
            let child_budget = match settings.pairing {
                Pairing::Exact => budget.child(),
                Pairing::Reuse => budget,
            };
            -ctx.eval(oracle, cache, i + 1, child_budget)?.score
        };
        let v = judge_ply(legal, here.score, played_value, played_is_best);
        rec.best = here.best.map(uci);
        rec.value = Some(here.score);
        rec.played_value = Some(played_value);
        rec.cp_loss = v.cp_loss;
        rec.eligible = v.eligible();
        rec.excluded = v.excluded;
        rec.scaled_error = if v.eligible() { v.cp_loss.map(model::scaled_error) } else { None };
        plies.push(rec);
    }
    let sides = [0usize, 1].map(|s| {
        let white = s == 0;
        let (player, rating) = game.side(white);
        let losses: Vec<i32> =
            plies.iter().filter(|p| p.eligible && (p.color == "white") == white).filter_map(|p| p.cp_loss).collect();
        let stats = model::side_stats(&losses);
        let strength = stats.as_ref().and_then(|st| model::strength(model, st));
        SideResult {
            color: if white { "white" } else { "black" },
            player: player.to_string(),
            rating,
            analysed: want[s],
            stats,
            strength,
        }
    });
    let human_ll = match settings.human_model {
        Some(version) => super::game_model::human_scores(version, &game.root, &game.moves, &plies),
        None => Vec::new(),
    };
    let maia = if settings.maia { super::game_model::maia_reading(&game.root, &game.moves) } else { None };
    Ok(GameAnalysis {
        number: game.number,
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.clone(),
        plies,
        sides,
        human_ll,
        maia,
    })
}

/// Options of a whole-file run.
pub struct RunOptions<'a> {
    pub oracle: &'a OracleChoice,
    pub jobs: usize,
    pub hash_mb: usize,
    pub progress: bool,
    pub cache_entries: usize,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunStats {
    pub games: usize,
    pub plies: usize,
    pub seconds: f64,
    pub plies_per_second: f64,
    pub cache_hits: u64,
    pub cache_misses: u64,
}

/// Analyses `games` on `opts.jobs` threads. Results come back in input order; a game whose
/// analysis failed is returned as a [`GameError`]. Fails only if an oracle cannot be started.
#[allow(clippy::type_complexity)]
pub fn analyse_all(
    games: &[PgnGame],
    settings: &Settings,
    model: &StrengthModel,
    opts: &RunOptions<'_>,
) -> Result<(Vec<Result<GameAnalysis, GameError>>, RunStats), String> {
    let start = std::time::Instant::now();
    let jobs = opts.jobs.max(1).min(games.len().max(1));
    let total_plies: usize = games.iter().map(|g| g.moves.len()).sum();
    let pb = if opts.progress {
        let pb = indicatif::ProgressBar::new(total_plies as u64);
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} plies ({per_sec}, eta {eta}) {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        pb
    } else {
        indicatif::ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let slots: Mutex<Vec<Option<Result<GameAnalysis, GameError>>>> = Mutex::new(vec![None; games.len()]);
    let startup_error: Mutex<Option<String>> = Mutex::new(None);
    let (hits, misses) = (AtomicU64::new(0), AtomicU64::new(0));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let mut oracle = match opts.oracle.build(opts.hash_mb) {
                    Ok(o) => o,
                    Err(e) => {
                        failed.store(true, Ordering::SeqCst);
                        if let Ok(mut se) = startup_error.lock() {
                            se.get_or_insert(e);
                        }
                        return;
                    }
                };
                let mut memo = EvalMemo::new(opts.cache_entries);
                loop {
                    if failed.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games.len() {
                        break;
                    }
                    let g = &games[i];
                    let r = analyse_game(oracle.as_mut(), &mut memo, g, settings, model)
                        .map_err(|message| GameError { number: g.number, message });
                    pb.inc(g.moves.len() as u64);
                    if let Ok(mut v) = slots.lock() {
                        v[i] = Some(r);
                    }
                }
                hits.fetch_add(memo.hits, Ordering::Relaxed);
                misses.fetch_add(memo.misses, Ordering::Relaxed);
            });
        }
    });
    pb.finish_and_clear();
    if let Some(e) = startup_error.into_inner().ok().flatten() {
        return Err(e);
    }
    let results: Vec<Result<GameAnalysis, GameError>> = slots
        .into_inner()
        .map_err(|_| "worker panicked".to_string())?
        .into_iter()
        .zip(games)
        .map(|(r, g)| r.unwrap_or_else(|| Err(GameError { number: g.number, message: "not analysed".to_string() })))
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let stats = RunStats {
        games: games.len(),
        plies: total_plies,
        seconds,
        plies_per_second: if seconds > 0.0 { total_plies as f64 / seconds } else { 0.0 },
        cache_hits: hits.into_inner(),
        cache_misses: misses.into_inner(),
    };
    Ok((results, stats))
}
