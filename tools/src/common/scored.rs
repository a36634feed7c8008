//! The records of the all-moves oracle files: a sampled position (JSON line) and an
//! oracle-scored position (JSON line with every legal move's score), and the JSON-lines helpers
//! that read and append them. Shared by `humanlike` and `strength ipr`; the byte format is fixed
//! (the caches under `bench/` are read as they are).

use crate::common::quality;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color};
use sparring::score::Score;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

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
    /// For the internal oracle, the fingerprint of the search that scored it
    /// (`oracle::internal_fingerprint`); absent in caches made before it was recorded (by the
    /// generation-1 search) and for UCI engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
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

    /// The shared rule (`common::quality::exclusion`), and the human's move must be scored.
    pub fn eligibility(&self) -> Result<(), Ineligible> {
        let best = self.best().map_or(Score::Cp(0), |m| m.score);
        match quality::exclusion(self.moves.len(), best) {
            Some(quality::Excluded::Forced) => return Err(Ineligible::Forced),
            Some(quality::Excluded::Mate) => return Err(Ineligible::Mate),
            Some(quality::Excluded::Decided) => return Err(Ineligible::Decided),
            None => {}
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
        Some(quality::table_loss(self.best()?.score, played))
    }

    /// Whether a move is a blunder: it loses at least [`quality::BLUNDER_CP`] against the best
    /// move, uncapped (walking into a mate counts); `None` when the move is not in the table.
    pub fn blunder(&self, uci: &str) -> Option<bool> {
        let played = self.score_of(uci)?;
        Some(quality::is_blunder(self.best()?.score, played))
    }

    pub fn chess(&self) -> Result<Chess, String> {
        sparring::board::parse_fen(&self.pos.fen)
    }
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
/// Why the internal-oracle entries of a cache are not this binary's search, if they are not: they
/// were scored by another search (or before the search was recorded), so their losses are another
/// judge's.
pub fn stale_internal(all: &[OraclePosition]) -> Option<String> {
    let fp = crate::common::oracle::internal_fingerprint();
    let stale = all.iter().filter(|p| p.oracle == "internal" && p.search.as_deref() != Some(fp.as_str())).count();
    (stale > 0).then(|| {
        format!(
            "{stale} of {} positions were scored by another internal search than this binary's ({fp}); \
             rescore them (`sparring humanlike oracle` into a new file)",
            all.len()
        )
    })
}

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
    if let Some(why) = stale_internal(&all) {
        eprintln!("warning: {}: {why}", path.display());
    }
    let mut seen = HashSet::new();
    all.retain(|p| seen.insert(p.pos.key()));
    all.sort_by(|a, b| {
        (a.pos.band, a.pos.game, a.pos.ply, a.pos.key()).cmp(&(b.pos.band, b.pos.game, b.pos.ply, b.pos.key()))
    });
    Ok(all)
}
