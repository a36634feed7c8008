//! Shared helpers for the evaluator tests: FEN parsing and the shared position files.
#![allow(dead_code)]

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Parses a FEN, accepting positions shakmaty calls "impossible check"; None when unusable.
pub fn try_pos(fen: &str) -> Option<Chess> {
    let f: Fen = fen.parse().ok()?;
    f.into_position(CastlingMode::Standard).or_else(shakmaty::PositionError::ignore_impossible_check).ok()
}

pub fn pos(fen: &str) -> Chess {
    let f: Fen = fen.parse().unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    f.into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("illegal FEN {fen}: {e}"))
}

/// Hand-written positions that always exist, whatever the shared data holds.
pub const HAND: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "8/5pk1/6p1/3P4/8/6P1/5PK1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/1R3PPP/6K1 b - - 0 1",
    "r4rk1/1pp2ppp/p1n5/3Np3/4P3/8/PPP2PPP/2KR3R w - - 0 1",
    "4k3/8/8/3b4/8/8/3B1P2/4K3 w - - 0 1",
    "8/8/4k3/8/8/3K4/8/4N3 b - - 0 1",
    "2kr3r/pp3ppp/8/8/1b6/8/PPP2PPP/R1B1K2R w KQ - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "8/1P6/8/8/8/8/k7/4K3 w - - 0 1",
    "r1b2rk1/pp1n1pp1/2p1p2p/q2n4/2BP4/2N2N2/PPQ2PPP/2KR3R b - - 0 12",
];

/// Positions from ../shared/data (perft suite and WAC), or None when the files are missing.
pub fn shared_positions() -> Option<Vec<Chess>> {
    let perft =
        std::fs::read_to_string(concat!(env!("SPARRING_REPO"), "/../shared/data/perft/perftsuite-126.epd")).ok()?;
    let wac = std::fs::read_to_string(concat!(env!("SPARRING_REPO"), "/../shared/data/tactical/wac-300.epd")).ok()?;
    let mut out = Vec::new();
    for line in perft.lines() {
        let fen = line.split(';').next().unwrap_or("").trim();
        out.extend(try_pos(fen));
    }
    for line in wac.lines() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.len() == 4 {
            out.extend(try_pos(&format!("{} 0 1", fields.join(" "))));
        }
    }
    Some(out)
}

/// Hand-written positions plus the shared ones when available.
pub fn all_positions() -> Vec<Chess> {
    let mut v: Vec<Chess> = HAND.iter().map(|f| pos(f)).collect();
    match shared_positions() {
        Some(s) => v.extend(s),
        None => println!("skipped: ../shared/data not found"),
    }
    v
}

/// Positions out of check from seeded random play-outs (no data files needed): from each game of
/// at most `plies` random moves, every `every`-th position from ply `first` on.
pub fn random_positions(seed: u64, n: usize, plies: usize, first: usize, every: usize) -> Vec<Chess> {
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};
    use shakmaty::Position;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Chess::default();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u32() as usize) % moves.len()];
            pos.play_unchecked(m);
            if ply >= first && ply % every == 0 && !pos.is_check() {
                out.push(pos.clone());
            }
        }
    }
    out.truncate(n);
    out
}
