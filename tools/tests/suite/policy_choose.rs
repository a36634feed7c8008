//! Move choice from scored root moves (SPEC 3): forced, plateau, Boltzmann, regret-gated slips,
//! mates, determinism.

use rand_chacha::ChaCha20Rng;
use shakmaty::{Chess, Color, Move, Position};
use sparring::policy::{ChoiceKind, ChoiceSettings, choose, random_choice, random_move};
use sparring::score::{MATE, MATE_BOUND};
use sparring::search::RootMove;
use sparring::seed::{decision_rng, tags};

fn moves() -> Vec<Move> {
    Chess::default().legal_moves().into_iter().collect()
}

/// Root moves with these scores, in the given (best-first) order.
fn root(scores: &[i32]) -> Vec<RootMove> {
    let ms = moves();
    scores.iter().enumerate().map(|(i, &score)| RootMove { mv: ms[i], score, pv: vec![ms[i]], depth: 5 }).collect()
}

fn rng(seed: u64) -> ChaCha20Rng {
    decision_rng(seed, 10, Color::White, 0x1234_5678, tags::CHOICE)
}

fn index_of(root: &[RootMove], mv: Move) -> usize {
    root.iter().position(|r| r.mv == mv).unwrap()
}

fn slips(p: f64, min: i32, max: i32) -> ChoiceSettings {
    ChoiceSettings {
        plateau_cp: 0,
        lambda: None,
        slip_p: p,
        slip_min_cp: min,
        slip_max_cp: max,
        boltzmann_max_cp: None,
        slip_tilt: 0.0,
    }
}

#[test]
fn one_legal_move_is_forced_even_with_certain_slips() {
    let r = root(&[-250]);
    for seed in 0..200 {
        let c = choose(&r, &slips(1.0, 0, 10_000), &mut rng(seed));
        assert_eq!(c.kind, ChoiceKind::Forced);
        assert_eq!(c.mv, r[0].mv);
        assert_eq!((c.regret_cp, c.candidates), (0, 1));
    }
}

#[test]
fn slips_stay_inside_the_gate() {
    let scores = [120, 110, 60, 20, -10, -60, -130, -400, -900, -MATE + 7];
    let r = root(&scores);
    let s = slips(1.0, 50, 250);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..3000 {
        let c = choose(&r, &s, &mut rng(seed));
        assert_eq!(c.kind, ChoiceKind::Slip);
        let i = index_of(&r, c.mv);
        let regret = 120 - scores[i];
        assert!((50..=250).contains(&regret), "regret {regret}");
        assert_eq!(c.regret_cp, regret);
        assert_eq!(c.candidates, 5); // 60, 20, -10, -60, -130 (regrets 60, 100, 130, 180, 250)
        seen.insert(i);
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![2, 3, 4, 5, 6]);
}

#[test]
fn slip_probability_is_respected() {
    let r = root(&[50, 40, -50, -100]);
    let s = slips(0.2, 50, 250);
    let n = 20_000;
    let slipped = (0..n).filter(|&seed| choose(&r, &s, &mut rng(seed)).kind == ChoiceKind::Slip).count();
    let rate = slipped as f64 / n as f64;
    assert!((0.18..0.22).contains(&rate), "{rate}");
    // p = 0 never slips.
    let s0 = slips(0.0, 50, 250);
    assert!((0..2000).all(|seed| choose(&r, &s0, &mut rng(seed)).kind != ChoiceKind::Slip));
}

#[test]
fn a_slip_is_always_a_worse_move() {
    // Gate from 0: the tied-best moves are not slip candidates, only strictly worse ones.
    let r = root(&[30, 30, 10]);
    for seed in 0..300 {
        let c = choose(&r, &slips(1.0, 0, 100), &mut rng(seed));
        assert_eq!((c.kind, c.mv, c.regret_cp), (ChoiceKind::Slip, r[2].mv, 20));
    }
}

#[test]
fn no_candidate_in_the_gate_means_no_slip() {
    // Regrets 5 and 600: nothing in [50, 250].
    let r = root(&[30, 25, -570]);
    for seed in 0..1000 {
        let c = choose(&r, &slips(1.0, 50, 250), &mut rng(seed));
        assert_eq!(c.kind, ChoiceKind::Best);
        assert_eq!(c.mv, r[0].mv);
    }
}

#[test]
fn never_slips_away_from_a_found_mate_and_plays_the_fastest() {
    // Mate in 2 (3 plies), mate in 3, and ordinary moves inside the gate.
    let r = root(&[MATE - 5, MATE - 3, 200, 150, 100]);
    for seed in 0..2000 {
        let c = choose(&r, &slips(1.0, 0, 100_000), &mut rng(seed));
        assert_eq!(c.mv, r[1].mv, "the fastest mate");
        assert_eq!(c.kind, ChoiceKind::Best);
        assert_eq!(c.regret_cp, 0);
    }
    // Also with a wide plateau and with Boltzmann.
    let wide = ChoiceSettings { plateau_cp: 50, lambda: Some(0.1), ..slips(0.5, 0, 1000) };
    for seed in 0..500 {
        assert_eq!(choose(&r, &wide, &mut rng(seed)).mv, r[1].mv);
    }
    // Two equally fast mates: either, never anything else.
    let r2 = root(&[MATE - 3, 10, MATE - 3]);
    let mut seen = [false; 3];
    for seed in 0..500 {
        let c = choose(&r2, &slips(1.0, 0, 100_000), &mut rng(seed));
        let i = index_of(&r2, c.mv);
        assert_ne!(i, 1);
        assert_eq!(c.kind, ChoiceKind::Plateau);
        seen[i] = true;
    }
    assert!(seen[0] && seen[2]);
}

#[test]
fn never_slips_into_a_mate_against_us() {
    // The best move holds (-80); the others walk into mate; the gate is huge.
    let r = root(&[-80, -MATE + 4, -MATE + 6, -MATE + 10]);
    for seed in 0..1000 {
        let c = choose(&r, &slips(1.0, 0, 100_000), &mut rng(seed));
        assert_eq!(c.mv, r[0].mv);
        assert_ne!(c.kind, ChoiceKind::Slip);
    }
    // When every move is mated, keep resisting: the longest defence, never a slip.
    let lost = root(&[-MATE + 12, -MATE + 10, -MATE + 4]);
    let s = ChoiceSettings { plateau_cp: 30, lambda: None, ..slips(1.0, 0, 100_000) };
    for seed in 0..500 {
        assert_eq!(choose(&lost, &s, &mut rng(seed)).mv, lost[0].mv);
    }
    let boltz = ChoiceSettings { lambda: Some(0.5), ..s.clone() };
    for seed in 0..500 {
        assert_eq!(choose(&lost, &boltz, &mut rng(seed)).mv, lost[0].mv);
    }
    const { assert!(-MATE + 12 < -MATE_BOUND) };
}

#[test]
fn plateau_picks_only_moves_within_plateau_cp() {
    let r = root(&[40, 40, 35, 31, 29, 0]);
    let s = ChoiceSettings { plateau_cp: 9, ..ChoiceSettings::best() };
    let mut seen = [0u32; 6];
    for seed in 0..4000 {
        let c = choose(&r, &s, &mut rng(seed));
        let i = index_of(&r, c.mv);
        assert!(i <= 3, "picked {i}");
        assert_eq!(c.kind, ChoiceKind::Plateau);
        assert_eq!(c.candidates, 4);
        seen[i] += 1;
    }
    for &count in &seen[..4] {
        assert!((850..=1150).contains(&count), "{seen:?}");
    }
    // plateau 0: exact ties only.
    let best = ChoiceSettings::best();
    for seed in 0..500 {
        let i = index_of(&r, choose(&r, &best, &mut rng(seed)).mv);
        assert!(i <= 1);
    }
    // A single best move is Best.
    let r1 = root(&[50, 10, 0]);
    let c = choose(&r1, &best, &mut rng(1));
    assert_eq!((c.kind, c.mv, c.candidates), (ChoiceKind::Best, r1[0].mv, 1));
}

#[test]
fn boltzmann_frequencies_follow_the_scores() {
    let scores = [100, 70, 40, 0, -100, -MATE + 3];
    let r = root(&scores);
    let s = ChoiceSettings { lambda: Some(2.0), ..ChoiceSettings::best() };
    let n = 40_000;
    let mut counts = [0u32; 6];
    for seed in 0..n {
        let c = choose(&r, &s, &mut rng(seed));
        assert_eq!(c.kind, ChoiceKind::Boltzmann);
        assert_eq!(c.candidates, 5);
        counts[index_of(&r, c.mv)] += 1;
    }
    assert_eq!(counts[5], 0, "a mated move is never sampled");
    for w in counts[..5].windows(2) {
        assert!(w[0] > w[1], "{counts:?}");
    }
    // Against the exact distribution: weights exp(2 * (v - 100) / 100).
    let weights: Vec<f64> = scores[..5].iter().map(|&v| (2.0 * f64::from(v - 100) / 100.0).exp()).collect();
    let total: f64 = weights.iter().sum();
    for i in 0..5 {
        let want = weights[i] / total;
        let got = f64::from(counts[i]) / n as f64;
        assert!((got - want).abs() < 0.015, "move {i}: {got} vs {want}");
    }
    // Higher lambda is greedier.
    let greedy = ChoiceSettings { lambda: Some(20.0), ..ChoiceSettings::best() };
    let best_share = (0..5000).filter(|&seed| choose(&r, &greedy, &mut rng(seed)).mv == r[0].mv).count();
    assert!(best_share > 4500, "{best_share}");
}

#[test]
fn boltzmann_is_numerically_stable_with_extreme_scores() {
    let r = root(&[25_000, -25_000, 0]);
    let s = ChoiceSettings { lambda: Some(50.0), ..ChoiceSettings::best() };
    for seed in 0..200 {
        assert_eq!(choose(&r, &s, &mut rng(seed)).mv, r[0].mv);
    }
}

#[test]
fn same_seed_same_choice_and_different_seeds_differ() {
    let r = root(&[30, 28, 25, 20, -40, -90, -200]);
    let s = ChoiceSettings {
        plateau_cp: 10,
        lambda: None,
        slip_p: 0.3,
        slip_min_cp: 50,
        slip_max_cp: 250,
        boltzmann_max_cp: None,
        slip_tilt: 0.0,
    };
    let b = ChoiceSettings { lambda: Some(1.0), ..s.clone() };
    for settings in [&s, &b] {
        for seed in 0..300 {
            assert_eq!(choose(&r, settings, &mut rng(seed)), choose(&r, settings, &mut rng(seed)));
        }
        let distinct: std::collections::BTreeSet<usize> =
            (0..300).map(|seed| index_of(&r, choose(&r, settings, &mut rng(seed)).mv)).collect();
        assert!(distinct.len() >= 4, "{distinct:?}");
    }
}

#[test]
fn the_slip_draw_is_always_consumed() {
    // Whatever the settings, `choose` starts with one uniform draw; a forced move uses exactly that.
    let r = root(&[10]);
    let mut a = rng(9);
    let mut b = rng(9);
    choose(&r, &ChoiceSettings::best(), &mut a);
    choose(&r, &slips(1.0, 0, 100), &mut b);
    sparring::seed::uniform_f64(&mut b);
    sparring::seed::uniform_f64(&mut a);
    assert_eq!(a.get_word_pos(), b.get_word_pos());
    assert_eq!(a.get_word_pos(), 4, "two u64 draws = four words");
}

#[test]
fn random_move_is_uniform_over_legal_moves_and_deterministic() {
    let legal = moves();
    let mut counts = vec![0u32; legal.len()];
    for seed in 0..20_000 {
        let mut g = decision_rng(seed, 0, Color::White, 1, tags::RANDOM);
        let m = random_move(&legal, &mut g);
        counts[legal.iter().position(|&x| x == m).unwrap()] += 1;
        let mut g2 = decision_rng(seed, 0, Color::White, 1, tags::RANDOM);
        let c = random_choice(&legal, &mut g2);
        assert_eq!((c.mv, c.kind, c.candidates), (m, ChoiceKind::Random, 20));
    }
    for &c in &counts {
        assert!((850..=1150).contains(&c), "{counts:?}");
    }
}

#[test]
fn settings_validation() {
    assert!(ChoiceSettings::best().validate().is_ok());
    assert!(slips(0.1, 50, 250).validate().is_ok());
    assert!(slips(1.1, 50, 250).validate().is_err());
    assert!(slips(-0.1, 50, 250).validate().is_err());
    assert!(slips(f64::NAN, 50, 250).validate().is_err());
    assert!(slips(0.1, 300, 250).validate().is_err());
    assert!(slips(0.1, -5, 250).validate().is_err());
    let mut s = ChoiceSettings::best();
    s.lambda = Some(f64::INFINITY);
    assert!(s.validate().is_err());
    s.lambda = Some(-1.0);
    assert!(s.validate().is_err());
    let capped = |c| ChoiceSettings { lambda: Some(1.0), boltzmann_max_cp: Some(c), ..ChoiceSettings::best() };
    assert!(capped(1).validate().is_ok());
    assert!(capped(0).validate().is_err());
    assert!(capped(-50).validate().is_err());
}

#[test]
fn unscored_moves_from_an_aborted_search_are_not_chosen() {
    let unscored = -MATE - 1; // -INFINITY, as an aborted iteration leaves it
    let r = root(&[20, -90, unscored, unscored]);
    for settings in [
        slips(1.0, 0, 100_000),
        ChoiceSettings { lambda: Some(0.01), ..ChoiceSettings::best() },
        ChoiceSettings { plateau_cp: 500, ..ChoiceSettings::best() },
    ] {
        for seed in 0..300 {
            let i = index_of(&r, choose(&r, &settings, &mut rng(seed)).mv);
            assert!(i <= 1, "{settings:?} picked an unscored move");
        }
    }
}

#[test]
fn a_slip_tilt_leans_the_rate_on_the_best_score() {
    let flat = slips(0.1, 50, 300);
    let tilted = ChoiceSettings { slip_tilt: 0.5, ..flat.clone() };
    for best in [-5000, -400, -37, 0, 250, 400, 9000] {
        assert_eq!(flat.slip_p_at(best), 0.1, "no tilt: the same rate everywhere");
    }
    assert_eq!(tilted.slip_p_at(0), 0.1);
    assert!((tilted.slip_p_at(-200) - 0.1 * 1f64.exp()).abs() < 1e-12);
    assert!((tilted.slip_p_at(200) - 0.1 * (-1f64).exp()).abs() < 1e-12);
    // Beyond ±400 cp it leans no further, and the rate never exceeds 1.
    assert_eq!(tilted.slip_p_at(-400), tilted.slip_p_at(-3000));
    assert_eq!(tilted.slip_p_at(400), tilted.slip_p_at(3000));
    let steep = ChoiceSettings { slip_p: 0.5, slip_tilt: 2.0, ..flat.clone() };
    assert_eq!(steep.slip_p_at(-400), 1.0);
    for bad in [-0.1, 2.5, f64::NAN, f64::INFINITY] {
        let e = ChoiceSettings { slip_tilt: bad, ..flat.clone() }.validate().unwrap_err();
        assert!(e.contains("slip_tilt"), "{e}");
    }
    assert!(tilted.validate().is_ok());
}

#[test]
fn a_tilted_point_slips_more_when_worse_and_less_when_ahead() {
    // The same three moves (best, −250, −260) at +300 and at −300: both slips are inside the gate.
    let tilted = ChoiceSettings { slip_tilt: 0.5, ..slips(0.1, 50, 300) };
    let count = |best: i32, s: &ChoiceSettings| {
        let r = root(&[best, best - 250, best - 260]);
        (0..4000).filter(|&seed| choose(&r, s, &mut rng(seed)).kind == ChoiceKind::Slip).count()
    };
    // Expected rates 0.1·e^1.5 = 0.448 and 0.1·e^-1.5 = 0.022 (seeded: the counts are fixed).
    let (worse, ahead) = (count(-300, &tilted), count(300, &tilted));
    assert!((1650..=1950).contains(&worse), "{worse}");
    assert!((50..=130).contains(&ahead), "{ahead}");
    // Without the tilt both are 0.1.
    let flat = slips(0.1, 50, 300);
    for best in [-300, 300] {
        let n = count(best, &flat);
        assert!((330..=470).contains(&n), "{best}: {n}");
    }
}
