//! `sparring clock fit`: the time model's coefficients from the fit part of the rows (even game
//! indices). Three regressions on the same features: a logistic one for the instant mass
//! (iteratively reweighted least squares), least squares of `ln t` on the moves that were not
//! instant (the mean), and least squares of `ln |residual|` (the log standard deviation, plus
//! `(γ + ln 2)/2`, since `E ln|Z| = −(γ + ln 2)/2` for a standard normal `Z`). Every solve is a
//! small ridge-regularised normal-equation system (Cholesky).

use super::rows::MoveRow;
use crate::human_time::TimeModel;
use crate::human_time::features::{COUNT, NAMES};
use crate::human_time::model::sigmoid;
use crate::tools::optimize::{cholesky_solve, ridge_least_squares};
use std::collections::BTreeMap;

/// Ridge penalty on every coefficient but the intercept.
pub const RIDGE: f64 = 1e-3;
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
    Ok(TimeModel {
        name: crate::human_time::NAME.into(),
        version,
        description:
            "Human time use per move: P(instant) logistic, else ln(seconds) normal above instant_s; coefficients \
                      linear in the features (sparring clock fit)."
                .into(),
        features: NAMES.iter().map(|s| s.to_string()).collect(),
        instant_s,
        instant: round(a),
        mean: round(b),
        ln_sigma: round(c),
        fit,
    })
}
