//! Match statistics against hand-worked values and published cutechess-cli output.

use sparring_tools::r#match::sprt::{Sprt, SprtDecision, SprtModel};
use sparring_tools::r#match::stats::*;

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tol {tol})");
}

#[test]
fn elo_score_round_trip() {
    close(score_to_elo(0.5), 0.0, 1e-12);
    close(score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-9); // 190.85
    close(elo_to_score(score_to_elo(0.61)), 0.61, 1e-12);
    assert!(score_to_elo(1.0).is_infinite());
}

#[test]
fn erf_values() {
    close(erf(0.0), 0.0, 1e-15);
    close(erf(0.5), 0.520_499_877_813_046_5, 1e-13);
    close(erf(1.0), 0.842_700_792_949_714_9, 1e-13);
    close(erf(2.0), 0.995_322_265_018_952_7, 1e-13);
    close(erf(3.0), 0.999_977_909_503_001_4, 1e-13);
    close(erf(-1.0), -0.842_700_792_949_714_9, 1e-13);
}

#[test]
fn trinomial_by_hand() {
    // W=10 D=5 L=5: mu = 0.625, var = 3.4375/20 = 0.171875, se = sqrt(var/20).
    let e = trinomial_elo(10, 5, 5);
    close(e.elo.unwrap(), -400.0 * (1.0 / 0.625 - 1.0f64).log10(), 1e-9);
    close(e.elo.unwrap(), 88.7395, 1e-3);
    let se = (0.171875f64 / 20.0).sqrt();
    let lo = score_to_elo(0.625 - Z95 * se);
    let hi = score_to_elo(0.625 + Z95 * se);
    close(e.lower95.unwrap(), lo, 1e-9);
    close(e.upper95.unwrap(), hi, 1e-9);
    close(e.error95.unwrap(), (hi - lo) / 2.0, 1e-9);
    // A perfect score has no finite Elo.
    assert_eq!(trinomial_elo(3, 0, 0).elo, None);
    assert_eq!(trinomial_elo(0, 0, 0).elo, None);
}

/// Published cutechess-cli lines ("Score of X vs Y: W - L - D ... Elo difference: E +/- M, LOS").
#[test]
fn matches_published_cutechess_output() {
    for &(w, l, d, elo, err, los_pct) in
        &[(449u64, 276u64, 275u64, 60.7, 18.5, 100.0), (382, 320, 298, 21.6, 18.1, 99.0)]
    {
        let e = trinomial_elo(w, d, l);
        close(e.elo.unwrap(), elo, 0.05);
        close(e.error95.unwrap(), err, 0.05);
        close(los(w, l) * 100.0, los_pct, 0.05);
    }
}

#[test]
fn los_by_hand() {
    close(los(10, 10), 0.5, 1e-15);
    // W=12, L=8: 0.5 (1 + erf(4 / sqrt(40))).
    close(los(12, 8), 0.5 * (1.0 + erf(4.0 / 40f64.sqrt())), 1e-15);
    close(los(12, 8), 0.814_453_3, 1e-6); // = Phi(4 / sqrt(20))
    assert_eq!(los(0, 0), 0.5);
}

#[test]
fn pentanomial_by_hand() {
    // Pairs [LL, LD, DD+WL, WD, WW] = [1, 11, 47, 25, 16]: 100 pairs, 122 points of 200.
    let p = [1, 11, 47, 25, 16];
    let mu = 0.61;
    let var = (1.0 * 0.61f64.powi(2)
        + 11.0 * 0.36f64.powi(2)
        + 47.0 * 0.11f64.powi(2)
        + 25.0 * 0.14f64.powi(2)
        + 16.0 * 0.39f64.powi(2))
        / 100.0;
    close(var, 0.0529, 1e-12);
    let e = pentanomial_elo(&p);
    close(e.elo.unwrap(), 77.71, 0.005);
    let se = (var / 100.0).sqrt();
    close(e.error95.unwrap(), (score_to_elo(mu + Z95 * se) - score_to_elo(mu - Z95 * se)) / 2.0, 1e-9);
    // nElo: (mu - 1/2) / sqrt(2 var) * 800 / ln 10, interval ± Z95 * 800/ln10 / sqrt(2 N).
    let n = pentanomial_nelo(&p);
    let k = 800.0 / std::f64::consts::LN_10;
    close(n.elo.unwrap(), 0.11 / (2.0 * var).sqrt() * k, 1e-9);
    close(n.error95.unwrap(), Z95 * k / 200f64.sqrt(), 1e-9);
    // Published fastchess output for these pairs: "Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15".
    close(e.error95.unwrap(), 33.03, 0.005);
    close(n.elo.unwrap(), 117.50, 0.005);
    close(n.error95.unwrap(), 48.15, 0.005);
}

/// The paired score's interval by hand: pairs [1, 2, 4, 2, 1] score 0.5 with a pair variance of
/// (2·0.25 + 4·0.0625)/10 = 0.075, so ±1.96·√(0.075/10) = 0.16974; it narrows with more pairs of
/// the same spread, is 0 without spread, and undefined from one pair.
#[test]
fn pentanomial_score_by_hand() {
    let s = pentanomial_score(&[1, 2, 4, 2, 1]).expect("ten pairs");
    close(s.score, 0.5, 1e-12);
    close(s.error95, 1.959_963_984_540_054 * (0.075f64 / 10.0).sqrt(), 1e-9);
    let more = pentanomial_score(&[10, 20, 40, 20, 10]).expect("pairs");
    assert!(more.error95 < s.error95 && more.error95 > 0.0);
    assert_eq!(pentanomial_score(&[0, 0, 10, 0, 0]).map(|s| s.error95), Some(0.0));
    assert_eq!(pentanomial_score(&[0, 0, 0, 1, 0]), None);
    close(pentanomial_score(&[0, 0, 0, 3, 1]).unwrap().score, 0.8125, 1e-12);
}

#[test]
fn sprt_bounds_and_llr() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05);
    let (lo, hi) = s.bounds();
    close(lo, -2.944_438_979, 1e-8);
    close(hi, 2.944_438_979, 1e-8);
    // The generalized LLR is close to the normal approximation N (s1 - s0)(2 mu - s0 - s1) / (2 var)
    // once the sample is large and no outcome is rare.
    let p = [40, 400, 1000, 460, 100];
    let (s0, s1) = (0.5, elo_to_score(10.0));
    let n: f64 = 2000.0;
    let mu: f64 = (400.0 * 0.25 + 1000.0 * 0.5 + 460.0 * 0.75 + 100.0) / n;
    let var = (40.0 * mu * mu
        + 400.0 * (0.25 - mu).powi(2)
        + 1000.0 * (0.5 - mu).powi(2)
        + 460.0 * (0.75 - mu).powi(2)
        + 100.0 * (1.0 - mu).powi(2))
        / n;
    let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
    let llr = s.llr_pentanomial(&p);
    assert!((llr - approx).abs() < 0.03 * approx.abs(), "{llr} vs {approx}");
    assert_eq!(s.decide_pentanomial(&p).1, SprtDecision::AcceptH1);
    let t = Sprt::new(0.0, 5.0, 0.05, 0.05);
    // A dead-even result leans to H0 and eventually accepts it.
    assert!(t.llr_trinomial(500, 1000, 500) < 0.0);
    assert_eq!(t.decide_trinomial(5000, 10000, 5000).1, SprtDecision::AcceptH0);
    assert_eq!(t.llr_trinomial(0, 0, 0), 0.0);
    // Normalized model: the same sign and order of size.
    let mut nrm = Sprt::new(0.0, 10.0, 0.05, 0.05);
    nrm.model = SprtModel::Normalized;
    assert!(nrm.llr_pentanomial(&p) > hi);
    assert!(nrm.llr_pentanomial(&[25, 250, 450, 250, 25]) < 0.0);
}

/// Issue 59, what it must show: the LLR equals fastchess's on ten matches fastchess itself played
/// and printed (`bench/results/sprt-fastchess/record.sh`: counts and LLR as fastchess printed them,
/// to two decimals; logistic and normalized models, pentanomial and trinomial).
#[test]
fn sprt_llr_equals_fastchess_on_ten_recorded_matches() {
    let text = std::fs::read_to_string(concat!(env!("SPARRING_REPO"), "/bench/results/sprt-fastchess/matches.tsv"))
        .expect("matches.tsv is committed");
    let mut n = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let mut s = Sprt::new(f[2].parse().unwrap(), f[3].parse().unwrap(), 0.05, 0.05);
        s.model = if f[1] == "normalized" { SprtModel::Normalized } else { SprtModel::Logistic };
        let c: Vec<u64> = f[5].split(',').map(|x| x.parse().unwrap()).collect();
        let fastchess: f64 = f[6].parse().unwrap();
        let ours = if f[4] == "true" {
            s.llr_pentanomial(&[c[0], c[1], c[2], c[3], c[4]])
        } else {
            // Recorded as wins, draws, losses.
            s.llr_trinomial(c[0], c[1], c[2])
        };
        assert!((ours - fastchess).abs() <= 0.005 + 1e-9, "match {}: ours {ours:.4}, fastchess {fastchess}", f[0]);
        n += 1;
    }
    assert_eq!(n, 10);
}

/// Issue 59: one pair (a draw and a loss) once gave `LLR -21.93` and accepted H0 between engines
/// 400 Elo apart; a lone draw or loss between identical settings did too. The LLR of a single pair
/// is now small, and no decision comes before two different outcomes are seen.
#[test]
fn sprt_never_decides_on_one_pair_or_one_kind_of_outcome() {
    let s = Sprt::new(0.0, 50.0, 0.05, 0.05);
    for p in [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1]] {
        let llr = s.llr_pentanomial(&p);
        assert!(llr.abs() < 1.0, "{p:?}: LLR {llr}");
        assert_eq!(s.decide_pentanomial(&p).1, SprtDecision::Continue, "{p:?}");
    }
    for (w, d, l) in [(0, 1, 0), (0, 0, 1), (1, 0, 0)] {
        assert!(s.llr_trinomial(w, d, l).abs() < 1.0);
        assert_eq!(s.decide_trinomial(w, d, l).1, SprtDecision::Continue);
    }
    // Outcomes all alike: the variance is not defined, so however many, no decision...
    assert_eq!(s.decide_pentanomial(&[0, 0, 400, 0, 0]).1, SprtDecision::Continue);
    assert_eq!(s.decide_trinomial(0, 0, 300).1, SprtDecision::Continue);
    // ...though the LLR itself leans the right way.
    assert!(s.llr_pentanomial(&[0, 0, 400, 0, 0]) < s.bounds().0);
    // Two kinds of outcome: the bounds decide.
    assert_eq!(s.decide_pentanomial(&[0, 0, 400, 1, 0]).1, SprtDecision::AcceptH0);
    assert_eq!(s.decide_trinomial(60, 2, 0).1, SprtDecision::AcceptH1);
    assert_eq!(s.decide_pentanomial(&[0, 0, 0, 0, 0]), (0.0, SprtDecision::Continue));
}

/// A pentanomial pair result drawn from `dist` (probabilities of LL, LD, DD+WL, WD, WW).
fn draw_pair(rng: &mut rand_chacha::ChaCha8Rng, dist: &[f64; 5]) -> usize {
    use rand_chacha::rand_core::Rng;
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    for (i, p) in dist.iter().enumerate() {
        acc += p;
        if u < acc {
            return i;
        }
    }
    4
}

/// Runs `matches` simulated SPRTs of at most `max_pairs` pairs each; returns (H1 accepted, H0
/// accepted, undecided, fewest pairs at a stop, mean pairs at a stop). Every stop is checked to
/// come only after two different outcomes.
fn simulate(
    s: &Sprt,
    dist: &[f64; 5],
    matches: usize,
    max_pairs: usize,
    seed: u64,
) -> (usize, usize, usize, usize, f64) {
    use rand_chacha::rand_core::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut h1, mut h0, mut open, mut fewest, mut total) = (0, 0, 0, usize::MAX, 0usize);
    for _ in 0..matches {
        let mut p = [0u64; 5];
        let mut decided = false;
        for n in 1..=max_pairs {
            p[draw_pair(&mut rng, dist)] += 1;
            let (_, d) = s.decide_pentanomial(&p);
            if d != SprtDecision::Continue {
                assert!(p.iter().filter(|&&c| c > 0).count() >= 2, "stopped on {p:?}");
                if d == SprtDecision::AcceptH1 {
                    h1 += 1;
                } else {
                    h0 += 1;
                }
                fewest = fewest.min(n);
                total += n;
                decided = true;
                break;
            }
        }
        if !decided {
            open += 1;
        }
    }
    (h1, h0, open, fewest, total as f64 / (h1 + h0).max(1) as f64)
}

/// Issue 59, what it must show: 1,000 simulated matches between identical engines (a symmetric
/// pentanomial distribution, so the true Elo is elo0 = 0): H1 (the false positive) is accepted at
/// most alpha of the time, and no test stops before its variance is defined. Fixed seeds.
#[test]
fn sprt_false_positive_rate_between_identical_engines_is_at_most_alpha() {
    // A draw-heavy and a decisive pair distribution, both with mean score 1/2.
    let drawish = [0.02, 0.18, 0.60, 0.18, 0.02];
    let sharp = [0.10, 0.20, 0.40, 0.20, 0.10];
    let mut total_h1 = 0;
    for (dist, elo1, model, seed) in [
        (drawish, 50.0, SprtModel::Logistic, 1u64),
        (sharp, 50.0, SprtModel::Logistic, 2),
        (sharp, 20.0, SprtModel::Logistic, 3),
        (drawish, 20.0, SprtModel::Normalized, 4),
    ] {
        let mut s = Sprt::new(0.0, elo1, 0.05, 0.05);
        s.model = model;
        let (h1, h0, open, fewest, mean) = simulate(&s, &dist, 1000, 100_000, seed);
        eprintln!(
            "{dist:?} [0, {elo1}] {model:?}: H1 {h1}, H0 {h0}, open {open}, fewest pairs {fewest}, mean {mean:.1}"
        );
        assert_eq!(open, 0);
        // alpha = 5 %: at most 50 of 1000, give or take the simulation's own noise (one-sided 1 %:
        // 2.33 standard errors, 16 matches). A GSPRT's error rate at the boundary is about alpha.
        assert!(h1 <= 66, "false positives {h1} of 1000 (alpha 0.05)");
        assert!(fewest >= 2);
        total_h1 += h1;
    }
    // Pooled over the 4,000 matches: at most 5 % + 2.33 standard errors (32).
    assert!(total_h1 <= 232, "false positives {total_h1} of 4000");
}

/// The same four settings with 10,000 simulated matches each (about a minute; run with
/// `--ignored`): each rate at most 5 % + 2.33 standard errors of 10,000 (5.51 %). The 1,000-match
/// test above saw 58 of 1,000 at one setting; this says whether that was the simulation's noise.
#[test]
#[ignore]
fn sprt_false_positive_rate_over_ten_thousand_matches_per_setting() {
    let drawish = [0.02, 0.18, 0.60, 0.18, 0.02];
    let sharp = [0.10, 0.20, 0.40, 0.20, 0.10];
    for (dist, elo1, model, seed) in [
        (drawish, 50.0, SprtModel::Logistic, 11u64),
        (sharp, 50.0, SprtModel::Logistic, 12),
        (sharp, 20.0, SprtModel::Logistic, 13),
        (drawish, 20.0, SprtModel::Normalized, 14),
    ] {
        let mut s = Sprt::new(0.0, elo1, 0.05, 0.05);
        s.model = model;
        let (h1, h0, open, fewest, mean) = simulate(&s, &dist, 10_000, 100_000, seed);
        println!(
            "{dist:?} [0, {elo1}] {model:?}: H1 {h1}, H0 {h0}, open {open}, fewest pairs {fewest}, mean {mean:.1}"
        );
        assert_eq!(open, 0);
        assert!(h1 <= 551, "false positives {h1} of 10000 (alpha 0.05)");
    }
}
