//! Driving one UCI engine process: start-up handshake, options, new games, searches with clocks,
//! `info` and `bestmove` parsing, and fault detection (exit, hang, late answers).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
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

/// What an engine reported while searching (the last `info` line with a score).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Centipawns from the engine's point of view.
    pub score_cp: Option<i32>,
    /// Mate in N moves (negative: being mated), from the engine's point of view.
    pub score_mate: Option<i32>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

impl SearchInfo {
    /// A comparable score in centipawns; mates map to ±(100000 - moves).
    pub fn score_for_adjudication(&self) -> Option<i32> {
        if let Some(m) = self.score_mate { Some(if m > 0 { 100_000 - m } else { -100_000 - m }) } else { self.score_cp }
    }

    fn absorb(&mut self, line: &str) {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let mut i = 1;
        let mut new = SearchInfo { pv: Vec::new(), ..Default::default() };
        let mut has_score = false;
        let mut has_pv = false;
        let mut bound = false;
        while i < toks.len() {
            let next = |j: usize| toks.get(j).copied().unwrap_or("");
            match toks[i] {
                "depth" => {
                    new.depth = next(i + 1).parse().ok();
                    i += 2;
                }
                "seldepth" => {
                    new.seldepth = next(i + 1).parse().ok();
                    i += 2;
                }
                "nodes" => {
                    new.nodes = next(i + 1).parse().ok();
                    i += 2;
                }
                "score" => {
                    match next(i + 1) {
                        "cp" => new.score_cp = next(i + 2).parse().ok(),
                        "mate" => new.score_mate = next(i + 2).parse().ok(),
                        _ => {}
                    }
                    has_score = new.score_cp.is_some() || new.score_mate.is_some();
                    i += 3;
                    if matches!(next(i), "lowerbound" | "upperbound") {
                        bound = true;
                        i += 1;
                    }
                }
                "pv" => {
                    new.pv = toks[i + 1..].iter().map(|s| s.to_string()).collect();
                    has_pv = true;
                    break;
                }
                "string" => return,
                _ => i += 1,
            }
        }
        if let Some(d) = new.depth {
            self.depth = Some(d);
        }
        if new.seldepth.is_some() {
            self.seldepth = new.seldepth;
        }
        if new.nodes.is_some() {
            self.nodes = new.nodes;
        }
        if has_score && !bound {
            self.score_cp = new.score_cp;
            self.score_mate = new.score_mate;
        }
        if has_pv {
            self.pv = new.pv;
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

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// Could not be spawned, or did not finish the `uci`/`isready` handshake in time.
    FailedStart(String),
    /// The process exited or closed its output.
    Crashed(String),
    /// Stopped answering (no `bestmove`/`readyok` within the allowance); it has been killed.
    Stalled(String),
    /// The match was interrupted while waiting.
    Interrupted,
}

enum Line {
    Text(String),
    Eof,
}

/// A running UCI engine.
pub struct UciEngine {
    pub config: EngineConfig,
    /// The engine's `id name`.
    pub id_name: Option<String>,
    /// Names of the options it declared.
    pub declared_options: Vec<String>,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Line>,
}

impl UciEngine {
    /// Starts the process and completes the handshake (`uci` … `uciok`, options, `isready` …
    /// `readyok`).
    pub fn start(config: &EngineConfig, halt: &AtomicBool) -> Result<UciEngine, EngineFault> {
        let mut cmd = Command::new(&config.cmd);
        cmd.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            // Own process group: a Ctrl-C in the terminal reaches the match runner, not the engines.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child =
            cmd.spawn().map_err(|e| EngineFault::FailedStart(format!("cannot run '{}': {e}", config.cmd)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::Eof);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(Line::Text(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut e = UciEngine { config: config.clone(), id_name: None, declared_options: Vec::new(), child, stdin, rx };
        let to_start = |f: EngineFault| match f {
            EngineFault::Crashed(m) | EngineFault::Stalled(m) | EngineFault::FailedStart(m) => {
                EngineFault::FailedStart(m)
            }
            EngineFault::Interrupted => EngineFault::Interrupted,
        };
        e.send("uci").map_err(to_start)?;
        let deadline = Instant::now() + config.start_timeout;
        loop {
            match e.recv_until(deadline, halt) {
                Ok(l) => {
                    if l == "uciok" {
                        break;
                    }
                    if let Some(n) = l.strip_prefix("id name ") {
                        e.id_name = Some(n.trim().to_string());
                    } else if let Some(rest) = l.strip_prefix("option name ") {
                        let name = rest.split(" type ").next().unwrap_or(rest).trim();
                        e.declared_options.push(name.to_string());
                    }
                }
                Err(EngineFault::Stalled(_)) => {
                    e.kill();
                    return Err(EngineFault::FailedStart(format!(
                        "no 'uciok' within {:.1} s",
                        config.start_timeout.as_secs_f64()
                    )));
                }
                Err(f) => {
                    e.kill();
                    return Err(to_start(f));
                }
            }
        }
        for (name, value) in &config.options {
            e.send(&format!("setoption name {name} value {value}")).map_err(to_start)?;
        }
        e.sync(halt).map_err(|f| {
            e.kill();
            to_start(f)
        })?;
        Ok(e)
    }

    /// Whether the engine declared option `name` (case-insensitive, as UCI option names are).
    pub fn has_option(&self, name: &str) -> bool {
        self.declared_options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineFault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineFault::Crashed(format!("cannot write to engine: {e}")))
    }

    fn recv_until(&mut self, deadline: Instant, halt: &AtomicBool) -> Result<String, EngineFault> {
        loop {
            if halt.load(Ordering::Relaxed) {
                return Err(EngineFault::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineFault::Stalled("engine stopped responding".into()));
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.rx.recv_timeout(slice) {
                Ok(Line::Text(s)) => return Ok(s),
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|_| "unknown status".into());
                    return Err(EngineFault::Crashed(format!("engine exited ({status})")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self, halt: &AtomicBool) -> Result<(), EngineFault> {
        self.send("isready")?;
        let deadline = Instant::now() + self.config.start_timeout;
        loop {
            match self.recv_until(deadline, halt) {
                Ok(l) if l == "readyok" => return Ok(()),
                Ok(_) => {}
                Err(EngineFault::Stalled(_)) => {
                    self.kill();
                    return Err(EngineFault::Stalled("no 'readyok' in time".into()));
                }
                Err(f) => return Err(f),
            }
        }
    }

    /// Prepares a new game: the `Seed` option (if declared and a seed is given), `ucinewgame`,
    /// `isready`.
    pub fn new_game(&mut self, seed: Option<u64>, halt: &AtomicBool) -> Result<(), EngineFault> {
        if let Some(s) = seed
            && self.has_option("Seed")
        {
            self.send(&format!("setoption name Seed value {s}"))?;
        }
        self.send("ucinewgame")?;
        self.sync(halt)
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
    ) -> Result<SearchOutcome, EngineFault> {
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let allowance = match budget {
            Some(b) => b + self.config.timemargin + self.config.hang_timeout,
            None => self.config.hang_timeout,
        };
        let deadline = start + allowance;
        let mut info = SearchInfo::default();
        loop {
            match self.recv_until(deadline, halt) {
                Ok(l) => {
                    if l.starts_with("info ") {
                        info.absorb(&l);
                    } else if let Some(rest) = l.strip_prefix("bestmove") {
                        let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                        return Ok(SearchOutcome { bestmove: mv, info, elapsed: start.elapsed() });
                    }
                }
                Err(EngineFault::Stalled(_)) => {
                    self.kill();
                    return Err(EngineFault::Stalled(format!("no 'bestmove' within {:.2} s", allowance.as_secs_f64())));
                }
                Err(f) => return Err(f),
            }
        }
    }

    /// Kills the process (no-op if it already exited).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit` and gives the engine a moment to exit before killing it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
