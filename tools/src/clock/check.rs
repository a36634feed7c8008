//! `sparring clock check`: the model against people on a part of the rows (by default the check
//! part, odd game indices), per 200-point band and time-control category.
//!
//! - The fraction of the clock spent per move, people vs the model's draws on the same moves
//!   (and vs the engine's, the draws bounded by the clock as `Human Time` bounds them): mean and
//!   two-sample Kolmogorov–Smirnov distance.
//! - How time follows difficulty: Spearman correlations of the time spent with the look's
//!   near-best moves, best-to-second gap and the last move's swing, for people and for the engine
//!   with `Human Time` (the model's draw in that position with the engine's seed stream, bounded as
//!   the engine bounds it with `Move Overhead` 30 ms), and the correlation of the engine's time with
//!   the person's on the same move.

use super::rows::MoveRow;
use super::time_control::category;
use sparring::human_time::{Clock, TimeModel, planned};
use std::collections::BTreeMap;
use std::time::Duration;

/// The match seed of the engine's draws in the check.
pub const CHECK_SEED: u64 = 1;

/// Two-sample Kolmogorov–Smirnov distance.
pub fn ks(a: &[f64], b: &[f64]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return f64::NAN;
    }
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut d) = (0usize, 0usize, 0.0f64);
    while i < a.len() && j < b.len() {
        let x = a[i].min(b[j]);
        while i < a.len() && a[i] <= x {
            i += 1;
        }
        while j < b.len() && b[j] <= x {
            j += 1;
        }
        d = d.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    d
}

/// Ranks (1-based, ties averaged).
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

/// Spearman's rank correlation.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    if a.len() < 3 {
        return f64::NAN;
    }
    pearson(&ranks(a), &ranks(b))
}

/// The 200-point band of a rating, as its lower end (1000..=2400 cover 1000-2599, others None).
pub fn band(rating: u32) -> Option<u32> {
    (1000..2600).contains(&rating).then(|| rating / 200 * 200)
}

/// What the check measures for one move.
#[derive(Clone, Copy)]
struct Sample {
    human_s: f64,
    model_s: f64,
    engine_s: f64,
    clock_s: f64,
    near: f64,
    gap: f64,
    swing: f64,
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    crate::common::stats::mean(v).unwrap_or(0.0)
}

/// One line of the fraction table and one of the difficulty table for a group of moves.
fn lines(key: &str, s: &[Sample], instant_s: f64) -> (String, String) {
    let hf: Vec<f64> = s.iter().map(|x| x.human_s / x.clock_s.max(0.1)).collect();
    let mf: Vec<f64> = s.iter().map(|x| x.model_s / x.clock_s.max(0.1)).collect();
    let ef: Vec<f64> = s.iter().map(|x| x.engine_s / x.clock_s.max(0.1)).collect();
    let inst = |v: &mut dyn Iterator<Item = f64>| mean(v.map(|t| f64::from(u8::from(t <= instant_s))));
    let frac = format!(
        "{key},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.2},{:.2},{:.2},{:.3},{:.3}",
        s.len(),
        mean(hf.iter().copied()),
        mean(mf.iter().copied()),
        ks(&hf, &mf),
        mean(ef.iter().copied()),
        ks(&hf, &ef),
        mean(s.iter().map(|x| x.human_s)),
        mean(s.iter().map(|x| x.model_s)),
        mean(s.iter().map(|x| x.engine_s)),
        inst(&mut s.iter().map(|x| x.human_s)),
        inst(&mut s.iter().map(|x| x.model_s)),
    );
    let col = |f: fn(&Sample) -> f64| s.iter().map(f).collect::<Vec<f64>>();
    let (h, e) = (col(|x| x.human_s), col(|x| x.engine_s));
    let (near, gap, swing) = (col(|x| x.near), col(|x| x.gap), col(|x| x.swing));
    let diff = format!(
        "{key},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}",
        s.len(),
        spearman(&h, &near),
        spearman(&e, &near),
        spearman(&h, &gap),
        spearman(&e, &gap),
        spearman(&h, &swing),
        spearman(&e, &swing),
        spearman(&h, &e),
    );
    (frac, diff)
}

pub const FRACTION_HEADER: &str = "band,tc,moves,human_mean_fraction,model_mean_fraction,ks_fraction,engine_mean_fraction,ks_engine_fraction,human_mean_s,model_mean_s,engine_mean_s,human_instant,model_instant";
pub const DIFFICULTY_HEADER: &str = "band,tc,moves,rho_human_near,rho_engine_near,rho_human_gap,rho_engine_gap,rho_human_swing,rho_engine_swing,rho_engine_human";

/// The two tables (CSV text with headers) for `rows`.
pub fn tables(model: &TimeModel, rows: &[MoveRow]) -> (String, String) {
    let mut groups: BTreeMap<(String, &'static str), Vec<Sample>> = BTreeMap::new();
    for r in rows {
        let Some(b) = band(r.rating) else { continue };
        let situation = r.situation();
        let drawn = {
            let mut rng = r.rng(CHECK_SEED);
            model.predict(&situation.features()).draw(&mut rng)
        };
        let clock = Clock {
            left: Duration::from_secs_f64(r.clock_s.max(0.0)),
            inc: Duration::from_secs_f64(r.inc_s.max(0.0)),
            overhead: Duration::from_millis(30),
        };
        let sample = Sample {
            human_s: r.spent_s,
            model_s: drawn,
            engine_s: clock.bound(drawn).as_secs_f64(),
            clock_s: r.clock_s,
            near: f64::from(r.difficulty.near),
            gap: f64::from(r.difficulty.gap_cp),
            swing: f64::from(r.difficulty.swing_cp),
        };
        let tc = category(r.base_s, r.inc_s);
        for key in [(format!("{b}-{}", b + 199), tc), ("all".to_string(), tc)] {
            groups.entry(key).or_default().push(sample);
        }
    }
    let mut frac = vec![FRACTION_HEADER.to_string()];
    let mut diff = vec![DIFFICULTY_HEADER.to_string()];
    for ((band, tc), s) in &groups {
        let (f, d) = lines(&format!("{band},{tc}"), s, model.instant_s);
        frac.push(f);
        diff.push(d);
    }
    (frac.join("\n") + "\n", diff.join("\n") + "\n")
}

/// `planned` is the engine's own draw; the check reproduces it from the rows (same stream), which
/// this asserts for one row so the two cannot drift apart.
pub fn same_draw_as_engine(model: &TimeModel, row: &MoveRow, pos: &shakmaty::Chess) -> bool {
    let mut rng = row.rng(CHECK_SEED);
    let here = model.predict(&row.situation().features()).draw(&mut rng);
    here == planned(model, &row.situation(), CHECK_SEED, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;
    use sparring::human_time::Difficulty;

    #[test]
    fn ks_and_spearman() {
        assert_eq!(ks(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 0.0);
        assert_eq!(ks(&[1.0, 2.0], &[3.0, 4.0]), 1.0);
        assert!((ks(&[1.0, 2.0, 3.0, 4.0], &[3.0, 4.0, 5.0, 6.0]) - 0.5).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[10.0, 20.0, 30.0, 45.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(band(999), None);
        assert_eq!(band(1234), Some(1200));
    }

    #[test]
    fn the_check_draws_what_the_engine_draws() {
        let pos = Chess::default();
        let row = MoveRow {
            game: 1,
            ply: 0,
            key: sparring::board::zobrist(&pos),
            rating: 1500,
            base_s: 180.0,
            inc_s: 2.0,
            clock_s: 180.0,
            spent_s: 3.0,
            fullmove: 1,
            phase: 1.0,
            difficulty: Difficulty { legal: 20, near: 5, gap_cp: 10, best_cp: 30, ..Default::default() },
        };
        let model = sparring::human_time::builtin().unwrap();
        assert!(same_draw_as_engine(&model, &row, &pos));
    }
}
