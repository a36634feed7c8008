//! A small synchronous UCI client for tools that ask another engine one question at a time: the
//! strength estimator's outside oracle (`estimate::oracle::UciOracle`) and the human-likeness
//! bench's engines (`humanlike::engine::UciEngine`). It starts the process, runs the `uci`
//! handshake, sends lines, reads lines with a timeout and makes sure the process is gone when it
//! is dropped. The match runner has its own driver (`arena::engine`), which adds clocks, fault
//! classification and restarts.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a dropped client waits for `quit` to end the process before killing it.
const QUIT_GRACE: Duration = Duration::from_millis(500);

pub struct UciClient {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: Option<String>,
    timeout: Duration,
}

impl UciClient {
    /// Starts `command` (split on whitespace: program, then arguments) and runs the handshake up
    /// to `uciok`. Every later read waits at most `timeout` for a line.
    pub fn spawn(command: &str, timeout: Duration) -> Result<UciClient, String> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or("empty engine command")?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start UCI engine '{command}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = child.stdout.take().ok_or("no engine stdout")?;
        let (tx, lines) = channel();
        // A reader thread, so that reads can time out; it ends when the engine closes its output.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = UciClient { command: command.to_string(), child, stdin, lines, name: None, timeout };
        c.send("uci")?;
        loop {
            let line = c.recv()?;
            if let Some(name) = line.strip_prefix("id name ") {
                c.name = Some(name.trim().to_string());
            }
            if line.trim() == "uciok" {
                return Ok(c);
            }
        }
    }

    /// The command line the engine was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The engine's `id name`, if it sent one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("UCI engine '{}': write failed: {e}", self.command))
    }

    /// The next line from the engine, or an error when it stays silent for the timeout or exits.
    pub fn recv(&mut self) -> Result<String, String> {
        self.lines.recv_timeout(self.timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => {
                format!("UCI engine '{}' sent nothing for {} s", self.command, self.timeout.as_secs())
            }
            RecvTimeoutError::Disconnected => format!("UCI engine '{}' closed its output", self.command),
        })
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        while self.recv()?.trim() != "readyok" {}
        Ok(())
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
