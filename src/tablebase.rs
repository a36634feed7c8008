//! Syzygy endgame tablebases (SPEC 10).
//!
//! A thin, engine-facing layer over [`shakmaty_syzygy`]: loading tables from a UCI `SyzygyPath`
//! with readable problem reports, WDL probes for the search, DTZ-ranked root moves so that a
//! won endgame is converted under the 50-move rule (and a lost one defended longest), a `tbhits`
//! counter and a one-line description for the UCI `d` command.
//!
//! # Score and bound conventions (for the search)
//!
//! * [`TB_WIN`] `= MATE_BOUND - 1`. A table win found `ply` plies from the root scores
//!   `TB_WIN - ply` (see [`wdl_to_score`]); a table loss scores `-(TB_WIN - ply)`. These scores lie
//!   in `[TB_WIN_BOUND, TB_WIN]`, strictly below every mate score, so `mate_moves` never reports
//!   them as mates and a real mate found later by the search always ranks higher.
//! * A cursed win (won, but drawn by the 50-move rule) scores `+1`, a blessed loss `-1`, a draw `0`.
//! * Bounds to store in the transposition table / to cut with ([`wdl_bound`]): a win is a
//!   **lower** bound (the true score may be a mate, which is higher), a loss is an **upper** bound,
//!   and draw, cursed win and blessed loss are **exact**. As in Stockfish/Ethereal: return the
//!   table score at once when the bound is exact, or lower and `score >= beta`, or upper and
//!   `score <= alpha`; otherwise (PV nodes) raise alpha / cap the best score with it and search on.
//! * Probe [`Tablebases::probe_wdl`] only right after a zeroing move (capture or pawn move, so the
//!   halfmove clock is 0) and only when [`Tablebases::can_probe`] holds; the WDL it returns assumes
//!   a fresh 50-move counter.
//!
//! # Sharing
//!
//! [`Tablebases`] is `Send + Sync`; probes take `&self`, the hit counter and the probe limit are
//! atomics. Changing the path needs `&mut self`: the UCI layer builds a new value (or takes a
//! write lock) when `SyzygyPath` changes and hands the search an `Arc` of it.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use shakmaty::{CastlingMode, Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase};

pub use shakmaty_syzygy::Wdl;

use crate::score::{MATE, MATE_BOUND, MAX_PLY};

/// Score of a tablebase win at the root; a win `ply` plies deep scores `TB_WIN - ply`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores with absolute value in `[TB_WIN_BOUND, TB_WIN]` are tablebase wins/losses.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// Score of a cursed win (a blessed loss scores the negation).
pub const TB_CURSED_WIN: i32 = 1;
/// Largest piece count of Syzygy tables for standard chess; the default probe limit.
pub const MAX_TB_PIECES: usize = 7;

/// Directory separator in `SyzygyPath`, as usual for the platform's path lists.
#[cfg(windows)]
const PATH_SEPARATOR: char = ';';
#[cfg(not(windows))]
const PATH_SEPARATOR: char = ':';

/// Which bound a tablebase score is, for the transposition table and for cutoffs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbBound {
    /// The score is the value of the position.
    Exact,
    /// The value is at least the score (table win: the search may still find a mate).
    Lower,
    /// The value is at most the score (table loss).
    Upper,
}

/// Search score of a WDL result (side to move's view) found `ply` plies from the root.
///
/// Win: `TB_WIN - ply`; loss: `-(TB_WIN - ply)`; cursed win `+1`, blessed loss `-1`, draw `0`.
/// `ply` is clamped to `MAX_PLY`, so the result of a win is never below `TB_WIN_BOUND`.
pub fn wdl_to_score(wdl: Wdl, ply: usize) -> i32 {
    let ply = ply.min(MAX_PLY) as i32;
    match wdl {
        Wdl::Win => TB_WIN - ply,
        Wdl::CursedWin => TB_CURSED_WIN,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -TB_CURSED_WIN,
        Wdl::Loss => -(TB_WIN - ply),
    }
}

/// Bound of the score [`wdl_to_score`] gives for `wdl`: win → lower, loss → upper, else exact.
pub fn wdl_bound(wdl: Wdl) -> TbBound {
    match wdl {
        Wdl::Win => TbBound::Lower,
        Wdl::Loss => TbBound::Upper,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => TbBound::Exact,
    }
}

/// Whether `score` is a tablebase win or loss score (not a mate score).
pub fn is_tb_score(score: i32) -> bool {
    (TB_WIN_BOUND..=TB_WIN).contains(&score.abs())
}

/// Lower-case English name of a WDL value ("win", "cursed win", ...).
pub fn wdl_name(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win",
        Wdl::Draw => "draw",
        Wdl::BlessedLoss => "blessed loss",
        Wdl::Loss => "loss",
    }
}

/// What [`Tablebases::set_path`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TbLoadReport {
    /// Distinct table files added (WDL and DTZ together).
    pub tables: usize,
    /// Distinct `.rtbw` files added.
    pub wdl_tables: usize,
    /// Distinct `.rtbz` files added.
    pub dtz_tables: usize,
    /// Largest piece count among the added tables (0 without tables).
    pub max_pieces: usize,
    /// Folders from which at least one table was added, as given.
    pub directories: Vec<String>,
    /// One human-readable line per problem (bad folder, unreadable file, ...); the UCI layer
    /// prints each as `info string`.
    pub messages: Vec<String>,
}

impl TbLoadReport {
    /// One line for `info string`, e.g. "Syzygy: 70 tables (35 WDL, 35 DTZ), up to 4 pieces".
    pub fn summary(&self) -> String {
        if self.tables == 0 {
            "Syzygy: no tables loaded".to_string()
        } else {
            format!(
                "Syzygy: {} tables ({} WDL, {} DTZ), up to {} pieces",
                self.tables, self.wdl_tables, self.dtz_tables, self.max_pieces
            )
        }
    }
}

/// One legal root move as judged by the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveProbe {
    pub mv: Move,
    /// Result of the game after this move, from the mover's view. With
    /// `halfmove_clock_aware` this counts the current halfmove clock: a win that needs more than
    /// the remaining plies of the 50-move rule is a [`Wdl::CursedWin`], a loss that the opponent
    /// cannot convert in time a [`Wdl::BlessedLoss`].
    pub wdl: Wdl,
    /// Distance to zeroing in plies from the root position, mover's view, counting this move:
    /// positive when winning, negative when losing, 0 for a draw. A zeroing move (capture, pawn
    /// move) or a mate has `±1` (`±101` when the table result is cursed/blessed).
    pub dtz: i32,
    /// The move captures or moves a pawn (resets the halfmove clock).
    pub zeroing: bool,
    /// The move mates.
    pub mate: bool,
    /// Higher is better. Ranges never overlap between results: mate 1000, win 900..=999
    /// (shorter DTZ higher), cursed win 101..=499, draw 0, blessed loss -499..=-101, loss
    /// -999..=-899 (longer DTZ higher).
    pub rank: i32,
}

impl RootMoveProbe {
    /// Search score for this root move (mover's view): a mate scores `MATE - 1`, a win
    /// `TB_WIN - dtz`, a loss `-(TB_WIN - |dtz|)`, cursed/blessed `±1`, draw 0. Same ranges as
    /// [`wdl_to_score`] and the same bounds ([`wdl_bound`]).
    pub fn score(&self) -> i32 {
        if self.mate {
            return MATE - 1;
        }
        let plies = (self.dtz.unsigned_abs() as i32).min(MAX_PLY as i32);
        match self.wdl {
            Wdl::Win => TB_WIN - plies,
            Wdl::Loss => -(TB_WIN - plies),
            other => wdl_to_score(other, 0),
        }
    }
}

/// Table verdict on every legal root move, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// All legal moves, sorted by `rank` (best first; ties keep legal-move order). Never empty
    /// when returned by [`Tablebases::probe_root`].
    pub moves: Vec<RootMoveProbe>,
    /// The halfmove clock that was taken into account (0 when not clock aware).
    pub halfmoves: u32,
}

impl RootProbe {
    /// Best achievable result (the `wdl` of the first move).
    pub fn best_wdl(&self) -> Wdl {
        self.moves[0].wdl
    }

    /// The move the tables recommend: mate, else the best result, with the shortest DTZ when
    /// winning (zeroing moves first) and the longest when losing.
    pub fn best(&self) -> &RootMoveProbe {
        &self.moves[0]
    }

    /// The moves that keep the best achievable result: restrict the root search to these. When
    /// winning, any of them still converts within the 50-move rule if the search keeps choosing
    /// among the preserving moves at every later root (DTZ plus clock stays within 100).
    pub fn preserving_moves(&self) -> Vec<Move> {
        let best = self.best_wdl();
        self.moves.iter().filter(|m| m.wdl == best).map(|m| m.mv).collect()
    }

    /// The probe of one move, if it is legal at the root.
    pub fn get(&self, mv: Move) -> Option<&RootMoveProbe> {
        self.moves.iter().find(|m| m.mv == mv)
    }
}

/// Why a position cannot be probed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unavailable {
    NoTables,
    Castling,
    TooManyPieces { pieces: usize, limit: usize },
}

/// The loaded Syzygy tables plus probe limit and hit counter.
#[derive(Debug)]
pub struct Tablebases {
    tables: Tablebase<Chess>,
    directories: Vec<String>,
    probe_limit: AtomicUsize,
    hits: AtomicU64,
}

impl Default for Tablebases {
    fn default() -> Self {
        Self::new()
    }
}

// The engine shares the tables with the search thread through an `Arc`.
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<Tablebases>();
};

impl Tablebases {
    /// No tables; probe limit [`MAX_TB_PIECES`].
    pub fn new() -> Self {
        Tablebases {
            tables: Tablebase::new(),
            directories: Vec::new(),
            probe_limit: AtomicUsize::new(MAX_TB_PIECES),
            hits: AtomicU64::new(0),
        }
    }

    /// Replaces the tables by those found in the folders of `spec` (separated by `:`, `;` on
    /// Windows; empty parts skipped). An empty spec or `<empty>` just clears the tables.
    ///
    /// Problems with single folders or files are listed in the report's `messages` and the good
    /// folders are still used. `Err` (all problems in one line) only when the spec names folders
    /// but none of them gives a table; the tables are cleared then too.
    pub fn set_path(&mut self, spec: &str) -> Result<TbLoadReport, String> {
        self.tables = Tablebase::new();
        self.directories.clear();
        let spec = spec.trim();
        let mut report = TbLoadReport::default();
        let dirs: Vec<&str> = spec.split(PATH_SEPARATOR).map(str::trim).filter(|d| !d.is_empty()).collect();
        if dirs.is_empty() || spec.eq_ignore_ascii_case("<empty>") {
            return Ok(report);
        }

        let mut wdl_files = BTreeSet::new();
        let mut dtz_files = BTreeSet::new();
        for dir in dirs {
            match self.add_directory(dir, &mut wdl_files, &mut dtz_files) {
                Ok((added, skipped)) => {
                    if !skipped.is_empty() {
                        report.messages.push(format!("SyzygyPath: folder '{dir}': skipped {}", skipped.join(", ")));
                    }
                    if added == 0 {
                        if skipped.is_empty() {
                            report.messages.push(format!(
                                "SyzygyPath: folder '{dir}' contains no Syzygy tables \
                                 (.rtbw/.rtbz)"
                            ));
                        }
                    } else {
                        report.directories.push(dir.to_string());
                    }
                }
                Err(problem) => report.messages.push(format!("SyzygyPath: {problem}")),
            }
        }

        let without_dtz = wdl_files.difference(&dtz_files).count();
        if without_dtz > 0 {
            report.messages.push(format!(
                "SyzygyPath: {without_dtz} WDL tables have no DTZ table; root moves in those \
                 endgames are not ranked by the tables"
            ));
        }
        report.wdl_tables = wdl_files.len();
        report.dtz_tables = dtz_files.len();
        report.tables = report.wdl_tables + report.dtz_tables;
        report.max_pieces = self.tables.max_pieces();
        self.directories.clone_from(&report.directories);

        if report.tables == 0 {
            self.tables = Tablebase::new();
            report.messages.push(format!("SyzygyPath: no tables found in '{spec}', playing without tablebases"));
            return Err(report.messages.join("; "));
        }
        Ok(report)
    }

    /// Adds the tables of one folder (not recursive); returns how many files were added and the
    /// table files that had to be skipped (with the reason), or why the folder is unusable.
    /// Files whose names are not table names are ignored.
    fn add_directory(
        &mut self,
        dir: &str,
        wdl_files: &mut BTreeSet<String>,
        dtz_files: &mut BTreeSet<String>,
    ) -> Result<(usize, Vec<String>), String> {
        let path = Path::new(dir);
        let meta = fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => format!("folder '{dir}' does not exist"),
            _ => format!("folder '{dir}' cannot be read: {e}"),
        })?;
        if !meta.is_dir() {
            return Err(format!("'{dir}' is not a folder"));
        }
        let entries = fs::read_dir(path).map_err(|e| format!("folder '{dir}' cannot be listed: {e}"))?;
        let mut added = 0;
        let mut problems = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("folder '{dir}' cannot be listed: {e}"))?;
            let file = entry.path();
            let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let is_wdl = name.ends_with(".rtbw");
            if !is_wdl && !name.ends_with(".rtbz") {
                continue;
            }
            match self.tables.add_file(&file) {
                Ok(()) => {
                    added += 1;
                    let set = if is_wdl { &mut *wdl_files } else { &mut *dtz_files };
                    set.insert(name[..name.len() - 5].to_string());
                }
                // Not a table name shakmaty-syzygy knows (e.g. KvK, 8 pieces): ignore.
                Err(e) if e.kind() == io::ErrorKind::InvalidInput => {}
                Err(e) => problems.push(format!("{name} ({e})")),
            }
        }
        Ok((added, problems))
    }

    /// Folders currently in use.
    pub fn directories(&self) -> &[String] {
        &self.directories
    }

    /// Whether any table is loaded.
    pub fn is_loaded(&self) -> bool {
        self.tables.max_pieces() > 0
    }

    /// Largest piece count among the loaded tables (0 without tables).
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Sets the `SyzygyProbeLimit` option: positions with more pieces are not probed (0 turns
    /// probing off). Takes `&self` so it can be changed on a shared value.
    pub fn set_probe_limit(&self, pieces: usize) {
        self.probe_limit.store(pieces, Ordering::Relaxed);
    }

    /// The `SyzygyProbeLimit` option value.
    pub fn probe_limit(&self) -> usize {
        self.probe_limit.load(Ordering::Relaxed)
    }

    /// Largest piece count that is actually probed: `min(probe limit, max_pieces())`.
    pub fn cardinality(&self) -> usize {
        self.probe_limit().min(self.max_pieces())
    }

    /// Cheap test whether a probe of `pos` can succeed: tables loaded, piece count within
    /// [`Tablebases::cardinality`], no castling rights. The search calls this before probing.
    pub fn can_probe(&self, pos: &Chess) -> bool {
        self.availability(pos).is_ok()
    }

    fn availability(&self, pos: &Chess) -> Result<(), Unavailable> {
        if !self.is_loaded() {
            return Err(Unavailable::NoTables);
        }
        let pieces = pos.board().occupied().count();
        let limit = self.cardinality();
        if pieces > limit {
            return Err(Unavailable::TooManyPieces { pieces, limit });
        }
        if pos.castles().any() {
            return Err(Unavailable::Castling);
        }
        Ok(())
    }

    /// Number of successful probes since the last [`Tablebases::reset_tb_hits`] (UCI `tbhits`).
    pub fn tb_hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Sets the hit counter to 0 (at the start of a search).
    pub fn reset_tb_hits(&self) {
        self.hits.store(0, Ordering::Relaxed);
    }

    fn hit(&self, n: u64) {
        self.hits.fetch_add(n, Ordering::Relaxed);
    }

    /// WDL of `pos` for the side to move, assuming the halfmove clock was just reset (probe only
    /// after zeroing moves). `None` when the position cannot be probed: no tables, more pieces
    /// than [`Tablebases::cardinality`], castling rights, missing table or a read error.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.availability(pos).ok()?;
        let wdl = self.tables.probe_wdl_after_zeroing(pos).ok()?;
        self.hit(1);
        Some(wdl)
    }

    /// DTZ of `pos` for the side to move, in plies, with the python-chess/Syzygy sign
    /// convention: `n > 0` the side to move wins and can force a zeroing move in `n` plies
    /// (`n > 100`: cursed win), `n < 0` it loses, 0 draw. Values from tables stored with
    /// halved precision may be one ply too high (rounding is ignored). `None` as for
    /// [`Tablebases::probe_wdl`] (DTZ tables are needed too).
    pub fn probe_dtz(&self, pos: &Chess) -> Option<i32> {
        self.availability(pos).ok()?;
        let dtz = self.tables.probe_dtz(pos).ok()?;
        self.hit(1);
        Some(dtz.ignore_rounding().0)
    }

    /// Judges every legal move of `pos` with WDL and DTZ tables and ranks them (see
    /// [`RootMoveProbe`]). With `halfmove_clock_aware`, the current halfmove clock of `pos`
    /// counts: a win whose zeroing move would come after the 100th halfmove is only a cursed
    /// win, and a loss that far away a blessed loss. Without it the clock is taken as 0.
    ///
    /// `None` when `pos` cannot be probed, has no legal moves, or any move's probe fails (e.g.
    /// a DTZ table is missing), so that the search never acts on a partial verdict.
    pub fn probe_root(&self, pos: &Chess, halfmove_clock_aware: bool) -> Option<RootProbe> {
        let probe = self.judge_root(pos, halfmove_clock_aware)?;
        self.hit(probe.moves.len() as u64);
        Some(probe)
    }

    fn judge_root(&self, pos: &Chess, halfmove_clock_aware: bool) -> Option<RootProbe> {
        self.availability(pos).ok()?;
        let clock = if halfmove_clock_aware { pos.halfmoves() } else { 0 };
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            moves.push(self.judge_move(mv, &after, clock).ok()?);
        }
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Some(RootProbe { moves, halfmoves: clock })
    }

    fn judge_move(&self, mv: Move, after: &Chess, clock: u32) -> Result<RootMoveProbe, SyzygyError> {
        let zeroing = mv.is_zeroing();
        let mate = after.is_checkmate();
        let (dtz, rounded) = if mate {
            (1, false)
        } else if after.is_stalemate() || after.is_insufficient_material() {
            (0, false)
        } else if zeroing {
            // The move itself zeroes: only the result after it matters.
            let wdl = -self.tables.probe_wdl_after_zeroing(after)?;
            (Dtz::before_zeroing(wdl).0, false)
        } else {
            // The opponent's DTZ, one ply further from the zeroing move and negated.
            let probed = self.tables.probe_dtz(after)?;
            let rounded = matches!(probed, MaybeRounded::Rounded(_));
            let theirs = probed.ignore_rounding().0;
            let ours = match theirs.signum() {
                0 => 0,
                1 => -(theirs + 1),
                _ => -theirs + 1,
            };
            (ours, rounded)
        };
        let wdl = if mate { Wdl::Win } else { classify(dtz, clock, rounded) };
        Ok(RootMoveProbe { mv, wdl, dtz, zeroing, mate, rank: rank(wdl, dtz, mate) })
    }

    /// Pure table move choice for `pos` (clock aware): the best-ranked move and the result it
    /// keeps. `None` as for [`Tablebases::probe_root`].
    pub fn best_root_move(&self, pos: &Chess) -> Option<(Move, Wdl)> {
        let probe = self.probe_root(pos, true)?;
        let best = probe.best();
        Some((best.mv, best.wdl))
    }

    /// One line for the UCI `d` command, e.g. "Tablebase: WDL win, DTZ 13, best move a7a8q" or
    /// "Tablebase: not available (5 pieces > max 4)". Does not count as tbhits.
    pub fn describe(&self, pos: &Chess) -> String {
        match self.availability(pos) {
            Err(Unavailable::NoTables) => {
                return "Tablebase: not available (no tables loaded)".to_string();
            }
            Err(Unavailable::Castling) => {
                return "Tablebase: not available (castling rights)".to_string();
            }
            Err(Unavailable::TooManyPieces { pieces, limit }) => {
                return format!("Tablebase: not available ({pieces} pieces > max {limit})");
            }
            Ok(()) => {}
        }
        let wdl = match self.tables.probe_wdl_after_zeroing(pos) {
            Ok(wdl) => wdl,
            Err(e) => return format!("Tablebase: probe failed ({e})"),
        };
        let mut line = format!("Tablebase: WDL {}", wdl_name(wdl));
        match self.tables.probe_dtz(pos) {
            Ok(dtz) => {
                let dtz = dtz.ignore_rounding().0;
                line.push_str(&format!(", DTZ {dtz}"));
                let clock = pos.halfmoves();
                let with_clock = classify(dtz, clock, false);
                if clock > 0 && with_clock != wdl && !pos.is_checkmate() {
                    line.push_str(&format!(" ({} with halfmove clock {clock})", wdl_name(with_clock)));
                }
            }
            Err(_) => line.push_str(", DTZ not available"),
        }
        if let Some(probe) = self.judge_root(pos, true) {
            let best = probe.best();
            line.push_str(&format!(", best move {}", best.mv.to_uci(CastlingMode::Standard)));
        }
        line
    }
}

/// Result of a move with distance-to-zeroing `dtz` (mover's view, from the root) when the
/// halfmove clock at the root is `clock`. With a rounded DTZ one extra ply of margin is assumed
/// against the mover.
fn classify(dtz: i32, clock: u32, rounded: bool) -> Wdl {
    let plies = i64::from(dtz.unsigned_abs()) + i64::from(clock);
    let margin = i64::from(rounded);
    match dtz.signum() {
        0 => Wdl::Draw,
        1 if plies + margin <= 100 => Wdl::Win,
        1 => Wdl::CursedWin,
        _ if plies - margin <= 100 => Wdl::Loss,
        _ => Wdl::BlessedLoss,
    }
}

/// Rank of a root move; see [`RootMoveProbe::rank`].
fn rank(wdl: Wdl, dtz: i32, mate: bool) -> i32 {
    if mate {
        return 1000;
    }
    let plies = dtz.unsigned_abs().min(399) as i32;
    match wdl {
        Wdl::Win => 1000 - plies,
        Wdl::CursedWin => 500 - plies,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -500 + plies,
        Wdl::Loss => -1000 + plies,
    }
}
