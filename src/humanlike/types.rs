//! Records shared by the sampler, the oracle and the measurement: a sampled position (JSON line)
//! and an oracle-scored position (JSON line with every legal move's score).

use crate::search::{MATE_BOUND, mate_moves};
use serde::{Deserialize, Serialize};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// Centipawn losses are capped here (the seed document's cap).
pub const LOSS_CAP: i32 = 300;
/// Positions whose best evaluation is beyond this, from White's view, are decided (ineligible).
pub const DECIDED_CP: i32 = 600;

/// A position from a rated human game, taken just before the human moved.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SampledPosition {
    pub fen: String,
    /// The move the human played, in UCI notation (standard castling, `e1g1`).
    pub human: String,
    /// The mover's rating.
    pub rating: u32,
    /// Lower bound of the mover's 200-point rating band.
    pub band: u32,
    /// Index of the game in the PGN file (0-based).
    pub game: usize,
    /// Half-moves played before this position (0 = the initial position).
    pub ply: u32,
}

impl SampledPosition {
    /// Cache key: the same FEN can come from different games with different human moves.
    pub fn key(&self) -> String {
        format!("{}|{}", self.fen, self.human)
    }
}

/// One move's oracle score, side-to-move view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Signed moves to mate: positive when the side to move mates.
    Mate(i32),
}

impl Score {
    /// From an internal search score.
    pub fn from_search(score: i32) -> Score {
        match mate_moves(score) {
            Some(n) => Score::Mate(n),
            None => Score::Cp(score),
        }
    }

    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }

    /// A total order for comparing scores: mates map beyond every centipawn value, shorter
    /// mates for us higher, shorter mates against us lower.
    pub fn order_value(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            Score::Mate(n) => -1_000_000 - i64::from(n),
        }
    }
}

/// JSON form of a score: a number (centipawns) or a string `"#3"` / `"#-3"` (mate).
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RawScore {
    Cp(i32),
    Mate(String),
}

/// A scored legal move, stored compactly as `["e2e4", 23]` or `["d8h4", "#-1"]`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(try_from = "(String, RawScore)", into = "(String, RawScore)")]
pub struct OracleMove {
    pub uci: String,
    pub score: Score,
}

impl TryFrom<(String, RawScore)> for OracleMove {
    type Error = String;
    fn try_from((uci, raw): (String, RawScore)) -> Result<Self, String> {
        let score = match raw {
            RawScore::Cp(cp) => Score::Cp(cp),
            RawScore::Mate(s) => {
                let n = s.strip_prefix('#').and_then(|t| t.parse::<i32>().ok());
                Score::Mate(n.ok_or_else(|| format!("bad mate score '{s}' for {uci}"))?)
            }
        };
        Ok(OracleMove { uci, score })
    }
}

impl From<OracleMove> for (String, RawScore) {
    fn from(m: OracleMove) -> Self {
        let raw = match m.score {
            Score::Cp(cp) => RawScore::Cp(cp),
            Score::Mate(n) => RawScore::Mate(format!("#{n}")),
        };
        (m.uci, raw)
    }
}

/// A sampled position with every legal move scored by the oracle, best first.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct OraclePosition {
    #[serde(flatten)]
    pub pos: SampledPosition,
    /// Which oracle scored it (`internal` or the UCI command) and at what depth.
    pub oracle: String,
    pub depth: i32,
    pub moves: Vec<OracleMove>,
}

/// Why a scored position is left out of the measurement (the seed document's rules).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ineligible {
    /// Only one legal move.
    Forced,
    /// The best score is a mate.
    Mate,
    /// |best evaluation from White's view| > 600.
    Decided,
    /// The human's move is not among the scored moves (should not happen).
    MissingHumanMove,
}

impl OraclePosition {
    pub fn best(&self) -> Option<&OracleMove> {
        self.moves.iter().max_by_key(|m| m.score.order_value())
    }

    /// The side to move, read from the FEN's second field.
    pub fn turn(&self) -> Color {
        if self.pos.fen.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::White }
    }

    /// The best evaluation in centipawns from White's view (`None` for a mate).
    pub fn white_eval(&self) -> Option<i32> {
        match self.best()?.score {
            Score::Cp(cp) => Some(if self.turn() == Color::White { cp } else { -cp }),
            Score::Mate(_) => None,
        }
    }

    pub fn eligibility(&self) -> Result<(), Ineligible> {
        if self.moves.len() < 2 {
            return Err(Ineligible::Forced);
        }
        let Some(white) = self.white_eval() else { return Err(Ineligible::Mate) };
        if white.abs() > DECIDED_CP {
            return Err(Ineligible::Decided);
        }
        if self.score_of(&self.pos.human).is_none() {
            return Err(Ineligible::MissingHumanMove);
        }
        Ok(())
    }

    pub fn is_eligible(&self) -> bool {
        self.eligibility().is_ok()
    }

    pub fn score_of(&self, uci: &str) -> Option<Score> {
        self.moves.iter().find(|m| m.uci == uci).map(|m| m.score)
    }

    /// Centipawn loss of a move (best − played, in [0, 300]); `None` when the move is not in the
    /// table (illegal here). A move into a mate against us loses the cap.
    pub fn loss(&self, uci: &str) -> Option<i32> {
        let played = self.score_of(uci)?;
        let best = self.best()?.score;
        Some(match (best, played) {
            (Score::Cp(b), Score::Cp(p)) => (b - p).clamp(0, LOSS_CAP),
            (Score::Cp(_), Score::Mate(n)) => {
                if n > 0 {
                    0
                } else {
                    LOSS_CAP
                }
            }
            (Score::Mate(b), Score::Mate(p)) if b == p => 0,
            (Score::Mate(_), _) => LOSS_CAP,
        })
    }

    pub fn chess(&self) -> Result<Chess, String> {
        crate::board::parse_fen(&self.pos.fen)
    }
}

/// The scaled error of the seed document: `ln(1 + min(loss, 300) / 100)`.
pub fn scaled_error(loss: i32) -> f64 {
    (1.0 + f64::from(loss.clamp(0, LOSS_CAP)) / 100.0).ln()
}

/// UCI text of a move, standard castling notation (`e1g1`).
pub fn uci_of(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// Parses a UCI move (standard or king-takes-rook castling) in a position.
pub fn parse_uci(pos: &Chess, text: &str) -> Result<Move, String> {
    let u: UciMove = text.trim().parse().map_err(|_| format!("bad UCI move '{text}'"))?;
    u.to_move(pos).map_err(|_| format!("illegal move '{text}' in {}", fen_of(pos)))
}

/// A raw search score is a mate score.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// Reads a JSON-lines file of `T`. Blank lines are skipped; a torn last line (an interrupted
/// append) is ignored with a warning, any other bad line is an error.
pub fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<String> =
        BufReader::new(file).lines().collect::<Result<_, _>>().map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(v) => out.push(v),
            Err(e) if i + 1 == lines.len() => {
                eprintln!("warning: {}:{}: ignoring torn last line ({e})", path.display(), i + 1)
            }
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(out)
}

/// Writes `items` as JSON lines (replacing the file).
pub fn write_jsonl<T: Serialize>(path: &Path, items: &[T]) -> Result<(), String> {
    let mut text = String::new();
    for it in items {
        text.push_str(&serde_json::to_string(it).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Keys already present in an oracle cache file (empty when the file does not exist).
pub fn cached_keys(path: &Path) -> Result<HashSet<String>, String> {
    if !path.exists() {
        return Ok(HashSet::new());
    }
    Ok(read_jsonl::<OraclePosition>(path)?.iter().map(|p| p.pos.key()).collect())
}

/// Opens a JSON-lines file for appending. A torn last line (a run killed mid-write) is cut off
/// first, so that the next record starts on a line of its own.
pub fn open_append(path: &Path) -> Result<std::fs::File, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    if let Ok(bytes) = std::fs::read(path)
        && !bytes.is_empty()
        && bytes.last() != Some(&b'\n')
    {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        eprintln!("warning: {}: cutting a torn last line", path.display());
        let f = std::fs::OpenOptions::new().write(true).open(path).map_err(err)?;
        f.set_len(keep as u64).map_err(err)?;
    }
    std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(err)
}

/// Appends one record as a JSON line and flushes (so an interrupted run loses at most that line).
pub fn append_jsonl<T: Serialize>(out: &mut impl Write, item: &T) -> Result<(), String> {
    let line = serde_json::to_string(item).map_err(|e| e.to_string())?;
    writeln!(out, "{line}").and_then(|_| out.flush()).map_err(|e| e.to_string())
}

/// Loads an oracle file sorted into a stable order (band, game, ply, key), whatever order the
/// (possibly parallel, possibly resumed) oracle run appended it in. Duplicate keys keep the first.
pub fn load_oracle(path: &Path) -> Result<Vec<OraclePosition>, String> {
    let mut all: Vec<OraclePosition> = read_jsonl(path)?;
    let mut seen = HashSet::new();
    all.retain(|p| seen.insert(p.pos.key()));
    all.sort_by(|a, b| {
        (a.pos.band, a.pos.game, a.pos.ply, a.pos.key()).cmp(&(b.pos.band, b.pos.game, b.pos.ply, b.pos.key()))
    });
    Ok(all)
}

/// Rating bands `lo, lo+200, …` below `hi`, from text like `800-2400`.
pub fn parse_bands(text: &str) -> Result<Vec<u32>, String> {
    let (a, b) = text.split_once('-').ok_or_else(|| format!("bands '{text}': expected LO-HI"))?;
    let lo: u32 = a.trim().parse().map_err(|_| format!("bad band start '{a}'"))?;
    let hi: u32 = b.trim().parse().map_err(|_| format!("bad band end '{b}'"))?;
    if !lo.is_multiple_of(200) || !hi.is_multiple_of(200) || hi <= lo {
        return Err(format!("bands '{text}': bounds must be multiples of 200 with LO < HI"));
    }
    Ok((lo..hi).step_by(200).collect())
}

/// The 200-point band of a rating.
pub fn band_of(rating: u32) -> u32 {
    rating / 200 * 200
}

/// Full FEN of a position.
pub fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}
