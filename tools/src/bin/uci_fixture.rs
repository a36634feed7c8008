//! A deliberately simple, optionally misbehaving UCI engine for the match runner's tests.
//!
//! It plays a uniformly random legal move (seeded: the `Seed` option, or `--seed`, hashed with
//! the position), answering `go` at once. Arguments:
//!
//! ```text
//! --name NAME            id name (default "fixture")
//! --seed-option          declare the `Seed` option
//! --seed N               default seed (0)
//! --score CP             report `info depth 1 score cp CP` before each bestmove
//! --mate-first           play a mating move when there is one
//! --log FILE             append every received line to FILE
//! --mode MODE            random (default) | illegal | exit | hang | overrun | no-uciok
//! --at K                 misbehave on the K-th `go` of each game (default 1)
//! --sleep MS             overrun: sleep this long before answering (default 1000)
//! ```

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Square};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(PartialEq, Clone, Copy)]
enum Mode {
    Random,
    Illegal,
    Exit,
    Hang,
    Overrun,
    NoUciok,
}

struct Opts {
    name: String,
    seed_option: bool,
    seed: u64,
    score: Option<i32>,
    mate_first: bool,
    log: Option<String>,
    mode: Mode,
    at: u32,
    sleep_ms: u64,
}

fn parse_args() -> Opts {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Opts {
        name: "fixture".into(),
        seed_option: false,
        seed: 0,
        score: None,
        mate_first: false,
        log: None,
        mode: Mode::Random,
        at: 1,
        sleep_ms: 1000,
    };
    let mut i = 0;
    while i < a.len() {
        let val = a.get(i + 1).cloned().unwrap_or_default();
        match a[i].as_str() {
            "--name" => o.name = val,
            "--seed-option" => {
                o.seed_option = true;
                i += 1;
                continue;
            }
            "--mate-first" => {
                o.mate_first = true;
                i += 1;
                continue;
            }
            "--seed" => o.seed = val.parse().unwrap_or(0),
            "--score" => o.score = val.parse().ok(),
            "--log" => o.log = Some(val),
            "--at" => o.at = val.parse().unwrap_or(1),
            "--sleep" => o.sleep_ms = val.parse().unwrap_or(1000),
            "--mode" => {
                o.mode = match val.as_str() {
                    "illegal" => Mode::Illegal,
                    "exit" => Mode::Exit,
                    "hang" => Mode::Hang,
                    "overrun" => Mode::Overrun,
                    "no-uciok" => Mode::NoUciok,
                    _ => Mode::Random,
                }
            }
            other => {
                eprintln!("uci_fixture: unknown argument {other}");
            }
        }
        i += 2;
    }
    o
}

fn parse_position(line: &str) -> Option<Chess> {
    let rest = line.strip_prefix("position ")?.trim();
    let (root, moves) = match rest.split_once(" moves ") {
        Some((r, m)) => (r.trim(), m.trim()),
        None => (rest.trim_end_matches(" moves"), ""),
    };
    let mut pos: Chess = if root == "startpos" {
        Chess::default()
    } else {
        let f = root.strip_prefix("fen ")?;
        Fen::from_ascii(f.trim().as_bytes()).ok()?.into_position(CastlingMode::Standard).ok()?
    };
    for m in moves.split_whitespace() {
        let mv = UciMove::from_ascii(m.as_bytes()).ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

fn pick(pos: &Chess, seed: u64, mate_first: bool) -> Option<shakmaty::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if mate_first {
        for m in &moves {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            if p.is_checkmate() {
                return Some(*m);
            }
        }
    }
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let mut h = blake3::Hasher::new();
    h.update(&seed.to_le_bytes());
    h.update(fen.as_bytes());
    let d = h.finalize();
    let r = u64::from_le_bytes(d.as_bytes()[..8].try_into().unwrap());
    Some(moves[(r % moves.len() as u64) as usize])
}

fn illegal_move(pos: &Chess) -> String {
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    for from in Square::ALL {
        for to in Square::ALL {
            if from == to {
                continue;
            }
            let s = format!("{from}{to}");
            if !legal.contains(&s) {
                return s;
            }
        }
    }
    "a1a2".into()
}

fn main() {
    let o = parse_args();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut log =
        o.log.as_ref().map(|p| std::fs::OpenOptions::new().create(true).append(true).open(p).expect("log file"));
    let mut seed = o.seed;
    let mut pos = Chess::default();
    let mut gos = 0u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if let Some(l) = log.as_mut() {
            let _ = writeln!(l, "{line}");
        }
        let cmd = line.split_whitespace().next().unwrap_or("");
        match cmd {
            "uci" => {
                let _ = writeln!(out, "id name {}", o.name);
                let _ = writeln!(out, "id author sparring tests");
                if o.mode == Mode::NoUciok {
                    let _ = out.flush();
                    continue;
                }
                if o.seed_option {
                    let _ = writeln!(out, "option name Seed type spin default 0 min 0 max 9223372036854775807");
                }
                let _ = writeln!(out, "uciok");
            }
            "isready" => {
                let _ = writeln!(out, "readyok");
            }
            "setoption" => {
                let t: Vec<&str> = line.split_whitespace().collect();
                if t.len() >= 5 && t[2].eq_ignore_ascii_case("seed") {
                    seed = t[4].parse().unwrap_or(seed);
                }
            }
            "ucinewgame" => gos = 0,
            "position" => {
                if let Some(p) = parse_position(&line) {
                    pos = p;
                }
            }
            "go" => {
                gos += 1;
                let misbehave = gos == o.at;
                if misbehave {
                    match o.mode {
                        Mode::Exit => std::process::exit(3),
                        Mode::Hang => {
                            // Keep reading (and ignoring) input until it closes.
                            let _ = out.flush();
                            for _ in stdin.lock().lines() {}
                            return;
                        }
                        Mode::Overrun => std::thread::sleep(Duration::from_millis(o.sleep_ms)),
                        Mode::Illegal => {
                            let _ = writeln!(out, "bestmove {}", illegal_move(&pos));
                            let _ = out.flush();
                            continue;
                        }
                        _ => {}
                    }
                }
                if let Some(s) = o.score {
                    let _ = writeln!(out, "info depth 1 seldepth 1 score cp {s} nodes 1 time 0");
                }
                match pick(&pos, seed, o.mate_first) {
                    Some(m) => {
                        let u = m.to_uci(CastlingMode::Standard);
                        let _ = writeln!(out, "info depth 1 nodes 1 pv {u}");
                        let _ = writeln!(out, "bestmove {u}");
                    }
                    None => {
                        let _ = writeln!(out, "bestmove 0000");
                    }
                }
            }
            "quit" => break,
            _ => {}
        }
        let _ = out.flush();
    }
}
