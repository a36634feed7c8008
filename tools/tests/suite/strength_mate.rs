//! From won KQ-vs-K positions every ladder point from 1000 up mates the `strong` profile within
//! 50 moves (issue 4), without tablebases.

use shakmaty::{Color, Position};
use sparring::board::{Game, parse_fen};
use sparring::player::{MoveRequest, Player};
use sparring::search::{Control, Limits, Searcher};

const STARTS: [&str; 3] =
    ["8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1", "8/8/8/8/4k3/8/8/Q3K3 w - - 0 1", "3k4/8/8/8/8/8/8/4KQ2 b - - 0 1"];

fn play_out(elo: i32, fen: &str, seed: u64) -> Result<usize, String> {
    let player = Player::level(elo);
    let mut weak = sparring::player::Searchers::new(1);
    let mut strong = Searcher::new(16);
    let start = parse_fen(fen).unwrap();
    let winner =
        if start.board().queens().intersect(start.board().white()).any() { Color::White } else { Color::Black };
    let mut moves = Vec::new();
    let control = Control::default();
    for ply in 0..100 {
        let game = Game::with_moves(start.clone(), &moves);
        let pos = game.pos();
        if pos.is_checkmate() {
            return if pos.turn() != winner { Ok(ply) } else { Err("the wrong side was mated".into()) };
        }
        if pos.is_game_over() || game.is_draw(0) {
            return Err(format!("{elo}: game drawn after {ply} plies: {:?}", pos.outcome()));
        }
        let mv = if pos.turn() == winner {
            player.decide_weak(&mut weak, &MoveRequest::new(&game, seed), &control).mv.unwrap()
        } else {
            strong.analyse(&game, &Limits { nodes: Some(5_000), ..Default::default() }).best.unwrap()
        };
        moves.push(mv);
    }
    Err(format!("{elo}: no mate within 50 moves from {fen}"))
}

#[test]
fn every_ladder_point_from_1000_mates_with_king_and_queen() {
    let ladder = sparring::profile::Ladder::builtin();
    let (lo, hi) = ladder.range();
    let mut elo = lo.max(1000);
    let mut worst = 0;
    while elo <= hi {
        for (i, fen) in STARTS.iter().enumerate() {
            let plies = play_out(elo, fen, 1 + i as u64).unwrap_or_else(|e| panic!("{e}"));
            worst = worst.max(plies);
        }
        elo += 200;
    }
    eprintln!("longest mate: {worst} plies");
}
