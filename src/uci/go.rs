//! Parsing of `go`. Done here rather than by vampirc-uci because its `go` model cannot carry
//! `ponder` together with clock times, has no `perft`, and panics on numbers above 255.

use crate::search::Limits;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use std::time::Duration;

#[derive(Debug, Default)]
pub struct GoCmd {
    pub limits: Limits,
    pub ponder: bool,
    pub perft: Option<u32>,
    /// Problems with individual tokens; the rest of the command still applies.
    pub warnings: Vec<String>,
}

const KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "go",
];

/// Parses the tokens after `go`. Unknown or malformed tokens produce warnings, never errors.
pub fn parse(args: &[&str], pos: &Chess) -> GoCmd {
    let mut cmd = GoCmd::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut i = 0;
    let num = |i: &mut usize, name: &str, warnings: &mut Vec<String>| -> Option<i64> {
        let v = args.get(*i + 1).and_then(|t| t.parse::<i64>().ok());
        if v.is_some() {
            *i += 1;
        } else {
            warnings.push(format!("go: '{name}' needs an integer value; ignored"));
        }
        v
    };
    while i < args.len() {
        let w = &mut cmd.warnings;
        match args[i] {
            "ponder" => cmd.ponder = true,
            "infinite" => cmd.limits.infinite = true,
            "wtime" => wtime = num(&mut i, "wtime", w),
            "btime" => btime = num(&mut i, "btime", w),
            "winc" => winc = num(&mut i, "winc", w),
            "binc" => binc = num(&mut i, "binc", w),
            "movestogo" => cmd.limits.movestogo = num(&mut i, "movestogo", w).map(|v| v.clamp(1, 10_000) as u32),
            "depth" => cmd.limits.depth = num(&mut i, "depth", w).map(|v| v.clamp(1, 1000) as i32),
            "nodes" => cmd.limits.nodes = num(&mut i, "nodes", w).map(|v| v.max(1) as u64),
            "mate" => cmd.limits.mate = num(&mut i, "mate", w).map(|v| v.clamp(1, 1000) as u32),
            "movetime" => cmd.limits.movetime = num(&mut i, "movetime", w).map(|v| ms(v.max(1))),
            "perft" => cmd.perft = num(&mut i, "perft", w).map(|v| v.clamp(1, 20) as u32),
            "searchmoves" => {
                while let Some(tok) = args.get(i + 1) {
                    if KEYWORDS.contains(tok) {
                        break;
                    }
                    i += 1;
                    match tok.parse::<UciMove>().ok().and_then(|u| u.to_move(pos).ok()) {
                        Some(m) => cmd.limits.searchmoves.push(m),
                        None => w.push(format!("go searchmoves: '{tok}' is not a legal move; ignored")),
                    }
                }
            }
            other => w.push(format!("go: unknown token '{other}' ignored")),
        }
        i += 1;
    }
    let (time, inc) = match pos.turn() {
        Color::White => (wtime, winc),
        Color::Black => (btime, binc),
    };
    // A negative clock (some GUIs send it when a flag fell) is treated as "almost no time".
    cmd.limits.time = time.map(|t| ms(t.max(1)));
    cmd.limits.inc = inc.map_or(Duration::ZERO, |v| ms(v.max(0)));
    cmd
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v as u64)
}
