//! The `strong` engine (search + tablebases at the root and in the tree) against itself from 3-4
//! piece endings: won ones are mated within the 50-move rule every time, drawn ones never lost
//! (issue 7). Also: a bad SyzygyPath is reported through UCI and the engine plays on.

use crate::common;
use shakmaty::{Color, Outcome, Position};
use sparring::board::{Game, parse_fen};
use sparring::search::{Control, Limits, Request, Searcher, Silent};
use sparring::tablebase::Tablebases;
use std::sync::Arc;

fn tables() -> Option<Arc<Tablebases>> {
    let dir = common::shared_data("syzygy/3-4")?;
    let mut tb = Tablebases::new();
    tb.set_path(dir.to_str().unwrap()).unwrap();
    Some(Arc::new(tb))
}

/// Plays strong vs strong (20 000 nodes a move) until the game ends; returns the outcome and the
/// highest halfmove clock seen.
fn self_play(tb: &Arc<Tablebases>, fen: &str) -> (Option<Outcome>, u32, usize) {
    let start = parse_fen(fen).unwrap();
    let mut moves = Vec::new();
    let mut white = Searcher::new(16);
    let mut black = Searcher::new(16);
    let request = Request {
        limits: Limits { nodes: Some(20_000), ..Default::default() },
        tablebases: Some(tb.clone()),
        ..Default::default()
    };
    let mut max_clock = 0;
    for ply in 0..300 {
        let game = Game::with_moves(start.clone(), &moves);
        let pos = game.pos();
        max_clock = max_clock.max(pos.halfmoves());
        if pos.is_game_over() {
            return (pos.outcome().known().map(Outcome::Known), max_clock, ply);
        }
        if game.is_draw(0) {
            return (Some(Outcome::Known(shakmaty::KnownOutcome::Draw)), max_clock, ply);
        }
        let s = if pos.turn() == Color::White { &mut white } else { &mut black };
        let r = s.search(&game, &request, &Control::default(), &mut Silent);
        moves.push(r.best.unwrap());
    }
    (None, max_clock, 300)
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn won_endings_are_mated_within_the_fifty_move_rule() {
    let Some(tb) = tables() else { return };
    let won = [
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", Color::White),
        ("8/8/8/8/4k3/8/8/R3K3 w - - 0 1", Color::White),
        ("8/8/8/8/4k3/8/8/R3K3 w - - 60 60", Color::White),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Color::White),
        ("8/8/8/8/1k6/8/2r5/3QK3 w - - 0 1", Color::White),
        ("8/8/8/3k4/8/8/6r1/Q3K3 w - - 0 1", Color::White),
        ("8/3k4/8/8/8/4K3/4P3/8 b - - 0 1", Color::White),
        ("8/8/4k3/8/8/8/8/2B1KN2 b - - 0 1", Color::White),
        ("7k/8/6K1/6P1/8/8/8/8 w - - 0 1", Color::White),
        ("3k4/8/8/8/8/8/8/4KR2 b - - 0 1", Color::White),
    ];
    for (fen, winner) in won {
        let (outcome, clock, plies) = self_play(&tb, fen);
        let want = Outcome::Known(shakmaty::KnownOutcome::Decisive { winner });
        assert_eq!(outcome, Some(want), "{fen}: not won after {plies} plies");
        assert!(clock < 100, "{fen}: the halfmove clock reached {clock}");
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn drawn_endings_are_never_lost() {
    let Some(tb) = tables() else { return };
    for fen in [
        "8/8/8/8/8/4k3/4p3/4K3 w - - 0 1",
        "8/8/8/8/3k4/8/2r5/R3K3 w - - 0 1",
        "8/8/8/8/3k4/8/2r5/R3K3 b - - 0 1",
        "8/3k4/8/8/8/8/3KP3/8 b - - 0 1",
    ] {
        let (outcome, _, plies) = self_play(&tb, fen);
        assert!(
            matches!(outcome, Some(Outcome::Known(shakmaty::KnownOutcome::Draw)) | None),
            "{fen}: drawn ending decided after {plies} plies: {outcome:?}"
        );
    }
}

#[test]
fn bad_syzygy_path_is_reported_and_ignored() {
    let mut e = common::Uci::start();
    e.send("setoption name SyzygyPath value /definitely/not/here");
    let l = e.wait_for(std::time::Duration::from_secs(10), |l| l.starts_with("info string"));
    assert!(l.last().unwrap().contains("/definitely/not/here"));
    e.send("position fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    e.send("go depth 6");
    let (mv, _) = e.bestmove(std::time::Duration::from_secs(20));
    assert!(common::is_legal_after("fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1", &mv));
}
