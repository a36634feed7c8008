//! Everything the engine prints in UCI format lives here: the protocol's replies, `info` lines,
//! `bestmove`, and the text of the engine's own commands (`d`, `go perft`, `bench`).

use super::options::{Kind, Opt};
use crate::board::Game;
use crate::board::notation::{fen, uci as uci_move, uci_line};
use crate::score::{MATE, mate_moves};
use crate::search::{Info, ScoreBound};
use shakmaty::{Move, Position};
use std::time::Duration;

pub const UCIOK: &str = "uciok";
pub const READYOK: &str = "readyok";

/// The `id` lines of the `uci` reply.
pub fn id(name: &str, author: &str) -> [String; 2] {
    [format!("id name {name}"), format!("id author {author}")]
}

/// The declaration of an option in the `uci` reply.
pub fn option(o: &Opt) -> String {
    match &o.kind {
        Kind::Spin { default, min, max } => {
            format!("option name {} type spin default {default} min {min} max {max}", o.name)
        }
        Kind::Check { default } => format!("option name {} type check default {default}", o.name),
        Kind::Button => format!("option name {} type button", o.name),
        Kind::Str { default } => {
            let d = if default.is_empty() { "<empty>" } else { default };
            format!("option name {} type string default {d}", o.name)
        }
        Kind::Combo { default, vars } => {
            let v: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
            format!("option name {} type combo default {default} {}", o.name, v.join(" "))
        }
    }
}

/// `info string` lines, one per line of `s`.
pub fn info_string(s: &str) -> Vec<String> {
    s.lines().map(|l| format!("info string {l}")).collect()
}

/// The report of a new game's seed.
pub fn seed(seed: u64) -> String {
    format!("seed {seed} (replay this game with setoption name Seed value {seed})")
}

/// `Human Time` switched on.
pub fn human_time_on(tag: &str, description: &str) -> String {
    format!("Human Time: on ({tag}: {description}); weak settings with a clock wait like a person before bestmove")
}

/// `Human Time` asked for without a usable model.
pub fn human_time_unavailable(why: &str) -> String {
    format!(
        "Human Time: no usable time model ({why}); Human Time stays off until a valid Human Time File is set or the path is cleared"
    )
}

/// A time model file loaded (`path` empty: the built-in one).
pub fn human_time_file_loaded(path: &str, tag: &str) -> String {
    if path.is_empty() {
        format!("Human Time File: cleared; the built-in {tag} is used")
    } else {
        format!("Human Time File: loaded {path}: {tag}")
    }
}

/// The whole time a `Human Time` move takes (search included), printed with `debug on`.
pub fn human_time_planned(total: Duration) -> String {
    format!("Human Time: thinking {} ms", total.as_millis())
}

/// A time model file refused.
pub fn human_time_file_rejected(why: &str) -> String {
    format!(
        "Human Time File rejected: {why}; Human Time is off (set a valid file or clear the path, then switch it on)"
    )
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
        uci_line(i.pv)
    )
}

pub fn bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", uci_move(b), uci_move(p)),
        (Some(b), None) => format!("bestmove {}", uci_move(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// `go perft N`: one line per root move, then the total.
pub fn perft(divide: &[(Move, u64)], elapsed: Duration) -> Vec<String> {
    let mut lines: Vec<String> = divide.iter().map(|&(m, n)| format!("{}: {n}", uci_move(m))).collect();
    let total: u64 = divide.iter().map(|&(_, n)| n).sum();
    let ms = elapsed.as_millis().max(1) as u64;
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total} ({} nps)", total * 1000 / ms));
    lines
}

/// The last line of `bench`.
pub fn bench_total(nodes: u64, nps: u64) -> String {
    format!("{nodes} nodes {nps} nps")
}

/// `d`: the board, FEN, key, checkers, the `position` start and the table result.
pub fn board(game: &Game, root_fen: &str, tablebase: &str) -> Vec<String> {
    let pos = game.pos();
    let board = pos.board();
    let mut lines = vec![String::new()];
    for rank in (0..8).rev() {
        lines.push(" +---+---+---+---+---+---+---+---+".into());
        let mut row = String::from(" |");
        for file in 0..8 {
            let sq = shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = board.piece_at(sq).map_or(' ', |p| p.char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        lines.push(row);
    }
    lines.push(" +---+---+---+---+---+---+---+---+".into());
    lines.push("   a   b   c   d   e   f   g   h".into());
    lines.push(String::new());
    lines.push(format!("Fen: {}", fen(pos)));
    lines.push(format!("Key: {:016X}", game.key()));
    let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines.push(format!("Start: {root_fen} (+{} moves)", game.keys_len()));
    lines.push(tablebase.to_string());
    lines
}
