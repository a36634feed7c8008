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

pub use crate::common::stats::{Z95, elo_to_score, erf, nelo_factor, score_to_elo};

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

/// A score (0-1) with half the width of its 95 % interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ScoreInterval {
    pub score: f64,
    pub error95: f64,
}

/// The score of a paired match from its pentanomial pair counts `[LL, LD, DD+WL, WD, WW]`, with
/// the 95 % interval from the spread of the pairs (the variance the Elo intervals use); `None`
/// with fewer than two pairs (no spread to read).
pub fn pentanomial_score(p: &[u64; 5]) -> Option<ScoreInterval> {
    let (n, mu, var) = mean_var(&pentanomial_dist(p))?;
    (n >= 2.0).then(|| ScoreInterval { score: mu, error95: Z95 * (var / n).sqrt() })
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
