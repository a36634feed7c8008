//! The ladder's occasional deeper search (`deep_p`, `deep_nodes`): validated, interpolated, drawn
//! from its own seeded stream (so a point without it plays exactly as before), and deterministic.

use shakmaty::Position;
use sparring::board::{Game, parse_fen};
use sparring::player::{MoveRequest, Player, Setting};
use sparring::profile::Ladder;
use sparring::search::Control;

const HEAD: &str =
    "name = \"l\"\nversion = 1\ndescription = \"x\"\ntablebases_from_elo = 2000\nsearch_generation = 6\n";

fn point(elo: i32, extra: &str) -> String {
    format!(
        "[[point]]\nelo = {elo}\nnodes = 1500\ndepth = 1\nplateau_cp = 0\nlambda = 5.0\nslip_p = 0.0\n\
         slip_min_cp = 100\nslip_max_cp = 300\n{extra}\n"
    )
}

#[test]
fn deep_settings_are_validated_and_interpolated() {
    let ok = format!("{HEAD}{}{}", point(1000, ""), point(2000, "deep_p = 0.5\ndeep_nodes = 20000"));
    let l = Ladder::parse(&ok).unwrap();
    assert_eq!(l.at(1000).deep.p, 0.0);
    assert_eq!(l.at(2000).deep.p, 0.5);
    assert_eq!(l.at(2000).deep.nodes, 20000);
    let mid = l.at(1500).deep;
    assert!((mid.p - 0.25).abs() < 1e-9 && mid.nodes == 20000, "{mid:?}");
    assert!(l.at(2000).describe().contains("deeper (20000 nodes) with p 0.500"));
    for bad in [
        "deep_p = 1.5\ndeep_nodes = 20000", // not a probability
        "deep_p = -0.1\ndeep_nodes = 20000",
        "deep_p = 0.5\ndeep_nodes = 1000", // not deeper than the usual budget
        "deep_p = 0.5",                    // no budget
    ] {
        let text = format!("{HEAD}{}", point(1000, bad));
        assert!(Ladder::parse(&text).is_err(), "accepted: {bad}");
    }
}

#[test]
fn a_point_that_always_searches_as_deep_counts_as_looking_deeper_every_move() {
    // Below: depth 1 with a 20000-node look half the time; above: 20000 nodes, no depth cap, at
    // every move. Between them the levels look deeper more often as they rise (never less often
    // than the point below), and as deep.
    let above = "[[point]]\nelo = 2000\nnodes = 20000\nplateau_cp = 0\nlambda = 5.0\nslip_p = 0.0\n\
                 slip_min_cp = 100\nslip_max_cp = 300\n";
    let l = Ladder::parse(&format!("{HEAD}{}{above}", point(1000, "deep_p = 0.5\ndeep_nodes = 20000"))).unwrap();
    let mut last = 0.5;
    for elo in [1000, 1250, 1500, 1750, 1999] {
        let d = l.at(elo).deep;
        assert!(d.p >= last - 1e-12 && d.nodes == 20000, "{elo}: {d:?}");
        last = d.p;
    }
    assert!((l.at(1500).deep.p - 0.75).abs() < 1e-9);
    // A point above that searches less than the deeper look (or with a depth cap) does not count.
    for weaker in
        [above.replace("nodes = 20000", "nodes = 5000"), above.replace("nodes = 20000", "nodes = 20000\ndepth = 3")]
    {
        let l = Ladder::parse(&format!("{HEAD}{}{weaker}", point(1000, "deep_p = 0.5\ndeep_nodes = 20000"))).unwrap();
        assert!((l.at(1500).deep.p - 0.25).abs() < 1e-9, "{:?}", l.at(1500).deep);
    }
}

fn player(extra: &str) -> Player {
    let l = Ladder::parse(&format!("{HEAD}{}", point(1000, extra))).unwrap();
    Player { setting: Setting::Level(l.at(1000)), avatar: sparring::profile::Avatar::neutral() }
}

fn decide(p: &Player, fen: &str, seed: u64) -> (String, u64) {
    let game = Game::new(parse_fen(fen).unwrap());
    let mut weak = sparring::player::Searchers::new(1);
    let d = p.decide_weak(&mut weak, &MoveRequest::new(&game, seed), &Control::default());
    let mv = d.mv.expect("a move");
    assert!(game.pos().is_legal(mv));
    (mv.to_string(), d.nodes)
}

#[test]
fn deep_looks_use_their_budget_and_replay() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    // Never deeper: the depth-1 budget; always deeper: the larger one, with the depth cap lifted.
    let (_, shallow) = decide(&player(""), fen, 1);
    let (_, deep) = decide(&player("deep_p = 1.0\ndeep_nodes = 20000"), fen, 1);
    assert!(shallow <= 1500 + 64, "shallow search used {shallow} nodes");
    assert!(deep > 1500 + 64 && deep <= 20000 + 1024, "deep search used {deep} nodes");
    // A point with deep_p = 0 makes no extra draw: its moves are those of a point without the keys.
    let zero = player("deep_p = 0.0\ndeep_nodes = 20000");
    let none = player("");
    let half = player("deep_p = 0.5\ndeep_nodes = 20000");
    let mut deeper = 0;
    for seed in 1..=24u64 {
        assert_eq!(decide(&zero, fen, seed), decide(&none, fen, seed));
        let a = decide(&half, fen, seed);
        assert_eq!(a, decide(&half, fen, seed), "seed {seed} must replay");
        deeper += usize::from(a.1 > 1500 + 64);
    }
    // About half of the seeds look deeper (binomial 24, p 0.5: 3..=21 holds with probability > 0.999).
    assert!((3..=21).contains(&deeper), "{deeper} of 24 looked deeper");
}

#[test]
fn slip_tilts_are_validated_and_interpolated() {
    let ok = format!("{HEAD}{}{}", point(1000, "slip_tilt = 0.4"), point(2000, ""));
    let l = Ladder::parse(&ok).unwrap();
    assert_eq!(l.at(1000).choice.slip_tilt, 0.4);
    assert_eq!(l.at(2000).choice.slip_tilt, 0.0);
    assert!((l.at(1500).choice.slip_tilt - 0.2).abs() < 1e-12);
    assert!(l.at(1000).describe().contains("slips tilted 0.40 a pawn"));
    assert!(!l.at(2000).describe().contains("tilted"));
    for bad in ["slip_tilt = -0.2", "slip_tilt = 3.0", "slip_tilt = nan"] {
        let text = format!("{HEAD}{}", point(1000, bad));
        let e = Ladder::parse(&text).unwrap_err().to_string();
        assert!(e.contains("slip_tilt"), "{bad}: {e}");
    }
}
