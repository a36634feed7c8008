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

#[test]
fn sprt_bounds_and_llr() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05);
    let (lo, hi) = s.bounds();
    close(lo, -2.944_438_979, 1e-8);
    close(hi, 2.944_438_979, 1e-8);
    // Pentanomial LLR = N (s1 - s0)(2 mu - s0 - s1) / (2 var).
    let p = [1, 11, 47, 25, 16];
    let (s0, s1) = (0.5, elo_to_score(10.0));
    let expect = 100.0 * (s1 - s0) * (1.22 - s0 - s1) / (2.0 * 0.0529);
    close(s.llr_pentanomial(&p), expect, 1e-9);
    close(expect, 2.796, 0.001);
    assert_eq!(s.decision(expect), SprtDecision::Continue);
    // Trinomial: W=60 D=20 L=20, mu = 0.7, var = (60*.09 + 20*.04 + 20*.49)/100 = 0.16.
    let t = Sprt::new(0.0, 5.0, 0.05, 0.05);
    let (s0, s1) = (0.5, elo_to_score(5.0));
    close(t.llr_trinomial(60, 20, 20), 100.0 * (s1 - s0) * (1.4 - s0 - s1) / (2.0 * 0.16), 1e-9);
    // A dead-even result leans to H0 and eventually accepts it.
    assert!(t.llr_trinomial(500, 1000, 500) < 0.0);
    assert_eq!(t.decision(t.llr_trinomial(5000, 10000, 5000)), SprtDecision::AcceptH0);
    assert_eq!(t.llr_trinomial(0, 0, 0), 0.0);
    // Normalized model: s_i = 1/2 + nelo_i / (800/ln 10) * sigma.
    let mut nrm = Sprt::new(0.0, 10.0, 0.05, 0.05);
    nrm.model = SprtModel::Normalized;
    let k = 800.0 / std::f64::consts::LN_10;
    let sigma = (2.0f64 * 0.0529).sqrt();
    let (s0, s1) = (0.5, 0.5 + 10.0 / k * sigma);
    close(nrm.llr_pentanomial(&p), 100.0 * (s1 - s0) * (1.22 - s0 - s1) / (2.0 * 0.0529), 1e-9);
}
