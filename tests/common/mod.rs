//! Shared helpers for the integration tests: drive the real `sparring` binary over pipes, and find
//! `../shared/data`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// `../shared/data/<rel>` if it exists; otherwise prints why the test is skipped and returns None.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: ../shared/data/{rel} not found (a fresh clone has no ../shared; CI has it)");
        None
    }
}

pub struct Uci {
    pub child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    pub transcript: Vec<String>,
}

impl Uci {
    pub fn start() -> Uci {
        Self::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> Uci {
        Self::start_program(env!("CARGO_BIN_EXE_sparring"), args)
    }

    /// Starts another build of the engine (e.g. a recorded baseline binary).
    pub fn start_program(program: &str, args: &[&str]) -> Uci {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start sparring");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Uci { child, stdin, rx, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `pred`; returns all lines read (the last one matching).
    pub fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => {
                    self.transcript.push(l.clone());
                    let done = pred(&l);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out after {timeout:?} waiting; got: {lines:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; got: {lines:#?}")
                }
            }
        }
    }

    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.wait_for(timeout, |l| l.starts_with("bestmove"));
        let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        (mv, lines)
    }

    pub fn isready(&mut self) {
        self.send("isready");
        self.wait_for(Duration::from_secs(10), |l| l == "readyok");
    }

    /// Lines that arrive within `d` (for checking that nothing unexpected is printed).
    pub fn drain(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut v = Vec::new();
        while let Ok(l) = self.rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            v.push(l);
        }
        v
    }

    /// Waits for the process to exit; returns its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                return st.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Is `mv` (UCI notation) legal after `position_cmd` ("startpos moves ..." or "fen ...")?
pub fn is_legal_after(position_args: &str, mv: &str) -> bool {
    use shakmaty::Position;
    let args: Vec<&str> = position_args.split_whitespace().collect();
    let (root, _, moves) = sparring::uci::parse_position(&args).expect("valid position");
    let mut pos = root;
    for m in moves {
        pos.play_unchecked(m);
    }
    mv.parse::<shakmaty::uci::UciMove>().ok().and_then(|u| u.to_move(&pos).ok()).is_some()
}
