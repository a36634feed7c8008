//! Perft on the shared suite through the engine's own make/unmake and incremental Zobrist path.

use crate::common;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use sparring::board::{Game, parse_fen, perft::perft};

const NODE_BUDGET: u64 = 400_000;

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn perft_suite_126() {
    let Some(path) = common::shared_data("perft/perftsuite-126.epd") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut positions = 0;
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let pos = parse_fen(fen).unwrap();
        positions += 1;
        for f in fields {
            let mut it = f.split_whitespace();
            let depth: u32 = it.next().unwrap().trim_start_matches('D').parse().unwrap();
            let expected: u64 = it.next().unwrap().parse().unwrap();
            // Every position is checked at depths 1-3 with the incremental key verified at every
            // node; deeper levels as far as the node budget allows.
            if depth > 3 && expected > NODE_BUDGET {
                continue;
            }
            let mut game = Game::new(pos.clone());
            let got = perft(&mut game, depth, depth <= 3);
            assert_eq!(got, expected, "perft({depth}) of {fen}");
            checked += 1;
        }
    }
    assert_eq!(positions, 126);
    assert!(checked >= 126 * 3, "checked {checked}");
}

#[test]
fn perft_start_position_depth_5() {
    let mut g = Game::new(Chess::default());
    assert_eq!(perft(&mut g, 5, false), 4_865_609);
}

#[test]
fn kiwipete_with_key_checks() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    let mut g = Game::new(pos);
    assert_eq!(perft(&mut g, 3, true), 97_862);
    assert_eq!(perft(&mut g, 4, false), 4_085_603);
}

/// `gives_check` agrees with playing the move out, on every move of a perft tree.
#[test]
fn gives_check_matches_play() {
    use shakmaty::Position;
    fn walk(pos: &Chess, depth: u32, n: &mut u64) {
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            assert_eq!(sparring::board::gives_check(pos, m), after.is_check(), "{m:?}");
            *n += 1;
            if depth > 1 {
                walk(&after, depth - 1, n);
            }
        }
    }
    let mut n = 0;
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        walk(&parse_fen(fen).unwrap(), 3, &mut n);
    }
    assert!(n > 100_000);
}
