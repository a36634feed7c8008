//! `sparring match`: engine-vs-engine matches between any UCI engines, with the command-line
//! habits of cutechess-cli and fastchess.
//!
//! The library entry point is [`run_match`]; [`main`] parses the command line (see
//! `sparring match --help` or [`cli::HELP`]).
//!
//! ## Schedule, colours, seeds
//! A match is `rounds × games` games, numbered from 0 (the *game index*). Engine 1 (the first
//! `-engine`) plays White in even-numbered games and Black in odd ones. Without `-repeat` each
//! game takes the next opening; with `-repeat` games 2k and 2k+1 form a pair on the same opening
//! with colours reversed (and are scored as a pentanomial pair).
//!
//! Every game gets a *match seed* derived from `-srand` and its game index only:
//! `seed = u64_le(blake3::derive_key("sparring match game seed v1", srand_le ‖ index_le)[0..8])`
//! (a zero result is replaced by 1, since `Seed` 0 means "fresh seed" in sparring). It is sent as
//! `setoption name Seed value N` before `ucinewgame` to every engine that declares a `Seed` option,
//! so the same game index gets the same seed whoever plays it. The two games of a `-repeat` pair
//! are different game indices and therefore get *different* seeds: a seeded engine playing both
//! colours of one opening does not repeat its own random choices, and each game can be replayed
//! from its own `Seed` tag in the PGN.

pub mod adjudicate;
pub mod cli;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod report;
pub mod sprt;
pub mod stats;

use adjudicate::{DrawRule, ResignRule, TbAdjudicator};
use engine::EngineConfig;
use game::{EngineSlot, GameRecord, GameResult, GameSettings, Termination};
use openings::{BookFormat, Opening};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::Serialize;
use sprt::{Sprt, SprtDecision};
use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

pub use cli::main;

/// Set by the Ctrl-C handler that [`main`] installs; [`run_match`] stops when it is set.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    Sequential,
    Random,
}

/// Where openings come from.
#[derive(Clone, Debug)]
pub struct OpeningsConfig {
    /// None: the built-in book.
    pub file: Option<PathBuf>,
    pub format: BookFormat,
    pub order: OpeningOrder,
    /// Truncate book lines to this many plies.
    pub plies: Option<usize>,
    /// 1-based index of the first opening used.
    pub start: usize,
}

impl Default for OpeningsConfig {
    fn default() -> Self {
        OpeningsConfig { file: None, format: BookFormat::Epd, order: OpeningOrder::Sequential, plies: None, start: 1 }
    }
}

/// How progress is shown while the match runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A progress bar when stderr is a terminal, plain lines otherwise.
    Auto,
    /// Plain lines on stdout.
    Lines,
    /// Nothing (library use).
    Quiet,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineConfig; 2],
    pub games: usize,
    pub rounds: usize,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: OpeningsConfig,
    pub srand: u64,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub maxmoves: Option<u32>,
    pub tb: Option<String>,
    pub tb_pieces: usize,
    pub pgnout: Option<PathBuf>,
    /// `-pgnout FILE min`: the minimal PGN (roster tags, moves, result; no comments).
    pub pgn_min: bool,
    pub epdout: Option<PathBuf>,
    pub jsonout: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub rating_interval: usize,
    pub recover: bool,
    pub event: String,
    pub progress: ProgressMode,
}

impl MatchConfig {
    /// A config with cutechess defaults for two engines.
    pub fn new(a: EngineConfig, b: EngineConfig) -> MatchConfig {
        MatchConfig {
            engines: [a, b],
            games: 1,
            rounds: 1,
            repeat: false,
            concurrency: 1,
            openings: OpeningsConfig::default(),
            srand: 0,
            draw: None,
            resign: None,
            maxmoves: None,
            tb: None,
            tb_pieces: 0,
            pgnout: None,
            pgn_min: false,
            epdout: None,
            jsonout: None,
            sprt: None,
            rating_interval: 10,
            recover: false,
            event: "sparring match".into(),
            progress: ProgressMode::Quiet,
        }
    }

    pub fn total_games(&self) -> usize {
        self.games * self.rounds
    }
}

/// The per-game match seed (see the module documentation).
pub fn game_seed(srand: u64, index: usize) -> u64 {
    let mut material = [0u8; 16];
    material[..8].copy_from_slice(&srand.to_le_bytes());
    material[8..].copy_from_slice(&(index as u64).to_le_bytes());
    let key = blake3::derive_key("sparring match game seed v1", &material);
    // 1..=2^31-1, so that the value fits every GUI's and engine's 32-bit `Seed` spin option.
    let s = u64::from_le_bytes(key[..8].try_into().expect("8 bytes"));
    s % 2_147_483_647 + 1
}

/// A short record of one game, for the JSON summary.
#[derive(Clone, Debug, Serialize)]
pub struct GameBrief {
    pub index: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub termination: String,
    pub reason: String,
    pub plies: usize,
    pub seed: u64,
}

/// W/D/L counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
    fn add(&mut self, score: f64) {
        if score == 1.0 {
            self.wins += 1;
        } else if score == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct SprtState {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: sprt::SprtModel,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// "continue", "H0 accepted" or "H1 accepted".
    pub decision: String,
}

/// The result of a match, from the first engine's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    pub engines: [String; 2],
    pub time_controls: [String; 2],
    pub srand: u64,
    pub games_planned: usize,
    pub games_played: usize,
    /// Engine 1's results (W/D/L against engine 2).
    pub result: Wdl,
    /// Engine 1's results with White and with Black.
    pub as_white: Wdl,
    pub as_black: Wdl,
    /// Results by colour: "wins" = White wins.
    pub white_black: Wdl,
    pub score: f64,
    pub draw_ratio: f64,
    pub elo: stats::EloEstimate,
    pub nelo: stats::EloEstimate,
    pub los: f64,
    /// Pentanomial pair counts [LL, LD, DD+WL, WD, WW] (with -repeat).
    pub pentanomial: Option<[u64; 5]>,
    pub pentanomial_elo: Option<stats::EloEstimate>,
    /// Engine 1's score from the pairs, with its 95 % interval (with -repeat, two pairs or more).
    pub pentanomial_score: Option<stats::ScoreInterval>,
    pub sprt: Option<SprtState>,
    /// Count of games by PGN Termination value.
    pub terminations: BTreeMap<String, u64>,
    /// Faults (losses by illegal move, time forfeit, crash, hang, failed start) per engine.
    pub faults: [u64; 2],
    /// Why the match stopped early, if it did.
    pub stopped: Option<String>,
    pub games: Vec<GameBrief>,
}

impl MatchSummary {
    /// Did the match stop early for an engine's fault (a crash or failed start without
    /// `-recover`)? `sparring match` then exits with status 3.
    pub fn stopped_by_fault(&self) -> bool {
        self.stopped.as_deref().is_some_and(|s| s != "interrupted" && !s.starts_with("SPRT"))
    }
}

struct Tally {
    result: Wdl,
    as_white: Wdl,
    as_black: Wdl,
    white_black: Wdl,
    penta: [u64; 5],
    pairs_open: HashMap<usize, f64>,
    terminations: BTreeMap<String, u64>,
    faults: [u64; 2],
    games: Vec<GameBrief>,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            result: Wdl::default(),
            as_white: Wdl::default(),
            as_black: Wdl::default(),
            white_black: Wdl::default(),
            penta: [0; 5],
            pairs_open: HashMap::new(),
            terminations: BTreeMap::new(),
            faults: [0; 2],
            games: Vec::new(),
        }
    }

    fn add(&mut self, g: &GameRecord, repeat: bool) {
        let s = g.score_of(0).expect("finished game");
        self.result.add(s);
        if g.white_engine == 0 {
            self.as_white.add(s);
        } else {
            self.as_black.add(s);
        }
        self.white_black.add(match g.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        });
        if repeat {
            let pair = g.index / 2;
            if let Some(first) = self.pairs_open.remove(&pair) {
                self.penta[((first + s) * 2.0).round() as usize] += 1;
            } else {
                self.pairs_open.insert(pair, s);
            }
        }
        *self.terminations.entry(g.termination.tag().to_string()).or_default() += 1;
        if !matches!(g.termination, Termination::Normal | Termination::Adjudication) {
            // The side that lost is the faulty one.
            let loser_white = g.result == GameResult::BlackWins;
            let loser = if loser_white { g.white_engine } else { 1 - g.white_engine };
            self.faults[loser] += 1;
        }
        self.games.push(GameBrief {
            index: g.index,
            white: g.white.clone(),
            black: g.black.clone(),
            result: g.result.pgn().to_string(),
            termination: g.termination.tag().to_string(),
            reason: g.reason.clone(),
            plies: g.moves.len(),
            seed: g.seed,
        });
    }

    fn summary(&self, cfg: &MatchConfig, stopped: Option<String>) -> MatchSummary {
        let r = self.result;
        let n = r.games();
        let pent = cfg.repeat.then_some(self.penta);
        let sprt = cfg.sprt.map(|s| {
            // No decision before two different outcomes are seen (the variance is defined then).
            let (llr, decision) = match pent {
                Some(p) => s.decide_pentanomial(&p),
                None => s.decide_trinomial(r.wins, r.draws, r.losses),
            };
            let (lo, hi) = s.bounds();
            SprtState {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                model: s.model,
                llr,
                lower_bound: lo,
                upper_bound: hi,
                decision: match decision {
                    SprtDecision::Continue => "continue",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::AcceptH1 => "H1 accepted",
                }
                .into(),
            }
        });
        let mut games = self.games.clone();
        games.sort_by_key(|g| g.index);
        MatchSummary {
            engines: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
            time_controls: [cfg.engines[0].tc.describe(), cfg.engines[1].tc.describe()],
            srand: cfg.srand,
            games_planned: cfg.total_games(),
            games_played: n as usize,
            result: r,
            as_white: self.as_white,
            as_black: self.as_black,
            white_black: self.white_black,
            score: if n > 0 { r.points() / n as f64 } else { 0.0 },
            draw_ratio: if n > 0 { r.draws as f64 / n as f64 } else { 0.0 },
            elo: stats::trinomial_elo(r.wins, r.draws, r.losses),
            nelo: match pent {
                Some(p) if p.iter().sum::<u64>() > 0 => stats::pentanomial_nelo(&p),
                _ => stats::trinomial_nelo(r.wins, r.draws, r.losses),
            },
            los: stats::los(r.wins, r.losses),
            pentanomial: pent,
            pentanomial_elo: pent.map(|p| stats::pentanomial_elo(&p)),
            pentanomial_score: pent.and_then(|p| stats::pentanomial_score(&p)),
            sprt,
            terminations: self.terminations.clone(),
            faults: self.faults,
            stopped,
            games,
        }
    }
}

/// Loads the openings a config asks for, in the order they will be used.
pub fn load_openings(cfg: &MatchConfig) -> Result<Vec<Opening>, String> {
    let mut book = match &cfg.openings.file {
        Some(f) => openings::load(f, cfg.openings.format, cfg.openings.plies)?,
        None => {
            let mut b = openings::builtin();
            if let Some(p) = cfg.openings.plies {
                for o in &mut b {
                    o.moves.truncate(p);
                }
            }
            b
        }
    };
    if cfg.openings.order == OpeningOrder::Random {
        let mut rng =
            ChaCha20Rng::from_seed(blake3::derive_key("sparring match opening order v1", &cfg.srand.to_le_bytes()));
        for i in (1..book.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            book.swap(i, j);
        }
    }
    let start = cfg.openings.start.max(1) - 1;
    let n = book.len();
    book.rotate_left(start % n);
    Ok(book)
}

fn validate(cfg: &MatchConfig) -> Result<(), String> {
    for e in &cfg.engines {
        if e.cmd.is_empty() {
            return Err(format!("engine '{}' has no cmd=", e.name));
        }
        if !e.tc.is_limited() {
            return Err(format!("engine '{}' has no time control: give tc=, st=, nodes= or depth=", e.name));
        }
    }
    if cfg.total_games() == 0 {
        return Err("nothing to play: -games and -rounds must be at least 1".into());
    }
    Ok(())
}

/// Runs a match and returns its summary. Output files (PGN, EPD, JSON) are written as the
/// config says; progress is shown according to `config.progress`.
pub fn run_match(config: MatchConfig) -> Result<MatchSummary, String> {
    validate(&config)?;
    let book = Arc::new(load_openings(&config)?);
    let tb = match &config.tb {
        Some(p) => Some(Arc::new(TbAdjudicator::open(p, config.tb_pieces)?)),
        None => None,
    };
    let settings = GameSettings { draw: config.draw, resign: config.resign, maxmoves: config.maxmoves, tb };
    let open_out = |p: &Option<PathBuf>| -> Result<Option<std::fs::File>, String> {
        p.as_ref()
            .map(|p| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("cannot open {}: {e}", p.display()))
            })
            .transpose()
    };
    let pgn_file = open_out(&config.pgnout)?;
    let epd_file = open_out(&config.epdout)?;

    let total = config.total_games();
    let jobs: Vec<Vec<usize>> = if config.repeat {
        (0..total.div_ceil(2)).map(|k| (2 * k..(2 * k + 2).min(total)).collect()).collect()
    } else {
        (0..total).map(|g| vec![g]).collect()
    };
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let halt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let workers = config.concurrency.clamp(1, jobs.len());
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (jobs, next, halt, tx, book, settings) =
            (jobs.clone(), next.clone(), halt.clone(), tx.clone(), book.clone(), settings.clone());
        let engines = config.engines.clone();
        let (repeat, srand, recover) = (config.repeat, config.srand, config.recover);
        handles.push(std::thread::spawn(move || {
            let [a, b] = engines;
            let mut slots = [EngineSlot::new(a), EngineSlot::new(b)];
            loop {
                let j = next.fetch_add(1, Ordering::SeqCst);
                if j >= jobs.len() || halt.load(Ordering::SeqCst) {
                    break;
                }
                for &g in &jobs[j] {
                    if halt.load(Ordering::SeqCst) {
                        break;
                    }
                    let o = if repeat { g / 2 } else { g };
                    let opening = &book[o % book.len()];
                    let spec = game::GameSpec {
                        white_engine: g % 2,
                        opening,
                        seed: game_seed(srand, g),
                        index: g,
                        round: o + 1,
                    };
                    let rec = game::play_game(&mut slots, &spec, &settings, &halt);
                    // A crash without -recover stops the match here, before this worker can start
                    // another game (the collector would raise `halt` too, but only once it has
                    // been scheduled, and a loaded machine may let a second game finish first).
                    if rec.crashed.is_some() && !recover {
                        halt.store(true, Ordering::SeqCst);
                    }
                    if tx.send(rec).is_err() {
                        break;
                    }
                }
            }
            for s in &mut slots {
                s.shutdown();
            }
        }));
    }
    drop(tx);

    let (tally, stopped, mut progress) = collect(&config, &rx, &halt, [pgn_file, epd_file]);
    for h in handles {
        let _ = h.join();
    }
    let summary = tally.summary(&config, stopped);
    progress.finish(&summary);
    if let Some(p) = &config.jsonout {
        let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
        std::fs::write(p, text + "\n").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    Ok(summary)
}

/// Receives the finished games and counts them **in game order** (a game that ends before an
/// earlier one waits for it), so that the tally after each game, and therefore where an SPRT stops
/// and what it reports, is the same at any `-concurrency`: tallies them, writes them to the PGN and
/// EPD files (`[pgn, epd]`), reports progress, and raises `halt` on Ctrl-C, a crash without
/// `-recover` or an SPRT decision. Games that end after the stop are not counted (nor written):
/// the summary is the one the stop was decided on. Returns the tally, why the match stopped early
/// (if it did) and the progress display, which the caller finishes once the workers are done.
fn collect(
    config: &MatchConfig,
    rx: &mpsc::Receiver<GameRecord>,
    halt: &AtomicBool,
    [mut pgn_file, mut epd_file]: [Option<std::fs::File>; 2],
) -> (Tally, Option<String>, report::Progress) {
    let mut progress = report::Progress::new(config);
    let mut tally = Tally::new();
    let mut stopped: Option<String> = None;
    let date = pgn::pgn_date();
    let mut finished = 0usize;
    // Games that ended before an earlier one (None: a game left unfinished by a halt).
    let mut waiting: BTreeMap<usize, Option<GameRecord>> = BTreeMap::new();
    let mut next = 0usize;
    // Counts one game unless the match has stopped; decides whether it stops now.
    let mut count = |rec: GameRecord, stopped: &mut Option<String>| {
        if stopped.is_some() {
            return;
        }
        finished += 1;
        tally.add(&rec, config.repeat);
        if let Some(f) = pgn_file.as_mut() {
            let _ = f.write_all(pgn::format_game_as(&rec, &config.event, &date, config.pgn_min).as_bytes());
            let _ = f.flush();
        }
        if let Some(f) = epd_file.as_mut() {
            let _ = f.write_all(pgn::format_epd(&rec).as_bytes());
        }
        let summary = tally.summary(config, None);
        progress.game_finished(&rec, &summary, finished);
        if let (Some(e), false) = (rec.crashed, config.recover) {
            *stopped = Some(format!(
                "engine '{}' crashed or failed to start ({}); use -recover to keep playing",
                config.engines[e].name, rec.reason
            ));
            halt.store(true, Ordering::SeqCst);
        } else if let Some(s) = &summary.sprt
            && s.decision != "continue"
        {
            *stopped = Some(format!("SPRT: {}", s.decision));
            halt.store(true, Ordering::SeqCst);
        }
    };
    loop {
        if INTERRUPTED.load(Ordering::SeqCst) && stopped.is_none() {
            stopped = Some("interrupted".into());
            halt.store(true, Ordering::SeqCst);
        }
        let rec = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(r) => r,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let index = rec.index;
        waiting.insert(index, (rec.result != GameResult::Unfinished).then_some(rec));
        while let Some(entry) = waiting.remove(&next) {
            next += 1;
            if let Some(rec) = entry {
                count(rec, &mut stopped);
            }
        }
    }
    // A halt leaves games unstarted: the ones after such a gap, in order.
    for rec in std::mem::take(&mut waiting).into_values().flatten() {
        count(rec, &mut stopped);
    }
    (tally, stopped, progress)
}

/// Picks a random `-srand` when none is given (time and process id, hashed).
pub fn fresh_srand() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let mut h = blake3::Hasher::new();
    h.update(&t.to_le_bytes());
    h.update(&std::process::id().to_le_bytes());
    u64::from_le_bytes(h.finalize().as_bytes()[..8].try_into().expect("8 bytes"))
}

/// Whether stderr is a terminal (for the progress bar).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}
