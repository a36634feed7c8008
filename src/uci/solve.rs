//! `sparring solve FILE.epd`: runs a test suite of EPD positions (`bm`/`am` opcodes, e.g. WAC or
//! STS) at a fixed time or depth per position and reports how many the engine solves.

use crate::board::{Game, parse_fen};
use crate::search::{Generation, Limits, Searcher};
use shakmaty::san::San;
use shakmaty::{Chess, Move};
use std::process::ExitCode;
use std::time::Duration;

/// One EPD test position.
pub struct EpdCase {
    pub id: String,
    pub pos: Chess,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
}

/// Parses an EPD line (`<4 FEN fields> op args; op args; ...`).
pub fn parse_epd(line: &str) -> Result<EpdCase, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err("fewer than 4 FEN fields".into());
    }
    let pos = parse_fen(&format!("{} 0 1", fields[..4].join(" ")))?;
    let ops = fields[4..].join(" ");
    let mut case = EpdCase { id: String::new(), pos, best: vec![], avoid: vec![] };
    for op in ops.split(';') {
        let mut it = op.split_whitespace();
        let Some(code) = it.next() else { continue };
        let args: Vec<&str> = it.collect();
        match code {
            "bm" | "am" => {
                for a in &args {
                    let san: San = a.parse().map_err(|_| format!("bad SAN '{a}'"))?;
                    let m = san.to_move(&case.pos).map_err(|_| format!("illegal SAN '{a}'"))?;
                    if code == "bm" { case.best.push(m) } else { case.avoid.push(m) }
                }
            }
            "id" => case.id = args.join(" ").trim_matches('"').to_string(),
            _ => {}
        }
    }
    if case.best.is_empty() && case.avoid.is_empty() {
        return Err("no bm or am opcode".into());
    }
    Ok(case)
}

pub fn main(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut movetime = 1000u64;
    let mut depth = None;
    let mut hash = 64usize;
    let mut i = 0;
    while i < args.len() {
        let next = args.get(i + 1).map(String::as_str);
        match (args[i].as_str(), next) {
            ("--movetime", Some(v)) => {
                movetime = v.parse().unwrap_or(movetime);
                i += 1;
            }
            ("--depth", Some(v)) => {
                depth = v.parse().ok();
                i += 1;
            }
            ("--hash", Some(v)) => {
                hash = v.parse().unwrap_or(hash);
                i += 1;
            }
            ("-h" | "--help", _) => {
                println!("usage: sparring solve FILE.epd [--movetime MS (default 1000)] [--depth D] [--hash MB]");
                return ExitCode::SUCCESS;
            }
            (f, _) if file.is_none() && !f.starts_with("--") => file = Some(f.to_string()),
            (other, _) => {
                eprintln!("sparring solve: unexpected argument '{other}'");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("usage: sparring solve FILE.epd [--movetime MS] [--depth D] [--hash MB]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sparring solve: cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut searcher = Searcher::new(hash);
    let (mut solved, mut total) = (0, 0);
    let mut nodes = 0u64;
    let start = std::time::Instant::now();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let case = match parse_epd(line) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("line {}: {e}; skipped", n + 1);
                continue;
            }
        };
        searcher.clear();
        let limits = match depth {
            Some(d) => Limits { depth: Some(d), generation: Generation::LATEST, ..Default::default() },
            None => Limits {
                movetime: Some(Duration::from_millis(movetime)),
                generation: Generation::LATEST,
                ..Default::default()
            },
        };
        let r = searcher.analyse(&Game::new(case.pos.clone()), &limits);
        nodes += r.nodes;
        let played = r.best;
        let ok = played.is_some_and(|m| (case.best.is_empty() || case.best.contains(&m)) && !case.avoid.contains(&m));
        total += 1;
        solved += usize::from(ok);
        println!(
            "{:<12} {:<6} {:>3}/{:<3} played {} depth {} score {}",
            case.id,
            if ok { "ok" } else { "FAIL" },
            solved,
            total,
            played.map_or("0000".into(), super::fmt::uci_move),
            r.depth,
            super::fmt::score(r.score)
        );
    }
    let secs = start.elapsed().as_secs_f64().max(0.001);
    println!("solved {solved}/{total}  nodes {nodes}  nps {}", (nodes as f64 / secs) as u64);
    ExitCode::SUCCESS
}
