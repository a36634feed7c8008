//! Human time use: how long a person of a given rating thinks about a move, given the clock, the
//! game's progress and how hard the position looks (the `Human Time` UCI option).
//!
//! - [`features`]: the situation of a move as a feature vector, with the cheap difficulty look.
//! - [`model`]: the parameter file and the distribution (instant mass + log-normal).
//! - this module: the built-in file (`profiles/human/time-v3.toml`, fitted on real clocks of
//!   FIDE-rated players in online rapid and blitz events, 2020-22, by `sparring clock fit`, with
//!   the search's looks; v2 (the same fit on the retired generation 1's looks) and v1 (a normal
//!   residual) stay loadable as files and see this search's looks), the
//!   seeded draw ([`planned`]) and the safety bounds ([`Clock::bound`]) that keep a waiting
//!   player from ever losing on time.
//!
//! The draw comes from the decision stream tagged [`TAG`] (`profiles/SEEDING.md`), so the same
//! `Seed`, setting, position and clock give the same planned time on any machine. Nothing here
//! changes which move is played: the move is decided first, the time only delays `bestmove`.

pub mod features;
pub mod model;

pub use features::{Difficulty, Situation};
pub use model::{Prediction, TimeModel};

use crate::profile::Manifest;
use shakmaty::Chess;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The shipped model's file, relative to `profiles/`.
pub const FILE: &str = "human/time-v3.toml";
/// The name in the file and the manifest.
pub const NAME: &str = "human-time";
/// The seed stream tag of the planned time.
pub const TAG: &str = crate::seed::tags::TIME;

const TEXT: &str = include_str!("../../profiles/human/time-v3.toml");

/// Never plan less than this (when the clock allows it).
pub const FLOOR: Duration = Duration::from_millis(100);
/// Never plan more than this, whatever the clock.
pub const CAP: Duration = Duration::from_secs(240);
/// At most this share of the usable clock (scaled down below [`LOW_CLOCK`]), plus
/// [`INC_SHARE`] of the increment ...
pub const CLOCK_SHARE: f64 = 0.35;
/// ... (share of the increment) ...
pub const INC_SHARE: f64 = 1.0;
/// ... and never more than this share of the usable clock in all.
pub const MAX_CLOCK_SHARE: f64 = 0.8;
/// Below this usable clock the clock share shrinks in proportion (at 1 s: 3.5 %), so that a player
/// short of time answers almost at once, as people do, and the search's own time is what remains.
pub const LOW_CLOCK: Duration = Duration::from_secs(10);

/// The embedded file's text.
pub fn builtin_text() -> &'static str {
    TEXT
}

/// The built-in model, parsed and checked against the manifest once.
pub fn builtin() -> Result<Arc<TimeModel>, String> {
    static MODEL: OnceLock<Result<Arc<TimeModel>, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            Manifest::builtin().check_file(FILE, TEXT)?;
            let m = TimeModel::parse(TEXT).map_err(|e| format!("{FILE}: {e}"))?;
            if m.name != NAME {
                return Err(format!("{FILE}: model is named '{}', expected '{NAME}'", m.name));
            }
            Ok(Arc::new(m))
        })
        .clone()
}

/// A parameter file from disk (for experiments; not checked against the manifest).
pub fn load(path: &std::path::Path) -> Result<Arc<TimeModel>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let one_line = |e: String| e.split_whitespace().collect::<Vec<_>>().join(" ");
    TimeModel::parse(&text).map(Arc::new).map_err(|e| format!("{}: {}", path.display(), one_line(e)))
}

/// The time the model draws for `situation` in `pos` (seconds, before any bound), from the
/// decision stream ([`TAG`]) of `match_seed` and the position.
pub fn planned(model: &TimeModel, situation: &Situation, match_seed: u64, pos: &Chess) -> f64 {
    let mut rng = crate::seed::decision_rng_for(match_seed, pos, TAG);
    model.predict(&situation.features()).draw(&mut rng)
}

/// The clock of the side to move, as `go` gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub left: Duration,
    pub inc: Duration,
    /// `Move Overhead`.
    pub overhead: Duration,
}

impl Clock {
    /// The clock less the overhead.
    pub fn usable(&self) -> Duration {
        self.left.saturating_sub(self.overhead)
    }

    /// The longest a move may take in all: [`CLOCK_SHARE`] of the usable clock (times
    /// `usable / LOW_CLOCK` below [`LOW_CLOCK`]) plus [`INC_SHARE`] of the increment, at most
    /// [`MAX_CLOCK_SHARE`] of the usable clock and [`CAP`]. Whatever is planned, the clock after
    /// the move keeps at least 20 % of what was usable, plus the overhead and the increment.
    pub fn limit(&self) -> Duration {
        let usable = self.usable().as_secs_f64();
        let low = (usable / LOW_CLOCK.as_secs_f64()).min(1.0);
        let share = usable * CLOCK_SHARE * low + self.inc.as_secs_f64() * INC_SHARE;
        Duration::from_secs_f64(share.min(usable * MAX_CLOCK_SHARE).min(CAP.as_secs_f64()).max(0.0))
    }

    /// A planned time (seconds) within the bounds: at most [`Clock::limit`], at least [`FLOOR`]
    /// (or the limit, when that is smaller).
    pub fn bound(&self, planned_s: f64) -> Duration {
        let limit = self.limit();
        let planned = if planned_s.is_finite() && planned_s > 0.0 {
            Duration::from_secs_f64(planned_s.min(CAP.as_secs_f64()))
        } else {
            Duration::ZERO
        };
        planned.max(FLOOR).min(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left_ms: u64, inc_ms: u64) -> Clock {
        Clock {
            left: Duration::from_millis(left_ms),
            inc: Duration::from_millis(inc_ms),
            overhead: Duration::from_millis(30),
        }
    }

    #[test]
    fn the_builtin_model_loads() {
        let m = builtin().unwrap();
        assert_eq!(m.name, NAME);
    }

    #[test]
    fn bounds_keep_a_reserve() {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let near = |d: Duration, want_ms: f64| (ms(d) - want_ms).abs() < 0.01;
        // 1 s, no increment: 35 % of 970 ms, times 0.097 (short of time).
        assert!(near(clock(1000, 0).bound(100.0), 970.0 * 0.35 * 0.097), "{:?}", clock(1000, 0).bound(100.0));
        // 20 s: the full 35 %.
        assert!(near(clock(20_030, 0).bound(100.0), 7000.0));
        // A floor, unless the limit is smaller than it.
        assert_eq!(clock(10_000, 0).bound(0.0), FLOOR);
        assert!(near(clock(1000, 0).bound(0.0), 970.0 * 0.35 * 0.097));
        assert_eq!(clock(20, 0).bound(5.0), Duration::ZERO);
        // With an increment larger than the clock, 80 % of the usable clock.
        assert!(near(clock(1030, 2000).bound(100.0), 800.0));
        // Never more than the cap.
        assert_eq!(clock(100_000_000, 0).bound(1e9), CAP);
        assert_eq!(clock(10_000, 0).bound(f64::NAN), FLOOR);
        assert!(near(clock(60_030, 0).bound(2.5), 2500.0));
    }
}
