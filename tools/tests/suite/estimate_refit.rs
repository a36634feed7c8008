//! The weighted least-squares refit recovers known coefficients; too few samples are refused;
//! the held-out evaluation and the samples CSV.

use sparring_tools::strength::model::StrengthModel;
use sparring_tools::strength::refit::{
    Direction, FitPart, Sample, Weighting, evaluate, read_samples_csv, refit, refit_with, wls,
};

/// A small deterministic generator (SplitMix64) for synthetic data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn samples(count: usize, k: f64, a_elo: f64, a_ase: f64, noise: f64, seed: u64) -> Vec<Sample> {
    let mut r = Rng(seed);
    (0..count)
        .map(|i| {
            let ase = 0.1 + 0.6 * r.next();
            let n = 12 + (r.next() * 40.0) as usize;
            let e = (r.next() - 0.5) * 2.0 * noise;
            Sample {
                game: i + 1,
                color: if i % 2 == 0 { "white".into() } else { "black".into() },
                player: format!("p{}", i % 7),
                rating: a_elo - (ase - a_ase) * k + e,
                n,
                ase,
                sd: 0.4,
                p75_loss: 50.0,
            }
        })
        .collect()
}

#[test]
fn refit_recovers_exact_coefficients() {
    let s = samples(40, 4000.0, 1500.0, 0.3, 0.0, 1);
    let (m, fit) = refit(&s, Weighting::Plies, Some(1500.0), &StrengthModel::pawnbook()).unwrap();
    assert!((m.elo_per_ase_unit - 4000.0).abs() < 1e-6, "{m:?}");
    assert!((m.anchor_elo - 1500.0).abs() < 1e-9);
    assert!((m.anchor_ase - 0.3).abs() < 1e-9);
    assert!((fit.r2 - 1.0).abs() < 1e-9);
    // Centroid anchor: a different point of the same line.
    let (c, _) = refit(&s, Weighting::Uniform, None, &StrengthModel::pawnbook()).unwrap();
    for ase in [0.1, 0.4, 0.7] {
        assert!((c.elo_f(ase) - m.elo_f(ase)).abs() < 1e-6);
    }
    // The oracle record of the template is kept, the fit is recorded.
    assert_eq!(c.oracle, StrengthModel::pawnbook().oracle);
    assert_eq!(c.fitted.as_ref().unwrap().samples, 40);
    assert_eq!(c.original_calibration.elo_per_ase_unit, 6500.0);
}

#[test]
fn refit_recovers_noisy_coefficients() {
    let s = samples(5000, 3000.0, 1400.0, 0.35, 300.0, 7);
    let (m, fit) = refit(&s, Weighting::Plies, Some(1400.0), &StrengthModel::pawnbook()).unwrap();
    assert!((m.elo_per_ase_unit - 3000.0).abs() < 100.0, "{m:?}");
    assert!((m.anchor_ase - 0.35).abs() < 0.01, "{m:?}");
    assert!(fit.r2 > 0.5 && fit.r2 < 1.0);
}

#[test]
fn weighted_fit_by_hand() {
    // Three points, one with weight 2: y = 2x + 1 exactly for the heavy points, the light one off.
    let mut pts = vec![(0.0, 1.0, 2.0), (1.0, 3.0, 2.0), (2.0, 5.0, 2.0)];
    for i in 0..17 {
        pts.push((i as f64, 2.0 * i as f64 + 1.0, 1.0));
    }
    let f = wls(&pts).unwrap();
    assert!((f.slope - 2.0).abs() < 1e-12 && (f.intercept - 1.0).abs() < 1e-12);
    assert_eq!(f.samples, 20);
}

#[test]
fn too_few_samples_are_refused() {
    let s = samples(19, 4000.0, 1500.0, 0.3, 0.0, 3);
    let e = refit(&s, Weighting::Plies, None, &StrengthModel::pawnbook()).unwrap_err();
    assert!(e.contains("refusing") && e.contains("19") && e.contains("20"), "{e}");
    // Samples with < 12 eligible plies do not count.
    let mut s = samples(25, 4000.0, 1500.0, 0.3, 0.0, 3);
    for x in s.iter_mut().take(10) {
        x.n = 11;
    }
    assert!(refit(&s, Weighting::Plies, None, &StrengthModel::pawnbook()).is_err());
    assert!(
        refit(&samples(20, 4000.0, 1500.0, 0.3, 0.0, 3), Weighting::Plies, None, &StrengthModel::pawnbook()).is_ok()
    );
    // A rising line is refused as well.
    let rising = samples(30, -2000.0, 1500.0, 0.3, 0.0, 5);
    assert!(refit(&rising, Weighting::Plies, None, &StrengthModel::pawnbook()).is_err());
}

#[test]
fn held_out_evaluation_on_known_numbers() {
    let mut m = StrengthModel::pawnbook();
    m.anchor_elo = 1500.0;
    m.anchor_ase = 0.3;
    m.elo_per_ase_unit = 1000.0;
    // Player "a": 10 games predicted exactly 1500 (ase 0.3) with ratings 1400 and 1600 alternating;
    // player "b": 2 games predicted 1600 (ase 0.2), rated 1600.
    let mut s = Vec::new();
    for i in 0..10 {
        s.push(Sample {
            game: i + 1,
            color: "white".into(),
            player: "a".into(),
            rating: if i % 2 == 0 { 1400.0 } else { 1600.0 },
            n: 20,
            ase: 0.3,
            sd: 0.3,
            p75_loss: 0.0,
        });
    }
    for i in 0..2 {
        s.push(Sample {
            game: 20 + i,
            color: "black".into(),
            player: "b".into(),
            rating: 1600.0,
            n: 20,
            ase: 0.2,
            sd: 0.3,
            p75_loss: 0.0,
        });
    }
    let e = evaluate(&m, &s, 1450.0);
    assert_eq!(e.games, 12);
    assert!((e.mae_model - 100.0 * 10.0 / 12.0).abs() < 1e-9);
    assert!((e.mae_baseline - (5.0 * 50.0 + 5.0 * 150.0 + 2.0 * 150.0) / 12.0).abs() < 1e-9);
    assert_eq!(e.players, 1);
    assert_eq!(e.windows, 1);
    assert!(e.mae_rolling.abs() < 1e-9); // rolling 1500 vs mean rating 1500
    assert!((e.mae_rolling_baseline - 50.0).abs() < 1e-9);
}

#[test]
fn split_and_samples_csv() {
    let s = samples(30, 4000.0, 1500.0, 0.3, 0.0, 9);
    let (fit, held) = FitPart::Even.split(&s, 30);
    assert!(fit.iter().all(|x| x.game % 2 == 0) && held.iter().all(|x| x.game % 2 == 1));
    let (fit, held) = FitPart::First80.split(&s, 30);
    assert_eq!((fit.len(), held.len()), (24, 6));
    let csv = "game,color,player,rating,n,ase,sd,p75_loss,strength_elo,strength_se,rolling_elo,rolling_se\n\
               3,white,\"x, y\",1500,20,0.250000,0.300000,40.0,1900,400,1900,400\n\
               3,black,z,,20,0.250000,0.300000,40.0,1900,400,,\n\
               4,black,z,1400,0,,,,,,,\n";
    let r = read_samples_csv(csv).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].player, "x, y");
    assert_eq!((r[0].game, r[0].n, r[0].rating), (3, 20, 1500.0));
    assert!(read_samples_csv("game,color\n1,white\n").is_err());
}

/// Ratings spread evenly, each game's ASE = true line + heavy noise: what real games look like.
fn noisy_ase_samples(count: usize, k: f64, noise: f64, seed: u64) -> Vec<Sample> {
    let mut r = Rng(seed);
    (0..count)
        .map(|i| {
            let rating = 900.0 + 1400.0 * r.next();
            let ase = 0.4 - (rating - 1500.0) / k + (r.next() - 0.5) * 2.0 * noise;
            Sample {
                game: i + 1,
                color: "white".into(),
                player: format!("p{i}"),
                rating,
                n: 40,
                ase,
                sd: 0.4,
                p75_loss: 50.0,
            }
        })
        .collect()
}

#[test]
fn ase_on_rating_is_unbiased_where_rating_on_ase_is_attenuated() {
    // True calibration: 5000 Elo per ASE unit; per-game ASE noise much larger than the signal.
    let s = noisy_ase_samples(4000, 5000.0, 0.25, 11);
    let (inv, fit) =
        refit_with(&s, Weighting::Plies, Direction::AseOnRating, None, &StrengthModel::pawnbook()).unwrap();
    assert!((inv.elo_per_ase_unit - 5000.0).abs() < 500.0, "{}", inv.elo_per_ase_unit);
    assert_eq!(inv.fitted.as_ref().unwrap().direction, "ase-on-rating");
    assert!(fit.r2 < 0.5, "the synthetic data must be noisy for this test to mean anything: {}", fit.r2);
    // The other direction shrinks: far fewer Elo per ASE unit than the truth.
    let (ols, _) = refit(&s, Weighting::Plies, None, &StrengthModel::pawnbook()).unwrap();
    assert!(ols.elo_per_ase_unit < 0.5 * 5000.0, "{}", ols.elo_per_ase_unit);
    // Pooled, the inverse model places a 2100 player's mean ASE near 2100; the other near the mean.
    let ase_2100 = 0.4 - 600.0 / 5000.0;
    assert!((inv.elo_f(ase_2100) - 2100.0).abs() < 80.0, "{}", inv.elo_f(ase_2100));
    assert!(ols.elo_f(ase_2100) < 1900.0, "{}", ols.elo_f(ase_2100));
}
