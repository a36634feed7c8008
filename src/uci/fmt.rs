//! Everything the engine prints in UCI format lives here.

use crate::search::{Info, MATE, ScoreBound, mate_moves};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Move};

pub fn uci_move(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// `cp N` or `mate N`.
pub fn score(s: i32) -> String {
    match mate_moves(s) {
        Some(n) => format!("mate {n}"),
        None if s.abs() >= MATE => "cp 0".to_string(),
        None => format!("cp {s}"),
    }
}

pub fn info(i: &Info) -> String {
    let ms = i.time.as_millis() as u64;
    let nps = (i.nodes * 1000).checked_div(ms).unwrap_or(i.nodes * 1000);
    let bound = match i.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let pv: Vec<String> = i.pv.iter().map(|&m| uci_move(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        i.depth,
        i.seldepth.max(i.depth),
        i.multipv,
        score(i.score),
        bound,
        i.nodes,
        nps,
        i.hashfull,
        i.tbhits,
        ms,
        pv.join(" ")
    )
}

pub fn bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", uci_move(b), uci_move(p)),
        (Some(b), None) => format!("bestmove {}", uci_move(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}
