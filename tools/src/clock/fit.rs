//! `sparring clock fit`: the time model's coefficients from the fit part of the rows (even game
//! indices). Three regressions on the same features: a logistic one for the instant mass
//! (iteratively reweighted least squares), least squares of `ln t` on the moves that were not
//! instant (the mean), and least squares of `ln |residual|` (the log standard deviation, plus
//! `(γ + ln 2)/2`, since `E ln|Z| = −(γ + ln 2)/2` for a standard normal `Z`). Every solve is a
//! small ridge-regularised normal-equation system (Cholesky). From version 2 on, the shape of the
//! residual is the fit's own: [`RESIDUAL_QUANTILES`] quantiles of the standardised residuals of
//! the non-instant moves (see `human_time::model`).

use super::rows::MoveRow;
use crate::common::optimize::{cholesky_solve, ridge_least_squares};
use sparring::human_time::TimeModel;
use sparring::human_time::features::{COUNT, NAMES};
use sparring::human_time::model::sigmoid;
use std::collections::BTreeMap;

/// Ridge penalty on every coefficient but the intercept.
pub const RIDGE: f64 = 1e-3;
/// Quantiles in a version 2 file's residual table.
pub const RESIDUAL_QUANTILES: usize = 200;
/// `(γ + ln 2) / 2`, the offset of `ln σ` from the mean of `ln |residual|`.
pub const LN_ABS_NORMAL_OFFSET: f64 = 0.635_181_422_730_739;

/// Weighted ridge least squares: minimises `Σ wᵢ (yᵢ − β·xᵢ)² + RIDGE·Σw·|β₁..|²`.
pub fn least_squares(xs: &[[f64; COUNT]], ys: &[f64], ws: &[f64]) -> Result<Vec<f64>, String> {
    let total: f64 = ws.iter().sum();
    ridge_least_squares(xs, ys, ws, RIDGE * total.max(1.0))
}

/// Logistic regression by iteratively reweighted least squares (20 Newton steps at most).
pub fn logistic(xs: &[[f64; COUNT]], ys: &[bool]) -> Result<Vec<f64>, String> {
    let n = COUNT;
    let mut beta = vec![0.0; n];
    let rate = ys.iter().filter(|&&y| y).count() as f64 / ys.len().max(1) as f64;
    beta[0] = (rate.clamp(1e-4, 1.0 - 1e-4) / (1.0 - rate.clamp(1e-4, 1.0 - 1e-4))).ln();
    for _ in 0..20 {
        let mut a = vec![0.0; n * n];
        let mut g = vec![0.0; n];
        for (x, &y) in xs.iter().zip(ys) {
            let z: f64 = beta.iter().zip(x).map(|(b, v)| b * v).sum();
            let p = sigmoid(z.clamp(-30.0, 30.0));
            let w = (p * (1.0 - p)).max(1e-9);
            let r = f64::from(u8::from(y)) - p;
            for i in 0..n {
                g[i] += x[i] * r;
                for j in 0..n {
                    a[i * n + j] += w * x[i] * x[j];
                }
            }
        }
        let m = xs.len().max(1) as f64;
        for i in 1..n {
            a[i * n + i] += RIDGE * m;
            g[i] -= RIDGE * m * beta[i];
        }
        let step = cholesky_solve(&a, &g, n).ok_or("the logistic Hessian is singular")?;
        let size: f64 = step.iter().map(|s| s.abs()).fold(0.0, f64::max);
        for (b, s) in beta.iter_mut().zip(&step) {
            *b += s;
        }
        if size < 1e-7 {
            break;
        }
    }
    Ok(beta)
}

/// The fitted model of `rows` (all of which are used: pass the fit part).
pub fn fit(
    rows: &[MoveRow],
    instant_s: f64,
    version: u32,
    info: BTreeMap<String, String>,
) -> Result<TimeModel, String> {
    if rows.len() < 100 {
        return Err(format!("{} rows are too few to fit", rows.len()));
    }
    let xs: Vec<[f64; COUNT]> = rows.iter().map(|r| r.situation().features()).collect();
    let instant: Vec<bool> = rows.iter().map(|r| r.spent_s <= instant_s).collect();
    let a = logistic(&xs, &instant)?;
    let (tx, ty): (Vec<[f64; COUNT]>, Vec<f64>) =
        rows.iter().zip(&xs).filter(|(r, _)| r.spent_s > instant_s).map(|(r, x)| (*x, r.spent_s.ln())).unzip();
    let ones = vec![1.0; tx.len()];
    let b = least_squares(&tx, &ty, &ones)?;
    let resid: Vec<f64> = tx
        .iter()
        .zip(&ty)
        .map(|(x, y)| {
            let mu: f64 = b.iter().zip(x).map(|(c, v)| c * v).sum();
            (y - mu).abs().max(1e-3).ln()
        })
        .collect();
    let mut c = least_squares(&tx, &resid, &ones)?;
    c[0] += LN_ABS_NORMAL_OFFSET;
    let round = |v: Vec<f64>| v.into_iter().map(|x| (x * 1e6).round() / 1e6).collect::<Vec<f64>>();
    let mut fit = info;
    fit.insert("moves".into(), rows.len().to_string());
    fit.insert("instant_moves".into(), instant.iter().filter(|&&i| i).count().to_string());
    let description = if version >= 2 {
        "Human time use per move: P(instant) logistic, else ln(seconds) = location + scale x residual, the \
         residual's shape the fit's own (quantiles); coefficients linear in the features (sparring clock fit)."
    } else {
        "Human time use per move: P(instant) logistic, else ln(seconds) normal above instant_s; coefficients \
         linear in the features (sparring clock fit)."
    };
    let mut model = TimeModel {
        name: sparring::human_time::NAME.into(),
        version,
        description: description.into(),
        features: NAMES.iter().map(|s| s.to_string()).collect(),
        instant_s,
        instant: round(a),
        mean: round(b),
        ln_sigma: round(c),
        residual: Vec::new(),
        fit,
    };
    if version >= 2 {
        let z: Vec<f64> = tx
            .iter()
            .zip(&ty)
            .map(|(x, y)| {
                let p = model.predict(x);
                (y - p.mu) / p.sigma
            })
            .collect();
        model.residual = round(residual_quantiles(z, RESIDUAL_QUANTILES));
    }
    Ok(model)
}

/// `k` quantiles of `values` at `(i + ½)/k` (linear between order statistics).
pub fn residual_quantiles(mut values: Vec<f64>, k: usize) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    (0..k)
        .map(|i| {
            let pos = ((i as f64 + 0.5) / k as f64 * n as f64 - 0.5).clamp(0.0, (n - 1) as f64);
            let lo = pos.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            let w = pos - lo as f64;
            values[lo] * (1.0 - w) + values[hi] * w
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;
    use sparring::human_time::Difficulty;

    /// Rows whose `ln t` is skewed to the left, as people's is (many quick moves, a hard upper
    /// end): `ln t = 2.5 − E`, `E` exponential with mean 1, so 8 % of the moves are instant (`t ≤
    /// 1 s`). A normal with the same spread of `ln t` puts too much time in the upper tail.
    fn skewed_rows(n: usize) -> Vec<MoveRow> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        (0..n)
            .map(|i| {
                let u = sparring::seed::uniform_f64(&mut rng);
                let spent_s = (2.5 + (1.0 - u).ln()).exp();
                MoveRow {
                    game: 2 * (i / 40),
                    ply: (i % 40) as u32 + 2,
                    key: i as u64,
                    rating: 1500 + (i % 7) as u32 * 100,
                    base_s: 600.0,
                    inc_s: 5.0,
                    clock_s: 300.0 + (i % 11) as f64,
                    spent_s,
                    fullmove: (i % 40) as u32 / 2 + 2,
                    phase: 0.5,
                    difficulty: Difficulty { legal: 30, near: 2, ..Difficulty::default() },
                }
            })
            .collect()
    }

    #[test]
    fn the_residual_table_keeps_the_mean_time_where_the_normal_overshoots() {
        let rows = skewed_rows(20_000);
        let mean_people = rows.iter().map(|r| r.spent_s).sum::<f64>() / rows.len() as f64;
        let mean_model = |version: u32| {
            let m = fit(&rows, 1.0, version, BTreeMap::new()).unwrap();
            rows.iter().map(|r| m.predict(&r.situation().features()).mean_s()).sum::<f64>() / rows.len() as f64
        };
        let (v1, v2) = (mean_model(1), mean_model(2));
        assert!((v2 / mean_people - 1.0).abs() < 0.03, "v2 {v2:.3} vs people {mean_people:.3}");
        assert!(v1 / mean_people > 1.05, "v1 {v1:.3} vs people {mean_people:.3}");
        let m = fit(&rows, 1.0, 2, BTreeMap::new()).unwrap();
        assert_eq!(m.residual.len(), RESIDUAL_QUANTILES);
        assert!(m.residual.windows(2).all(|w| w[0] <= w[1]));
        // The file round-trips and parses with its table.
        let text = toml::to_string(&m).unwrap();
        assert_eq!(TimeModel::parse(&text).unwrap(), m);
    }

    #[test]
    fn quantiles_of_a_known_sample() {
        let q = residual_quantiles((0..100).map(f64::from).collect(), 4);
        assert_eq!(q, vec![12.0, 37.0, 62.0, 87.0]);
    }
}
