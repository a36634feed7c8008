//! PGN and EPD output for finished games.

use super::game::{GameRecord, MoveRecord};
use shakmaty::Color;
use sparring::score::Score;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn pgn_date() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (the classic era-based conversion).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The per-move comment: `{+0.35/12 0.123s}` (score in pawns from the mover's point of view,
/// `+M3`/`-M2` for mates), `{book}` for book moves.
pub fn move_comment(m: &MoveRecord) -> String {
    if m.book {
        return "book".into();
    }
    let mut c = String::new();
    match m.info.score {
        Some(Score::Mate(mate)) => c.push_str(&if mate > 0 { format!("+M{mate}") } else { format!("-M{}", -mate) }),
        Some(Score::Cp(cp)) => c.push_str(&format!("{:+.2}", f64::from(cp) / 100.0)),
        None => {}
    }
    if let Some(d) = m.info.depth {
        if !c.is_empty() {
            c.push('/');
        }
        c.push_str(&d.to_string());
    }
    if !c.is_empty() {
        c.push(' ');
    }
    c.push_str(&format!("{:.3}s", m.time.as_secs_f64()));
    c
}

/// Formats one game as PGN (tags, movetext wrapped at 79 columns, blank line after).
pub fn format_game(g: &GameRecord, event: &str, date: &str) -> String {
    format_game_as(g, event, date, false)
}

/// [`format_game`], or with `min` (cutechess-cli's `-pgnout FILE min`) the minimal PGN: the seven
/// roster tags (and `FEN`/`SetUp` for a book position), the moves and the result, no comments.
pub fn format_game_as(g: &GameRecord, event: &str, date: &str, min: bool) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    };
    tag("Event", event);
    tag("Site", "?");
    tag("Date", date);
    tag("Round", &(g.index + 1).to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.pgn());
    if let Some(f) = &g.opening.root_fen {
        tag("FEN", f);
        tag("SetUp", "1");
    }
    if let (false, Some(e)) = (min, &g.opening.eco) {
        tag("ECO", e);
    }
    if let (false, Some(n)) = (min, &g.opening.name) {
        tag("Opening", n);
    }
    if !min {
        if g.white_tc == g.black_tc {
            tag("TimeControl", &g.white_tc);
        } else {
            tag("WhiteTimeControl", &g.white_tc);
            tag("BlackTimeControl", &g.black_tc);
        }
        tag("Termination", g.termination.tag());
        tag("PlyCount", &g.moves.len().to_string());
        tag("Seed", &g.seed.to_string());
    }
    s.push('\n');

    let root = &g.opening.root;
    let mut turn = shakmaty::Position::turn(root);
    let mut number = shakmaty::Position::fullmoves(root).get();
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}. {}", m.san));
        } else if i == 0 {
            tokens.push(format!("{number}... {}", m.san));
        } else {
            tokens.push(m.san.clone());
        }
        if !min {
            tokens.push(format!("{{{}}}", move_comment(m)));
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    if !min && !g.reason.is_empty() {
        tokens.push(format!("{{{}}}", g.reason.replace('}', ")")));
    }
    tokens.push(g.result.pgn().to_string());
    let mut line = String::new();
    for t in tokens {
        // Keep "N. SAN" and comments whole; wrap between tokens.
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// The EPD output line for a game: its final position.
pub fn format_epd(g: &GameRecord) -> String {
    format!("{}\n", g.final_fen)
}
