//! The `Human Time` option: a weak setting that has chosen its move waits the time a person of its
//! rating would take in that position with that clock (`crate::human_time`), then answers. The
//! move is decided before and without it; `stop`, `quit` and `ponderhit` end the wait at once.

use crate::board::Game;
use crate::human_time::{self, Clock, Situation, TimeModel};
use crate::player::{Player, Setting};
use crate::search::{Control, Limits, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The rating the time model uses for a profile: the `UCI_Elo` it plays like on the built-in
/// ladder (`bench/profile-scale.sh`, 300 games each against three points of ladder v16, rounded to
/// 50: `club` 1467 [1421, 1511], `reduced` 1785 [1745, 1821]); `random`, below the ladder's floor, as
/// the weakest band people play in.
pub fn profile_rating(name: &str) -> f64 {
    match name {
        "random" => 1000.0,
        "club" => 1450.0,
        _ => 1800.0,
    }
}

/// The option's state: on or off, and the model in use (or why there is none).
pub struct HumanTimeState {
    pub on: bool,
    /// The model from `Human Time File`, the built-in one, or the reason there is none.
    pub model: Result<Arc<TimeModel>, String>,
}

impl HumanTimeState {
    pub fn new() -> HumanTimeState {
        HumanTimeState { on: false, model: human_time::builtin() }
    }

    /// The model when the option is on and one is loaded.
    pub fn active(&self) -> Option<Arc<TimeModel>> {
        if self.on { self.model.as_ref().ok().cloned() } else { None }
    }
}

impl Default for HumanTimeState {
    fn default() -> Self {
        Self::new()
    }
}

/// Everything the search thread needs to wait like a person.
pub struct Wait {
    pub model: Arc<TimeModel>,
    pub rating: f64,
    pub clock: Clock,
    /// The position before the opponent's last move, when the `position` command had one.
    pub prev: Option<Game>,
}

impl Wait {
    /// A wait for this `go`, when it applies: the option on with a model, a weak setting, a clock,
    /// and none of `ponder`, `infinite`, `movetime`, `nodes`, `depth`, `mate`.
    pub fn for_go(
        model: Option<Arc<TimeModel>>,
        player: &Player,
        limits: &Limits,
        ponder: bool,
        overhead: Duration,
        prev: Option<Game>,
    ) -> Option<Wait> {
        let model = model?;
        if player.is_full_strength()
            || ponder
            || limits.infinite
            || limits.movetime.is_some()
            || limits.nodes.is_some()
            || limits.depth.is_some()
            || limits.mate.is_some()
        {
            return None;
        }
        let left = limits.time?;
        let rating = match &player.setting {
            Setting::Level(l) => f64::from(l.elo),
            Setting::Profile(p) => profile_rating(&p.name),
        };
        Some(Wait { model, rating, clock: Clock { left, inc: limits.inc, overhead }, prev })
    }

    /// The whole time this move should take (search included), bounded by the clock; the
    /// difficulty looks run on `look` (the engine's look searcher).
    pub fn planned(&self, look: &mut Searcher, game: &Game, match_seed: u64) -> Duration {
        let prev_best = self.prev.as_ref().and_then(|prev| human_time::features::look_best(look, prev));
        let pos = game.pos();
        let situation = Situation {
            rating: self.rating,
            clock_s: self.clock.left.as_secs_f64(),
            inc_s: self.clock.inc.as_secs_f64(),
            fullmove: shakmaty::Position::fullmoves(pos).get(),
            phase: human_time::features::phase(pos),
            difficulty: human_time::features::look(look, game, prev_best),
        };
        self.clock.bound(human_time::planned(&self.model, &situation, match_seed, pos))
    }
}

/// Sleeps until `start + total`, or until `stop` or `hurry` (a `ponderhit`) is signalled; checks
/// every millisecond.
pub fn wait_until(start: Instant, total: Duration, control: &Control, hurry: &AtomicBool) {
    while start.elapsed() < total && !control.stopped() && !hurry.load(Ordering::SeqCst) {
        let left = total.saturating_sub(start.elapsed());
        std::thread::sleep(left.min(Duration::from_millis(1)));
    }
}
