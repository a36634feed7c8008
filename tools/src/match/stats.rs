//! Match statistics as cutechess-cli and fastchess report them.
//!
//! * Trinomial (per game) Elo: the mean score `mu = (W + D/2) / N`, its per-game variance
//!   `var = (W (1-mu)^2 + D (1/2-mu)^2 + L mu^2) / N`, the standard error `sqrt(var / N)`; the Elo
//!   difference is the logistic `elo(mu) = -400 log10(1/mu - 1)` and the 95 % interval is
//!   `elo(mu ± 1.95996 · se)` (the reported "±" is half its width, as cutechess prints it).
//! * Pentanomial (per game pair) Elo: the same with the five pair outcomes (0, ½, 1, 1½, 2 points,
//!   taken per game as 0, ¼, ½, ¾, 1) and the number of pairs as the sample size.
//! * Normalized Elo (nElo, fastchess): `(mu - 1/2) / sigma · 800 / ln 10`, where sigma is the
//!   per-game standard deviation (for pairs: `sqrt(2 · var_pair)`).
//! * LOS: `1/2 · (1 + erf((W - L) / sqrt(2 (W + L))))`.

use serde::Serialize;

/// The two-sided 95 % quantile of the standard normal distribution, `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: the factor between a normalized score step and normalized Elo.
pub fn nelo_factor() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// Logistic Elo difference of an expected score in (0, 1); ±infinity at the ends.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, computed to about 1e-15 (series for small |x|, continued fraction beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for k in 1..200 {
            let n = f64::from(k);
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))), evaluated bottom-up.
        let mut f = x;
        for k in (1..60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

/// Likelihood of superiority (probability that the first engine is stronger), from wins and losses.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// An Elo estimate with its 95 % interval. Values are `None` when infinite or undefined
/// (for example with a 100 % score).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: Option<f64>,
    /// Half the width of the 95 % interval (the "±" figure).
    pub error95: Option<f64>,
    pub lower95: Option<f64>,
    pub upper95: Option<f64>,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Mean and (population) variance of a discrete score distribution given as (score, count) pairs.
pub fn mean_var(dist: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = dist.iter().map(|d| d.1).sum();
    if n <= 0.0 {
        return None;
    }
    let mu = dist.iter().map(|&(s, c)| s * c).sum::<f64>() / n;
    let var = dist.iter().map(|&(s, c)| c * (s - mu).powi(2)).sum::<f64>() / n;
    Some((n, mu, var))
}

fn logistic_estimate(dist: &[(f64, f64)]) -> EloEstimate {
    let Some((n, mu, var)) = mean_var(dist) else {
        return EloEstimate::default();
    };
    let se = (var / n).sqrt();
    let lo = score_to_elo(mu - Z95 * se);
    let hi = score_to_elo(mu + Z95 * se);
    EloEstimate {
        elo: finite(score_to_elo(mu)),
        error95: finite((hi - lo) / 2.0),
        lower95: finite(lo),
        upper95: finite(hi),
    }
}

fn trinomial_dist(w: u64, d: u64, l: u64) -> [(f64, f64); 3] {
    [(1.0, w as f64), (0.5, d as f64), (0.0, l as f64)]
}

fn pentanomial_dist(p: &[u64; 5]) -> [(f64, f64); 5] {
    [(0.0, p[0] as f64), (0.25, p[1] as f64), (0.5, p[2] as f64), (0.75, p[3] as f64), (1.0, p[4] as f64)]
}

/// Logistic Elo from wins, draws and losses (cutechess-cli's figure).
pub fn trinomial_elo(wins: u64, draws: u64, losses: u64) -> EloEstimate {
    logistic_estimate(&trinomial_dist(wins, draws, losses))
}

/// Logistic Elo from pentanomial pair counts `[LL, LD, DD+WL, WD, WW]` (index = pair points × 2).
pub fn pentanomial_elo(p: &[u64; 5]) -> EloEstimate {
    logistic_estimate(&pentanomial_dist(p))
}

fn normalized_estimate(dist: &[(f64, f64)], pair: bool) -> EloEstimate {
    let Some((n, mu, var)) = mean_var(dist) else {
        return EloEstimate::default();
    };
    let sigma_game = if pair { (2.0 * var).sqrt() } else { var.sqrt() };
    if sigma_game <= 0.0 {
        return EloEstimate::default();
    }
    let k = nelo_factor();
    let nelo = (mu - 0.5) / sigma_game * k;
    let err = Z95 * (var / n).sqrt() / sigma_game * k;
    EloEstimate { elo: finite(nelo), error95: finite(err), lower95: finite(nelo - err), upper95: finite(nelo + err) }
}

/// Normalized Elo (fastchess's nElo) from wins, draws and losses.
pub fn trinomial_nelo(wins: u64, draws: u64, losses: u64) -> EloEstimate {
    normalized_estimate(&trinomial_dist(wins, draws, losses), false)
}

/// Normalized Elo (fastchess's nElo) from pentanomial pair counts.
pub fn pentanomial_nelo(p: &[u64; 5]) -> EloEstimate {
    normalized_estimate(&pentanomial_dist(p), true)
}
