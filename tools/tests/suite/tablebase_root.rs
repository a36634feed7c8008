//! Root probing: playing the table move for both sides converts wins within the 50-move rule
//! and never loses a drawn position; ranks and clock awareness.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};
use sparring::tablebase::{TB_WIN, TB_WIN_BOUND, Tablebases, Wdl, is_tb_score};
use std::path::Path;

const DATA: &str = concat!(env!("SPARRING_REPO"), "/../shared/data/syzygy/3-4");

fn tables() -> Option<Tablebases> {
    if !Path::new(DATA).is_dir() {
        println!("skipped: ../shared/data not found");
        return None;
    }
    let mut tb = Tablebases::new();
    tb.set_path(DATA).expect("3-4 tables load");
    Some(tb)
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[derive(Debug, PartialEq, Eq)]
enum End {
    Mate { winner: Color },
    Draw(&'static str),
}

/// Plays until the game ends; `choose` picks the move for each position.
fn play_out(tb: &Tablebases, fen: &str, mut choose: impl FnMut(&Chess) -> shakmaty::Move) -> End {
    let mut pos = position(fen);
    for _ in 0..600 {
        if pos.is_checkmate() {
            return End::Mate { winner: !pos.turn() };
        }
        if pos.is_stalemate() {
            return End::Draw("stalemate");
        }
        if pos.is_insufficient_material() {
            return End::Draw("insufficient material");
        }
        if pos.halfmoves() >= 100 {
            return End::Draw("50-move rule");
        }
        assert!(tb.can_probe(&pos), "{fen}: left the tables");
        let mv = choose(&pos);
        pos.play_unchecked(mv);
    }
    panic!("{fen}: no result after 600 plies")
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn won_endgames_are_converted_by_both_sides_playing_the_tables() {
    let Some(tb) = tables() else { return };
    let won = [
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", "KQvK"),
        ("8/8/8/8/4k3/8/8/R3K3 w - - 0 1", "KRvK"),
        ("8/8/8/8/4k3/8/8/R3K3 w - - 74 60", "KRvK, 74 halfmoves already"),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", "KPvK"),
        ("8/8/8/8/1k6/8/2r5/3QK3 w - - 0 1", "KQvKR"),
        ("8/8/8/3k4/8/8/6r1/Q3K3 w - - 0 1", "KQvKR"),
        ("8/8/8/3k4/8/8/6r1/Q3K3 b - - 0 1", "KRvKQ (skewer)"),
        ("8/8/8/4k3/8/8/8/2BNK3 w - - 0 1", "KBNvK"),
    ];
    for (fen, name) in won {
        let start = position(fen);
        let winner = start.turn();
        assert_eq!(tb.best_root_move(&start).map(|m| m.1), Some(Wdl::Win), "{name}");
        let end = play_out(&tb, fen, |pos| {
            let (mv, wdl) = tb.best_root_move(pos).expect("table move");
            let want = if pos.turn() == winner { Wdl::Win } else { Wdl::Loss };
            assert_eq!(
                wdl,
                want,
                "{name}: result changed at {}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            mv
        });
        assert_eq!(end, End::Mate { winner }, "{name} ({fen})");
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn drawn_endgames_are_held() {
    let Some(tb) = tables() else { return };
    // (fen, defender)
    let drawn = [
        ("8/8/8/8/4k3/8/4p3/2K5 w - - 0 1", Color::White),
        ("8/8/8/8/8/3k4/3P4/3K4 w - - 0 1", Color::Black),
        ("8/8/3k4/8/8/3r4/8/K3R3 w - - 0 1", Color::White),
        ("8/8/3k4/8/8/3r4/8/K3R3 w - - 0 1", Color::Black),
    ];
    for (fen, defender) in drawn {
        assert_eq!(tb.probe_wdl(&position(fen)), Some(Wdl::Draw), "{fen}");
        // The attacker plays the tables too, or pseudo-random moves.
        for seed in [0u64, 1, 2, 3] {
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let end = play_out(&tb, fen, |pos| {
                if pos.turn() == defender || seed == 0 {
                    let (mv, wdl) = tb.best_root_move(pos).expect("table move");
                    if pos.turn() == defender {
                        assert!(wdl >= Wdl::Draw, "{fen}: defender cannot hold");
                    }
                    mv
                } else {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let moves = pos.legal_moves();
                    moves[(state % moves.len() as u64) as usize]
                }
            });
            assert_ne!(end, End::Mate { winner: !defender }, "{fen} seed {seed}");
        }
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn root_ranking_converts_within_the_fifty_move_rule() {
    let Some(tb) = tables() else { return };
    // KRvK: DTZ 25 with the best move, 27 or more with the others.
    let fresh = position("8/8/8/8/4k3/8/8/R3K3 w - - 0 1");
    let probe = tb.probe_root(&fresh, true).unwrap();
    assert_eq!(probe.best_wdl(), Wdl::Win);
    assert_eq!(probe.best().dtz, 25);
    assert!(probe.preserving_moves().len() > 10, "all rook/king moves still win");
    assert!(probe.moves.windows(2).all(|w| w[0].rank >= w[1].rank));

    // With 74 halfmoves played only the DTZ-optimal move still wins under the 50-move rule.
    let late = position("8/8/8/8/4k3/8/8/R3K3 w - - 74 60");
    let probe = tb.probe_root(&late, true).unwrap();
    assert_eq!(probe.halfmoves, 74);
    let keep = probe.preserving_moves();
    assert_eq!(keep.len(), 1);
    assert_eq!(probe.best().dtz, 25);
    assert!(probe.moves[1..].iter().all(|m| m.wdl == Wdl::CursedWin));
    // Not clock aware: the clock is ignored.
    let unaware = tb.probe_root(&late, false).unwrap();
    assert_eq!(unaware.halfmoves, 0);
    assert!(unaware.preserving_moves().len() > 10);
    // At 90 halfmoves the win cannot be converted in time any more.
    let too_late = position("8/8/8/8/4k3/8/8/R3K3 w - - 90 60");
    assert_eq!(tb.best_root_move(&too_late).unwrap().1, Wdl::CursedWin);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn root_ranking_prefers_mate_and_zeroing_and_long_defence() {
    let Some(tb) = tables() else { return };
    // Mate in one beats every other winning move.
    let mate_in_one = position("6k1/8/6K1/8/8/8/8/Q7 w - - 0 1");
    let probe = tb.probe_root(&mate_in_one, true).unwrap();
    let best = probe.best();
    assert!(best.mate && best.rank == 1000 && best.dtz == 1, "{best:?}");
    assert!(best.score() > TB_WIN, "a mate outscores table wins");
    // Winning the rook (zeroing) is preferred in KQvKR.
    let kqkr = position("8/8/8/8/1k6/8/2r5/3QK3 w - - 0 1");
    let best = *tb.probe_root(&kqkr, true).unwrap().best();
    assert!(best.zeroing && best.dtz == 1 && best.wdl == Wdl::Win, "{best:?}");
    assert!(is_tb_score(best.score()) && best.score() >= TB_WIN_BOUND);
    // The losing side picks the longest resistance.
    let lost = position("8/8/8/4k3/8/8/8/3QK3 b - - 0 1");
    let probe = tb.probe_root(&lost, true).unwrap();
    assert_eq!(probe.best_wdl(), Wdl::Loss);
    let longest = probe.moves.iter().map(|m| m.dtz).min().unwrap();
    assert_eq!(probe.best().dtz, longest);
    assert!(probe.best().score() < 0 && is_tb_score(probe.best().score()));
    // Every root move counts as a tbhit.
    let hits = tb.tb_hits();
    let n = tb.probe_root(&lost, true).unwrap().moves.len() as u64;
    assert_eq!(tb.tb_hits(), hits + n);
}
