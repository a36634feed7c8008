//! Game-ending rules (checkmate, stalemate, repetition, 50 moves, dead material) and the
//! optional adjudications of cutechess-cli: draw by low scores, resignation, move limit, Syzygy.

use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{Tablebase, Wdl};
use std::path::Path;

/// `-draw movenumber=N movecount=M score=S`: after full move N, if both engines report
/// |score| <= S centipawns for M consecutive moves each (2M plies), the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `-resign movecount=M score=S [twosided=true]`: an engine whose score is <= -S for M
/// consecutive moves of its own loses; with twosided the opponent must also report >= S over
/// its last M moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Why the rules ended a game (no engine fault, no adjudication).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleEnd {
    Checkmate { winner: Color },
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
}

impl RuleEnd {
    pub fn describe(self) -> String {
        match self {
            RuleEnd::Checkmate { winner } => {
                format!("{} mates", if winner == Color::White { "White" } else { "Black" })
            }
            RuleEnd::Stalemate => "Draw by stalemate".into(),
            RuleEnd::Repetition => "Draw by 3-fold repetition".into(),
            RuleEnd::FiftyMoves => "Draw by fifty moves rule".into(),
            RuleEnd::InsufficientMaterial => "Draw by insufficient mating material".into(),
        }
    }
}

/// Checks the position after a move. `keys` are the Zobrist keys of all positions of the game
/// so far, the current one last (for repetition).
pub fn rule_end(pos: &Chess, keys: &[u64]) -> Option<RuleEnd> {
    if pos.is_checkmate() {
        return Some(RuleEnd::Checkmate { winner: !pos.turn() });
    }
    if pos.is_stalemate() {
        return Some(RuleEnd::Stalemate);
    }
    if pos.is_insufficient_material() {
        return Some(RuleEnd::InsufficientMaterial);
    }
    if pos.halfmoves() >= 100 {
        return Some(RuleEnd::FiftyMoves);
    }
    if let Some(&cur) = keys.last() {
        // Only positions since the last irreversible move can repeat; same side to move only.
        let window = (pos.halfmoves() as usize).min(keys.len() - 1);
        let start = keys.len() - 1 - window;
        let reps = keys[start..].iter().rev().step_by(2).filter(|&&k| k == cur).count();
        if reps >= 3 {
            return Some(RuleEnd::Repetition);
        }
    }
    None
}

/// Score-based adjudication state for one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    draw_plies: u32,
    /// Per colour (White = 0): consecutive own moves with a losing / winning score.
    losing: [u32; 2],
    winning: [u32; 2],
}

/// An adjudication verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw(String),
    Win { winner: Color, reason: String },
}

fn idx(c: Color) -> usize {
    if c == Color::White { 0 } else { 1 }
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator { draw, resign, ..Default::default() }
    }

    /// Records the score (centipawns, mover's point of view; None if it gave none) that `mover`
    /// reported for the move that led to `pos`, and says whether the game is adjudicated.
    pub fn update(&mut self, mover: Color, score: Option<i32>, pos: &Chess) -> Option<Verdict> {
        let i = idx(mover);
        if let Some(r) = self.resign {
            match score {
                Some(s) if s <= -r.score => {
                    self.losing[i] += 1;
                    self.winning[i] = 0;
                }
                Some(s) if s >= r.score => {
                    self.winning[i] += 1;
                    self.losing[i] = 0;
                }
                _ => {
                    self.losing[i] = 0;
                    self.winning[i] = 0;
                }
            }
            let other = 1 - i;
            if self.losing[i] >= r.movecount && (!r.twosided || self.winning[other] >= r.movecount) {
                return Some(Verdict::Win {
                    winner: !mover,
                    reason: format!("{} resigns", if mover == Color::White { "White" } else { "Black" }),
                });
            }
        }
        if let Some(d) = self.draw {
            match score {
                Some(s) if s.abs() <= d.score => self.draw_plies += 1,
                _ => self.draw_plies = 0,
            }
            // fullmoves() is the number of the move about to be played; moves completed so far:
            let played_full = pos.fullmoves().get() - 1 + u32::from(pos.turn() == Color::Black);
            if self.draw_plies >= 2 * d.movecount && played_full >= d.movenumber {
                return Some(Verdict::Draw("Draw by adjudication".into()));
            }
        }
        None
    }
}

/// Syzygy WDL adjudication.
pub struct TbAdjudicator {
    tb: Tablebase<Chess>,
    max_pieces: usize,
}

impl TbAdjudicator {
    /// Opens every directory in `paths` (separated by ':' or ';'). `pieces` limits the piece
    /// count probed (0: as many as the tables hold).
    pub fn open(paths: &str, pieces: usize) -> Result<TbAdjudicator, String> {
        let mut tb = Tablebase::new();
        let mut n = 0;
        for p in paths.split([':', ';']).filter(|p| !p.is_empty()) {
            n += tb.add_directory(Path::new(p)).map_err(|e| format!("tablebase directory {p}: {e}"))?;
        }
        if n == 0 {
            return Err(format!("no Syzygy tables found in '{paths}'"));
        }
        let avail = tb.max_pieces();
        let max_pieces = if pieces == 0 { avail } else { pieces.min(avail) };
        Ok(TbAdjudicator { tb, max_pieces })
    }

    /// Adjudicates `pos` if it is in the tables: a win for the side that wins under the
    /// 50-move rule, a draw otherwise (cursed wins and blessed losses are draws).
    pub fn probe(&self, pos: &Chess) -> Option<Verdict> {
        if pos.board().occupied().count() > self.max_pieces || pos.castles().any() {
            return None;
        }
        let wdl = match self.tb.probe_wdl(pos) {
            Ok(w) => w.unambiguous()?,
            Err(_) if pos.halfmoves() == 0 => self.tb.probe_wdl_after_zeroing(pos).ok()?,
            Err(_) => return None,
        };
        let stm = pos.turn();
        Some(match wdl {
            Wdl::Win => Verdict::Win { winner: stm, reason: "Syzygy adjudication".into() },
            Wdl::Loss => Verdict::Win { winner: !stm, reason: "Syzygy adjudication".into() },
            _ => Verdict::Draw("Draw by Syzygy adjudication".into()),
        })
    }
}
