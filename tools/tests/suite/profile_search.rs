//! The profile layer on top of the real search: a budgeted MultiPV-all analysis feeds `choose`, and
//! the whole decision is reproducible from the seed (SPEC 3, 4).

use shakmaty::{Chess, Position};
use sparring::board::{Game, parse_fen};
use sparring::policy::{ChoiceKind, choose, random_choice};
use sparring::profile::{Avatar, Ladder, Profile};
use sparring::search::{Control, Limits, Request, Searcher, Silent};
use sparring::seed::{decision_rng_for, tags};

fn decide(pos: &Chess, nodes: u64, eval: sparring::eval::EvalConfig, seed: u64) -> (String, i32) {
    let mut s = Searcher::new(16);
    s.clear();
    let limits = Limits { nodes: Some(nodes), multipv: usize::MAX, ..Limits::default() };
    let res = s.search(
        &Game::new(pos.clone()),
        &Request { limits, eval, ..Default::default() },
        &Control::default(),
        &mut Silent,
    );
    assert_eq!(res.root_moves.len(), pos.legal_moves().len());
    let club = Profile::builtin("club").unwrap();
    let c = choose(&res.root_moves, &club.choice, &mut decision_rng_for(seed, pos, tags::CHOICE));
    assert!(pos.is_legal(c.mv));
    (format!("{:?} {:?}", c.mv, c.kind), c.regret_cp)
}

#[test]
fn club_choice_from_a_real_search_is_reproducible() {
    let club = Profile::builtin("club").unwrap();
    let pos = Chess::default();
    let nodes = 4000; // smaller than club's budget, to keep the test light
    let a = decide(&pos, nodes, club.eval_config(), 77);
    let b = decide(&pos, nodes, club.eval_config(), 77);
    assert_eq!(a, b);
}

#[test]
fn ladder_level_with_avatar_searches_and_chooses() {
    let level = Ladder::builtin().at(1500);
    let mut eval = level.eval.clone();
    Avatar::parse("Threats(mg)=150\nPawnStructure(mg)=200\n", "t.avt")
        .unwrap()
        .apply(&mut eval, shakmaty::Color::White);
    assert!(!eval.is_enabled(sparring::eval::Term::PawnStructure));
    // After 1.e4 e5 2.Nf3 Nc6: several moves hang material (regrets inside the 1500 gate).
    let pos = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
    let mut s = Searcher::new(16);
    let limits = Limits { nodes: Some(level.nodes), depth: level.depth, multipv: usize::MAX, ..Limits::default() };
    let res = s.search(
        &Game::new(pos.clone()),
        &Request { limits, eval, ..Default::default() },
        &Control::default(),
        &mut Silent,
    );
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let c = choose(&res.root_moves, &level.choice, &mut decision_rng_for(seed, &pos, tags::CHOICE));
        assert!(c.regret_cp <= level.choice.slip_max_cp.max(level.choice.plateau_cp));
        kinds.insert(format!("{:?}", c.kind));
    }
    assert!(kinds.contains("Slip"), "{kinds:?}");
}

#[test]
fn random_profile_move_is_legal_and_seeded() {
    let pos = Chess::default();
    let legal: Vec<_> = pos.legal_moves().into_iter().collect();
    let a = random_choice(&legal, &mut decision_rng_for(1, &pos, tags::RANDOM));
    let b = random_choice(&legal, &mut decision_rng_for(1, &pos, tags::RANDOM));
    assert_eq!(a, b);
    assert_eq!(a.kind, ChoiceKind::Random);
    assert!(pos.is_legal(a.mv));
}

#[test]
fn the_smallest_ladder_budget_still_scores_every_root_move() {
    let level = Ladder::builtin().at(0);
    // Busy middlegame positions (45 and 52 legal moves, many captures); the player always completes
    // depth 1 (`min_depth`), whatever the budget.
    for fen in [
        "r2q1rk1/pp2bppp/2n1bn2/2pp4/3P4/2NBPN2/PP1B1PPP/R2QK2R w KQ - 0 10",
        "2r2rk1/1bqnbppp/p2ppn2/1p6/3NPP2/P1N1B1Q1/1PP1B1PP/R4R1K w - - 0 16",
    ] {
        let pos = parse_fen(fen).unwrap();
        let mut s = Searcher::new(16);
        let limits = Limits {
            nodes: Some(level.nodes),
            depth: level.depth,
            multipv: usize::MAX,
            min_depth: 1,
            ..Limits::default()
        };
        let request = Request { limits, eval: level.eval.clone(), ..Default::default() };
        let res = s.search(&Game::new(pos.clone()), &request, &Control::default(), &mut Silent);
        assert_eq!(res.root_moves.len(), pos.legal_moves().len(), "{fen}");
        assert!(res.root_moves.iter().all(|r| r.depth >= 1), "{fen}");
    }
}
