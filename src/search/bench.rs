//! The bench: a fixed-depth search of fixed positions from a clean state. The total node count is
//! the behaviour signature of the search and evaluation; quote it in commits that change either.

use crate::board::Game;
use crate::search::{Limits, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 11;

/// Opening, middlegame, tactical and endgame positions.
pub const POSITIONS: [&str; 32] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2qkb1r/pppb2pp/2np1n2/5pN1/2BQP3/2N5/PPP2PPP/R1B1K2R w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 5",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/1QN1PN2/PP2BPPP/R1B2RK1 w - - 4 9",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPP3PP/R2Q1R1K w - - 0 14",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "1r1r2k1/4pp1p/2p1b1p1/p3R3/RqBP4/4P3/1PQ2PPP/6K1 b - - 0 1",
    "6k1/6p1/p7/3Pn3/5p2/4rBqP/P4RP1/5QK1 b - - 0 1",
    "r2q3r/ppp2k2/4nbp1/5Q1p/2P1NB2/8/PP3P1P/3RR1K1 w - - 0 1",
    "6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1",
    "6rk/1pp2Qrp/3p1B2/1pb1p2R/3n1q2/3P4/PPP3PP/R6K w - - 0 1",
    "2r3k1/q4ppp/p3p3/pnNp4/2rP4/2P2P2/4R1PP/2R1Q1K1 b - - 0 1",
    "3r2k1/p1rn1p1p/1p2pp2/6q1/3PQNP1/5P2/P1P4R/R5K1 w - - 0 1",
    "r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1",
    "r4rk1/1bq1bp1p/4p1p1/p2p4/3BnP2/1N1B3R/PPP3PP/R2Q2K1 w - - 0 1",
    "k5r1/p4b2/2P5/5p2/3P1P2/4QBrq/P5P1/4R1K1 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/1n4N1/2k5/8/8/5K2/1N4n1/8 w - - 0 1",
    "7k/RR6/8/8/8/8/rr6/7K w - - 0 1",
    "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1",
    "k7/7p/8/8/8/8/6P1/K7 w - - 0 1",
    "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
    "8/8/1p3k2/p1p2p2/P1P2P2/1P3K2/8/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/5PK1/6P1/4R3 w - - 0 1",
    "2r5/5pk1/4p1p1/3pP3/r2P1P2/5K2/R5PP/2R5 b - - 0 1",
    "8/8/4k3/3n4/8/2K5/1B6/8 w - - 0 1",
    "4r1k1/1p3ppp/p1p5/8/2P5/1P3P2/P4KPP/3R4 w - - 0 1",
    "r1bqr1k1/pp3pbp/2np1np1/2p5/4P3/2NP1NP1/PPP2PBP/R1BQR1K1 w - - 0 10",
    "3rr1k1/pp3ppp/2n1b3/q1pp4/8/P1NPP1P1/1PQ2PBP/R4RK1 w - - 0 15",
];

pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
    pub millis: u64,
}

/// Searches every position to `depth` from a cleared 16 MB table, reporting each through `line`.
pub fn run(depth: i32, mut line: impl FnMut(&str)) -> BenchResult {
    let mut searcher = Searcher::new(16);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos: Chess = match fen.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()) {
            Some(p) => p,
            None => {
                line(&format!("info string bench position {} is invalid: {fen}", i + 1));
                continue;
            }
        };
        searcher.clear();
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let r = searcher.analyse(&Game::new(pos), &limits);
        nodes += r.nodes;
        line(&format!(
            "info string bench {:>2}/{} {:>10} nodes  score {}  best {}  {fen}",
            i + 1,
            POSITIONS.len(),
            r.nodes,
            crate::score::Score::from_internal(r.score).uci(),
            r.best.map_or("0000".to_string(), crate::board::notation::uci)
        ));
    }
    let millis = start.elapsed().as_millis().max(1) as u64;
    BenchResult { nodes, nps: nodes * 1000 / millis, millis }
}
