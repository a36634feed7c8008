//! The time control of a game: its `TimeControl` tag, or, for files without one (the FIDE online
//! file), inferred from its event's first clocks and clock gains; and FIDE's blitz/rapid rule.
//! The games themselves come from the one PGN reader, `common::games`.

use crate::common::games::GameRecord;
use std::collections::BTreeMap;

/// `(base, inc)` in seconds from a PGN `TimeControl` tag: `180+2`, a bare `60` (sudden death,
/// as the match runner writes `tc=60+0`), or a moves/seconds period like `40/5400` or
/// `40/5400:1800` (its first period's time, no increment). `?`, `-` and anything else: None.
pub fn parse_time_control(tag: &str) -> Option<(f64, f64)> {
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
    let first = tag.split(':').next()?;
    if let Some((b, i)) = first.split_once('+') {
        return Some((number(b.rsplit('/').next()?)?, number(i)?));
    }
    match first.split_once('/') {
        Some((moves, secs)) => {
            number(moves)?;
            Some((number(secs)?, 0.0))
        }
        None => Some((number(first)?, 0.0)),
    }
}

/// The larger of a game's first two clocks (each is base − spent + inc, so at most base + inc),
/// in whole seconds; `None` without two clocks.
pub fn first_clock(game: &GameRecord) -> Option<u32> {
    (game.timed_plies() >= 2).then(|| game.clocks[0].max(game.clocks[1]).round() as u32)
}

/// The largest gain of a player's clock from one of their moves to their next (a move takes no
/// less than nothing, so the increment is at least this); `None` for a short game.
pub fn max_gain(game: &GameRecord) -> Option<f64> {
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
pub fn time_controls(games: &[GameRecord]) -> Vec<Option<(f64, f64)>> {
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

/// One CSV line per game (`game,event,base_s,inc_s,category`, empty fields where no time control
/// is known), in file order after a header; the event is quoted when it holds a comma or a quote.
pub fn controls_csv(games: &[GameRecord]) -> String {
    let mut out = String::from("game,event,base_s,inc_s,category\n");
    for (i, (g, tc)) in games.iter().zip(time_controls(games)).enumerate() {
        let event = if g.event.contains([',', '"']) {
            format!("\"{}\"", g.event.replace('"', "\"\""))
        } else {
            g.event.clone()
        };
        match tc {
            Some((b, inc)) => out.push_str(&format!("{i},{event},{b},{inc},{}\n", category(b, inc))),
            None => out.push_str(&format!("{i},{event},,,\n")),
        }
    }
    out
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
    fn time_control_tags_and_categories() {
        assert_eq!(parse_time_control("180+2"), Some((180.0, 2.0)));
        // A bare number is sudden death (the PGN standard; the match runner writes `60` for 60+0).
        assert_eq!(parse_time_control("180"), Some((180.0, 0.0)));
        assert_eq!(parse_time_control("10+0.1"), Some((10.0, 0.1)));
        assert_eq!(parse_time_control("40/5400"), Some((5400.0, 0.0)));
        assert_eq!(parse_time_control("40/5400+30:1800+30"), Some((5400.0, 30.0)));
        for bad in ["?", "-", "", "abc", "60+", "+2", "-5"] {
            assert_eq!(parse_time_control(bad), None, "{bad}");
        }
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
