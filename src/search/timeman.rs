//! Time management: a soft limit checked between iterations and a hard limit checked inside the
//! search. `Move Overhead` is subtracted from every budget so the engine never loses on time.

use super::Limits;
use super::parameters::*;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct TimeManager {
    pub start: Instant,
    /// Don't start another iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search after this.
    pub hard: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, overhead: Duration) -> TimeManager {
        let start = Instant::now();
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager { start, soft: Some(t), hard: Some(t) };
        }
        if let Some(time) = limits.time {
            let avail = time.saturating_sub(overhead).max(Duration::from_millis(1));
            let mtg = limits.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, MAX_MOVES_TO_GO);
            let share = avail / mtg + limits.inc * 3 / 4;
            let cap = avail * MAX_TIME_FRACTION / 100;
            let soft = share.min(cap).max(Duration::from_millis(1));
            let hard = (soft * HARD_LIMIT_FACTOR).min(avail * 3 / 4).max(soft);
            // With one move left before the control, the whole remainder (less overhead) is usable.
            let hard = if limits.movestogo == Some(1) { hard.max(avail * 3 / 4) } else { hard };
            return TimeManager { start, soft: Some(soft), hard: Some(hard) };
        }
        TimeManager { start, soft: None, hard: None }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Restart the clock (at `ponderhit`).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Should another iteration start? `scale` (percent) stretches the soft limit when the best move
    /// is unstable and shrinks it when it is settled.
    pub fn soft_expired(&self, scale: u32) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s * scale / 100)
    }
}
