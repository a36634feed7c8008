//! `sparring clock curves`: how each player of a match spent its clock, game by game. Reads the
//! PGN `sparring match` writes (each move's comment ends with the time it took, `0.123s`; book
//! moves say `book` and are off the clock; the `TimeControl` tag gives `base+inc` in seconds) and
//! writes one CSV row per timed move (time spent, clock left after it) and a Markdown summary per
//! player: moves, mean time per move, the clock left at the end of games (mean, smallest), time
//! forfeits, and the mean clock left after its n-th timed move (n = 10, 20, 30, 40, 60).

use super::games::parse_time_control;
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

/// A match game as the curves need it.
#[derive(Clone, Debug, Default)]
pub struct TimedGame {
    pub white: String,
    pub black: String,
    pub time_control: Option<String>,
    pub termination: String,
    /// Seconds per move; `None` for a book move (played for the engines, off the clock) and 0
    /// for a move without a recorded time.
    pub spent: Vec<Option<f64>>,
}

/// The time at the end of a match comment (`+0.35/12 0.123s`).
pub fn comment_seconds(comment: &str) -> Option<f64> {
    let last = comment.split_whitespace().last()?;
    last.strip_suffix('s')?.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)
}

struct Collector;

impl Visitor for Collector {
    type Tags = TimedGame;
    type Movetext = TimedGame;
    type Output = TimedGame;

    fn begin_tags(&mut self) -> ControlFlow<TimedGame, TimedGame> {
        ControlFlow::Continue(TimedGame::default())
    }

    fn tag(&mut self, g: &mut TimedGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<TimedGame> {
        let v = value.decode_utf8_lossy().trim().to_string();
        match name {
            b"White" => g.white = v,
            b"Black" => g.black = v,
            b"TimeControl" => g.time_control = Some(v),
            b"Termination" => g.termination = v,
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, g: TimedGame) -> ControlFlow<TimedGame, TimedGame> {
        ControlFlow::Continue(g)
    }

    fn san(&mut self, g: &mut TimedGame, _san: SanPlus) -> ControlFlow<TimedGame> {
        g.spent.push(Some(0.0));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, g: &mut TimedGame, comment: RawComment<'_>) -> ControlFlow<TimedGame> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        if let Some(last) = g.spent.last_mut() {
            if text.trim() == "book" {
                *last = None;
            } else if let Some(s) = comment_seconds(&text) {
                *last = Some(s);
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: TimedGame) -> TimedGame {
        g
    }
}

/// Every game of a match PGN.
pub fn read(path: &Path) -> Result<Vec<TimedGame>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut Collector).map_err(|e| format!("{}: {e}", path.display()))? {
        games.push(g);
    }
    Ok(games)
}

#[derive(Default)]
struct PlayerSummary {
    games: usize,
    moves: usize,
    spent: f64,
    end_clock: Vec<f64>,
    forfeits: usize,
    /// Clock left after move n (1-based own move number) summed, and how many games reached it.
    by_move: BTreeMap<usize, (f64, usize)>,
}

const MARKS: [usize; 5] = [10, 20, 30, 40, 60];

/// The CSV and the Markdown summary of a match PGN; `base_s`/`inc_s` for games without a
/// `TimeControl` tag.
pub fn report(path: &Path, base_s: f64, inc_s: f64) -> Result<(String, String), String> {
    let games = read(path)?;
    let mut csv = String::from("game,side,player,move,spent_s,clock_left_s\n");
    let mut players: BTreeMap<String, PlayerSummary> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        let (base, inc) = g.time_control.as_deref().and_then(parse_time_control).unwrap_or((base_s, inc_s));
        let forfeit = g.termination.to_ascii_lowercase().contains("time");
        for (side, name) in [(0usize, &g.white), (1, &g.black)] {
            let p = players.entry(name.clone()).or_default();
            p.games += 1;
            let mut clock = base;
            let mut n = 0;
            for &t in g.spent.iter().skip(side).step_by(2).flatten() {
                n += 1;
                clock = clock - t + inc;
                let _ = writeln!(csv, "{gi},{},{name},{n},{t:.3},{clock:.3}", ["white", "black"][side]);
                p.moves += 1;
                p.spent += t;
                if MARKS.contains(&n) {
                    let e = p.by_move.entry(n).or_default();
                    e.0 += clock;
                    e.1 += 1;
                }
            }
            p.end_clock.push(clock);
            // The side that lost on time is the one to move after the last recorded move.
            if forfeit && g.spent.len() % 2 == side {
                p.forfeits += 1;
            }
        }
    }
    let mut md = format!("# Time use: {}\n\n{} games\n\n", path.display(), games.len());
    md.push_str("| player | games | moves | mean s/move | mean clock left at end | smallest | time forfeits |");
    for m in MARKS {
        let _ = write!(md, " clock after move {m} |");
    }
    md.push_str("\n|---|---|---|---|---|---|---|");
    md.push_str(&"---|".repeat(MARKS.len()));
    md.push('\n');
    for (name, p) in &players {
        let mean_end = p.end_clock.iter().sum::<f64>() / p.end_clock.len().max(1) as f64;
        let min_end = p.end_clock.iter().copied().fold(f64::INFINITY, f64::min);
        let _ = write!(
            md,
            "| {name} | {} | {} | {:.2} | {mean_end:.1} | {min_end:.1} | {} |",
            p.games,
            p.moves,
            p.spent / p.moves.max(1) as f64,
            p.forfeits
        );
        for m in MARKS {
            match p.by_move.get(&m) {
                Some((s, n)) => {
                    let _ = write!(md, " {:.1} ({n}) |", s / *n as f64);
                }
                None => md.push_str(" - |"),
            }
        }
        md.push('\n');
    }
    Ok((csv, md))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_comments_give_the_move_time() {
        assert_eq!(comment_seconds("+0.35/12 0.123s"), Some(0.123));
        assert_eq!(comment_seconds("-M2/5 1.5s"), Some(1.5));
        assert_eq!(comment_seconds("book"), None);
    }
}
