//! Games with clocks: the moves, the `[%clk h:mm:ss.s]` comment after each, the players' ratings
//! and the event, read with pgn-reader; and the time control of each game, inferred from its
//! event's first clocks (the FIDE file has no `TimeControl` tag).

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Move, Position};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;

/// One game as the time tools need it.
#[derive(Clone, Debug, Default)]
pub struct ClockGame {
    pub event: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    /// `TimeControl` tag, when there is one (`base+inc` in seconds).
    pub time_control: Option<String>,
    pub moves: Vec<Move>,
    /// The clock after each move (seconds), as far as every move had one.
    pub clocks: Vec<f64>,
    /// A SAN that did not parse or was illegal: the game is cut there.
    pub error: Option<String>,
}

impl ClockGame {
    /// The moves that have a clock.
    pub fn timed_plies(&self) -> usize {
        self.clocks.len().min(self.moves.len())
    }
}

/// `[%clk h:mm:ss(.s)]` in a comment, seconds.
pub fn parse_clk(comment: &str) -> Option<f64> {
    let i = comment.find("[%clk")?;
    let rest = comment[i + 5..].trim_start();
    let end = rest.find(']')?;
    let mut secs = 0.0;
    for part in rest[..end].trim().split(':') {
        let v: f64 = part.parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        secs = secs * 60.0 + v;
    }
    Some(secs)
}

/// `base+inc` (seconds) from a `TimeControl` tag like `180+2`.
pub fn parse_time_control(tag: &str) -> Option<(f64, f64)> {
    let (b, i) = tag.split_once('+')?;
    Some((b.trim().parse().ok()?, i.trim().parse().ok()?))
}

struct Collector;

struct Movetext {
    game: ClockGame,
    pos: Chess,
    /// A move without a clock was seen: no later clock is used.
    gap: bool,
}

impl Visitor for Collector {
    type Tags = ClockGame;
    type Movetext = Movetext;
    type Output = ClockGame;

    fn begin_tags(&mut self) -> ControlFlow<ClockGame, ClockGame> {
        ControlFlow::Continue(ClockGame::default())
    }

    fn tag(&mut self, tags: &mut ClockGame, name: &[u8], value: RawTag<'_>) -> ControlFlow<ClockGame> {
        let text = || value.decode_utf8_lossy().trim().to_string();
        match name {
            b"Event" => tags.event = text(),
            b"WhiteElo" => tags.white_elo = text().parse().ok(),
            b"BlackElo" => tags.black_elo = text().parse().ok(),
            b"TimeControl" => tags.time_control = Some(text()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: ClockGame) -> ControlFlow<ClockGame, Movetext> {
        ControlFlow::Continue(Movetext { game: tags, pos: Chess::default(), gap: false })
    }

    fn san(&mut self, mt: &mut Movetext, san: SanPlus) -> ControlFlow<ClockGame> {
        if mt.game.error.is_some() {
            return ControlFlow::Continue(());
        }
        if mt.game.clocks.len() < mt.game.moves.len() {
            mt.gap = true;
        }
        match san.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.game.moves.push(m);
                mt.pos.play_unchecked(m);
            }
            Err(e) => mt.game.error = Some(format!("ply {}: {san}: {e}", mt.game.moves.len())),
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, mt: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<ClockGame> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        if !mt.gap
            && mt.game.clocks.len() + 1 == mt.game.moves.len()
            && let Some(c) = parse_clk(&text)
        {
            mt.game.clocks.push(c);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> ClockGame {
        mt.game
    }
}

/// Every game of a PGN file, in file order.
pub fn read(path: &Path) -> Result<Vec<ClockGame>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut Collector).map_err(|e| format!("{}: {e}", path.display()))? {
        games.push(g);
    }
    Ok(games)
}

/// The larger of a game's first two clocks (each is base − spent + inc, so at most base + inc),
/// in whole seconds; `None` without two clocks.
pub fn first_clock(game: &ClockGame) -> Option<u32> {
    (game.timed_plies() >= 2).then(|| game.clocks[0].max(game.clocks[1]).round() as u32)
}

/// The largest gain of a player's clock from one of their moves to their next (a move takes no
/// less than nothing, so the increment is at least this); `None` for a short game.
pub fn max_gain(game: &ClockGame) -> Option<f64> {
    let c = &game.clocks[..game.timed_plies()];
    (c.len() >= 10).then(|| (2..c.len()).map(|i| c[i] - c[i - 2]).fold(f64::NEG_INFINITY, f64::max))
}

/// An event's time control from its games' first clocks and clock gains: the increment is the
/// larger of what the most common first clock says (its seconds above whole minutes) and the
/// 90th percentile of the games' largest gains rounded up (online clocks add a little lag, and a
/// first move may have been timed, so neither alone is reliable); the base is the most common
/// first clock less the increment, rounded to whole minutes.
pub fn event_time_control(first_clocks: &[u32], gains: &[f64]) -> Option<(u32, u32)> {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for &c in first_clocks {
        *counts.entry(c).or_default() += 1;
    }
    let (&mode, _) = counts.iter().max_by_key(|&(c, n)| (*n, *c))?;
    let mode_inc = mode % 60;
    let mode_inc = if mode_inc > 30 { 0 } else { mode_inc };
    let mut g: Vec<f64> = gains.iter().copied().filter(|x| x.is_finite()).collect();
    g.sort_by(f64::total_cmp);
    let gain_inc = g.get(g.len() * 9 / 10).map_or(0, |&q| (q - 0.05).ceil().max(0.0) as u32);
    let inc = mode_inc.max(gain_inc);
    let base = ((f64::from(mode) - f64::from(inc)) / 60.0).round() as u32 * 60;
    (base >= 60).then_some((base, inc))
}

/// The time control of each game (base, inc in seconds): its `TimeControl` tag, else its event's
/// ([`event_time_control`]).
pub fn time_controls(games: &[ClockGame]) -> Vec<Option<(f64, f64)>> {
    let mut by_event: BTreeMap<&str, (Vec<u32>, Vec<f64>)> = BTreeMap::new();
    for g in games {
        let e = by_event.entry(g.event.as_str()).or_default();
        e.0.extend(first_clock(g));
        e.1.extend(max_gain(g));
    }
    let tc: BTreeMap<&str, (u32, u32)> =
        by_event.into_iter().filter_map(|(e, (f, g))| event_time_control(&f, &g).map(|tc| (e, tc))).collect();
    games
        .iter()
        .map(|g| {
            if let Some(tc) = g.time_control.as_deref().and_then(parse_time_control) {
                return Some(tc);
            }
            tc.get(g.event.as_str()).map(|&(b, i)| (f64::from(b), f64::from(i)))
        })
        .collect()
}

/// `blitz` or `rapid` by FIDE's rule on the time for 60 moves (base + 60 × inc): under 10 minutes
/// is blitz.
pub fn category(base_s: f64, inc_s: f64) -> &'static str {
    if base_s + 60.0 * inc_s < 600.0 { "blitz" } else { "rapid" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_comments_parse() {
        assert_eq!(parse_clk("[%clk 0:03:02.0]"), Some(182.0));
        assert_eq!(parse_clk(" [%clk 1:00:00] "), Some(3600.0));
        assert_eq!(parse_clk("[%eval 0.3] [%clk 0:00:05.5]"), Some(5.5));
        assert_eq!(parse_clk("[%clk x]"), None);
        assert_eq!(parse_clk("no clock"), None);
        assert_eq!(parse_time_control("180+2"), Some((180.0, 2.0)));
        assert_eq!(category(180.0, 2.0), "blitz");
        assert_eq!(category(600.0, 5.0), "rapid");
    }

    #[test]
    fn event_time_controls_come_from_first_clocks_and_gains() {
        // 3+2 with lag: gains reach only 1.4 s, the first clocks say 182.
        assert_eq!(event_time_control(&[182, 182, 180, 179], &[1.2, 1.3, 0.9, 1.4]), Some((180, 2)));
        // 10+3 where many first moves were timed: the gains tell the increment.
        let gains = [2.2, 2.3, 2.1, 2.0, 1.9, 2.2, 2.4, 2.2, 2.3, 2.2];
        assert_eq!(event_time_control(&[601, 601, 603, 602], &gains), Some((600, 3)));
        assert_eq!(event_time_control(&[910, 910], &[9.9, 10.0]), Some((900, 10)));
        assert_eq!(event_time_control(&[], &[]), None);
    }
}
