//! `sparring clock curves`: how each player of a match spent its clock, game by game. Reads the
//! PGN `sparring match` writes (each move's comment ends with the time it took, `0.123s`; book
//! moves say `book` and are off the clock; the `TimeControl` tag gives `base+inc` in seconds) and
//! writes one CSV row per timed move (time spent, clock left after it) and a Markdown summary per
//! player: moves, mean time per move, the clock left at the end of games (mean, smallest), time
//! forfeits, and the mean clock left after its n-th timed move (n = 10, 20, 30, 40, 60).

use super::time_control::parse_time_control;
use crate::common::games::read_games;
use shakmaty::Color;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

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
    let games = read_games(path)?;
    if let Some(note) = crate::common::games::unread_note(path, &games) {
        eprintln!("{note}");
    }
    let mut csv = String::from("game,side,player,move,spent_s,clock_left_s\n");
    let mut players: BTreeMap<String, PlayerSummary> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        let (base, inc) = g.time_control.as_deref().and_then(parse_time_control).unwrap_or((base_s, inc_s));
        let forfeit = g.termination.to_ascii_lowercase().contains("time");
        for (side, colour, name) in [(0usize, Color::White, &g.white), (1, Color::Black, &g.black)] {
            let p = players.entry(name.clone()).or_default();
            p.games += 1;
            let mut clock = base;
            let mut n = 0;
            // A game from a FEN tag may start with Black to move.
            let first = usize::from(g.mover(0) != colour);
            for &t in g.spent.iter().skip(first).step_by(2).flatten() {
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
            if forfeit && g.mover(g.spent.len()) == colour {
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
    fn a_game_from_a_black_to_move_fen_gives_each_side_its_own_times() {
        let pgn = "[White \"w\"]\n[Black \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\
                   [TimeControl \"60+0\"]\n[Termination \"time forfeit\"]\n[Result \"0-1\"]\n\n\
                   1... Kd7 { 0.5s } 2. Kd2 { 1.25s } Kc6 { 0.75s } 0-1\n";
        let path = std::env::temp_dir().join(format!("sparring-curves-{}.pgn", std::process::id()));
        std::fs::write(&path, pgn).unwrap();
        let (csv, md) = report(&path, 180.0, 0.0).unwrap();
        let _ = std::fs::remove_file(&path);
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows, vec!["0,white,w,1,1.250,58.750", "0,black,b,1,0.500,59.500", "0,black,b,2,0.750,58.750"]);
        // White is to move after the last move: White lost on time.
        assert!(md.contains("| w | 1 | 1 | 1.25 | 58.8 | 58.8 | 1 |"), "{md}");
        assert!(md.contains("| b | 1 | 2 | 0.62 | 58.8 | 58.8 | 0 |"), "{md}");
    }
}
