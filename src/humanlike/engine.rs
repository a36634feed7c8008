//! A minimal UCI client: start any engine, set options, ask for a move or a MultiPV analysis.

use super::types::Score;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    pub name: String,
}

impl UciEngine {
    /// Starts `cmd` (split on whitespace: program and arguments), runs the `uci` handshake and
    /// sets the options.
    pub fn start(cmd: &str, options: &[(String, String)]) -> Result<UciEngine, String> {
        let mut parts = cmd.split_whitespace();
        let prog = parts.next().ok_or("empty engine command")?;
        let mut child = Command::new(prog)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{cmd}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no engine stdout")?);
        let mut e = UciEngine { child, stdin, stdout, name: cmd.to_string() };
        e.send("uci")?;
        loop {
            let line = e.read_line()?;
            if let Some(n) = line.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            }
            if line.trim() == "uciok" {
                break;
            }
        }
        for (k, v) in options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|e| format!("engine write: {e}"))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(format!("engine '{}' closed its output", self.name)),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("engine read: {e}")),
        }
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        while self.read_line()?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame`, `position fen`, `go …`; returns the `bestmove` text.
    pub fn bestmove(&mut self, fen: &str, go: &str) -> Result<String, String> {
        self.send("ucinewgame")?;
        self.sync()?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go {go}"))?;
        loop {
            let line = self.read_line()?;
            let mut it = line.split_whitespace();
            if it.next() == Some("bestmove") {
                return it.next().map(str::to_string).ok_or_else(|| "empty bestmove".to_string());
            }
        }
    }

    /// MultiPV analysis at a fixed depth: the score of each root move reported at the deepest
    /// completed depth with an exact (not lower/upper bound) score. Requires `MultiPV` set large.
    pub fn analyse(&mut self, fen: &str, depth: i32) -> Result<Vec<(String, Score)>, String> {
        self.send("ucinewgame")?;
        self.sync()?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go depth {depth}"))?;
        // depth -> move -> score
        let mut by_depth: HashMap<i32, HashMap<String, Score>> = HashMap::new();
        loop {
            let line = self.read_line()?;
            let toks: Vec<&str> = line.split_whitespace().collect();
            match toks.first() {
                Some(&"bestmove") => break,
                Some(&"info") => {}
                _ => continue,
            }
            let mut d = None;
            let mut score = None;
            let mut bound = false;
            let mut first = None;
            let mut i = 1;
            while i < toks.len() {
                match toks[i] {
                    "depth" => d = toks.get(i + 1).and_then(|t| t.parse::<i32>().ok()),
                    "score" => {
                        let v = toks.get(i + 2).and_then(|t| t.parse::<i32>().ok());
                        score = match (toks.get(i + 1), v) {
                            (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                            (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                            _ => None,
                        };
                    }
                    "lowerbound" | "upperbound" => bound = true,
                    "pv" => {
                        first = toks.get(i + 1).map(|s| s.to_string());
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
            if let (Some(d), Some(s), Some(m), false) = (d, score, first, bound) {
                by_depth.entry(d).or_default().insert(m, s);
            }
        }
        let deepest = by_depth.keys().copied().max().ok_or("engine reported no scored pv")?;
        let mut out: Vec<(String, Score)> = by_depth.remove(&deepest).unwrap_or_default().into_iter().collect();
        out.sort_by_key(|(m, s)| (std::cmp::Reverse(s.order_value()), m.clone()));
        Ok(out)
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
