//! `sparring solve FILE.epd`: runs a test suite of EPD positions (`bm`/`am` opcodes, e.g. WAC or
//! STS) at a fixed time or depth per position and reports how many the engine solves.

use shakmaty::san::San;
use shakmaty::{Chess, Move};
use sparring::board::{Game, parse_fen};
use sparring::search::{Limits, Searcher};
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

/// Runs an EPD test suite (`bm`/`am` opcodes, e.g. WAC or STS) with the newest search and prints
/// one line per position and the number solved.
#[derive(clap::Parser, Debug)]
#[command(name = "sparring solve")]
pub struct Args {
    /// The EPD file.
    pub file: String,
    /// Time per position in milliseconds (unless --depth is given).
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Fixed search depth per position instead of a time.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
}

pub fn main(args: Args) -> ExitCode {
    let Args { file, movetime, depth, hash } = args;
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
            Some(d) => Limits { depth: Some(d), ..Default::default() },
            None => Limits { movetime: Some(Duration::from_millis(movetime)), ..Default::default() },
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
            played.map_or("0000".into(), sparring::board::notation::uci),
            r.depth,
            sparring::score::Score::from_internal(r.score).uci()
        );
    }
    let secs = start.elapsed().as_secs_f64().max(0.001);
    println!("solved {solved}/{total}  nodes {nodes}  nps {}", (nodes as f64 / secs) as u64);
    ExitCode::SUCCESS
}
