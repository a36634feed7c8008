//! The oracles: whatever tells the tools how good a position, or every move of it, is for the side
//! to move. One choice type ([`OracleChoice`], `internal` or a UCI command line) and one
//! implementation of each kind, used by `sparring strength` (one value per position, `evaluate`)
//! and by `sparring humanlike` / `strength ipr` (every legal move scored, `score_all`, cached in
//! JSON-lines files by [`run`]).
//!
//! [`InternalOracle`] is the engine's own search (one `Searcher` per worker); [`UciOracle`] any
//! UCI engine on `common::process`. Values are internal scores (`sparring::score`: centipawns from
//! the side to move's view, mates beyond `±MATE_BOUND`); all-moves tables hold [`Score`]s.

use super::process::{EngineProcess, Fault, Spawn};
use super::scored::{OracleMove, OraclePosition, SampledPosition, append_jsonl, cached_keys, open_append};
use crate::common::info::Info;
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};
use sparring::board::{Game, notation, parse_fen};
use sparring::score::{Score, from_mate_moves};
use sparring::search::{Limits, Searcher};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Which oracle to use, as given on the command line: `internal` (any case) or a UCI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleChoice {
    /// The engine's own full search.
    Internal,
    /// A UCI engine command line (program, then arguments).
    Uci(String),
}

impl OracleChoice {
    pub fn parse(s: &str) -> OracleChoice {
        if s.trim().eq_ignore_ascii_case("internal") {
            OracleChoice::Internal
        } else {
            OracleChoice::Uci(s.trim().to_string())
        }
    }

    /// The identifier written into calibration models and shown in messages: `internal` or the
    /// command.
    pub fn id(&self) -> String {
        match self {
            OracleChoice::Internal => "internal".to_string(),
            OracleChoice::Uci(c) => c.clone(),
        }
    }

    /// A one-value-per-position oracle (`strength`): the internal search with `hash_mb`, or the
    /// UCI engine with `Hash` = `hash_mb` and `Threads` = 1.
    pub fn build(&self, hash_mb: usize) -> Result<Box<dyn Oracle>, String> {
        Ok(match self {
            OracleChoice::Internal => Box::new(InternalOracle::new(hash_mb)),
            OracleChoice::Uci(cmd) => Box::new(UciOracle::spawn(cmd, hash_mb)?),
        })
    }
}

/// How much one oracle query may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Fixed search depth in plies.
    Depth(i32),
    /// Fixed node count.
    Nodes(u64),
}

impl Budget {
    /// The budget for the position after a move, so that the move is searched as deeply as the
    /// root moves of a `self` search (depth − 1; a node budget stays as it is).
    pub fn child(self) -> Budget {
        match self {
            Budget::Depth(d) => Budget::Depth((d - 1).max(1)),
            Budget::Nodes(n) => Budget::Nodes(n),
        }
    }

    pub fn describe(self) -> String {
        match self {
            Budget::Depth(d) => format!("depth {d}"),
            Budget::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// One oracle answer: value for the side to move and the move the oracle prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: i32,
    pub best: Option<Move>,
}

/// Anything that can value positions. Implementations must be usable from one worker thread.
pub trait Oracle: Send {
    /// Short description for reports and the calibration check (e.g. `internal`, `stockfish`).
    fn name(&self) -> String;

    /// Values the position reached from `root` by `moves` (history given so that repetitions
    /// count). The position is never checkmate or stalemate: callers handle terminal positions.
    fn evaluate(&mut self, root: &Chess, moves: &[Move], budget: Budget) -> Result<Eval, String>;

    /// Forgets everything learnt from earlier positions (hash table, history), so that the
    /// answers for one game do not depend on which games this oracle saw before it.
    fn new_game(&mut self) -> Result<(), String>;
}

/// A short fingerprint of the internal search and evaluation: a hash of the node counts, scores
/// and best moves of fixed-depth searches of a few fixed positions. A model fitted with the
/// internal oracle and every entry of an all-moves cache record it, so a later change to the
/// engine (which shifts every cpLoss) is noticed. Computed once per process.
pub fn internal_fingerprint() -> String {
    static FINGERPRINT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FINGERPRINT.get_or_init(compute_fingerprint).clone()
}

fn compute_fingerprint() -> String {
    const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
    ];
    let mut h = blake3::Hasher::new();
    for fen in FENS {
        let Ok(pos) = fen
            .parse::<Fen>()
            .map_err(|_| ())
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).map_err(|_| ()))
        else {
            continue;
        };
        let mut s = Searcher::new(1);
        let r = s.analyse(&Game::new(pos), &Limits { depth: Some(5), ..Default::default() });
        let best = r.best.map(notation::uci).unwrap_or_default();
        h.update(format!("{} {} {best};", r.nodes, r.score).as_bytes());
    }
    h.finalize().to_hex()[..16].to_string()
}

/// The engine's own search.
pub struct InternalOracle {
    searcher: Searcher,
}

impl InternalOracle {
    pub fn new(hash_mb: usize) -> InternalOracle {
        InternalOracle { searcher: Searcher::new(hash_mb) }
    }
}

impl Oracle for InternalOracle {
    fn name(&self) -> String {
        "internal".to_string()
    }

    fn evaluate(&mut self, root: &Chess, moves: &[Move], budget: Budget) -> Result<Eval, String> {
        let game = Game::with_moves(root.clone(), moves);
        let limits = match budget {
            Budget::Depth(d) => Limits { depth: Some(d), ..Default::default() },
            Budget::Nodes(n) => Limits { nodes: Some(n), ..Default::default() },
        };
        let r = self.searcher.analyse(&game, &limits);
        Ok(Eval { score: r.score, best: r.best })
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.searcher.clear();
        Ok(())
    }
}

impl InternalOracle {
    /// Every legal move of `pos` scored exactly at `depth` (MultiPV = all), from a cleared table,
    /// best first (ties by move text).
    pub fn score_all(&mut self, pos: &Chess, depth: i32) -> Result<Vec<OracleMove>, String> {
        self.searcher.clear();
        let limits = Limits { depth: Some(depth), multipv: usize::MAX, ..Default::default() };
        let r = self.searcher.analyse(&Game::new(pos.clone()), &limits);
        let mut moves: Vec<OracleMove> = r
            .root_moves
            .iter()
            .map(|rm| OracleMove { uci: notation::uci(rm.mv), score: Score::from_internal(rm.score) })
            .collect();
        let legal = pos.legal_moves().len();
        if moves.len() != legal {
            return Err(format!(
                "internal oracle scored {} of {} legal moves in {}",
                moves.len(),
                legal,
                notation::fen(pos)
            ));
        }
        moves.sort_by_key(|m| (std::cmp::Reverse(m.score.order_value()), m.uci.clone()));
        Ok(moves)
    }
}

/// A UCI engine subprocess.
pub struct UciOracle {
    engine: EngineProcess,
    command: String,
    /// How long the engine may stay silent (per line) before it counts as dead.
    timeout: Duration,
}

/// How long the one-value oracle may stay silent before it counts as dead.
const ORACLE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the all-moves oracle may think about one position (deep MultiPV searches) before it
/// counts as hung.
const ALL_MOVES_TIMEOUT: Duration = Duration::from_secs(3600);

impl UciOracle {
    /// Starts `command` (split on whitespace: program then arguments), runs the handshake, sets
    /// `options` and waits for `readyok`. Every read waits at most `timeout` for a line.
    pub fn start(command: &str, options: &[(String, String)], timeout: Duration) -> Result<UciOracle, String> {
        let spec = Spawn::from_command_line(command)?;
        let engine = EngineProcess::start(&spec, timeout, None).map_err(|f| match f {
            Fault::FailedStart(m) if m.starts_with("cannot run") => {
                format!("cannot start UCI engine '{command}': {}", m.split_once(": ").map_or(&*m, |x| x.1))
            }
            f => format!("UCI engine '{command}': {f}"),
        })?;
        let mut o = UciOracle { engine, command: command.to_string(), timeout };
        let timeout = o.timeout;
        o.engine.configure(options, timeout, None).map_err(|f| o.error(f))?;
        Ok(o)
    }

    /// The one-value oracle of `strength`: `Hash` = `hash_mb`, `Threads` = 1, `ucinewgame`.
    pub fn spawn(command: &str, hash_mb: usize) -> Result<UciOracle, String> {
        let opts = [("Hash".to_string(), hash_mb.to_string()), ("Threads".to_string(), "1".to_string())];
        let mut o = UciOracle::start(command, &opts, ORACLE_TIMEOUT)?;
        o.engine.send("ucinewgame").map_err(|f| o.error(f))?;
        o.sync()?;
        Ok(o)
    }

    /// The all-moves oracle of `humanlike` and `strength ipr`: `MultiPV 500`.
    pub fn all_moves(command: &str) -> Result<UciOracle, String> {
        UciOracle::start(command, &[("MultiPV".to_string(), "500".to_string())], ALL_MOVES_TIMEOUT)
    }

    /// The engine's `id name`, if it sent one.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine.id_name.as_deref()
    }

    /// The engine's `id name`, or its command when it sent none.
    pub fn name_or_command(&self) -> &str {
        self.engine.name()
    }

    fn error(&self, f: Fault) -> String {
        match f {
            Fault::Stalled(_) => format!("UCI engine '{}' sent nothing for {} s", self.command, self.timeout.as_secs()),
            Fault::Crashed(m) if m.starts_with("engine exited") => {
                format!("UCI engine '{}' closed its output", self.command)
            }
            f => format!("UCI engine '{}': {f}", self.command),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.engine.send(line).map_err(|f| self.error(f))
    }

    fn recv(&mut self) -> Result<String, String> {
        let line = self.engine.recv_timeout(self.timeout);
        line.map_err(|f| self.error(f))
    }

    fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        while self.recv()?.trim() != "readyok" {}
        Ok(())
    }

    /// MultiPV analysis at a fixed depth after `ucinewgame`: every root move's score at the
    /// deepest depth reported with exact (not bound) scores, as the engine wrote the moves, best
    /// first. Requires `MultiPV` set large ([`UciOracle::all_moves`]).
    pub fn analyse(&mut self, fen: &str, depth: i32) -> Result<Vec<(String, Score)>, String> {
        use std::collections::HashMap;
        self.send("ucinewgame")?;
        self.sync()?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go depth {depth}"))?;
        // depth -> move -> score
        let mut by_depth: HashMap<u32, HashMap<String, Score>> = HashMap::new();
        loop {
            let line = self.recv()?;
            if line.split_whitespace().next() == Some("bestmove") {
                break;
            }
            let Some(info) = Info::parse(&line) else { continue };
            if let (Some(d), Some(s), Some(m)) = (info.depth, info.exact_score(), info.first_move()) {
                by_depth.entry(d).or_default().insert(m.to_string(), s);
            }
        }
        let deepest = by_depth.keys().copied().max().ok_or("engine reported no scored pv")?;
        let mut out: Vec<(String, Score)> = by_depth.remove(&deepest).unwrap_or_default().into_iter().collect();
        out.sort_by_key(|(m, s)| (std::cmp::Reverse(s.order_value()), m.clone()));
        Ok(out)
    }

    /// Every legal move of the position scored at `depth` ([`Self::analyse`]), moves in standard
    /// UCI text, best first.
    pub fn score_all(&mut self, pos: &Chess, depth: i32) -> Result<Vec<OracleMove>, String> {
        let fen = notation::fen(pos);
        let scored = self.analyse(&fen, depth)?;
        let mut moves = Vec::with_capacity(scored.len());
        for (text, score) in scored {
            let m = notation::parse_uci(pos, &text)?;
            moves.push(OracleMove { uci: notation::uci(m), score });
        }
        let legal = pos.legal_moves().len();
        if moves.len() != legal {
            return Err(format!("UCI oracle scored {} of {} legal moves in {fen}", moves.len(), legal));
        }
        Ok(moves)
    }
}

/// The score of an `info` line as an internal score: `Some` for an exact (non-bound) `score cp|mate`
/// of the first PV (no `multipv` or `multipv 1`).
pub fn parse_info_score(line: &str) -> Option<i32> {
    let info = Info::parse(line)?;
    if info.multipv.is_some_and(|n| n != 1) {
        return None;
    }
    match info.exact_score()? {
        Score::Cp(v) => Some(v),
        Score::Mate(n) => Some(from_mate_moves(n)),
    }
}

impl Oracle for UciOracle {
    fn name(&self) -> String {
        self.command.clone()
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.sync()
    }

    fn evaluate(&mut self, root: &Chess, moves: &[Move], budget: Budget) -> Result<Eval, String> {
        let mut cmd = format!("position fen {}", notation::fen(root));
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&notation::uci_line(moves));
        }
        let go = match budget {
            Budget::Depth(d) => format!("go depth {d}"),
            Budget::Nodes(n) => format!("go nodes {n}"),
        };
        self.engine.send_lines(&[&cmd, &go]).map_err(|f| self.error(f))?;
        let mut score = None;
        loop {
            let line = self.recv()?;
            if let Some(s) = parse_info_score(&line) {
                score = Some(s);
            }
            if let Some(rest) = line.trim().strip_prefix("bestmove") {
                let best_str = rest.split_whitespace().next().unwrap_or("(none)");
                let mut pos = root.clone();
                for &m in moves {
                    pos.play_unchecked(m);
                }
                let best = notation::parse_uci(&pos, best_str).ok();
                let score =
                    score.ok_or_else(|| format!("UCI engine '{}' sent bestmove without a score", self.command))?;
                return Ok(Eval { score, best });
            }
        }
    }
}

/// Scores one sampled position with the internal search at `depth`: every legal move, exact.
pub fn score_internal(
    oracle: &mut InternalOracle,
    pos: &SampledPosition,
    depth: i32,
) -> Result<OraclePosition, String> {
    let chess = parse_fen(&pos.fen)?;
    let moves = oracle.score_all(&chess, depth)?;
    Ok(OraclePosition {
        pos: pos.clone(),
        oracle: "internal".into(),
        search: Some(internal_fingerprint()),
        depth,
        moves,
    })
}

/// Scores one sampled position with a UCI engine ([`UciOracle::all_moves`]).
pub fn score_uci(oracle: &mut UciOracle, pos: &SampledPosition, depth: i32) -> Result<OraclePosition, String> {
    let chess = parse_fen(&pos.fen)?;
    let moves = oracle.score_all(&chess, depth)?;
    Ok(OraclePosition { pos: pos.clone(), oracle: oracle.name_or_command().to_string(), search: None, depth, moves })
}

/// Scores every position of `positions` that `out` does not hold yet, appending as it goes.
/// `jobs` workers take positions in turn; the file order is completion order (readers sort).
pub fn run(
    positions: &[SampledPosition],
    out: &Path,
    depth: i32,
    kind: &OracleChoice,
    jobs: usize,
) -> Result<(), String> {
    if *kind == OracleChoice::Internal && out.exists() {
        // Extending a cache of another search would mix two judges in one file.
        let old: Vec<OraclePosition> = super::scored::read_jsonl(out)?;
        if let Some(why) = super::scored::stale_internal(&old) {
            return Err(format!("{}: {why}", out.display()));
        }
    }
    let done = cached_keys(out)?;
    let todo: Vec<&SampledPosition> = positions.iter().filter(|p| !done.contains(&p.key())).collect();
    eprintln!(
        "oracle {} depth {depth}: {} positions, {} cached, {} to score, {} job(s)",
        kind.id(),
        positions.len(),
        positions.len() - todo.len(),
        todo.len(),
        jobs
    );
    if todo.is_empty() {
        return Ok(());
    }
    let mut file = open_append(out)?;
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<Result<OraclePosition, String>>();
    std::thread::scope(|s| -> Result<(), String> {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (next, todo) = (&next, &todo);
            s.spawn(move || {
                let mut internal = None;
                let mut uci = None;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(p) = todo.get(i) else { break };
                    let r = match kind {
                        OracleChoice::Internal => {
                            let oracle = internal.get_or_insert_with(|| InternalOracle::new(64));
                            score_internal(oracle, p, depth)
                        }
                        OracleChoice::Uci(cmd) => {
                            if uci.is_none() {
                                match UciOracle::all_moves(cmd) {
                                    Ok(e) => uci = Some(e),
                                    Err(e) => {
                                        let _ = tx.send(Err(e));
                                        break;
                                    }
                                }
                            }
                            score_uci(uci.as_mut().expect("started"), p, depth)
                        }
                    };
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut n = 0usize;
        for r in rx {
            let rec = r?;
            append_jsonl(&mut file, &rec)?;
            n += 1;
            if n.is_multiple_of(100) || n == todo.len() {
                let el = start.elapsed().as_secs_f64();
                let eta = el / n as f64 * (todo.len() - n) as f64;
                eprintln!("  {n}/{} scored, {:.1}s, {:.3}s/pos, eta {:.0}s", todo.len(), el, el / n as f64, eta);
            }
        }
        Ok(())
    })?;
    Ok(())
}
