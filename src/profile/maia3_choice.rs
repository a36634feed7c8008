//! The human move model v7 (Maia-3, [`crate::human::maia3`]) in a level's choice: a ladder whose
//! `human_model` is 7 takes `ln P_human` from Maia-3 instead of v6, asked at the point's own model
//! ratings (`model_elo`, `model_oppo_elo` on the Lichess blitz scale, interpolated between points;
//! absent: the point's Elo, unmapped — the fitted map comes with the ladder refit on v7). A known
//! `UCI_Opponent` rating replaces the opponent input; the game's last 8 positions from the
//! `position` command are the model's history (a position alone otherwise).
//!
//! The log-probabilities are over the moves asked about (the root moves) and rounded to a 2⁻¹⁶
//! grid before they enter the choice. If the built-in weights could not be read (a corrupt
//! build), the level falls back to v6 and says so once on stderr.

use super::ladder::LadderPoint;
use crate::board::Game;
use crate::human::maia3::{self, History, math};
use shakmaty::Move;
use std::sync::Arc;
use std::time::Duration;

/// The version number a ladder names for Maia-3.
pub const VERSION: u32 = maia3::VERSION;

/// A clock (time left plus 20 increments) below which a level asks v6 instead of Maia-3: one Maia-3
/// answer takes 15-60 ms on a busy core, v6's about a millisecond, and a short clock must never wait for it.
pub const SHORT_CLOCK: Duration = Duration::from_secs(2);
/// A `movetime` below which a level asks v6 instead of Maia-3 (the same reason).
pub const SHORT_MOVETIME: Duration = Duration::from_millis(200);

/// Whether a `go` with time left `time`, increment `inc` and `movetime` leaves room for Maia-3
/// (no clock at all does). The rule reads only the numbers `go` gives, so a seeded game replays.
pub fn clock_allows(time: Option<Duration>, inc: Duration, movetime: Option<Duration>) -> bool {
    time.is_none_or(|t| t + inc * 20 >= SHORT_CLOCK) && movetime.is_none_or(|m| m >= SHORT_MOVETIME)
}

#[derive(Clone, Debug)]
pub struct Maia3Choice {
    /// The player-to-move rating input (Lichess blitz scale).
    pub self_elo: f64,
    /// The opponent rating input (the point's, or `UCI_Opponent`'s when known).
    pub oppo_elo: f64,
    /// The game's positions up to the one to move in (None: the position alone).
    pub history: Option<Arc<History>>,
}

impl PartialEq for Maia3Choice {
    fn eq(&self, other: &Self) -> bool {
        self.self_elo == other.self_elo
            && self.oppo_elo == other.oppo_elo
            && match (&self.history, &other.history) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.tokens() == b.tokens(),
                _ => false,
            }
    }
}

/// Checks a ladder's model fields: a named model must load, model ratings lie in 0..=5000.
pub fn validate(human_model: Option<u32>, points: &[LadderPoint]) -> Result<(), String> {
    match human_model {
        Some(VERSION) => {
            maia3::builtin()?;
        }
        Some(v) => {
            super::human_model::builtin(v)?;
        }
        None => {}
    }
    for p in points {
        for r in [p.model_elo, p.model_oppo_elo].into_iter().flatten() {
            if !(0.0..=5000.0).contains(&r) {
                return Err(format!("point {}: model rating {r} outside 0..=5000", p.elo));
            }
        }
    }
    Ok(())
}

impl Maia3Choice {
    /// `ln P_human(m)` for each of `moves` in `game`'s position, the softmax over `moves`, on the
    /// 2⁻¹⁶ grid; None when the model cannot be had (the caller falls back to v6).
    pub fn log_probs(&self, game: &Game, moves: &[Move]) -> Option<Vec<f64>> {
        let model = match maia3::builtin() {
            Ok(m) => m,
            Err(e) => {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| eprintln!("{e}; the human move model v6 is used instead"));
                return None;
            }
        };
        let alone;
        let history = match &self.history {
            Some(h) if h.current() == game.pos() => h.as_ref(),
            _ => {
                alone = History::position(game.pos().clone());
                &alone
            }
        };
        let dist = model.distribution(history, self.self_elo.round() as i64, self.oppo_elo.round() as i64);
        let lp: Vec<f64> =
            moves.iter().map(|m| dist.iter().find(|d| d.mv == *m).map_or(f64::NEG_INFINITY, |d| d.log_prob)).collect();
        // Renormalised over the moves asked about (all legal moves when MultiPV is all).
        let max = lp.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            return None;
        }
        let sum: f64 = lp.iter().map(|x| math::exp64(x - max)).sum();
        let z = max + math::ln64(sum);
        Some(lp.iter().map(|x| maia3::on_grid(x - z)).collect())
    }
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn a_short_clock_or_movetime_leaves_maia3_out() {
        let ms = Duration::from_millis;
        assert!(clock_allows(None, Duration::ZERO, None), "no clock: Maia-3");
        assert!(clock_allows(Some(ms(2000)), Duration::ZERO, None));
        assert!(!clock_allows(Some(ms(1999)), Duration::ZERO, None));
        // An increment counts twenty times: 1 s + 50 ms a move is room enough.
        assert!(clock_allows(Some(ms(1000)), ms(50), None));
        assert!(!clock_allows(Some(ms(1000)), ms(49), None));
        assert!(clock_allows(None, Duration::ZERO, Some(ms(200))));
        assert!(!clock_allows(None, Duration::ZERO, Some(ms(199))));
        assert!(!clock_allows(Some(ms(60_000)), Duration::ZERO, Some(ms(100))), "either limit");
    }
}
