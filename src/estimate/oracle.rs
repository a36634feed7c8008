//! The oracle: whatever tells the estimator how good a position is for the side to move.
//!
//! Two implementations: the engine's own search ([`InternalOracle`], one `Searcher` per worker,
//! reused for every query so its transposition table stays warm), and any UCI engine driven over
//! a pipe ([`UciOracle`]). Scores use the engine's convention: centipawns from the side to move's
//! point of view, mate scores beyond `±MATE_BOUND`.

use crate::board::Game;
use crate::search::{Limits, MATE, MATE_BOUND, Searcher};
use crate::uci::client::UciClient;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen, uci::UciMove};
use std::time::Duration;

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

/// True for a mate score.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// A score converted to centipawns for loss arithmetic: mate scores become ±10 000.
pub fn score_as_cp(score: i32) -> i32 {
    if score > MATE_BOUND {
        10_000
    } else if score < -MATE_BOUND {
        -10_000
    } else {
        score
    }
}

/// Converts a UCI `score mate N` (moves, signed) to the engine's mate-score convention.
pub fn mate_score_from_moves(n: i32) -> i32 {
    if n > 0 { MATE - (2 * n - 1) } else { -MATE + 2 * (-n) }
}

/// Anything that can value positions. Implementations must be usable from one worker thread.
pub trait Oracle: Send {
    /// Short description for reports and the calibration check (e.g. `internal`, `stockfish`).
    fn name(&self) -> String;

    /// Values the position reached from `root` by `moves` (history given so that repetitions
    /// count). The position is never checkmate or stalemate: callers handle terminal positions.
    fn evaluate(&mut self, root: &Chess, moves: &[Move], budget: Budget) -> Result<Eval, String>;
}

/// A short fingerprint of the internal search and evaluation: a hash of the node counts, scores
/// and best moves of fixed-depth searches of a few fixed positions. A model fitted with the
/// internal oracle records it, so a later change to the engine (which shifts every cpLoss) is
/// noticed.
pub fn internal_fingerprint() -> String {
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
        let best = r.best.map(|m| m.to_uci(CastlingMode::Standard).to_string()).unwrap_or_default();
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
}

/// A UCI engine subprocess.
pub struct UciOracle {
    client: UciClient,
}

/// How long the outside oracle may stay silent before it counts as dead.
const ORACLE_TIMEOUT: Duration = Duration::from_secs(30);

impl UciOracle {
    /// Starts `command` (split on whitespace: program then arguments), performs the UCI handshake,
    /// sets `Hash` and `Threads` = 1.
    pub fn spawn(command: &str, hash_mb: usize) -> Result<UciOracle, String> {
        let mut client = UciClient::spawn(command, ORACLE_TIMEOUT)?;
        client.set_option("Hash", &hash_mb.to_string())?;
        client.set_option("Threads", "1")?;
        client.send("ucinewgame")?;
        client.sync()?;
        Ok(UciOracle { client })
    }

    /// The engine's `id name`, if it sent one.
    pub fn engine_name(&self) -> Option<&str> {
        self.client.name()
    }
}

/// Parses the score of an `info` line: `Some(score)` for an exact (non-bound) `score cp|mate`.
pub fn parse_info_score(line: &str) -> Option<i32> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.first() != Some(&"info") {
        return None;
    }
    // Only the first PV counts when an engine runs MultiPV.
    if let Some(i) = toks.iter().position(|&t| t == "multipv")
        && toks.get(i + 1) != Some(&"1")
    {
        return None;
    }
    if toks.iter().any(|&t| t == "lowerbound" || t == "upperbound") {
        return None;
    }
    let i = toks.iter().position(|&t| t == "score")?;
    let v: i32 = toks.get(i + 2)?.parse().ok()?;
    match *toks.get(i + 1)? {
        "cp" => Some(v),
        "mate" => Some(mate_score_from_moves(v)),
        _ => None,
    }
}

impl Oracle for UciOracle {
    fn name(&self) -> String {
        self.client.command().to_string()
    }

    fn evaluate(&mut self, root: &Chess, moves: &[Move], budget: Budget) -> Result<Eval, String> {
        let fen = Fen::from_position(root, EnPassantMode::Legal);
        let mut cmd = format!("position fen {fen}");
        if !moves.is_empty() {
            cmd.push_str(" moves");
            for m in moves {
                cmd.push(' ');
                cmd.push_str(&m.to_uci(CastlingMode::Standard).to_string());
            }
        }
        self.client.send(&cmd)?;
        match budget {
            Budget::Depth(d) => self.client.send(&format!("go depth {d}"))?,
            Budget::Nodes(n) => self.client.send(&format!("go nodes {n}"))?,
        }
        let mut score = None;
        loop {
            let line = self.client.recv()?;
            if let Some(s) = parse_info_score(&line) {
                score = Some(s);
            }
            if let Some(rest) = line.trim().strip_prefix("bestmove") {
                let best_str = rest.split_whitespace().next().unwrap_or("(none)");
                let best = match best_str.parse::<UciMove>() {
                    Ok(u) => {
                        let mut pos = root.clone();
                        for &m in moves {
                            pos.play_unchecked(m);
                        }
                        u.to_move(&pos).ok()
                    }
                    Err(_) => None,
                };
                let score = score
                    .ok_or_else(|| format!("UCI engine '{}' sent bestmove without a score", self.client.command()))?;
                return Ok(Eval { score, best });
            }
        }
    }
}

/// Which oracle to build, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleSpec {
    Internal,
    Uci(String),
}

impl OracleSpec {
    pub fn parse(s: &str) -> OracleSpec {
        if s.trim().eq_ignore_ascii_case("internal") {
            OracleSpec::Internal
        } else {
            OracleSpec::Uci(s.trim().to_string())
        }
    }

    /// The identifier written into the calibration model.
    pub fn id(&self) -> String {
        match self {
            OracleSpec::Internal => "internal".to_string(),
            OracleSpec::Uci(c) => c.clone(),
        }
    }

    pub fn build(&self, hash_mb: usize) -> Result<Box<dyn Oracle>, String> {
        Ok(match self {
            OracleSpec::Internal => Box::new(InternalOracle::new(hash_mb)),
            OracleSpec::Uci(cmd) => Box::new(UciOracle::spawn(cmd, hash_mb)?),
        })
    }
}
