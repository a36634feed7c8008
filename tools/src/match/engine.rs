//! Driving one UCI engine process: start-up handshake, options, new games, searches with clocks,
//! the merged `info` of a search, and fault detection (exit, hang, late answers), on top of
//! `common::process`.

use crate::common::info::Info;
use crate::common::process::{EngineProcess, Fault, Spawn};
use sparring::score::Score;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How one engine is started and configured (one `-engine` group merged with `-each`).
#[derive(Clone, Debug, Default)]
pub struct EngineConfig {
    pub name: String,
    pub cmd: String,
    pub dir: Option<PathBuf>,
    pub args: Vec<String>,
    /// `setoption name NAME value VALUE`, sent in order after `uciok`.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// Extra time an engine may use beyond its clock before it forfeits (cutechess `timemargin`).
    pub timemargin: Duration,
    /// How long to wait for `uciok` and for each `readyok`.
    pub start_timeout: Duration,
    /// How long beyond its deadline a searching engine may stay silent before it is declared
    /// hung and killed; for searches without a clock (nodes/depth only) the whole allowance.
    pub hang_timeout: Duration,
}

/// A time control, per engine. Any combination of a clock (`tc`), a fixed time per move (`st`),
/// and node and depth limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Moves per period (0: the whole game), base time per period and increment per move.
    pub clock: Option<Clock>,
    /// Fixed time per move (`st=`), sent as `go movetime`.
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub moves: u32,
    pub base: Duration,
    pub inc: Duration,
}

impl TimeControl {
    /// Parses cutechess `tc=` values: `40/60+0.6`, `10+0.1`, `60`, `1:30+1`, `inf`.
    pub fn parse_tc(s: &str) -> Result<Option<Clock>, String> {
        if s == "inf" || s == "infinite" {
            return Ok(None);
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| format!("bad moves in time control '{s}'"))?, r),
            None => (0, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_secs = match base.split_once(':') {
            Some((m, sec)) => {
                let m: f64 = m.parse().map_err(|_| format!("bad time control '{s}'"))?;
                let sec: f64 = sec.parse().map_err(|_| format!("bad time control '{s}'"))?;
                m * 60.0 + sec
            }
            None => base.parse().map_err(|_| format!("bad time control '{s}'"))?,
        };
        let inc_secs: f64 = match inc {
            Some(i) => i.parse().map_err(|_| format!("bad increment in '{s}'"))?,
            None => 0.0,
        };
        if !(base_secs >= 0.0 && inc_secs >= 0.0) || (base_secs == 0.0 && inc_secs == 0.0) {
            return Err(format!("time control '{s}' gives no time"));
        }
        Ok(Some(Clock { moves, base: Duration::from_secs_f64(base_secs), inc: Duration::from_secs_f64(inc_secs) }))
    }

    /// The PGN `TimeControl` tag value: `40/60+0.6`, `10+0.1`, `1/0.05` for a fixed time per move,
    /// `-` when there is no clock.
    pub fn pgn_tag(&self) -> String {
        fn secs(d: Duration) -> String {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 { format!("{}", s as u64) } else { format!("{}", (s * 1000.0).round() / 1000.0) }
        }
        if let Some(c) = &self.clock {
            let mut t = String::new();
            if c.moves > 0 {
                t.push_str(&format!("{}/", c.moves));
            }
            t.push_str(&secs(c.base));
            if !c.inc.is_zero() {
                t.push_str(&format!("+{}", secs(c.inc)));
            }
            t
        } else if let Some(mt) = self.movetime {
            format!("1/{}", secs(mt))
        } else {
            "-".to_string()
        }
    }

    /// A short human description (for the summary).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.clock.is_some() || self.movetime.is_some() {
            parts.push(match (self.movetime, self.clock) {
                (Some(mt), None) => format!("st={}", mt.as_secs_f64()),
                _ => format!("tc={}", self.pgn_tag()),
            });
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() { "none".into() } else { parts.join(" ") }
    }

    pub fn is_limited(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some() || self.nodes.is_some() || self.depth.is_some()
    }
}

/// What an engine reported while searching, merged over its `info` lines: the last depth,
/// seldepth, node count and PV reported, and the last exact (not bound) score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// From the engine's point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// A comparable score (the internal scale of `sparring::score`: mates beyond `±MATE_BOUND`).
    pub fn score_for_adjudication(&self) -> Option<i32> {
        self.score.map(Score::to_internal)
    }

    /// Merges one `info` line.
    pub fn absorb(&mut self, info: &Info) {
        if info.depth.is_some() {
            self.depth = info.depth;
        }
        if info.seldepth.is_some() {
            self.seldepth = info.seldepth;
        }
        if info.nodes.is_some() {
            self.nodes = info.nodes;
        }
        if let Some(s) = info.exact_score() {
            self.score = Some(s);
        }
        if let Some(pv) = &info.pv {
            self.pv = pv.clone();
        }
    }
}

/// The answer to one `go`.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub bestmove: String,
    pub info: SearchInfo,
    pub elapsed: Duration,
}

/// One engine of a match: its process, driven with the match's timeouts.
pub struct MatchEngine {
    pub config: EngineConfig,
    pub process: EngineProcess,
}

impl MatchEngine {
    /// Starts the process and completes the handshake (`uci` … `uciok`, options, `isready` …
    /// `readyok`); every failure is a `FailedStart` (or `Interrupted`).
    pub fn start(config: &EngineConfig, halt: &AtomicBool) -> Result<MatchEngine, Fault> {
        let spec = Spawn { program: config.cmd.clone(), args: config.args.clone(), dir: config.dir.clone() };
        let mut process = EngineProcess::start(&spec, config.start_timeout, Some(halt))?;
        process.configure(&config.options, config.start_timeout, Some(halt)).map_err(|f| {
            process.kill();
            f.at_start()
        })?;
        Ok(MatchEngine { config: config.clone(), process })
    }

    /// Prepares a new game: the `Seed` option (if declared and a seed is given), `ucinewgame`,
    /// `isready`, in one write.
    pub fn new_game(&mut self, seed: Option<u64>, halt: &AtomicBool) -> Result<(), Fault> {
        let seed_line = match seed {
            Some(s) if self.process.has_option("Seed") => Some(format!("setoption name Seed value {s}")),
            _ => None,
        };
        let mut lines: Vec<&str> = seed_line.iter().map(String::as_str).collect();
        lines.extend(["ucinewgame", "isready"]);
        self.process.send_lines(&lines)?;
        match self.process.wait_line("readyok", Instant::now() + self.config.start_timeout, Some(halt)) {
            Err(Fault::Stalled(_)) => {
                self.process.kill();
                Err(Fault::Stalled("no 'readyok' in time".into()))
            }
            r => r,
        }
    }

    /// Sends `position` and `go`, and waits for `bestmove`. `budget` is the time the engine may
    /// use by its clock (None: no clock). An answer after `budget + timemargin` is still
    /// returned (the caller judges the forfeit); no answer by then plus `hang_timeout` is a
    /// stall, and the engine is killed.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        budget: Option<Duration>,
        halt: &AtomicBool,
    ) -> Result<SearchOutcome, Fault> {
        let allowance = match budget {
            Some(b) => b + self.config.timemargin + self.config.hang_timeout,
            None => self.config.hang_timeout,
        };
        let mut info = SearchInfo::default();
        let b = self.process.search(position, go, allowance, Some(halt), |i| info.absorb(i))?;
        Ok(SearchOutcome { bestmove: b.mv, info, elapsed: b.elapsed })
    }

    /// Kills the process (no-op if it already exited).
    pub fn kill(&mut self) {
        self.process.kill();
    }

    /// Sends `quit` and gives the engine a moment to exit before killing it.
    pub fn quit(self) {
        self.process.quit();
    }
}
