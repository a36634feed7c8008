//! The human move prior (ladder v8): its features on known positions, its effect on the Boltzmann
//! choice (none without it, bit for bit), its validation and interpolation in the ladder file, and
//! the `calibrate prior-fit` fitter on the committed oracle.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};
use sparring::board::{Game, parse_fen};
use sparring::player::{MoveRequest, Player, Setting};
use sparring::policy::prior::{FEATURE_NAMES, FEATURES, Glance, MovePrior, features};
use sparring::policy::{ChoiceKind, ChoiceSettings, choose, choose_biased};
use sparring::profile::Ladder;
use sparring::search::{Control, RootMove, Searcher};
use sparring::seed::{decision_rng, tags};

fn feature(f: &[f64; FEATURES], name: &str) -> f64 {
    f[FEATURE_NAMES.iter().position(|n| *n == name).expect("feature name")]
}

fn mv(pos: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>().unwrap().to_move(pos).unwrap()
}

fn glance(pos: &Chess) -> Glance {
    // The glance a ladder point takes (full evaluator, cleared table).
    let mut s = Searcher::new(16);
    Glance::from_root_moves(&s.analyse(&Game::new(pos.clone()), &Glance::limits()).root_moves)
}

#[test]
fn features_describe_the_move() {
    // White: Ke1, Ra1, Rh1, pawns d5 and e5 (Black just played ...f7-f5), Nf3; Black: Ke8, Qc6,
    // pawns f5 and h7, Bg4.
    let pos = parse_fen("4k3/7p/2q5/3PPp2/6b1/5N2/8/R3K2R w KQ f6 0 1").unwrap();
    let g = glance(&pos);

    // d5xc6: a pawn takes the queen; the pawn stands attacked (by the queen) and undefended.
    let f = features(&pos, mv(&pos, "d5c6"), &g);
    assert_eq!(feature(&f, "capture"), 1.0);
    assert_eq!(feature(&f, "victim_value"), 1.0);
    assert_eq!(feature(&f, "pawn"), 1.0);
    assert_eq!(feature(&f, "forward"), 0.5);
    assert_eq!(feature(&f, "mover_attacked"), 1.0);
    assert_eq!(feature(&f, "mover_hanging"), 1.0);
    assert_eq!(feature(&f, "glance_best"), 1.0, "winning the queen is what a glance sees");
    assert_eq!(feature(&f, "glance_loss"), 0.0);

    // e5xf6 en passant: a pawn worth 1/9.
    let f = features(&pos, mv(&pos, "e5f6"), &g);
    assert_eq!(feature(&f, "capture"), 1.0);
    assert!((feature(&f, "victim_value") - 1.0 / 9.0).abs() < 1e-12);

    // Castling short: the king's destination g1 decides the square features, not the rook's h1.
    let f = features(&pos, mv(&pos, "e1g1"), &g);
    assert_eq!(feature(&f, "castling"), 1.0);
    assert_eq!(feature(&f, "king"), 1.0);
    assert_eq!(feature(&f, "capture"), 0.0);

    // Ra1-a8+: a check, forward by more than two ranks (clamped to 1), into the queen's diagonal.
    let f = features(&pos, mv(&pos, "a1a8"), &g);
    assert_eq!(feature(&f, "check"), 1.0);
    assert_eq!(feature(&f, "rook"), 1.0);
    assert_eq!(feature(&f, "forward"), 1.0);
    assert!(feature(&f, "glance_loss") > 0.0, "Ra8+ leaves the queen en prise");

    // Nf3 is attacked by the bishop (a lesser piece? no: bishop 3 = knight 3) and defended by nothing.
    let f = features(&pos, mv(&pos, "f3h4"), &g);
    assert_eq!(feature(&f, "mover_attacked"), 1.0);
    assert_eq!(feature(&f, "mover_attacked_by_lesser"), 0.0);
    assert_eq!(feature(&f, "knight"), 1.0);

    // Every feature of every legal move is finite and in [-1, 3].
    for m in pos.legal_moves() {
        for x in features(&pos, m, &g) {
            assert!(x.is_finite() && (-1.0..=3.0).contains(&x), "{m}: {x}");
        }
    }
}

#[test]
fn features_are_colour_symmetric() {
    // The same position with colours swapped (board mirrored) gives the same features move by move.
    let white = parse_fen("r3k2r/ppp2ppp/2n1bn2/3qp3/3P4/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 9").unwrap();
    let black = parse_fen("r3k2r/pppq1ppp/2n1bn2/3p4/3QP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 9").unwrap();
    let (gw, gb) = (glance(&white), glance(&black));
    for m in white.legal_moves() {
        let mirrored = m.to_mirrored();
        assert!(black.is_legal(mirrored), "{m}");
        assert_eq!(features(&white, m, &gw), features(&black, mirrored, &gb), "{m}");
    }
}

fn root(pos: &Chess, scores: &[i32]) -> Vec<RootMove> {
    let ms: Vec<Move> = pos.legal_moves().into_iter().collect();
    scores.iter().enumerate().map(|(i, &score)| RootMove { mv: ms[i], score, pv: vec![ms[i]], depth: 5 }).collect()
}

fn rng(seed: u64) -> rand_chacha::ChaCha20Rng {
    decision_rng(seed, 10, shakmaty::Color::White, 0xfeed, tags::CHOICE)
}

#[test]
fn a_bias_reweights_the_boltzmann_draw_and_the_slip_candidates() {
    let pos = Chess::default();
    // Regrets 0, 10, 20, 30, 120, 330: the gate [100, 400] holds the last two.
    let r = root(&pos, &[30, 20, 10, 0, -90, -300]);
    let s =
        ChoiceSettings { lambda: Some(5.0), slip_p: 0.3, slip_min_cp: 100, slip_max_cp: 400, ..ChoiceSettings::best() };
    let zero = vec![0.0; r.len()];
    let (mut slips, mut last) = (0, 0);
    for seed in 0..500 {
        // No bias is exactly the plain choice; an all-zero bias too, except which slip candidate
        // (a weighted draw over equal weights instead of `pick_index`).
        let plain = choose(&r, &s, &mut rng(seed));
        assert_eq!(choose_biased(&r, &s, None, &mut rng(seed)), plain);
        let z = choose_biased(&r, &s, Some(&zero), &mut rng(seed));
        assert_eq!(z.kind, plain.kind);
        if plain.kind != ChoiceKind::Slip {
            assert_eq!(z, plain);
        }
        // A large bonus on the fourth move: every Boltzmann draw lands there; a slip lands on the
        // gate move with the larger bonus.
        let mut b = zero.clone();
        b[3] = 30.0;
        b[5] = 8.0;
        let c = choose_biased(&r, &s, Some(&b), &mut rng(seed));
        match plain.kind {
            ChoiceKind::Slip => {
                assert_eq!((c.mv, c.kind, c.candidates), (r[5].mv, ChoiceKind::Slip, 2));
                slips += 1;
                last += usize::from(z.mv == r[5].mv);
            }
            _ => assert_eq!((c.mv, c.kind, c.regret_cp), (r[3].mv, ChoiceKind::Boltzmann, 30)),
        }
    }
    assert!(slips > 100, "{slips} slips in 500 draws at slip_p 0.3");
    // Equal weights: both gate moves come up.
    assert!(last > slips / 4 && last < slips * 3 / 4, "{last} of {slips}");
}

#[test]
fn a_regret_cap_keeps_the_boltzmann_draw_off_worse_moves_but_not_the_slips() {
    let pos = Chess::default();
    // Regrets 0, 10, 20, 30, 120, 330; a bonus that would make the Boltzmann draw take the move
    // 120 cp worse almost always, and the gate [100, 400] for slips.
    let r = root(&pos, &[30, 20, 10, 0, -90, -300]);
    let open =
        ChoiceSettings { lambda: Some(1.0), slip_p: 0.3, slip_min_cp: 100, slip_max_cp: 400, ..ChoiceSettings::best() };
    let capped = ChoiceSettings { boltzmann_max_cp: Some(100), ..open.clone() };
    let mut b = vec![0.0; r.len()];
    b[4] = 30.0;
    let (mut slips, mut worse_slips) = (0, 0);
    for seed in 0..500 {
        let o = choose_biased(&r, &open, Some(&b), &mut rng(seed));
        let c = choose_biased(&r, &capped, Some(&b), &mut rng(seed));
        // The same draws are taken in the same order: a slip under one is a slip under the other,
        // and lands on the same move.
        assert_eq!(o.kind, c.kind);
        match c.kind {
            ChoiceKind::Slip => {
                assert_eq!(c, o);
                slips += 1;
                worse_slips += usize::from(c.regret_cp > 100);
            }
            _ => {
                assert_eq!((o.mv, o.regret_cp), (r[4].mv, 120));
                assert!(c.regret_cp <= 100, "seed {seed}: regret {} past the cap", c.regret_cp);
                assert_eq!(c.candidates, 4);
            }
        }
    }
    assert!(slips > 100 && worse_slips == slips, "{worse_slips} of {slips} slips past the cap");
    // A cap below every other move's regret leaves the best move alone.
    let tight = ChoiceSettings { boltzmann_max_cp: Some(5), slip_p: 0.0, ..open };
    for seed in 0..50 {
        let c = choose_biased(&r, &tight, Some(&b), &mut rng(seed));
        assert_eq!((c.mv, c.kind, c.candidates), (r[0].mv, ChoiceKind::Boltzmann, 1));
    }
}

const HEAD: &str =
    "name = \"l\"\nversion = 1\ndescription = \"x\"\ntablebases_from_elo = 2000\nsearch_generation = 6\n";

fn point(elo: i32, lambda: f64, extra: &str) -> String {
    format!(
        "[[point]]\nelo = {elo}\nnodes = 1500\ndepth = 1\nplateau_cp = 0\nlambda = {lambda}\nslip_p = 0.0\n\
         slip_min_cp = 100\nslip_max_cp = 300\n{extra}\n"
    )
}

fn weights(x: f64) -> String {
    format!("prior = [{}]", vec![format!("{x:.1}"); FEATURES].join(", "))
}

#[test]
fn priors_are_validated_and_interpolated() {
    let text = format!("{HEAD}{}{}", point(1000, 10.0, ""), point(2000, 5.0, &weights(1.0)));
    let l = Ladder::parse(&text).unwrap();
    assert!(l.at(1000).prior.is_none());
    assert_eq!(l.at(2000).prior.unwrap().weights, [1.0; FEATURES]);
    assert_eq!(l.at(1500).prior.unwrap().weights, [0.5; FEATURES]);
    assert!(l.at(2000).describe().contains("human move prior"));
    for bad in [
        format!("{HEAD}{}", point(1000, 5.0, "prior = [1.0, 2.0]")), // wrong length
        format!("{HEAD}{}", point(1000, 5.0, &weights(11.0))),       // beyond ±10
        format!("{HEAD}{}", point(1000, 5.0, &weights(f64::NAN)).replace("NaN", "nan")),
        // λ must not fall between two points with a prior ...
        format!("{HEAD}{}{}", point(1000, 10.0, &weights(1.0)), point(2000, 5.0, &weights(1.0))),
        // ... and a point without a prior cannot follow one with a prior.
        format!("{HEAD}{}{}", point(1000, 5.0, &weights(1.0)), point(2000, 10.0, "")),
    ] {
        assert!(Ladder::parse(&bad).is_err(), "accepted:\n{bad}");
    }
    assert!(MovePrior::from_slice(&[0.0; FEATURES]).unwrap().is_zero());
    let no_lambda = format!("{HEAD}{}", point(1000, 5.0, &weights(1.0))).replace("lambda = 5\n", "");
    assert!(Ladder::parse(&no_lambda).is_err(), "a prior without lambda was accepted");
}

#[test]
fn a_prior_point_replays_and_differs_from_the_same_point_without_it() {
    // Weight 3 on pawn moves (the fifth feature), nothing else.
    let w = weights(0.0).replacen("0.0, 0.0, 0.0, 0.0, 0.0", "0.0, 0.0, 0.0, 0.0, 3.0", 1);
    let with = Ladder::parse(&format!("{HEAD}{}", point(1000, 2.0, &w))).unwrap().at(1000);
    assert_eq!(with.prior.as_ref().unwrap().weights[4], 3.0, "pawn weight");
    let without = Ladder::parse(&format!("{HEAD}{}", point(1000, 2.0, ""))).unwrap().at(1000);
    let play = |level: &sparring::profile::LevelSettings, fen: &str, seed: u64| {
        let p = Player { setting: Setting::Level(level.clone()), avatar: sparring::profile::Avatar::neutral() };
        let game = Game::new(parse_fen(fen).unwrap());
        let d = p.decide_weak(
            &mut sparring::player::Searchers::new(1),
            &MoveRequest::new(&game, seed),
            &Control::default(),
        );
        let m = d.mv.unwrap();
        assert!(game.pos().is_legal(m));
        m
    };
    // The initial position: twenty moves within a few tens of centipawns.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pawn = |m: Move| m.role() == shakmaty::Role::Pawn;
    let (mut with_prior, mut without_prior) = (0, 0);
    for seed in 1..=40u64 {
        let a = play(&with, fen, seed);
        assert_eq!(a, play(&with, fen, seed), "seed {seed} must replay");
        with_prior += usize::from(pawn(a));
        without_prior += usize::from(pawn(play(&without, fen, seed)));
    }
    // e^3 ≈ 20 times the weight on every pawn move: the point plays them far more often.
    assert!(
        with_prior >= 36 && with_prior > without_prior,
        "pawn moves {with_prior} of 40 with the prior, {without_prior} without"
    );
}

#[test]
#[cfg_attr(not(bench_data), ignore = "needs the bench caches: run bench/unpack.sh")]
fn prior_fit_recovers_a_useful_prior_from_the_committed_oracle() {
    let oracle = std::path::Path::new(env!("SPARRING_REPO")).join("bench/humanlike/oracle.jsonl");
    if !oracle.exists() {
        eprintln!("skipped: bench/humanlike/oracle.jsonl not found (run bench/unpack.sh)");
        return;
    }
    let all = sparring_tools::common::scored::load_oracle(&oracle).unwrap();
    let band: Vec<_> = sparring_tools::common::bands::eligible(&all, None)
        .into_iter()
        .filter(|p| p.pos.band == 1400)
        .take(520)
        .collect();
    // A depth-1 point (fast), fitted on the band's even games, judged on its odd ones.
    let ladder = Ladder::parse(&format!("{HEAD}{}", point(1500, 8.0, ""))).unwrap();
    let fit = sparring_tools::calibrate::prior_fit::fit_point(&ladder, 1400, 1500, &band, 0.003, 2).unwrap();
    let row = |label: &str, set: &str| {
        fit.rows.iter().find(|r| r.0 == label && r.1 == set).map(|r| r.3).unwrap_or_else(|| panic!("{label} {set}"))
    };
    let base = row("no prior", "fit");
    let chosen = fit.rows.iter().find(|r| r.0 == "prior" && r.1 == "fit" && r.2 == fit.lambda).unwrap().3;
    assert!(chosen.n >= 200 && chosen.n == base.n);
    // The fit keeps the point's error inside the acceptance limits and does not match the humans
    // less often than the point without a prior on the positions it was fitted on.
    assert!(chosen.cost() <= 1.0, "cost {}", chosen.cost());
    assert!(chosen.match_rate >= base.match_rate - 0.005, "{} vs {}", chosen.match_rate, base.match_rate);
    // The weights it prints make a valid ladder point.
    let w: Vec<String> = fit.weights.iter().map(|x| format!("{x:.3}")).collect();
    let text = format!("{HEAD}{}", point(1500, fit.lambda, &format!("prior = [{}]", w.join(", "))));
    Ladder::parse(&text).unwrap();
    let held = row("prior (chosen)", "held-out");
    assert!(held.n >= 200 && held.match_rate > 0.0 && held.mean > 0.0);
}
