//! Search behaviour: mates, draws, MultiPV scoring of every root move, node limits, determinism.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Position};
use sparring::board::{Game, parse_fen};
use sparring::score::{MATE_BOUND, mate_moves};
use sparring::search::{Limits, Searcher};
use sparring::uci::parse_position;

fn game(position_args: &str) -> Game {
    let args: Vec<&str> = position_args.split_whitespace().collect();
    let (root, _, moves) = parse_position(&args).unwrap();
    Game::with_moves(root, &moves)
}

fn uci(m: shakmaty::Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

fn depth(d: i32) -> Limits {
    Limits { depth: Some(d), ..Default::default() }
}

#[test]
fn finds_mates_in_one_two_three() {
    // (FEN, mate in n, first move)
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
        ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2, "c6c4"),
        ("7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", 2, "a3f8"),
        ("6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1", 3, "c1c8"),
        ("5r1k/p5pp/8/1P1pq3/P1p2nR1/Q7/5BPP/6K1 b - - 0 1", 3, "e5e1"),
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"),
    ];
    let mut s = Searcher::new(16);
    for (fen, n, first) in cases {
        s.clear();
        let g = Game::new(parse_fen(fen).unwrap());
        let r = s.analyse(&g, &depth(2 * n + 4));
        assert_eq!(mate_moves(r.score), Some(n), "{fen}: score {}", r.score);
        assert_eq!(uci(r.best.unwrap()), first, "{fen}");
    }
}

#[test]
fn sees_being_mated() {
    let mut s = Searcher::new(16);
    // White threatens Rd8 mate; a pawn move gives the king air.
    let g = Game::new(parse_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1").unwrap());
    let r = s.analyse(&g, &depth(6));
    assert!(r.score > -MATE_BOUND, "a pawn move stops the back-rank mate: {}", r.score);
    // Kg8 is forced, then Qg7 mates.
    let g = Game::new(parse_fen("7k/8/6KQ/8/8/8/8/8 b - - 0 1").unwrap());
    let r = s.analyse(&g, &depth(6));
    assert_eq!(mate_moves(r.score), Some(-1), "{}", r.score);
}

#[test]
fn threefold_repetition_is_a_draw() {
    // White is a queen up; black repeats the start position a third time with Kd8-e8.
    let g = game("fen 4k3/8/8/8/8/8/8/Q3K3 w - - 0 1 moves a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1");
    let mut s = Searcher::new(16);
    let r = s.analyse(&g, &depth(8));
    assert_eq!(uci(r.best.unwrap()), "d8e8");
    assert_eq!(r.score, 0);
    // Without the history the same position is simply lost.
    let fresh = Game::new(g.pos().clone());
    s.clear();
    let r = s.analyse(&fresh, &depth(8));
    assert!(r.score < -500, "{}", r.score);
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let mut s = Searcher::new(16);
    let g = Game::new(parse_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 99 100").unwrap());
    let r = s.analyse(&g, &depth(8));
    assert_eq!(r.score, 0, "every quiet move ends the game drawn");
    s.clear();
    let g = Game::new(parse_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 100").unwrap());
    let r = s.analyse(&g, &depth(8));
    assert!(r.score > 500);
}

#[test]
fn insufficient_material_is_a_draw() {
    let mut s = Searcher::new(16);
    let g = Game::new(parse_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").unwrap());
    assert_eq!(s.analyse(&g, &depth(6)).score, 0);
}

#[test]
fn multipv_all_scores_every_root_move() {
    let mut s = Searcher::new(16);
    let g = game("startpos moves e2e4 e7e5 g1f3 b8c6 f1b5");
    let legal = g.pos().legal_moves().len();
    let r = s.analyse(&g, &Limits { depth: Some(5), multipv: usize::MAX, ..Default::default() });
    assert_eq!(r.root_moves.len(), legal);
    let mut seen: Vec<_> = r.root_moves.iter().map(|m| m.mv).collect();
    seen.sort_by_key(|m| uci(*m));
    seen.dedup();
    assert_eq!(seen.len(), legal, "each legal move exactly once");
    for w in r.root_moves.windows(2) {
        assert!(w[0].score >= w[1].score, "sorted best first");
    }
    for rm in &r.root_moves {
        assert!(rm.score.abs() < 30_000, "{} has no exact score", uci(rm.mv));
        assert_eq!(rm.pv[0], rm.mv);
        assert_eq!(rm.depth, 5);
    }
    assert_eq!(r.best, Some(r.root_moves[0].mv));
}

#[test]
fn node_limit_is_exact_and_deterministic() {
    let g = game("startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6");
    let limits = Limits { nodes: Some(12_345), ..Default::default() };
    let mut a = Searcher::new(16);
    let ra = a.analyse(&g, &limits);
    assert!(ra.nodes <= 12_345);
    assert!(ra.nodes >= 12_000, "the budget is used: {}", ra.nodes);
    // After unrelated work and a clear, the same budget gives the same answer.
    a.analyse(&game("startpos"), &depth(6));
    a.clear();
    let rb = a.analyse(&g, &limits);
    assert_eq!((ra.best, ra.score, ra.nodes), (rb.best, rb.score, rb.nodes));
}

#[test]
fn wins_material_when_offered() {
    let mut s = Searcher::new(16);
    // The black queen on d4 is en prise to the e3 pawn.
    let g = Game::new(parse_fen("rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap());
    let r = s.analyse(&g, &depth(6));
    assert_eq!(uci(r.best.unwrap()), "e3d4");
}

#[test]
fn scoring_each_move_once_gives_about_the_multipv_all_scores() {
    use sparring::search::{Control, Request, Silent};
    let (mut moves, mut diff) = (0, 0);
    for fen in sparring::search::bench::POSITIONS {
        let g = Game::new(parse_fen(fen).unwrap());
        let limits = Limits { depth: Some(1), multipv: usize::MAX, min_depth: 1, ..Default::default() };
        let request = Request::from(limits);
        let mut s = Searcher::new(1);
        s.clear();
        let all = s.search(&g, &request, &Control::default(), &mut Silent).root_moves;
        s.clear();
        let each = s.score_each(&g, &request, 1);
        assert_eq!(each.len(), all.len(), "{fen}");
        for r in &each {
            let m = all.iter().find(|a| a.mv == r.mv).expect("the same moves");
            diff += usize::from(r.score != m.score);
            moves += 1;
        }
    }
    // The MultiPV lines run one after another, so the later ones see the table, the histories and
    // the correction history the earlier ones left: about 1 % of the scores differ (by 1 cp from
    // the correction history, more for a few checks that are extended). The rest must agree.
    assert!(moves > 500, "{moves} moves compared");
    assert!(diff * 50 <= moves, "{diff} of {moves} scores differ");
}
