//! One timed human move per CSV row: what the time model sees (clock, rating, game progress,
//! the difficulty look) and the time the person took. `sparring clock extract` writes them,
//! `fit` and `check` read them.

use shakmaty::Color;
use sparring::human_time::{Difficulty, Situation};
use sparring::seed;
use std::io::Write;
use std::path::Path;

pub const HEADER: &str = "game,ply,key,rating,base_s,inc_s,clock_s,spent_s,fullmove,phase,legal,near,gap_cp,best_cp,swing_cp,check,recapture";

/// One timed move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    /// Index of the game in the PGN file (0-based, file order): even = fit part, odd = check part.
    pub game: usize,
    /// Game ply of the position (0 = White's first move).
    pub ply: u32,
    /// The position's Zobrist key (`board::zobrist`).
    pub key: u64,
    pub rating: u32,
    pub base_s: f64,
    pub inc_s: f64,
    /// The mover's clock before the move.
    pub clock_s: f64,
    /// Time spent: clock before − clock after + increment.
    pub spent_s: f64,
    pub fullmove: u32,
    pub phase: f64,
    pub difficulty: Difficulty,
}

impl MoveRow {
    pub fn situation(&self) -> Situation {
        Situation {
            rating: f64::from(self.rating),
            clock_s: self.clock_s,
            inc_s: self.inc_s,
            fullmove: self.fullmove,
            phase: self.phase,
            difficulty: self.difficulty,
        }
    }

    pub fn seat(&self) -> Color {
        if self.ply.is_multiple_of(2) { Color::White } else { Color::Black }
    }

    /// The fraction of the clock the move used.
    pub fn fraction(&self) -> f64 {
        self.spent_s / self.clock_s.max(0.1)
    }

    /// The engine's decision stream for this move with match seed `match_seed` (what a weak
    /// setting with `Human Time` would draw in this position at this ply).
    pub fn rng(&self, match_seed: u64) -> rand_chacha::ChaCha20Rng {
        seed::decision_rng(match_seed, self.ply, self.seat(), self.key, sparring::human_time::TAG)
    }

    pub fn is_fit_part(&self) -> bool {
        self.game.is_multiple_of(2)
    }

    pub fn to_csv(&self) -> String {
        let d = &self.difficulty;
        format!(
            "{},{},{:016x},{},{},{},{:.1},{:.1},{},{:.4},{},{},{},{},{},{},{}",
            self.game,
            self.ply,
            self.key,
            self.rating,
            self.base_s,
            self.inc_s,
            self.clock_s,
            self.spent_s,
            self.fullmove,
            self.phase,
            d.legal,
            d.near,
            d.gap_cp,
            d.best_cp,
            d.swing_cp,
            u8::from(d.in_check),
            u8::from(d.recapture)
        )
    }

    pub fn from_csv(line: &str) -> Result<MoveRow, String> {
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() != 17 {
            return Err(format!("expected 17 fields, got {}", f.len()));
        }
        fn num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
            s.parse().map_err(|_| format!("{what}: '{s}' is not a number"))
        }
        Ok(MoveRow {
            game: num(f[0], "game")?,
            ply: num(f[1], "ply")?,
            key: u64::from_str_radix(f[2], 16).map_err(|_| format!("key: '{}'", f[2]))?,
            rating: num(f[3], "rating")?,
            base_s: num(f[4], "base_s")?,
            inc_s: num(f[5], "inc_s")?,
            clock_s: num(f[6], "clock_s")?,
            spent_s: num(f[7], "spent_s")?,
            fullmove: num(f[8], "fullmove")?,
            phase: num(f[9], "phase")?,
            difficulty: Difficulty {
                legal: num(f[10], "legal")?,
                near: num(f[11], "near")?,
                gap_cp: num(f[12], "gap_cp")?,
                best_cp: num(f[13], "best_cp")?,
                swing_cp: num(f[14], "swing_cp")?,
                in_check: f[15] == "1",
                recapture: f[16] == "1",
            },
        })
    }
}

/// Every row of a file (the header skipped; a bad line is an error with its number).
pub fn read(path: &Path) -> Result<Vec<MoveRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with("game,"))
        .map(|(i, l)| MoveRow::from_csv(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// Appends rows to a file, writing the header first when it is new.
pub fn append(path: &Path, rows: &[MoveRow]) -> Result<(), String> {
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    if new {
        text.push_str(HEADER);
        text.push('\n');
    }
    for r in rows {
        text.push_str(&r.to_csv());
        text.push('\n');
    }
    f.write_all(text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_survives_csv() {
        let r = MoveRow {
            game: 7,
            ply: 13,
            key: 0x463b96181691fc9c,
            rating: 1834,
            base_s: 180.0,
            inc_s: 2.0,
            clock_s: 151.3,
            spent_s: 4.2,
            fullmove: 7,
            phase: 0.9167,
            difficulty: Difficulty {
                legal: 31,
                near: 3,
                gap_cp: 12,
                best_cp: -40,
                swing_cp: 85,
                in_check: false,
                recapture: true,
            },
        };
        assert_eq!(MoveRow::from_csv(&r.to_csv()).unwrap(), r);
        assert_eq!(HEADER.split(',').count(), 17);
    }
}
