//! An outside engine for the human-likeness bench: its move in a position, or a MultiPV analysis
//! (on top of `uci::client`).

use super::types::Score;
use crate::uci::client::UciClient;
use std::collections::HashMap;
use std::time::Duration;

pub struct UciEngine {
    client: UciClient,
    /// The engine's `id name`, or its command when it sent none.
    pub name: String,
}

/// How long an engine may think about one position (the oracle's deep MultiPV searches included)
/// before it counts as hung.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(3600);

impl UciEngine {
    /// Starts `cmd` (split on whitespace: program and arguments), runs the `uci` handshake and
    /// sets the options.
    pub fn start(cmd: &str, options: &[(String, String)]) -> Result<UciEngine, String> {
        let mut client = UciClient::spawn(cmd, ENGINE_TIMEOUT)?;
        let name = client.name().unwrap_or(cmd).to_string();
        for (k, v) in options {
            client.set_option(k, v)?;
        }
        client.sync()?;
        Ok(UciEngine { client, name })
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.client.send(line)
    }

    fn read_line(&mut self) -> Result<String, String> {
        self.client.recv()
    }

    /// `isready` … `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.client.sync()
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
