//! Elo, standard error and rolling-aggregate formulas on known numbers; the model file.

use sparring_tools::strength::model::{
    RollingTracker, Strength, StrengthModel, inverse_variance_mean, percentile, side_stats, strength,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn side_statistics_by_hand() {
    // Scaled errors: 0, ln 2, ln 4, ln 4 (500 is capped at 300).
    let s = side_stats(&[0, 100, 300, 500]).unwrap();
    let e = [0.0, 2f64.ln(), 4f64.ln(), 4f64.ln()];
    let mean = e.iter().sum::<f64>() / 4.0;
    let var = e.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 3.0;
    assert_eq!(s.n, 4);
    assert!(close(s.ase, mean, 1e-12));
    assert!(close(s.sd, var.sqrt(), 1e-12));
    // p75 of losses 0,100,300,500 by linear interpolation: index 2.25 -> 300 + 0.25*200.
    assert!(close(s.p75_loss, 350.0, 1e-9));
    assert!(side_stats(&[]).is_none());
    assert!(close(percentile(&[5.0, 1.0, 3.0], 0.5), 3.0, 1e-12));
}

#[test]
fn elo_and_se_with_the_pawnbook_calibration() {
    let m = StrengthModel::pawnbook();
    // At the anchor ASE the estimate is the anchor Elo.
    assert!(close(m.elo_f(0.2638), 1600.0, 1e-9));
    // 0.1 ASE units worse = 650 Elo lower.
    assert!(close(m.elo_f(0.3638), 950.0, 1e-6));
    // se = 6500 * sd / sqrt(n).
    assert!(close(m.se_f(0.4, 25), 520.0, 1e-9));

    // 12 plies with losses 0,0,...,100,100: ase = 6 ln2 / 12.
    let losses = [0, 0, 0, 0, 0, 0, 100, 100, 100, 100, 100, 100];
    let st = side_stats(&losses).unwrap();
    let ase = 2f64.ln() / 2.0;
    let sd = (12.0 * (2f64.ln() / 2.0).powi(2) / 11.0).sqrt();
    let s = strength(&m, &st).unwrap();
    assert_eq!(s.strength_elo, (1600.0 - (ase - 0.2638) * 6500.0).round() as i32);
    assert_eq!(s.strength_se, (6500.0 * sd / 12f64.sqrt()).round() as i32);
    assert_eq!(s.strength_elo, 1062); // 1600 - (0.346574 - 0.2638) * 6500 = 1061.97
    assert_eq!(s.strength_se, 679); // 6500 * 0.361985 / sqrt(12) = 679.22

    // Fewer than 12 eligible plies: no sample.
    assert!(strength(&m, &side_stats(&losses[..11]).unwrap()).is_none());
    // Zero spread: the se is floored at 1 so weights stay finite.
    let flat = side_stats(&[20; 12]).unwrap();
    assert_eq!(strength(&m, &flat).unwrap().strength_se, 1);
}

#[test]
fn inverse_variance_weighting() {
    let (e, se) = inverse_variance_mean(&[(1500, 100), (1700, 200)]).unwrap();
    // (1500/100² + 1700/200²) / (1/100² + 1/200²) = 1540; se = 1/sqrt(1.25e-4).
    assert!(close(e, 1540.0, 1e-9));
    assert!(close(se, 89.442_719_1, 1e-6));
    let (e, _) = inverse_variance_mean(&[(1000, 300), (2000, 300), (1200, 300)]).unwrap();
    assert!(close(e, 1400.0, 1e-9));
    assert!(inverse_variance_mean(&[]).is_none());
}

#[test]
fn rolling_keeps_the_last_ten_games() {
    let mut t = RollingTracker::new();
    // Two early games at 3000 that must fall out of the window, then ten at 1000..1900.
    t.push("p", Strength { strength_elo: 3000, strength_se: 50 }, Some(2000));
    t.push("q", Strength { strength_elo: 1234, strength_se: 100 }, None);
    t.push("p", Strength { strength_elo: 3000, strength_se: 50 }, Some(2000));
    let mut last = None;
    for i in 0..10 {
        last = Some(t.push("p", Strength { strength_elo: 1000 + 100 * i, strength_se: 200 }, Some(1500)));
    }
    let r = last.unwrap();
    assert_eq!(r.games, 12);
    assert_eq!(r.window, 10);
    assert!(close(r.rolling_elo, 1450.0, 1e-9));
    assert!(close(r.rolling_se, 200.0 / 10f64.sqrt(), 1e-9));
    assert_eq!(r.window_rating, Some(1500.0));
    let all = t.all();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].player, "p");
    assert!(close(all[1].rolling_elo, 1234.0, 1e-9));
}

#[test]
fn shipped_model_is_versioned_and_keeps_the_original_calibration() {
    let text = std::fs::read_to_string(concat!(env!("SPARRING_REPO"), "/calibration/strength-model.json")).unwrap();
    let m = StrengthModel::from_json(&text).unwrap();
    assert_eq!(m.version, 1);
    assert_eq!(m, StrengthModel::shipped());
    let o = &m.original_calibration;
    assert_eq!((o.anchor_elo, o.anchor_ase, o.elo_per_ase_unit), (1600.0, 0.2638, 6500.0));
    assert!(m.elo_per_ase_unit > 0.0);
    // Round trip and version check.
    let j = serde_json::to_string(&m).unwrap();
    assert_eq!(StrengthModel::from_json(&j).unwrap(), m);
    let bad = j.replace("\"version\":1", "\"version\":99");
    assert!(StrengthModel::from_json(&bad).unwrap_err().contains("version"));
}

#[test]
fn oracle_mismatch_is_reported() {
    let mut m = StrengthModel::pawnbook();
    m.oracle = "internal".into();
    m.depth = Some(8);
    m.pairing = "exact".into();
    assert!(m.oracle_mismatch("internal", Some(8), None, "exact", None).is_none());
    let w = m.oracle_mismatch("/usr/games/stockfish", Some(8), None, "exact", None).unwrap();
    assert!(w.contains("stockfish"));
    let w = m.oracle_mismatch("internal", Some(6), None, "exact", None).unwrap();
    assert!(w.contains("depth 6") && w.contains("depth 8"));
    assert!(m.oracle_mismatch("internal", None, Some(1000), "exact", None).is_some());
    assert!(m.oracle_mismatch("internal", Some(8), None, "reuse", None).is_some());
}
