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
            let t = mt.saturating_sub(overhead).max(MIN_TIME_BUDGET);
            return TimeManager { start, soft: Some(t), hard: Some(t) };
        }
        if let Some(time) = limits.time {
            let avail = time.saturating_sub(overhead).max(MIN_TIME_BUDGET);
            let mtg = limits.movestogo.unwrap_or(SUDDEN_DEATH_MOVES_TO_GO).clamp(1, MAX_MOVES_TO_GO);
            let share = avail / mtg + limits.inc * INCREMENT_PERCENT / 100;
            let cap = avail * MAX_TIME_FRACTION / 100;
            let soft = share.min(cap).max(MIN_TIME_BUDGET);
            let hard_max = avail * HARD_LIMIT_MAX_PERCENT / 100;
            let hard = (soft * HARD_LIMIT_FACTOR).min(hard_max).max(soft);
            // With one move left before the control, the hard limit may reach its cap at once.
            let hard = if limits.movestogo == Some(1) { hard.max(hard_max) } else { hard };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(movestogo: Option<u32>) -> Limits {
        Limits {
            time: Some(Duration::from_millis(10_000)),
            inc: Duration::from_millis(100),
            movestogo,
            ..Default::default()
        }
    }

    fn soft_ms(l: &Limits) -> u128 {
        TimeManager::new(l, Duration::from_millis(30)).soft.unwrap().as_millis()
    }

    #[test]
    fn sudden_death_shares_the_clock_over_forty_moves() {
        // 9 970 ms / 40 + 75 ms (issue 59: it was 9 970 ms / 16 + 75 ms = 698 ms).
        assert_eq!(soft_ms(&limits(None)), 324);
        let tm = TimeManager::new(&limits(None), Duration::from_millis(30));
        assert_eq!(tm.hard.unwrap().as_millis(), 1297);
        // An explicit movestogo is honoured: 9 970 ms / 10 + 75 ms.
        assert_eq!(soft_ms(&limits(Some(10))), 1072);
    }

    /// Issue 59: at 60+0 the full-strength engine spent 7.6 s on move 4 and had 2.6 s left at move
    /// 40. Spending each move's soft limit, a 60+0 clock now keeps over a third at move 40 and a
    /// fifth at move 60 (the front-loaded share kept 7.6 % and 2.1 %); spending the stretched limit
    /// of an unstable best move (250 %) every move, still over 7 % at move 40.
    #[test]
    fn a_sudden_death_clock_is_not_spent_early() {
        let left_after = |moves: u32, stretch: u32| {
            let mut clock = Duration::from_secs(60);
            for _ in 0..moves {
                let l = Limits { time: Some(clock), ..Default::default() };
                let tm = TimeManager::new(&l, Duration::from_millis(30));
                clock -= (tm.soft.unwrap() * stretch / 100).min(tm.hard.unwrap());
            }
            clock.as_secs_f64() / 60.0
        };
        assert!(left_after(40, 100) > 0.35, "{}", left_after(40, 100));
        assert!(left_after(60, 100) > 0.20, "{}", left_after(60, 100));
        assert!(left_after(40, 250) > 0.07, "{}", left_after(40, 250));
    }

    #[test]
    fn the_last_move_before_the_control_may_use_three_quarters_of_the_clock() {
        // (10 000 ms - 30 ms) * 75 / 100, and 9 970 ms * 40 / 100 + 75 ms capped at 40 % for the soft limit.
        let tm = TimeManager::new(&limits(Some(1)), Duration::from_millis(30));
        assert_eq!((tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis()), (3988, 7477));
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let l = Limits { movetime: Some(Duration::from_millis(500)), ..Default::default() };
        let tm = TimeManager::new(&l, Duration::from_millis(30));
        assert_eq!((tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis()), (470, 470));
    }
}
