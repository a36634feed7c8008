//! One driver for a UCI engine process, used by the match runner (`arena`), both oracles
//! (`common::oracle`), the human-likeness bench and the integration tests.
//!
//! It spawns a program, runs the `uci` … `uciok` handshake (collecting `id name` and the declared
//! options), sets options and refuses to go on when the engine rejects one, synchronises with
//! `isready` … `readyok`, sends lines and reads lines
//! with deadlines, runs one search (`position` + `go` … `bestmove`, every `info` line parsed by
//! [`super::info`]) and ends the process: `quit`, a grace period, then a kill (also on drop).
//!
//! Lines are read in the calling thread: on Unix the pipe is `poll`ed with the deadline, so a
//! line costs one wake-up and no thread hand-over (the match runner reads about a thousand `info`
//! lines per game). Every failure is a [`Fault`], classified as the match runner needs it.

use super::info::Info;
use std::fmt;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long `quit` (and a drop) waits for the process to exit before killing it.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How often a wait looks at the `halt` flag.
const HALT_SLICE: Duration = Duration::from_millis(50);

/// What to run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spawn {
    pub program: String,
    pub args: Vec<String>,
    /// Working directory (None: the caller's).
    pub dir: Option<PathBuf>,
}

impl Spawn {
    pub fn new(program: &str, args: &[String]) -> Spawn {
        Spawn { program: program.to_string(), args: args.to_vec(), dir: None }
    }

    /// A command line split on whitespace: program, then arguments.
    pub fn from_command_line(command: &str) -> Result<Spawn, String> {
        let mut parts = command.split_whitespace().map(str::to_string);
        let program = parts.next().ok_or("empty engine command")?;
        Ok(Spawn { program, args: parts.collect(), dir: None })
    }
}

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Could not be spawned, or did not finish the `uci`/`isready` handshake in time.
    FailedStart(String),
    /// The process exited or closed its output.
    Crashed(String),
    /// Stopped answering within the allowance; it has been killed.
    Stalled(String),
    /// The caller's `halt` flag was set while waiting.
    Interrupted,
}

impl Fault {
    /// The same failure, during start-up: everything but an interruption is a failed start.
    pub fn at_start(self) -> Fault {
        match self {
            Fault::Crashed(m) | Fault::Stalled(m) | Fault::FailedStart(m) => Fault::FailedStart(m),
            Fault::Interrupted => Fault::Interrupted,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::FailedStart(m) | Fault::Crashed(m) | Fault::Stalled(m) => f.write_str(m),
            Fault::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// The answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bestmove {
    /// The move text (empty when the engine sent a bare `bestmove`).
    pub mv: String,
    /// From `go` sent to `bestmove` read.
    pub elapsed: Duration,
}

/// Whether a line an engine sent after `setoption` says it refused an option: sparring's
/// `info string NAME rejected: …`, Stockfish's `No such option: NAME`, and the `info string
/// ERROR …` / `Unknown option` forms other engines use.
pub fn option_complaint(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    let text = l.strip_prefix("info string ").unwrap_or(&l);
    (l.starts_with("info string ") && (text.contains(" rejected") || text.starts_with("error")))
        || text.starts_with("no such option")
        || text.starts_with("unknown option")
}

/// A running UCI engine process.
pub struct EngineProcess {
    /// The command, for messages.
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    reader: LineReader,
    /// The engine's `id name`, once the handshake has run.
    pub id_name: Option<String>,
    /// Names of the options it declared in the handshake.
    pub declared_options: Vec<String>,
    quit_grace: Duration,
}

impl EngineProcess {
    /// Starts the process (stderr discarded, own process group on Unix so that a Ctrl-C in the
    /// terminal reaches only the caller). No handshake yet.
    pub fn spawn(spec: &Spawn) -> Result<EngineProcess, Fault> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| Fault::FailedStart(format!("cannot run '{}': {e}", spec.program)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut label = spec.program.clone();
        for a in &spec.args {
            label.push(' ');
            label.push_str(a);
        }
        Ok(EngineProcess {
            label,
            child,
            stdin: Some(stdin),
            reader: LineReader::new(stdout),
            id_name: None,
            declared_options: Vec::new(),
            quit_grace: QUIT_GRACE,
        })
    }

    /// Spawns and runs the handshake; any failure (the process killed) is a `FailedStart`.
    pub fn start(spec: &Spawn, timeout: Duration, halt: Option<&AtomicBool>) -> Result<EngineProcess, Fault> {
        let mut e = EngineProcess::spawn(spec)?;
        e.handshake(timeout, halt).inspect_err(|_| e.kill())?;
        Ok(e)
    }

    /// `uci` … `uciok`, collecting `id name` and the declared option names. Failures are
    /// `FailedStart`; the process is left running.
    pub fn handshake(&mut self, timeout: Duration, halt: Option<&AtomicBool>) -> Result<(), Fault> {
        self.send("uci").map_err(Fault::at_start)?;
        let deadline = Instant::now() + timeout;
        loop {
            let l = match self.recv_until(deadline, halt) {
                Ok(l) => l,
                Err(Fault::Stalled(_)) => {
                    return Err(Fault::FailedStart(format!("no 'uciok' within {:.1} s", timeout.as_secs_f64())));
                }
                Err(f) => return Err(f.at_start()),
            };
            let l = l.trim();
            if l == "uciok" {
                return Ok(());
            }
            if let Some(n) = l.strip_prefix("id name ") {
                self.id_name = Some(n.trim().to_string());
            } else if let Some(rest) = l.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                self.declared_options.push(name.to_string());
            }
        }
    }

    /// The command the process was started with.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The engine's `id name`, or its command when it sent none.
    pub fn name(&self) -> &str {
        self.id_name.as_deref().unwrap_or(&self.label)
    }

    /// Whether the engine declared option `name` (case-insensitive, as UCI option names are).
    pub fn has_option(&self, name: &str) -> bool {
        self.declared_options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// The process (for its id, or to kill it from outside).
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// How long `quit` and a drop wait before killing (default [`QUIT_GRACE`]).
    pub fn set_quit_grace(&mut self, grace: Duration) {
        self.quit_grace = grace;
    }

    /// Writes raw bytes to the engine's input.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), Fault> {
        // Keep the engine's output pipe from filling up while the caller only writes.
        self.reader.pump();
        let stdin = self.stdin.as_mut().ok_or_else(|| Fault::Crashed("engine input closed".into()))?;
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| Fault::Crashed(format!("cannot write to engine: {e}")))
    }

    /// Sends one line (one write, newline included).
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.send_lines(&[line])
    }

    /// Sends several lines in one write, so the engine reads them in one go.
    pub fn send_lines(&mut self, lines: &[&str]) -> Result<(), Fault> {
        let mut buf = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for l in lines {
            buf.extend_from_slice(l.as_bytes());
            buf.push(b'\n');
        }
        self.send_bytes(&buf)
    }

    /// Closes the engine's input (it sees end of file).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line (line terminator removed), waiting until `deadline`: `Stalled` when none
    /// comes, `Crashed` when the engine closed its output, `Interrupted` when `halt` is set.
    pub fn recv_until(&mut self, deadline: Instant, halt: Option<&AtomicBool>) -> Result<String, Fault> {
        loop {
            if halt.is_some_and(|h| h.load(Ordering::Relaxed)) {
                return Err(Fault::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line already buffered still counts.
                if let Got::Line(l) = self.reader.read_line(now) {
                    return Ok(l);
                }
                return Err(Fault::Stalled("engine stopped responding".into()));
            }
            let until = if halt.is_some() { deadline.min(now + HALT_SLICE) } else { deadline };
            match self.reader.read_line(until) {
                Got::Line(l) => return Ok(l),
                Got::Timeout => {}
                Got::Eof => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|_| "unknown status".into());
                    return Err(Fault::Crashed(format!("engine exited ({status})")));
                }
            }
        }
    }

    /// The next line within `timeout`.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<String, Fault> {
        self.recv_until(Instant::now() + timeout, None)
    }

    /// Reads lines until one (trimmed) equals `want`; `Stalled` (not killed) when it does not come
    /// by `deadline`.
    pub fn wait_line(&mut self, want: &str, deadline: Instant, halt: Option<&AtomicBool>) -> Result<(), Fault> {
        self.lines_until(want, deadline, halt).map(|_| ())
    }

    /// Reads lines until one (trimmed) equals `want` and returns the lines before it.
    fn lines_until(&mut self, want: &str, deadline: Instant, halt: Option<&AtomicBool>) -> Result<Vec<String>, Fault> {
        let mut before = Vec::new();
        loop {
            let line = self.recv_until(deadline, halt)?;
            if line.trim() == want {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// `isready` … `readyok` within `timeout`; an engine that does not answer is killed
    /// (`Stalled`).
    pub fn sync(&mut self, timeout: Duration, halt: Option<&AtomicBool>) -> Result<(), Fault> {
        self.sync_lines(timeout, halt).map(|_| ())
    }

    /// [`Self::sync`], returning what the engine said before `readyok`.
    fn sync_lines(&mut self, timeout: Duration, halt: Option<&AtomicBool>) -> Result<Vec<String>, Fault> {
        self.send("isready")?;
        match self.lines_until("readyok", Instant::now() + timeout, halt) {
            Err(Fault::Stalled(_)) => {
                self.kill();
                Err(Fault::Stalled("no 'readyok' in time".into()))
            }
            r => r,
        }
    }

    /// Sets every option (one write), then `isready` … `readyok`. An option the engine refused
    /// (see [`option_complaint`]) is a `FailedStart` quoting the engine, so that a run never goes
    /// on with settings other than the ones asked for (a mistyped `Avatar File` path would
    /// otherwise measure the plain point).
    pub fn configure(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
        halt: Option<&AtomicBool>,
    ) -> Result<(), Fault> {
        if !options.is_empty() {
            let lines: Vec<String> =
                options.iter().map(|(name, value)| format!("setoption name {name} value {value}")).collect();
            self.send_lines(&lines.iter().map(String::as_str).collect::<Vec<_>>())?;
        }
        let said = self.sync_lines(timeout, halt)?;
        match said.iter().find(|l| option_complaint(l)) {
            Some(complaint) => Err(Fault::FailedStart(format!("option refused: {}", complaint.trim()))),
            None => Ok(()),
        }
    }

    /// `ucinewgame`, then `isready` … `readyok` (see [`Self::sync`]).
    pub fn new_game(&mut self, timeout: Duration, halt: Option<&AtomicBool>) -> Result<(), Fault> {
        self.send("ucinewgame")?;
        self.sync(timeout, halt)
    }

    /// Sends `position` and `go` (one write) and reads until `bestmove`, handing every parsed
    /// `info` line to `on_info`. No `bestmove` within `allowance` is a stall: the engine is killed.
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        allowance: Duration,
        halt: Option<&AtomicBool>,
        mut on_info: impl FnMut(&Info),
    ) -> Result<Bestmove, Fault> {
        self.send_lines(&[position, go])?;
        let start = Instant::now();
        let deadline = start + allowance;
        loop {
            let l = match self.recv_until(deadline, halt) {
                Ok(l) => l,
                Err(Fault::Stalled(_)) => {
                    self.kill();
                    return Err(Fault::Stalled(format!("no 'bestmove' within {:.2} s", allowance.as_secs_f64())));
                }
                Err(f) => return Err(f),
            };
            let l = l.trim();
            if let Some(info) = Info::parse(l) {
                on_info(&info);
            } else if let Some(rest) = l.strip_prefix("bestmove") {
                let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                return Ok(Bestmove { mv, elapsed: start.elapsed() });
            }
        }
    }

    /// Whether the process has exited (its status once it has).
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits up to `timeout` for the process to exit by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(st) = self.try_wait() {
                return Some(st);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the process (no-op if it already exited).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `quit`, waits up to the grace period for the process to exit, then kills it.
    pub fn quit(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if self.try_wait().is_some() {
            return;
        }
        if !self.quit_grace.is_zero() && self.send("quit").is_ok() && self.wait_exit(self.quit_grace).is_some() {
            return;
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shut_down();
    }
}

enum Got {
    Line(String),
    Timeout,
    Eof,
}

/// Lines from the engine's output, read with deadlines in the calling thread.
struct LineReader {
    #[cfg(unix)]
    out: ChildStdout,
    #[cfg(not(unix))]
    rx: std::sync::mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    /// Start of the unread part of `buf`.
    pos: usize,
    eof: bool,
}

impl LineReader {
    #[cfg(unix)]
    fn new(out: ChildStdout) -> LineReader {
        LineReader { out, buf: Vec::with_capacity(8192), pos: 0, eof: false }
    }

    /// Elsewhere a thread reads the pipe and hands the chunks over.
    #[cfg(not(unix))]
    fn new(mut out: ChildStdout) -> LineReader {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 8192];
            loop {
                match out.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if tx.send(chunk[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        LineReader { rx, buf: Vec::with_capacity(8192), pos: 0, eof: false }
    }

    /// A complete line from the buffer, if there is one.
    fn take_line(&mut self) -> Option<String> {
        let rest = &self.buf[self.pos..];
        let nl = rest.iter().position(|&b| b == b'\n')?;
        let mut line = &rest[..nl];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let s = String::from_utf8_lossy(line).into_owned();
        self.pos += nl + 1;
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
        }
        Some(s)
    }

    fn read_line(&mut self, deadline: Instant) -> Got {
        loop {
            if let Some(l) = self.take_line() {
                return Got::Line(l);
            }
            if self.eof {
                // A last line without a newline still counts.
                if self.pos < self.buf.len() {
                    let s = String::from_utf8_lossy(&self.buf[self.pos..]).into_owned();
                    self.buf.clear();
                    self.pos = 0;
                    return Got::Line(s);
                }
                return Got::Eof;
            }
            match self.fill(deadline) {
                Some(0) => self.eof = true,
                Some(_) => {}
                None => return Got::Timeout,
            }
        }
    }

    /// Moves whatever output is already waiting into the buffer, without blocking.
    fn pump(&mut self) {
        while !self.eof {
            match self.fill(Instant::now()) {
                Some(0) => self.eof = true,
                Some(_) => {}
                None => return,
            }
        }
    }

    /// Reads what is available by `deadline`: `Some(0)` at end of file, `None` on timeout.
    #[cfg(unix)]
    fn fill(&mut self, deadline: Instant) -> Option<usize> {
        use std::os::fd::AsRawFd;
        let fd = self.out.as_raw_fd();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Round up, so that a wait never spins on a zero timeout before the deadline.
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            match sys::poll_in(fd, ms) {
                Ok(true) => break,
                Ok(false) if Instant::now() >= deadline => return None,
                Ok(false) => {}
                Err(_) => return Some(0),
            }
        }
        let mut chunk = [0u8; 8192];
        loop {
            match self.out.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Some(n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Some(0),
            }
        }
    }

    #[cfg(not(unix))]
    fn fill(&mut self, deadline: Instant) -> Option<usize> {
        use std::sync::mpsc::RecvTimeoutError;
        match self.rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(chunk) => {
                self.buf.extend_from_slice(&chunk);
                Some(chunk.len())
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(0),
        }
    }
}

#[cfg(unix)]
mod sys {
    //! `poll(2)` on one descriptor, declared here (libc is linked by std anyway).
    use std::os::raw::{c_int, c_short};

    #[repr(C)]
    struct PollFd {
        fd: c_int,
        events: c_short,
        revents: c_short,
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    type NFds = std::os::raw::c_ulong;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    type NFds = std::os::raw::c_uint;

    const POLLIN: c_short = 0x1;

    unsafe extern "C" {
        fn poll(fds: *mut PollFd, nfds: NFds, timeout: c_int) -> c_int;
    }

    /// Waits up to `ms` milliseconds for `fd` to be readable (or closed): `Ok(true)` when it is.
    pub fn poll_in(fd: c_int, ms: c_int) -> std::io::Result<bool> {
        let mut p = PollFd { fd, events: POLLIN, revents: 0 };
        // SAFETY: `p` is a valid, exclusively borrowed pollfd for the duration of the call, and
        // nfds = 1 matches it.
        let r = unsafe { poll(&mut p, 1, ms) };
        if r < 0 {
            let e = std::io::Error::last_os_error();
            return if e.kind() == std::io::ErrorKind::Interrupted { Ok(false) } else { Err(e) };
        }
        // POLLHUP / POLLERR also end the wait: the read then reports the end of file.
        Ok(r > 0 && p.revents != 0)
    }
}
