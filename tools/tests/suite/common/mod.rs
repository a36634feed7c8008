//! Shared helpers for the integration tests: drive the real `sparring` binary over pipes (with the
//! tools' process driver), and find `../shared/data`.
#![allow(dead_code)]

use sparring_tools::common::process::{EngineProcess, Fault, Spawn};
use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

/// The repository root (this suite belongs to the tools crate in `tools/`; paths in tests, and the
/// working directory of every process they start, are the repository's).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("SPARRING_REPO"))
}

/// `Command::new(program)` started in the repository root, as a user runs the tools.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut c = std::process::Command::new(program);
    c.current_dir(repo());
    c
}

/// `../shared/data/<rel>` if it exists; otherwise prints why the test is skipped and returns None.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("SPARRING_REPO")).join("../shared/data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: ../shared/data/{rel} not found (a fresh clone has no ../shared; CI has it)");
        None
    }
}

/// The real `sparring` binary over pipes, on `sparring_tools::common::process::EngineProcess`; every
/// failure panics (these are tests).
pub struct Uci {
    engine: EngineProcess,
    pub transcript: Vec<String>,
}

impl Uci {
    pub fn start() -> Uci {
        Self::start_with_args(&[])
    }

    /// Started and set to `UCI_Elo elo` with `Seed seed` (not yet `isready`).
    pub fn start_level(elo: i32, seed: u64) -> Uci {
        let mut uci = Self::start();
        uci.send("uci");
        uci.send("setoption name UCI_LimitStrength value true");
        uci.send(&format!("setoption name UCI_Elo value {elo}"));
        uci.send(&format!("setoption name Seed value {seed}"));
        uci
    }

    pub fn start_with_args(args: &[&str]) -> Uci {
        Self::start_program(env!("CARGO_BIN_EXE_sparring"), args)
    }

    /// Starts another build of the engine (e.g. a recorded baseline binary).
    pub fn start_program(program: &str, args: &[&str]) -> Uci {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let mut spawn = Spawn::new(program, &args);
        spawn.dir = Some(repo());
        let mut engine = EngineProcess::spawn(&spawn).expect("start sparring");
        // Dropped helpers kill at once.
        engine.set_quit_grace(Duration::ZERO);
        Uci { engine, transcript: Vec::new() }
    }

    /// The process.
    pub fn child(&mut self) -> &mut Child {
        self.engine.child()
    }

    pub fn send(&mut self, line: &str) {
        self.engine.send(line).expect("stdin open");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.engine.send_bytes(bytes).expect("stdin open");
    }

    pub fn close_stdin(&mut self) {
        self.engine.close_stdin();
    }

    /// Reads lines until one satisfies `pred`; returns all lines read (the last one matching).
    pub fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.engine.recv_until(deadline, None) {
                Ok(l) => {
                    self.transcript.push(l.clone());
                    let done = pred(&l);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(Fault::Stalled(_)) => panic!("timed out after {timeout:?} waiting; got: {lines:#?}"),
                Err(_) => panic!("engine closed its output; got: {lines:#?}"),
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
        while let Ok(l) = self.engine.recv_until(deadline, None) {
            v.push(l);
        }
        v
    }

    /// Waits for the process to exit; returns its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        match self.engine.wait_exit(timeout) {
            Some(st) => st.code(),
            None => {
                self.engine.kill();
                panic!("engine did not exit within {timeout:?}");
            }
        }
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
